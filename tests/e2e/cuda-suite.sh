#!/usr/bin/env bash
# The whole benchmark suite as unmodified CUDA programs on the drop-in
# libcudart.so.13, default sizes. SKIP (said out loud) without nvcc or
# without the runtime's sources in the tree.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH
if ! command -v nvcc >/dev/null 2>&1; then
  echo "SKIP: nvcc not found; the CUDA programs were not built or run (tests/e2e/bench-suite.sh covers the kernels)"
  exit 0
fi
if [ ! -f csrc/runtime/module.mk ]; then
  echo "SKIP: the drop-in runtime (csrc/runtime/) is not in this tree"
  exit 0
fi
start=$(date +%s)
out=$(bench/run-suite.sh --cuda "$@")
rc=$?
echo "$out"
expected=$(build/bin/smcosim-bench --names | wc -l)
if [ $rc -ne 0 ] || ! grep -qx "benchmarks: $expected passed, 0 failed" <<<"$out"; then
  echo "cuda-suite: FAIL: expected all $expected default benchmarks to pass"
  exit 1
fi
# The programs' own size options (built by run-suite.sh above).
export LD_LIBRARY_PATH="$PWD/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fails=0
out=$(build/bench/scan -n 100001 --seed 3 2>&1)
[ "$out" = "scan: PASS" ] || { echo "cuda-suite: FAIL: scan -n 100001 --seed 3: $out"; fails=1; }
out=$(build/bench/jacobi2d --size small -i 3 2>&1)
[ "$out" = "jacobi2d: PASS" ] || { echo "cuda-suite: FAIL: jacobi2d -i 3: $out"; fails=1; }
out=$(build/bench/reduction -n 100001 --seed 3 2>&1)
[ "$out" = "reduction: PASS" ] || { echo "cuda-suite: FAIL: reduction -n 100001 --seed 3: $out"; fails=1; }
out=$(build/bench/fft -n 64 -i 5 2>&1)
[ "$out" = "fft: PASS" ] || { echo "cuda-suite: FAIL: fft -n 64 -i 5: $out"; fails=1; }
build/bench/dwthaar1d -n 1000 >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || { echo "cuda-suite: FAIL: dwthaar1d -n 1000 (not a power of two) gave exit $rc, expected 2"; fails=1; }
build/bench/matmul -n 100 >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || { echo "cuda-suite: FAIL: matmul -n 100 (not a multiple of 16) gave exit $rc, expected 2"; fails=1; }
build/bench/fwt --bogus >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || { echo "cuda-suite: FAIL: fwt --bogus gave exit $rc, expected 2"; fails=1; }
[ $fails -eq 0 ] || exit 1
echo "cuda-suite: ok ($(( $(date +%s) - start ))s)"
