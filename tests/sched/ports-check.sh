#!/usr/bin/env bash
# The scheduler core's port list and stall-reason codes are written once, in
# cosim/sched_ports.def and cosim/sched_reasons.def. This checks that
#   - the ports of sched_core in the RTL (Verilator's --xml-only elaboration:
#     name, direction, width, order) equal the table expanded by
#     sched_ports_gen, for the default parameters and every Verilated
#     parameter set (VSCHED_CONFIGS);
#   - the generated regions (docs/sched-interface.md's tables, the reason
#     codes at the top of rtl/sched_core.sv, the board kernel's token widths
#     and port wiring in fpga/board/) are current (make sched-ports-gen);
#   - the timing model's statistics keys (csrc/timing/stats.c) are the
#     table's, in code order.
#   tests/sched/ports-check.sh BUILD_DIR [W_S_R_D_E_P_C_N[_oM][_t] ...]
# (_oM: a variant leaving out the mechanisms of mask M, cosim/module.mk; its
# ports are the same)
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
b=$(cd "$1" && pwd); shift
cd "$here" || exit 1
gen=$b/cosim/sched_ports_gen
[ -x "$gen" ] || { echo "FAIL: $gen is not built"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# sched_core's ports from Verilator's XML: "name input|output width", in order.
rtl_ports() {
  verilator --xml-only -Mdir "$tmp/obj" --xml-output "$tmp/core.xml" "$@" \
      rtl/*.sv --top-module sched_core > "$tmp/verilator.log" 2>&1 || {
    echo "FAIL: verilator --xml-only $*:"; cat "$tmp/verilator.log"; return 1; }
  python3 - "$tmp/core.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
types = {d.get('id'): d for d in root.iter() if d.get('id') is not None}
top = next(m for m in root.iter('module') if m.get('topModule') == '1')
for _, v in sorted((int(v.get('pinIndex')), v) for v in top.findall('var') if v.get('dir')):
    d = types[v.get('dtype_id')]
    if d.tag != 'basicdtype':
        sys.exit('port %s: type <%s> not understood by ports-check.sh (use a flat logic vector)'
                 % (v.get('name'), d.tag))
    width = abs(int(d.get('left', 0)) - int(d.get('right', 0))) + 1
    print(v.get('name'), v.get('dir'), width)
PY
}

check_set() {   # label, then W S R D E P C N [oM]
  local label=$1; shift
  local gflags=() desc m=0
  desc="$(echo "$@" | tr ' ' /)"
  [ $# -ge 9 ] && m=${9#o}
  [ "$label" = default ] && desc="the RTL's defaults (table at $desc)"
  [ "$label" = default ] || gflags=(-GNumWarps="$1" -GNumSchedulers="$2" -GRegIdWidth="$3"
                                    -GIbufDepth="$4" -GSbEntries="$5" -GWbPorts="$6"
                                    -GRcuDepth="$7" -GRenEntries="$8" -GEnOaws=$(( !(m & 1) ))
                                    -GEnPeers=$(( !(m & 2) )) -GEnGrouped=$(( !(m & 4) )))
  if ! rtl_ports "${gflags[@]}" > "$tmp/rtl.txt"; then fail=1; return; fi
  "$gen" ports "${@:1:8}" > "$tmp/table.txt" || { echo "FAIL: sched_ports_gen ports $*"; fail=1; return; }
  if diff "$tmp/rtl.txt" "$tmp/table.txt" > "$tmp/diff.txt"; then
    echo "ok   ports of sched_core = cosim/sched_ports.def for $desc ($(wc -l < "$tmp/rtl.txt") ports)"
  else
    echo "FAIL ports of sched_core for $desc: rtl/sched_core.sv (<) and cosim/sched_ports.def (>) disagree"
    echo "     (name direction width, in declaration order; docs/sched-interface.md, \"Adding a port\")"
    sed 's/^/     /' "$tmp/diff.txt"
    fail=1
  fi
}

check_set default 64 4 8 2 6 4 8 8
seen=" "
for c in "$@"; do
  c=${c%_t}
  case $seen in *" $c "*) continue ;; esac
  seen="$seen$c "
  # shellcheck disable=SC2046
  check_set "$c" $(echo "$c" | tr _ ' ')
done

for f in docs/sched-interface.md rtl/sched_core.sv fpga/board/sched_kernel.sv fpga/board/sched_kernel_lane.sv; do
  if "$gen" splice "$f" > "$tmp/spliced" && diff "$f" "$tmp/spliced" > "$tmp/diff.txt"; then
    echo "ok   generated regions of $f are current"
  else
    echo "FAIL generated regions of $f are stale: run make sched-ports-gen"
    sed 's/^/     /' "$tmp/diff.txt"
    fail=1
  fi
done

# timing_slot_names[] in csrc/timing/stats.c (the initializer's strings)
sed -n '/timing_slot_names\[TS_COUNT\] = {/,/};/p' csrc/timing/stats.c | grep -o '"[^"]*"' | tr -d '"' \
    > "$tmp/stats.txt"
"$gen" stats > "$tmp/table_stats.txt"
if diff "$tmp/stats.txt" "$tmp/table_stats.txt" > "$tmp/diff.txt"; then
  echo "ok   timing_slot_names (csrc/timing/stats.c) = statistics keys of cosim/sched_reasons.def"
else
  echo "FAIL timing_slot_names in csrc/timing/stats.c (<) and cosim/sched_reasons.def (>) disagree"
  sed 's/^/     /' "$tmp/diff.txt"
  fail=1
fi
exit $fail
