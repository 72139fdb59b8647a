#!/usr/bin/env bash
# The benchmark suite (bench/, smcosim-bench) in timing mode: every benchmark
# must pass its CPU check under every policy. Usage:
#   tests/timing/suite-timing.sh BENCH_BIN [BACKEND...]      (default: c)
# SWL (a static warp limit) would deadlock kernels with block-wide barriers when
# the limit is below the warps of a block (the limited warps wait at the
# barrier for warps that may not issue; docs/timing-model.md; such launches are refused, tests/timing/swl-barrier.sh), so swl:N runs
# on the barrier-free benchmarks only. The lockstep back end (C model and RTL
# compared every cycle; a mismatch fails the launch) runs on a few
# benchmarks: memory-bound, divergent, barrier-heavy and atomics.
set -u
bin=$1; shift
backends=("$@"); [ ${#backends[@]} -eq 0 ] && backends=(c)
nobarrier="vectoradd gemm 2mm jacobi2d conv2d mvt atax bicg bfs spmv kmeans"
lockstep="bicg bfs scan histogram"
fail=0
for be in "${backends[@]}"; do
  for pol in lrr gto two-level swl:2; do
    names=""; [ "$pol" = swl:2 ] && names=$nobarrier
    if [ "$be" = lockstep ]; then
      [ "$pol" = swl:2 ] && names="bicg bfs" || names=$lockstep
    fi
    # shellcheck disable=SC2086
    out=$(SMCOSIM_MODE=timing SMCOSIM_SCHED=$be SMCOSIM_POLICY=$pol "$bin" --size small $names 2>&1)
    last=$(printf '%s\n' "$out" | tail -1)
    echo "timing/$be/$pol: $last"
    if ! printf '%s\n' "$last" | grep -q ' 0 failed'; then
      printf '%s\n' "$out" | grep -v ': PASS' | head -20
      fail=1
    fi
  done
done
exit $fail
