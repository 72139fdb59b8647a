#!/usr/bin/env bash
# The netlist generator is deterministic: a fresh run (Yosys included, no
# kept netlist) writes the same bytes as the program file make built, and
# its header names the set, the format version and the RTL's sha256
# (docs/offload.md, "Netlist transport"). Run from the repository root after
# make has built build/offload/4_1_8_2_6_2_2_1.snl.
set -eu
set_name=4_1_8_2_6_2_2_1
built=build/offload/$set_name.snl
tool=build/cosim/offload/offload_ports
rtl=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -f - print-rtl <<'MK'
include rtl/module.mk
print-rtl: ; @echo $(RTL_SOURCES)
MK
)
[ -f "$built" ] || { echo "FAIL: $built is missing (make check builds it)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
python3 scripts/offload/netlist_gen.py gen --set $set_name --ports-tool $tool \
  --out "$tmp/a.snl" $rtl
if ! cmp "$built" "$tmp/a.snl"; then
  echo "FAIL: two generator runs differ"; exit 1
fi
# header: magic, version 1, the eight parameters, then the RTL hash
magic=$(head -c 4 "$tmp/a.snl")
[ "$magic" = SNL1 ] || { echo "FAIL: magic '$magic'"; exit 1; }
words=$(od -An -tu4 -j4 -N36 "$tmp/a.snl" | xargs)
[ "$words" = "1 4 1 8 2 6 2 2 1" ] || { echo "FAIL: version and set '$words'"; exit 1; }
# shellcheck disable=SC2086
want=$(python3 scripts/offload/netlist_gen.py hash $rtl)
got=$(dd if="$tmp/a.snl" bs=1 skip=40 count=64 status=none)
[ "$got" = "$want" ] || { echo "FAIL: header hash $got, RTL $want"; exit 1; }
echo "snl-determinism: $built reproduced byte for byte ($(stat -c %s "$built") bytes), header ok"
