#!/usr/bin/env bash
# Every Table 6.2 benchmark PASSes under every locality hint (1, 2, 3: CTA
# placement and the grouped warp policy) and under OWL, on the C model, the
# Verilated RTL and both in lockstep (zero mismatches: a mismatch stops the
# launch), at the small size; and the C model and the RTL give the same
# statistics (docs/locality.md).
#   tests/locality/hints-pass.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
B=${1:-build}
bench=$B/bin/smcosim-bench
for v in $(compgen -e | grep '^SMCOSIM_'); do unset "$v"; done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
names="gemm 2mm transpose jacobi2d conv2d histogram scan fwt bitonic mvt"
fails=0; runs=0
for run in "1 lrr" "2 lrr" "3 lrr" "0 owl"; do
  set -- $run; hint=$1; policy=$2
  for sched in c rtl lockstep; do
    runs=$((runs + 1))
    if ! SMCOSIM_MODE=timing SMCOSIM_CONFIG=kepler-k20x SMCOSIM_POLICY=$policy SMCOSIM_SCHED=$sched \
         SMCOSIM_SET="gpu.locality_hint=$hint" SMCOSIM_JSON="$tmp/$hint-$policy-$sched.json" \
         "$bench" --size small $names >"$tmp/out" 2>&1; then
      echo "FAIL: hint $hint, policy $policy, --sched $sched:"; grep -v ': PASS' "$tmp/out" | tail -5
      fails=$((fails + 1)); continue
    fi
    n=$(grep -c ': PASS' "$tmp/out")
    [ "$n" -eq 10 ] || { echo "FAIL: hint $hint, policy $policy, --sched $sched: $n of 10 PASS"; fails=$((fails + 1)); }
  done
  # C model = RTL: the records differ only in the back end's name
  if ! diff <(sed 's/"sched": "[a-z]*"//' "$tmp/$hint-$policy-c.json") \
            <(sed 's/"sched": "[a-z]*"//' "$tmp/$hint-$policy-rtl.json") >/dev/null; then
    echo "FAIL: hint $hint, policy $policy: the C model's statistics differ from the RTL's"; fails=$((fails + 1))
  fi
  # the grouped policy really ran
  grep -q '"warp_groups"' "$tmp/$hint-$policy-c.json" ||
    { echo "FAIL: hint $hint, policy $policy: no warp_groups in the statistics"; fails=$((fails + 1)); }
done
[ $fails -eq 0 ] && echo "locality: 10 benchmarks PASS under hints 1-3 and OWL on c, rtl and lockstep ($runs runs), C = RTL"
[ $fails -eq 0 ]
