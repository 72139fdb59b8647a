#!/usr/bin/env bash
# Every function NVIDIA's libcudart.so.13 exports (cuda*, and nvcc's internal
# __cuda* entry points) is exported by ours too, at the same symbol version,
# so that no program fails to load with an undefined symbol.
#   tests/runtime/exports-check.sh BUILD_DIR [CUDA_HOME]
set -u
B=${1:-build}; CUDA=${2:-/usr/local/cuda}
real=$CUDA/lib64/libcudart.so.13
ours=$B/lib/libcudart.so.13
if [ ! -f "$real" ]; then
  echo "SKIP: nvcc's toolkit ($real) not found: the export list was not compared"; exit 0
fi
[ -f "$ours" ] || { echo "FAIL: $ours is not built"; exit 1; }
syms() { nm -D --defined-only "$1" | awk '$2 ~ /^[TtWi]$/ { print $3 }' | grep -E '^_?_?cuda' | sort -u; }
missing=$(comm -23 <(syms "$real") <(syms "$ours"))
n=$(syms "$real" | wc -l)
if [ -n "$missing" ]; then
  echo "FAIL: $(echo "$missing" | wc -l) of $n symbols of $real are not exported by $ours:"
  echo "$missing" | head -20
  exit 1
fi
echo "ok   all $n functions of $real are exported (name@libcudart.so.13)"
