#!/usr/bin/env bash
# Regenerate TEG's calibration microbenchmarks (docs/teg.md, "Calibration"):
#   bench/microbench/teg/regen.sh          gen_teg_kernels.py -> teg_kernels.cu, nvcc -> teg_kernels.ptx
#   bench/microbench/teg/regen.sh --check  regenerate into a temporary directory and compare
#                                          with the committed files (exit 1 on a difference;
#                                          "SKIP ... nvcc" and exit 0 when nvcc is absent)
# `smcosim teg calibrate` loads the committed PTX, so the simulator runs the
# microbenchmarks without nvcc. Same PTX flags as bench/microbench/regen.sh
# (GPUDIAG's kernels) and bench/regen-ptx.sh.
set -euo pipefail
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH
NVCC=${NVCC:-nvcc}
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
[ $# -eq 0 ] || { echo "usage: bench/microbench/teg/regen.sh [--check]" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 gen_teg_kernels.py "$tmp/teg_kernels.cu"
if [ $check -eq 1 ] && ! cmp -s "$tmp/teg_kernels.cu" teg_kernels.cu; then
  echo "regen: bench/microbench/teg/teg_kernels.cu is stale: gen_teg_kernels.py writes something else (run bench/microbench/teg/regen.sh)"
  diff -u teg_kernels.cu "$tmp/teg_kernels.cu" | head -20 || true
  exit 1
fi
if ! command -v "$NVCC" >/dev/null 2>&1; then
  if [ $check -eq 1 ]; then
    echo "SKIP: nvcc not found; bench/microbench/teg/teg_kernels.ptx was not checked against a fresh generation"
    exit 0
  fi
  echo "regen: nvcc not found (looked in PATH and /usr/local/cuda/bin)" >&2; exit 1
fi
"$NVCC" -arch=compute_75 -ptx -Werror all-warnings "$tmp/teg_kernels.cu" -o "$tmp/teg_kernels.ptx"
if [ $check -eq 1 ]; then
  if ! cmp -s "$tmp/teg_kernels.ptx" teg_kernels.ptx; then
    echo "regen: bench/microbench/teg/teg_kernels.ptx is stale: it differs from nvcc's output (run bench/microbench/teg/regen.sh)"
    exit 1
  fi
  echo "regen: teg_kernels.cu and teg_kernels.ptx match a fresh generation"
else
  cp "$tmp/teg_kernels.cu" teg_kernels.cu.tmp && mv -f teg_kernels.cu.tmp teg_kernels.cu
  cp "$tmp/teg_kernels.ptx" teg_kernels.ptx.tmp && mv -f teg_kernels.ptx.tmp teg_kernels.ptx
  echo "regen: wrote bench/microbench/teg/teg_kernels.cu and teg_kernels.ptx"
fi
