#!/usr/bin/env bash
# Regenerate the committed PTX of the benchmark kernels:
#   bench/regen-ptx.sh            write bench/ptx/NAME.ptx for every bench/cuda/NAME.cu
#   bench/regen-ptx.sh --check    regenerate into a temporary directory and
#                                 compare with the committed files (exit 1 on
#                                 any difference; exit 0 with "SKIP" when nvcc
#                                 is absent, saying so)
# The C drivers and smcosim-bench load these files, so the simulator runs the
# benchmarks without nvcc. Same flags as the CUDA programs' device code.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
NVCC=${NVCC:-nvcc}
NVCC_PTX_FLAGS=(-arch=compute_75 -ptx)

check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
if [ $# -ne 0 ]; then
  echo "usage: bench/regen-ptx.sh [--check]" >&2; exit 2
fi
if ! command -v "$NVCC" >/dev/null 2>&1; then
  if [ $check -eq 1 ]; then
    echo "SKIP: nvcc not found; the committed PTX in bench/ptx/ was not checked against a fresh generation"
    exit 0
  fi
  echo "regen-ptx: nvcc not found (looked in PATH and /usr/local/cuda/bin)" >&2; exit 1
fi

out=bench/ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0; count=0
for cu in bench/cuda/*.cu; do
  name=$(basename "$cu" .cu)
  "$NVCC" "${NVCC_PTX_FLAGS[@]}" "$cu" -o "$tmp/$name.ptx"
  count=$((count + 1))
  if [ $check -eq 1 ]; then
    if [ ! -f "$out/$name.ptx" ]; then
      echo "regen-ptx: $out/$name.ptx is missing (run bench/regen-ptx.sh)"; status=1
    elif ! cmp -s "$tmp/$name.ptx" "$out/$name.ptx"; then
      echo "regen-ptx: $out/$name.ptx is stale: it differs from nvcc's output for $cu (run bench/regen-ptx.sh)"
      diff -u "$out/$name.ptx" "$tmp/$name.ptx" | head -20 || true
      status=1
    fi
  else
    mv -f "$tmp/$name.ptx" "$out/$name.ptx.tmp" && mv -f "$out/$name.ptx.tmp" "$out/$name.ptx"
  fi
done
if [ $check -eq 1 ]; then
  for ptx in "$out"/*.ptx; do
    [ -e "$ptx" ] || continue
    name=$(basename "$ptx" .ptx)
    if [ ! -f "bench/cuda/$name.cu" ]; then
      echo "regen-ptx: $ptx has no bench/cuda/$name.cu"; status=1
    fi
  done
  [ $status -eq 0 ] && echo "regen-ptx: all $count PTX files match a fresh nvcc generation"
else
  echo "regen-ptx: wrote $count files to $out/"
fi
exit $status
