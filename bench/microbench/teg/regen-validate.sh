#!/usr/bin/env bash
# Regenerate the TEG validation kernels' PTX (docs/teg.md, "Validation"):
#   bench/microbench/teg/regen-validate.sh          nvcc teg_validate.cu -> teg_validate.ptx
#   bench/microbench/teg/regen-validate.sh --check  compare a fresh nvcc output with the
#                                                   committed PTX (exit 1 on a difference;
#                                                   "SKIP ... nvcc" and exit 0 without nvcc)
# `smcosim teg validate` loads the committed PTX: the simulator needs no nvcc.
set -euo pipefail
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH
NVCC=${NVCC:-nvcc}
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
[ $# -eq 0 ] || { echo "usage: bench/microbench/teg/regen-validate.sh [--check]" >&2; exit 2; }
if ! command -v "$NVCC" >/dev/null 2>&1; then
  if [ $check -eq 1 ]; then echo "SKIP: nvcc not found; teg_validate.ptx not checked"; exit 0; fi
  echo "regen-validate: nvcc not found (looked in PATH and /usr/local/cuda/bin)" >&2; exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$NVCC" -arch=compute_75 -ptx -Werror all-warnings teg_validate.cu -o "$tmp/teg_validate.ptx"
if [ $check -eq 1 ]; then
  cmp -s "$tmp/teg_validate.ptx" teg_validate.ptx \
    || { echo "regen-validate: teg_validate.ptx is stale (run bench/microbench/teg/regen-validate.sh)"; exit 1; }
  echo "regen-validate: teg_validate.ptx matches a fresh nvcc generation"
else
  cp "$tmp/teg_validate.ptx" teg_validate.ptx.tmp && mv -f teg_validate.ptx.tmp teg_validate.ptx
  echo "regen-validate: wrote bench/microbench/teg/teg_validate.ptx"
fi
