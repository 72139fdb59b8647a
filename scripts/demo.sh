#!/usr/bin/env bash
# `make demo`: what smcosim is for, on one screen. A memory-bound CUDA
# program runs on the timing model of the default preset (kepler-k20x) with
# the Verilated RTL of the scheduler core, once under LRR and once under GTO
# (that run also writes a waveform); the key statistics are printed side by
# side, then the waveform's path and the command to open it, and the
# scheduler core's area and storage when `make area` has computed them.
#
# The programs are make demo's (build/demo/bin, csrc/timing/module.mk): the
# RTL comes from build/demo/lib/libsmc_vsched.so, which holds the default
# preset's models only. With nvcc the program is the benchmark's CUDA source
# built by nvcc (build/bench/NAME) on the drop-in runtime; without, the
# benchmark's C driver on the committed PTX (`smcosim run --bench NAME`).
# The full per-kernel statistics of both runs are in build/demo/{lrr,gto}.json
# (docs/statistics.md).
#
# Environment: DEMO_BENCH (default spmv), DEMO_ARGS (default -n 4096),
# DEMO_MODE cuda|driver (default: cuda when build/bench/NAME and the
# runtime are there), DEMO_DIR (the programs, default build/demo), DEMO_OUT
# (the results, default DEMO_DIR), DEMO_AREA_CSV (default
# build/area/kepler-k20x.csv). tests/cli/demo-check.sh runs it small.
set -euo pipefail
cd "$(dirname "$0")/.."
# spmv: CSR sparse matrix-vector product, irregular gathers (memory-bound);
# n = 4096 rows keeps each RTL run to seconds
bench=${DEMO_BENCH:-spmv}
args=${DEMO_ARGS:--n 4096}
dir=${DEMO_DIR:-build/demo}
out=${DEMO_OUT:-$dir}
smcosim=$dir/bin/smcosim
program=build/bench/$bench
mode=${DEMO_MODE:-}
if [ -z "$mode" ]; then
  if [ -x "$program" ] && [ -e "$dir/lib/libcudart.so.13" ]; then mode=cuda; else mode=driver; fi
fi
case $mode in
  cuda)   need=("$smcosim" "$program" "$dir/lib/libcudart.so.13") ;;
  driver) need=("$smcosim" "$dir/bin/smcosim-bench") ;;
  *)      echo "demo: DEMO_MODE=$mode: expected cuda or driver" >&2; exit 2 ;;
esac
for f in "${need[@]}" "$dir/lib/libsmc_vsched.so"; do
  if [ ! -e "$f" ]; then echo "demo: $f missing (run make demo)" >&2; exit 1; fi
done
read -r -a argv <<< "$args"
if [ "$mode" = cuda ]; then
  what="the CUDA program $program (nvcc) on the drop-in libcudart.so.13"
  run_args=(-- "$program" "${argv[@]}")
else
  what="the benchmark's C driver on its committed PTX (no nvcc)"
  run_args=(--bench "$bench" "${argv[@]}")
fi

mkdir -p "$out"
echo "== $bench $args: $what"
echo "== preset kepler-k20x, scheduler core: Verilated RTL (--sched rtl)"
fst=$out/gto.fst
rm -f "$fst" "$fst.gtkw"
for pol in lrr gto; do
  extra=()
  [ "$pol" = gto ] && extra=(--fst "$fst")
  cmd=("$smcosim" run --sched rtl --policy "$pol" --json "$out/$pol.json" "${extra[@]}" "${run_args[@]}")
  echo "\$ ${cmd[*]}"
  "${cmd[@]}" > "$out/$pol.log" 2>&1 || { cat "$out/$pol.log" >&2; exit 1; }
  grep -E ': (PASS|FAIL|ERROR)' "$out/$pol.log" | sed 's/^/  /'
done

# sum a numeric JSON member over all launches of a file
# (keys that the memory model's members also use are matched with their
# neighbour in the launch record: "cycles" is followed by "warp_insts")
sum() {
  if [ "$2" = cycles ]; then grep -o '"cycles": [0-9]*, "warp_insts"' "$1"
  else grep -o "\"$2\": [0-9.]*" "$1"; fi | awk '{s += $2} END {printf "%d", s}'
}
echo
printf '%-28s %14s %14s\n' "all kernels" LRR GTO
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

echo
if [ ! -s "$fst" ] || [ ! -s "$fst.gtkw" ]; then
  echo "demo: the GTO run wrote no waveform $fst" >&2; exit 1
fi
echo "Waveform (GTO run, SM 0, the first 20000 cycles of each kernel; every RTL signal"
echo "of the scheduler core beside the C side): $fst"
echo "  open it:  gtkwave $fst.gtkw"

# The scheduler core's area and storage, when `make area` has run (it takes
# minutes, so the demo does not start it).
csv=${DEMO_AREA_CSV:-build/area/kepler-k20x.csv}
if [ -s "$csv" ]; then
  line=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 ~ /\(whole core\)/ { printf "%s storage bits, %s gates (NAND2/NOR2/INV), %s um2 at 45 nm",
      $col["storage_bits"], $col["gates"], $col["area45_um2"] }' "$csv")
  stale=""
  for f in rtl/*.sv; do [ "$f" -nt "$csv" ] && stale=" (the RTL changed since: make area)" && break; done
  echo "Scheduler core area, kepler-k20x ($csv): ${line:-no whole-core row}$stale"
else
  echo "Scheduler core area and storage: not synthesized yet; make area AREA_SETS=kepler-k20x"
  echo "  (Yosys, a few minutes, cached in build/area/cache; docs/area.md)"
fi
