#!/usr/bin/env bash
# Real kernels in lockstep on the Verilated parameter sets that no GPU preset
# has (tests/golden/golden.sh already runs the suite on the rtl and lockstep
# back ends for kepler-k20x = 64/4/8/2/6/4 and fermi-gtx480 = 48/2/6/3/4/2):
# 32/1/8/1/8/1 and 8/4/8/4/2/3, reached through configuration overrides of the
# kepler-k20x preset (SMCOSIM_SET). For every policy the benchmark suite at
# --size small runs with the lockstep back end (C model and RTL compared on
# every output every cycle; a difference or an RTL assertion fails the
# benchmark), and with the rtl and c back ends, whose statistics JSON must be
# identical but for the "sched" field. `make test` runs the rtl and c pair on
# one policy per set (gto): the lockstep already compares the RTL with the C
# model every cycle on every policy, and a plain rtl run adds only its
# harness path, which one policy exercises (as golden.sh's quick check);
# `long` (make check-long) runs the pair on every policy.
#
#   tests/sched/kernel-lockstep.sh BUILD_DIR [long]
set -u
cd "$(dirname "$0")/../.."
build=${1:?usage: kernel-lockstep.sh BUILD_DIR [long]}
long=0
case ${2:-} in long) long=1 ;; "") ;; *) echo "kernel-lockstep.sh: unknown mode '$2' (long)"; exit 2 ;; esac
bench=$build/bin/smcosim-bench
[ -x "$bench" ] || { echo "FAIL: $bench is not built"; exit 1; }
for v in $(compgen -e | grep '^SMCOSIM_'); do unset "$v"; done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

all="vectoradd matmul transpose scalarprod bitonic fwt histogram scan gemm 2mm jacobi2d conv2d mvt atax bicg bfs spmv kmeans binarysearch dct dwthaar1d fft reduction inlinemath"
nobarrier=$(cat tests/golden/nobarrier.list)   # swl:2 runs only these (no barrier)
# name|overrides|benchmarks (bitonic and fwt use 16-warp blocks: not on 8 warps).
# One scheduler with the preset's pool of 8 and 16-warp blocks (bitonic, fwt):
# barrier waiters must leave the two-level pool, else these hang
# (docs/sched-interface.md, "Two-level").
sets=(
  "32/1/8/1/8/1|sm.max_warps=32;sm.max_threads=1024;sched.num=1;sched.reg_id_width=8;sched.ibuf_depth=1;sched.sb_entries=8;sched.wb_ports=1|$all"
  "8/4/8/4/2/3|sm.max_warps=8;sm.max_threads=256;sched.num=4;sched.reg_id_width=8;sched.ibuf_depth=4;sched.sb_entries=2;sched.wb_ports=3|$(echo " $all " | sed 's/ bitonic / /; s/ fwt / /')"
)
fails=0; runs=0

# run BACKEND OVERRIDES POLICY OUT.json NAMES...
run() {
  local be=$1 set=$2 pol=$3 out=$4; shift 4
  runs=$((runs + 1))
  # shellcheck disable=SC2068
  SMCOSIM_MODE=timing SMCOSIM_SCHED=$be SMCOSIM_CONFIG=kepler-k20x SMCOSIM_SET=$set \
    SMCOSIM_POLICY=$pol SMCOSIM_JSON=$out "$bench" --size small $@ >"$out.log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] || ! tail -1 "$out.log" | grep -q ' 0 failed$' ||
     ! grep -q "\"sched\": \"$be\"" "$out"; then
    echo "FAIL: $be $pol ($set) exit $rc:"; grep -v ': PASS' "$out.log" | head -20
    return 1
  fi
}

for entry in "${sets[@]}"; do
  IFS='|' read -r name set names <<<"$entry"
  for pol in lrr gto two-level swl:2; do
    list=$names
    [ "$pol" = swl:2 ] && list=$(for n in $names; do case " $nobarrier " in *" $n "*) printf '%s ' "$n";; esac; done)
    f=$tmp/$(echo "$name-$pol" | tr '/:' '__')
    ok=1
    # shellcheck disable=SC2086
    bes="lockstep rtl c"
    [ $long = 0 ] && [ "$pol" != gto ] && bes=lockstep
    for be in $bes; do run $be "$set" $pol "$f.$be.json" $list || ok=0; done
    if [ $ok = 1 ] && [ "$bes" = lockstep ]; then
      echo "ok   $name $pol: $(echo $list | wc -w) benchmarks in lockstep"
    elif [ $ok = 1 ]; then
      sed -i 's/"sched": "rtl"/"sched": "c"/' "$f.rtl.json"
      if cmp -s "$f.c.json" "$f.rtl.json"; then
        echo "ok   $name $pol: $(echo $list | wc -w) benchmarks in lockstep, rtl statistics = c"
      else
        echo "FAIL $name $pol: rtl statistics differ from c"; fails=$((fails + 1))
      fi
    else
      fails=$((fails + 1))
    fi
  done
done
echo "kernel-lockstep: $runs suite runs, $fails failed"
[ $fails -eq 0 ]
