#!/usr/bin/env bash
# Regression guard for the detection power of `smcosim-bench --inputs general`
# (docs/testing.md, "Detection power"): mutants of the committed PTX that
# survived the default inputs (exact q8 sums, sizes that are multiples of the
# block) must be killed by the general inputs. Fails if any survives.
#   tests/mutants/guard.sh [BIN]
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/bin/smcosim-bench}
if [ ! -x "$bin" ]; then
  if [ ! -d csrc/emu ]; then
    echo "SKIP: $bin is not built: the emulator (csrc/emu/) is not in this tree"
    exit 0
  fi
  echo "FAIL: $bin is missing"; exit 1
fi
# fma.rn -> fma.rz (rounding), >= -> > and or -> and in bounds checks
# (partial blocks, guard zones), add.f32 -> add.rz.f32, an unrolled loop's
# remainder, jacobi2d's border (B compared); the HAWS benchmarks' bounds
# check (inlinemath) and the guards that only the extra sizes n = 1 / 2 reach
# (binarysearch, dwthaar1d, fft).
python3 scripts/mutants.py --bin "$bin" --only \
  gemm:89:round-rz matmul:78:round-rz conv2d:67:round-rz fwt:115:round-rz \
  bicg:106:round-rz jacobi2d:56:round-rz \
  vectoradd:36:cmp gemm:42:cmp 2mm:44:and-or matmul:44:cmp scan:373:cmp \
  bfs:212:cmp jacobi2d:40:cmp atax:184:imm+1 \
  inlinemath:36:cmp binarysearch:41:imm+1 dwthaar1d:61:imm+1 dwthaar1d:103:cmp fft:73:cmp
rc=$?
echo "mutant-guard: $([ $rc -eq 0 ] && echo 'all killed' || echo 'a mutant survived')"
exit $rc
