#!/usr/bin/env bash
# Regenerate the microbenchmarks' committed kernels and PTX:
#   gpudiag       gen_kernels.py -> gd_kernels.cu, nvcc -> gd_kernels.ptx (docs/gpudiag.md)
#   teg           teg/gen_teg_kernels.py -> teg/teg_kernels.cu, nvcc -> teg/teg_kernels.ptx
#                 (TEG's calibration, docs/teg.md)
#   teg-validate  nvcc teg/teg_validate.cu (hand-written) -> teg/teg_validate.ptx
#                 (TEG's validation kernels)
#
#   bench/microbench/regen.sh [SET...]          regenerate (default: every set)
#   bench/microbench/regen.sh --check [SET...]  regenerate into a temporary directory and
#                                               compare with the committed files (exit 1 on a
#                                               difference; "SKIP ... nvcc" and exit 0 when nvcc
#                                               is absent)
# `smcosim diag`, `teg calibrate` and `teg validate` load the committed PTX, so
# the simulator runs the microbenchmarks without nvcc. Same PTX flags as
# bench/regen-ptx.sh.
set -euo pipefail
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH
NVCC=${NVCC:-nvcc}
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
sets=("$@"); [ ${#sets[@]} -gt 0 ] || sets=(gpudiag teg teg-validate)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for set in "${sets[@]}"; do
  case $set in   # generator (empty: the .cu is written by hand), .cu, .ptx
    gpudiag)      gen=gen_kernels.py;         cu=gd_kernels.cu;         ptx=gd_kernels.ptx ;;
    teg)          gen=teg/gen_teg_kernels.py; cu=teg/teg_kernels.cu;    ptx=teg/teg_kernels.ptx ;;
    teg-validate) gen=;                       cu=teg/teg_validate.cu;   ptx=teg/teg_validate.ptx ;;
    *) echo "usage: bench/microbench/regen.sh [--check] [gpudiag|teg|teg-validate]..." >&2; exit 2 ;;
  esac
  name=$(basename "$cu" .cu)
  src=$cu
  if [ -n "$gen" ]; then
    python3 "$gen" "$tmp/$name.cu"
    src=$tmp/$name.cu
    if [ $check -eq 1 ] && ! cmp -s "$src" "$cu"; then
      echo "regen: bench/microbench/$cu is stale: $gen writes something else (run bench/microbench/regen.sh $set)"
      diff -u "$cu" "$src" | head -20 || true
      status=1; continue
    fi
  fi
  if ! command -v "$NVCC" >/dev/null 2>&1; then
    if [ $check -eq 1 ]; then
      echo "SKIP: nvcc not found; bench/microbench/$ptx was not checked against a fresh generation"
      continue
    fi
    echo "regen: nvcc not found (looked in PATH and /usr/local/cuda/bin)" >&2; exit 1
  fi
  "$NVCC" -arch=compute_75 -ptx -Werror all-warnings "$src" -o "$tmp/$name.ptx"
  if [ $check -eq 1 ]; then
    if ! cmp -s "$tmp/$name.ptx" "$ptx"; then
      echo "regen: bench/microbench/$ptx is stale: it differs from nvcc's output (run bench/microbench/regen.sh $set)"
      status=1; continue
    fi
    echo "regen: $set: ${gen:+$cu and }$ptx match a fresh generation"
  else
    if [ -n "$gen" ]; then cp "$src" "$cu.tmp" && mv -f "$cu.tmp" "$cu"; fi
    cp "$tmp/$name.ptx" "$ptx.tmp" && mv -f "$ptx.tmp" "$ptx"
    echo "regen: wrote bench/microbench/${gen:+$cu and }$ptx"
  fi
done
exit $status
