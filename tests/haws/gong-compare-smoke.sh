#!/usr/bin/env bash
# The three-column comparison of issue 37 (make results-gong-compare), small
# and quick: results-haws and results-locality on both machines
# (--machine v1 and faithful), then scripts/results-gong-compare.py. Checks
# that the tables have their rows, that the comparison refuses its inputs
# in the wrong order, and the point of the faithful machine: binarysearch's
# loads that wait for an MSHR show as long-latency dependence on kepler-k20x
# (Multi2Sim's memory unit) and as a busy unit on kepler-k20x-v1.
#   tests/haws/gong-compare-smoke.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
B=${1:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
for m in v1 faithful; do
  scripts/results-haws.py --build "$B" --size small --quick --no-plots --machine $m \
    --out "$tmp/haws-$m" binarysearch matmul >"$tmp/log" 2>&1 ||
    { echo "FAIL: results-haws --machine $m"; tail -20 "$tmp/log"; exit 1; }
  scripts/results-locality.py --build "$B" --size small --no-plots --machine $m \
    --out "$tmp/loc-$m" gemm mvt >"$tmp/log" 2>&1 ||
    { echo "FAIL: results-locality --machine $m"; tail -20 "$tmp/log"; exit 1; }
done
args=("$tmp/haws-v1/results.json" "$tmp/haws-faithful/results.json"
      "$tmp/loc-v1/results.json" "$tmp/loc-faithful/results.json")
scripts/results-gong-compare.py "${args[@]}" "$tmp/compare.md" >"$tmp/log" 2>&1 ||
  { echo "FAIL: results-gong-compare.py"; cat "$tmp/log"; exit 1; }
for row in "| kepler-lrr |" "| BS | M |" "| MM | M |" "| GEMM | 1 |" "| MVT | 3 |"; do
  grep -qF "$row" "$tmp/compare.md" || { echo "FAIL: no row '$row' in compare.md"; fails=1; }
done
if scripts/results-gong-compare.py "${args[1]}" "${args[0]}" "${args[2]}" "${args[3]}" \
     >"$tmp/log" 2>&1; then
  echo "FAIL: the comparison took the faithful run as the -v1 one"; fails=1
elif ! grep -q "HAWS_V1 is a --machine faithful run" "$tmp/log"; then
  echo "FAIL: swapped inputs: no error naming them"; cat "$tmp/log"; fails=1
fi
# binarysearch without HAWS, LRR: LL and busy shares of its issue slots
python3 - "$tmp/compare.md" <<'PY' || fails=1
import sys
for line in open(sys.argv[1]):
    if line.startswith("| BS | M |"):
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        ll_v1, ll_new, busy_v1, busy_new = (float(x.rstrip(" %")) for x in c[2:6])
        print("binarysearch: long-latency %.1f %% -> %.1f %%, unit busy %.1f %% -> %.1f %%"
              % (ll_v1, ll_new, busy_v1, busy_new))
        if not (busy_v1 > ll_v1 and ll_new > busy_new and ll_new > ll_v1):
            sys.exit("FAIL: binarysearch's stall did not move from the unit to the dependence")
        break
else:
    sys.exit("FAIL: no binarysearch row")
PY
[ $fails -eq 0 ] && echo "results-gong-compare (small, quick): tables ok"
[ $fails -eq 0 ]
