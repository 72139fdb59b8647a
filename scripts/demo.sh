#!/usr/bin/env bash
# `make demo`: the main job on the default preset (kepler-k20x). A
# memory-bound benchmark runs on the timing model with the Verilated RTL of the
# scheduler core, once under LRR and once under GTO; the key statistics are
# printed side by side. The full per-kernel statistics of both runs are in
# build/demo/{lrr,gto}.json (docs/statistics.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# spmv: CSR sparse matrix-vector product, irregular gathers (memory-bound);
# n = 4096 rows keeps the RTL run to seconds
bench=${DEMO_BENCH:-spmv}
args=${DEMO_ARGS:--n 4096}
smcosim=build/bin/smcosim
out=build/demo
if [ ! -x "$smcosim" ] || [ ! -x build/bin/smcosim-bench ]; then
  echo "demo: build/bin/smcosim or smcosim-bench missing (run make)" >&2
  exit 1
fi
mkdir -p "$out"
for pol in lrr gto; do
  echo "== $bench, kepler-k20x, scheduler back end rtl, policy $pol"
  "$smcosim" run --sched rtl --policy "$pol" --json "$out/$pol.json" \
      --bench "$bench" $args > "$out/$pol.log" 2>&1 || { cat "$out/$pol.log" >&2; exit 1; }
  grep -E ': (PASS|FAIL|ERROR)' "$out/$pol.log"
done

# sum a numeric JSON member over all launches of a file
# (keys that the memory model's members also use are matched with their
# neighbour in the launch record: "cycles" is followed by "warp_insts")
sum() {
  if [ "$2" = cycles ]; then grep -o '"cycles": [0-9]*, "warp_insts"' "$1"
  else grep -o "\"$2\": [0-9.]*" "$1"; fi | awk '{s += $2} END {printf "%d", s}'
}
echo
echo "$bench $args on kepler-k20x (RTL scheduler), all kernels:"
printf '%-28s %14s %14s\n' statistic LRR GTO
for key in cycles warp_insts issued no_instruction scoreboard long_latency_dependence \
           unit_busy barrier; do
  printf '%-28s %14s %14s\n' "$key" "$(sum "$out/lrr.json" $key)" "$(sum "$out/gto.json" $key)"
done
# average load latency over the kernels (the memory model's avg_latency)
avg() { grep -o '"avg_latency": [0-9.]*' "$1" | awk '{s += $2; n++} END {printf "%.1f", n ? s / n : 0}'; }
printf '%-28s %14s %14s\n' "load latency (avg)" "$(avg "$out/lrr.json")" "$(avg "$out/gto.json")"
l=$(sum "$out/lrr.json" cycles); g=$(sum "$out/gto.json" cycles)
w=$(sum "$out/lrr.json" warp_insts)
awk -v l="$l" -v g="$g" -v w="$w" 'BEGIN {
  printf "%-28s %14.3f %14.3f\n", "IPC (whole GPU)", w / l, w / g
  printf "GTO speedup over LRR: %.3f\n", l / g }'
