#!/usr/bin/env bash
# `make bench` offload table (docs/offload.md, "Bench"): the group-level
# rows of offload_bench (C model, Verilator, offload closed loop, device
# replay and replay check for N = 1, 15, 64, 80, 512 SMs and k = 1, 64,
# 4096), then end-to-end rows: gemm and spmv (default sizes) through
# `smcosim run` with --sched c, rtl, offload:T and --check-rtl offload:T:K.
# Host time is the simulation time the model reports.
#   tests/offload/bench-offload.sh BUILD_DIR [TRANSPORT [SM_CYCLES [REPS [SIZE]]]]
#   (default cmodel 131072 5 default)
set -eu
b=$1; t=${2:-cmodel}; cycles=${3:-131072}; reps=${4:-5}; size=${5:-default}
"$b/cosim/offload/offload_bench" "$t" "$cycles" "$reps"
echo
smcosim=$b/bin/smcosim
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "end to end, size $size:"
printf '%-8s %-40s %10s %14s\n' benchmark mode host-s SM-cycles/s
for name in gemm spmv; do
  for mode in "--sched c" "--sched rtl" "--sched offload:$t" "--sched c --check-rtl offload:$t:1" \
              "--sched c --check-rtl offload:$t:64" "--sched c --check-rtl offload:$t:4096"; do
    # shellcheck disable=SC2086
    "$smcosim" run $mode --json "$tmp/s.json" --bench "$name" --size "$size" > /dev/null 2> "$tmp/log" \
      || { echo "bench-offload: $name ($mode) failed:" >&2; tail -5 "$tmp/log" >&2; exit 1; }
    host=$(grep -o 'simulation *[0-9.]* s host' "$tmp/log" | awk '{s += $2} END {print s}')
    smc=$(grep -o '"sm_active_cycles": [0-9]*' "$tmp/s.json" | awk '{s += $2} END {printf "%d", s}')
    awk -v n="$name" -v m="$mode" -v h="$host" -v s="$smc" \
      'BEGIN { printf "%-8s %-40s %10.2f %14.0f\n", n, m, h, s / h }'
  done
done
