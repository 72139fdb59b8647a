#!/usr/bin/env bash
# Regenerate the GPUDIAG kernels (docs/gpudiag.md):
#   bench/microbench/regen.sh          gen_kernels.py -> gd_kernels.cu, nvcc -> gd_kernels.ptx
#   bench/microbench/regen.sh --check  regenerate into a temporary directory and compare
#                                      with the committed files (exit 1 on a difference;
#                                      "SKIP ... nvcc" and exit 0 when nvcc is absent)
# `smcosim diag` loads the committed PTX, so the simulator runs the
# microbenchmarks without nvcc. Same PTX flags as bench/regen-ptx.sh.
set -euo pipefail
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH
NVCC=${NVCC:-nvcc}
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
[ $# -eq 0 ] || { echo "usage: bench/microbench/regen.sh [--check]" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 gen_kernels.py "$tmp/gd_kernels.cu"
if [ $check -eq 1 ] && ! cmp -s "$tmp/gd_kernels.cu" gd_kernels.cu; then
  echo "regen: bench/microbench/gd_kernels.cu is stale: gen_kernels.py writes something else (run bench/microbench/regen.sh)"
  diff -u gd_kernels.cu "$tmp/gd_kernels.cu" | head -20 || true
  exit 1
fi
if ! command -v "$NVCC" >/dev/null 2>&1; then
  if [ $check -eq 1 ]; then
    echo "SKIP: nvcc not found; bench/microbench/gd_kernels.ptx was not checked against a fresh generation"
    exit 0
  fi
  echo "regen: nvcc not found (looked in PATH and /usr/local/cuda/bin)" >&2; exit 1
fi
"$NVCC" -arch=compute_75 -ptx -Werror all-warnings "$tmp/gd_kernels.cu" -o "$tmp/gd_kernels.ptx"
if [ $check -eq 1 ]; then
  if ! cmp -s "$tmp/gd_kernels.ptx" gd_kernels.ptx; then
    echo "regen: bench/microbench/gd_kernels.ptx is stale: it differs from nvcc's output (run bench/microbench/regen.sh)"
    exit 1
  fi
  echo "regen: gd_kernels.cu and gd_kernels.ptx match a fresh generation"
else
  cp "$tmp/gd_kernels.cu" gd_kernels.cu.tmp && mv -f gd_kernels.cu.tmp gd_kernels.cu
  cp "$tmp/gd_kernels.ptx" gd_kernels.ptx.tmp && mv -f gd_kernels.ptx.tmp gd_kernels.ptx
  echo "regen: wrote bench/microbench/gd_kernels.cu and gd_kernels.ptx"
fi
