#!/usr/bin/env bash
# make check-long: the two presets' netlist programs (build/offload/
# 64_4_8_2_6_4_8_8.snl, 48_2_6_3_4_2_8_8.snl; check-long builds them, a few
# minutes of Yosys each) through `smcosim run --sched offload` (the default
# transport, netlist on PoCL) and `--check-rtl offload:netlist:64`: the
# statistics JSON equals `--sched c`'s, the "sched" field aside.
#   tests/offload/offload-presets.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
b=${1:-build}
smc=$b/bin/smcosim
[ -x "$smc" ] || { echo "FAIL: $smc is not built"; exit 1; }
for v in $(compgen -e | grep '^SMCOSIM_'); do unset "$v"; done
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/offload/pocl-cache}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. tests/offload/run-lib.sh
for preset in kepler-k20x:64_4_8_2_6_4_8_8 fermi-gtx480:48_2_6_3_4_2_8_8; do
  cfg=${preset%%:*}; set=${preset#*:}
  if [ ! -f "build/offload/$set.snl" ]; then
    echo "FAIL $cfg: build/offload/$set.snl is not built (make check-long builds it)"; fail=1; continue
  fi
  for c in gemm:gto bfs:oaws-dyn spmv:ccws; do
    bench=${c%%:*}; pol=${c#*:}; l="$cfg-$bench-$pol"
    run "c-$l" --config "$cfg" --sched c --policy "$pol" --bench "$bench" --size small
    run "o-$l" --config "$cfg" --sched offload --policy "$pol" --bench "$bench" --size small
    check "$cfg $bench $pol: --sched offload (netlist) JSON = --sched c JSON" \
      "[ \$(cat $tmp/c-$l.rc) -eq 0 ] && [ \$(cat $tmp/o-$l.rc) -eq 0 ] && same_json c-$l o-$l"
  done
  run "k-$cfg" --config "$cfg" --sched c --check-rtl offload:netlist:64 --policy gto --bench gemm --size small
  check "$cfg: --check-rtl offload:netlist:64 passes, JSON = plain run" \
    "[ \$(cat $tmp/k-$cfg.rc) -eq 0 ] && same_json c-$cfg-gemm-gto k-$cfg"
done
[ $fail -eq 0 ] && echo "offload-presets: $n checks passed"
exit $fail
