#!/usr/bin/env bash
# The benchmark kernels from the committed PTX through smcosim-bench:
#   tests/e2e/bench-suite.sh BIN [smcosim-bench options]
# 1. the default suite passes (every benchmark checks its CPU reference);
# 2. a kernel that computes the wrong thing is caught (FAIL, exit 1);
# 3. bad arguments and a missing PTX file are clear errors, not crashes.
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/bin/smcosim-bench}; shift || true
if [ ! -x "$bin" ]; then
  if [ ! -d csrc/emu ]; then
    echo "SKIP: $bin is not built: the emulator (csrc/emu/) is not in this tree"
    exit 0
  fi
  echo "FAIL: $bin is missing"; exit 1
fi
fails=0
check() {  # check DESCRIPTION CONDITION-EXIT-STATUS
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# 1. the whole default suite
start=$(date +%s)
expected=$("$bin" --names | wc -l)
"$bin" "$@" >"$tmp/out" 2>&1; rc=$?
cat "$tmp/out"
grep -qx "benchmarks: $expected passed, 0 failed" "$tmp/out"; closing=$?
check "default suite: all $expected benchmarks pass ($(( $(date +%s) - start ))s)" $(( rc != 0 || closing != 0 ))
[ "$expected" -ge 15 ]; check "default suite has at least 15 benchmarks ($expected)" $?

# Deterministic: the same run twice gives the same instruction counts; another
# seed gives other data that still matches the reference.
"$bin" --size small bfs kmeans histogram >"$tmp/a" 2>&1
"$bin" --size small bfs kmeans histogram >"$tmp/b" 2>&1
cmp -s <(grep -o 'warp-insts=[0-9]*' "$tmp/a") <(grep -o 'warp-insts=[0-9]*' "$tmp/b") &&
  grep -qx "benchmarks: 3 passed, 0 failed" "$tmp/a"
check "two identical runs give identical warp-instruction counts" $?
"$bin" --size small --seed 12345 bfs kmeans spmv bitonic >"$tmp/c" 2>&1
grep -qx "benchmarks: 4 passed, 0 failed" "$tmp/c" &&
  ! cmp -s <(grep -o '^bfs.*warp-insts=[0-9]*' "$tmp/a") <(grep -o '^bfs.*warp-insts=[0-9]*' "$tmp/c")
check "another --seed gives other data (bfs work differs) and still passes" $?

# 2. a wrong kernel must be reported: vectoradd with its add turned into a sub
mkdir "$tmp/ptx"
sed 's/add\.f32/sub.f32/' bench/ptx/vectoradd.ptx >"$tmp/ptx/vectoradd.ptx"
grep -q 'sub\.f32' "$tmp/ptx/vectoradd.ptx"; check "mutated PTX differs from the original" $?
"$bin" --size small --ptx-dir "$tmp/ptx" vectoradd >"$tmp/out" 2>&1; rc=$?
grep -q '^vectoradd: FAIL (c\[' "$tmp/out" && [ $rc -eq 1 ]
check "a wrong result is a FAIL with the first bad element, exit 1" $?

# The OAWS benchmarks (seed 001 Table 2): one wrong operation or coefficient
# in each kernel's PTX is a FAIL (the CPU checks can fail).
for m in "gesummv|0,/fma.rn.f32/s/fma.rn.f32 \t\(%f[0-9]*\), \(%f[0-9]*\), \(%f[0-9]*\), %f[0-9]*;/sub.f32 \t\1, \2, \3;/" \
         "syrk|s/0f3F000000/0f3F800000/" "syr2k|0,/add.f32/s/add.f32/sub.f32/" \
         "3mm|0,/fma.rn.f32/s/fma.rn.f32 \t\(%f[0-9]*\), \(%f[0-9]*\), \(%f[0-9]*\), %f[0-9]*;/mul.f32 \t\1, \2, \3;/" \
         "3dconv|s/0f3EC00000/0f3E800000/" "fdtd2d|s/0fBF400000/0fBF000000/" \
         "streamcluster|s/setp.lt.f32/setp.le.f32/" "particlefilter|s/0f3CA3D70A/0f3CA3D70B/" \
         "srad1|s/0f3E000000/0f3E800000/" "srad2|s/0f3D800000/0f3D000000/" \
         "backprop|s/0f3E99999A/0f3E99999B/" "lbm|s/0f3FF9999A/0f3FF9999B/" \
         "iix|s/16777619;/16777617;/"; do
  name=${m%%|*}
  sed "${m#*|}" "bench/ptx/$name.ptx" >"$tmp/ptx/$name.ptx"
  ! cmp -s "bench/ptx/$name.ptx" "$tmp/ptx/$name.ptx" &&
    { "$bin" --size small --ptx-dir "$tmp/ptx" "$name" >"$tmp/out" 2>&1; [ $? -eq 1 ]; } &&
    grep -q "^$name: FAIL (" "$tmp/out"
  check "$name with a mutated kernel is a FAIL" $?
done

# A guest fault (vectoradd indexing 1024x too far) is an ERROR with the
# device's report, and the device is usable again for the next benchmark.
sed 's/mul\.wide\.s32 \t%rd5, %r1, 4;/mul.wide.s32 \t%rd5, %r1, 4096;/' bench/ptx/vectoradd.ptx >"$tmp/ptx/vectoradd.ptx"
cp bench/ptx/scan.ptx "$tmp/ptx/"
grep -q '%r1, 4096;' "$tmp/ptx/vectoradd.ptx"; check "out-of-bounds PTX was made" $?
"$bin" --size small --ptx-dir "$tmp/ptx" vectoradd scan >"$tmp/out" 2>&1; rc=$?
grep -q '^vectoradd: ERROR (vectoradd: .*ILLEGAL_ADDRESS' "$tmp/out" &&
  grep -q '^scan: PASS' "$tmp/out" && grep -qx "benchmarks: 1 passed, 1 failed" "$tmp/out" &&
  [ $rc -eq 1 ]
check "a guest fault is an ERROR naming it; the next benchmark still passes" $?

# 3. errors
"$bin" --size small --ptx-dir "$tmp/nowhere" vectoradd >"$tmp/out" 2>&1; rc=$?
grep -q "nowhere/vectoradd.ptx" "$tmp/out" && [ $rc -eq 1 ]
check "a missing PTX file is an ERROR naming it, exit 1" $?
"$bin" no_such_bench >"$tmp/out" 2>&1; rc=$?
grep -q "unknown benchmark 'no_such_bench'" "$tmp/out" && [ $rc -eq 2 ]
check "an unknown benchmark name is exit 2 with a message" $?
"$bin" --size huge >"$tmp/out" 2>&1; rc=$?
grep -q "unknown --size 'huge'" "$tmp/out" && [ $rc -eq 2 ]
check "an unknown size is exit 2 with a message" $?
"$bin" -n 100 matmul >"$tmp/out" 2>&1; rc=$?
grep -q "bad size: n=100 must be a multiple of 16" "$tmp/out" && [ $rc -eq 1 ]
check "an invalid size for a benchmark is reported" $?

echo "bench-suite: $fails failed checks"
[ $fails -eq 0 ]
