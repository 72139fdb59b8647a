#!/usr/bin/env bash
# --policy swl:N with N below the warps of one block, on a kernel with a
# barrier, fails the launch at once with a message naming the policy and the
# numbers (instead of a watchdog timeout); N >= the block's warps, or a
# kernel without a barrier, runs and passes. histogram: blocks of 256
# threads = 8 warps and bar.sync; vectoradd: no barrier.
#   tests/timing/swl-barrier.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
b=${1:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
check() { n=$((n + 1)); if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
msg="policy swl:2 lets only 2 warps per SM issue, but a block of 256 threads has 8 warps and kernel histogram256 has a barrier"
run() { local label=$1; shift; timeout 120 "$b/bin/smcosim" run "$@" > "$tmp/$label.out" 2>&1; echo $? > "$tmp/$label.rc"; }
progs="bench"
command -v /usr/local/cuda/bin/nvcc > /dev/null 2>&1 && [ -x build/bench/histogram ] && progs="bench cuda"
for p in $progs; do
  if [ $p = bench ]; then h=(--bench histogram --size small); v=(--bench vectoradd --size small)
  else h=(-- build/bench/histogram --size small); v=(-- build/bench/vectoradd --size small); fi
  run $p-swl2 --policy swl:2 "${h[@]}"
  check "$p: histogram swl:2 fails" "[ \$(cat $tmp/$p-swl2.rc) -ne 0 ]"
  check "$p: message names policy, warps and barrier" "grep -qF '$msg' '$tmp/$p-swl2.out'"
  check "$p: no watchdog timeout" "! grep -q 'TIMEOUT' '$tmp/$p-swl2.out'"
  run $p-swl8 --policy swl:8 "${h[@]}"
  check "$p: histogram swl:8 passes" "[ \$(cat $tmp/$p-swl8.rc) -eq 0 ] && grep -q 'histogram: PASS' '$tmp/$p-swl8.out'"
  run $p-vec --policy swl:2 "${v[@]}"
  check "$p: vectoradd (no barrier) swl:2 passes" "[ \$(cat $tmp/$p-vec.rc) -eq 0 ] && grep -q 'vectoradd: PASS' '$tmp/$p-vec.out'"
done
[ "$progs" = bench ] && echo "SKIP: nvcc not found; the nvcc-built programs were not run (the --bench cases were)"
[ $fail -eq 0 ] || { echo "swl-barrier: FAIL"; exit 1; }
echo "swl-barrier: $n checks passed"
