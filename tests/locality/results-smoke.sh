#!/usr/bin/env bash
# The locality results command, small: scripts/results-locality.py --size
# small completes, every Table 6.2 benchmark PASSes under every hint, OWL and
# auto, and the Markdown tables have one row per benchmark (docs/locality.md).
#   tests/locality/results-smoke.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
B=${1:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if ! scripts/results-locality.py --build "$B" --size small --out "$tmp" >"$tmp/log" 2>&1; then
  echo "FAIL: scripts/results-locality.py --size small"; tail -20 "$tmp/log"; exit 1
fi
fails=0
for abbr in GEMM 2MM MT JS CONV HS SC FW BS MVT; do
  n=$(grep -c "^| $abbr |" "$tmp/results.md")
  if [ "$n" -ne 3 ]; then echo "FAIL: $abbr has $n rows in results.md, expected 3 (speedup, detection, MSHR)"; fails=$((fails + 1)); fi
done
[ "$(grep -vc '^#' "$tmp/results.dat")" -eq 10 ] || { echo "FAIL: results.dat has not 10 rows"; fails=$((fails + 1)); }
grep -q "^Detection agrees with Table 6.2 on [0-9]* of 10 benchmarks" "$tmp/results.md" ||
  { echo "FAIL: no detection agreement line in results.md"; fails=$((fails + 1)); }
if command -v gnuplot >/dev/null; then
  for f in speedup duplicates requests-per-entry; do
    [ -s "$tmp/$f.svg" ] || { echo "FAIL: no $f.svg"; fails=$((fails + 1)); }
  done
fi
[ $fails -eq 0 ] && echo "locality results (small): 10 benchmarks x 7 runs (baseline, hints 1-3, placement only, OWL, auto), tables and plots ok"
[ $fails -eq 0 ]
