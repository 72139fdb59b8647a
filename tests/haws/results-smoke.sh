#!/usr/bin/env bash
# The HAWS results command, small and quick: scripts/results-haws.py --size
# small --quick completes (every benchmark PASSes with HAWS off and on, and
# the script's own identity check, issue slots = warp-instructions + copies +
# hinted branches, holds), the tables have a row per benchmark, and HAWS did
# something on the memory-bound ones (docs/haws.md).
#   tests/haws/results-smoke.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
B=${1:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if ! scripts/results-haws.py --build "$B" --size small --quick --out "$tmp" >"$tmp/log" 2>&1; then
  echo "FAIL: scripts/results-haws.py --size small --quick"; tail -20 "$tmp/log"; exit 1
fi
fails=0
for abbr in BS BI DCT DH FFT FW MM MT PS RD SC SP IM; do
  n=$(grep -c "^| $abbr |" "$tmp/results.md")
  if [ "$n" -ne 2 ]; then echo "FAIL: $abbr has $n rows in results.md, expected 2"; fails=$((fails + 1)); fi
done
# spec D.1 #3: the pass finds chains in matmul_naive, so HAWS must enter there
python3 - "$tmp/results.json" <<'PY' || fails=$((fails + 1))
import json, sys
r = {b["bench"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
h = r["matmul"]["cfg"]["kepler-lrr"]["warp"]["haws"]
if not h.get("entries") or not h.get("hinted_issues"):
    sys.exit("FAIL: matmul with HAWS: no hint-mode entry or no hinted issue: %s" % h)
none = [b for b, x in r.items() if not x["cfg"]["kepler-lrr"]["warp"]["haws"].get("entries")]
print("benchmarks without a hint-mode entry: %s" % (", ".join(sorted(none)) or "none"))
PY
[ $fails -eq 0 ] && echo "HAWS results (small, quick): 13 benchmarks x 2 runs, tables ok"
[ $fails -eq 0 ]
