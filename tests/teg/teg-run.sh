#!/usr/bin/env bash
# tests/teg/teg-run.sh BUILD — `smcosim teg` end to end on hand-written
# traces whose cycles are worked out by hand from the GT200 set (Table 3.1,
# ../shared/design/teg.md §5.4; the arithmetic is beside each case), the
# what-ifs, the kepler4 register-bank rule, `teg params`, `teg bound`,
# `teg regbank`, determinism and the error messages.
set -u
B=${1:-build}
SMC=$B/bin/smcosim
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); k=d['kernels'][0]; print($2)" "$1"; }

header() {   # header BINVER CTAS THREADS
    printf -- "-kernel name = k\n-kernel id = 1\n-grid dim = (%d,1,1)\n-block dim = (%d,1,1)\n" "$2" "$3"
    printf -- "-shmem = 0\n-nregs = 16\n-binary version = %d\n-cuda stream id = 0\n" "$1"
    printf -- "-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n-nvbit version = 1.5.5\n"
    printf -- "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
    printf -- "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n"
}
mklist() { mkdir -p "$T/$1"; echo kernel-1.traceg >"$T/$1/kernelslist.g"; cat >"$T/$1/kernel-1.traceg"; }
tb() { printf "#BEGIN_TB\nthread block = %d,0,0\n" "$1"; }
warp() { printf "warp = %d\ninsts = %d\n" "$1" "$2"; }
teg() {   # teg NAME [options]: JSON in $T/NAME.json, output in $T/NAME.log
    local n=$1; shift
    "$SMC" teg --trace "$T/$n/kernelslist.g" --json "$T/$n.json" "$@" >"$T/$n.log" 2>&1
}
expect_cycles() {   # expect_cycles NAME WANT WHAT [options]
    local n=$1 want=$2 what=$3; shift 3
    if teg "$n" "$@"; then
        local c; c=$(json "$T/$n.json" "k['cycles']")
        [ "$c" = "$want" ] && ok "$what: $c cycles" || bad "$what: $c cycles, expected $want"
    else bad "$what: $(tail -2 "$T/$n.log")"; fi
}

# 1. one warp, 21 dependent ADD.FP32 (R1 = R1 + R2): issues at 0, 24, ..., 480
#    (execution 24), the last result at 480 + 24 = 504
{ header 0 1 32; tb 0; warp 0 21
  for i in $(seq 1 21); do printf "%04x ffffffff 1 R1 ADD.FP32 2 R1 R2 0\n" $((i * 16)); done
  echo "#END_TB"; } | mklist dep21
expect_cycles dep21 504 "1: 21 dependent adds, one warp"

# the slots of case 1: SM 0's engine issues 21 times and waits 11 slots for
# each of 20 results (2..22 after each issue: dependency), then has nothing
# from 482 to 504 (11); the other 29 SMs nothing for 504 / 2 = 252 slots each
s1=$(json "$T/dep21.json" "'%d %d %d' % (k['slots']['issue'], k['slots']['dependency'], k['slots']['no_instr'])")
[ "$s1" = "21 220 7319" ] && ok "1: slots: issue 21, dependency 220, no_instr 7319" \
    || bad "1: slots issue/dependency/no_instr $s1, expected 21 220 7319"

# 2. one warp, 20 independent adds: the warp issues every 8 (same-warp
#    latency): the last at 19 x 8 = 152, its result at 152 + 24 = 176
indep() {   # indep OPCODE N WARPS [DST-BASE]
    for w in $(seq 0 $(($3 - 1))); do
        warp "$w" "$2"
        for i in $(seq 1 "$2"); do printf "%04x ffffffff 1 R%d %s 2 R100 R101 0\n" $((i * 16)) "$i" "$1"; done
    done
}
{ header 0 1 32; tb 0; indep ADD.FP32 20 1; echo "#END_TB"; } | mklist ind1
expect_cycles ind1 176 "2: 20 independent adds, one warp"

# 2b. the same with a scoreboard of 2 entries (--param sb_entries=2): the
#     third add waits for the first's write: issue i at 12 i (i even) or
#     12 (i - 1) + 8 (i odd): the 20th (i = 19) at 224, its result at 248
expect_cycles ind1 248 "2b: 20 independent adds, one warp, 2 scoreboard entries" --param sb_entries=2

# 3. four warps x 20 independent adds: the SP unit accepts every 4 cycles:
#    80 issues at 0, 4, ..., 316, the last result at 316 + 24 = 340
{ header 0 1 128; tb 0; indep ADD.FP32 20 4; echo "#END_TB"; } | mklist ind4
expect_cycles ind4 340 "3: 4 warps x 20 independent adds (SP accepts every 4)"

# --load (Figs. 3.9-3.15): SM 0's warp-instructions in flight per unit. In
#     case 3 an add issues every 4 cycles and runs 24: 1 at cycle 0, 24 / 4 = 6
#     from cycle 20 on (at 100: issued 0..100, done those issued by 76), the
#     last (issued at 316) alone at 339, none at 340
if teg ind4 --load "$T/ind4.csv"; then
    got=$(awk -F, '$1 == 0 || $1 == 100 || $1 == 339 || $1 == 340 {printf "%s:%s ", $1, $2}' "$T/ind4.csv")
    [ "$got" = "0:1 100:6 339:1 340:0 " ] && ok "--load: SP in flight 1, 6, 1, 0 at cycles 0, 100, 339, 340" \
        || bad "--load: $got"
else bad "--load: $(tail -2 "$T/ind4.log")"; fi

# the slots of case 3: between two issues 4 cycles apart one slot finds
# ready warps and a busy SP unit (79 unit_busy); the end (318..340) and the
# 29 idle SMs (29 x 170) have nothing: 11 + 4930 no_instr
s3=$(json "$T/ind4.json" "'%d %d %d' % (k['slots']['issue'], k['slots']['unit_busy'], k['slots']['no_instr'])")
[ "$s3" = "80 79 4941" ] && ok "3: slots: issue 80, unit_busy 79, no_instr 4941" \
    || bad "3: slots issue/unit_busy/no_instr $s3, expected 80 79 4941"

# 4. the same with MUL.FP32 (Float MUL accepts every 2, the engine issues
#    every 2): 80 issues at 0, 2, ..., 158, the last result at 182
{ header 0 1 128; tb 0; indep MUL.FP32 20 4; echo "#END_TB"; } | mklist mul4
expect_cycles mul4 182 "4: 4 warps x 20 independent multiplies (engine-bound at 2)"

# 5. two warps x 5 ADD.FP64: the DPU accepts every 32: 10 issues at 0, 32,
#    ..., 288, the last result at 288 + 48 = 336
{ header 0 1 64; tb 0; indep ADD.FP64 5 2; echo "#END_TB"; } | mklist dp2
expect_cycles dp2 336 "5: 2 warps x 5 double adds (one DPU, accept 32)"

# 6. a global load (4 bytes a lane, contiguous: 4 sectors) and a dependent
#    add: the load completes at 440, the add issues then: 440 + 24 = 464
{ header 0 1 32; tb 0; warp 0 2
  echo "0010 ffffffff 1 R2 LD.MEM.GLOBAL 1 R4 4 1 0x10000 4"
  echo "0020 ffffffff 1 R3 ADD.FP32 2 R2 R2 0"
  echo "#END_TB"; } | mklist ld
expect_cycles ld 464 "6: a global load and a dependent add"

# 7. Little's law: 32 warps on one SM, one coalesced 8-byte load each (256 B,
#    8 sectors, consecutive channels). The LD/ST unit takes one every 4
#    cycles; the TPC holds 4811 B: 18 loads (4608 B) and 6 sectors of the 19th
#    (issued at 72). Load k >= 18 has its last sector out when load k - 18
#    completes, at 440 + 4 (k - 18): the 32nd (k = 31) at 492, done at 932
{ header 0 1 1024; tb 0
  for w in $(seq 0 31); do warp "$w" 1
      printf "0010 ffffffff 1 R2 LD.MEM.GLOBAL 1 R4 8 1 0x%x 8\n" $((0x100000 + w * 256)); done
  echo "#END_TB"; } | mklist little
expect_cycles little 932 "7: 32 loads of 256 B through the 4811-B cap"
q=$(json "$T/little.json" "k['gmem_queued']")
[ "$q" = 106 ] && ok "7: 106 transactions waited (13 loads x 8 + 2 sectors of the 19th)" \
    || bad "7: $q transactions waited, expected 106"

# 8. a shared load whose half-warps each put 16 distinct words in one bank
#    (lane x 64 bytes): 32 passes, 2 the minimum: 38 + ceil(6.4 x 30) = 230;
#    smem-conflict-free: 38
{ header 0 1 32; tb 0; warp 0 1
  printf "0010 ffffffff 1 R2 LD.MEM.SHARED 1 R4 4 1 0x0 64\n"
  echo "#END_TB"; } | mklist smem
expect_cycles smem 230 "8: a 16-way conflicting shared load"
expect_cycles smem 38 "8: the same under --what-if smem-conflict-free" --what-if smem-conflict-free

# 9. barrier: warp 0 runs 10 dependent adds (0, 24, ..., 216) and then BAR,
#    which it issues at 216 + 8 (same-warp) = 224; warp 1 only BAR, at 2.
#    Both are released at 224 + 8 (barrier_lat) = 232, then each adds once.
{ header 0 1 64; tb 0; warp 0 12
  for i in $(seq 1 10); do printf "%04x ffffffff 1 R1 ADD.FP32 2 R1 R2 0\n" $((i * 16)); done
  printf "00b0 ffffffff 0 BAR.BARRIER 0 0\n00c0 ffffffff 1 R5 ADD.FP32 2 R6 R7 0\n"
  warp 1 2; printf "00b0 ffffffff 0 BAR.BARRIER 0 0\n00c0 ffffffff 1 R5 ADD.FP32 2 R6 R7 0\n"
  echo "#END_TB"; } | mklist bar
if teg bar --pc-trace "$T/bar.csv"; then
    got=$(awk -F, 'NR > 1 && ($4 == 10 || $4 == 11) {printf "%s:%s:%s ", $1, $3, $4}' "$T/bar.csv")
    # static indices: BAR is the 11th instruction seen (10), the add after it 11
    [ "$got" = "2:1:10 224:0:10 232:1:11 236:0:11 " ] \
        && ok "9: BAR at 2 (warp 1) and 224 (warp 0), released at 232" \
        || bad "9: barrier issues $got, expected 2:1:10 224:0:10 232:1:11 236:0:11"
else bad "9: $(tail -2 "$T/bar.log")"; fi

# 10. round robin: 3 warps of independent adds issue at 0, 4, 8, ... in warp
#     order 0, 1, 2, 0, 1, 2 (the SP accepts every 4)
{ header 0 1 96; tb 0; indep ADD.FP32 4 3; echo "#END_TB"; } | mklist rr
if teg rr --pc-trace "$T/rr.csv"; then
    got=$(awk -F, 'NR > 1 && NR <= 7 {printf "%s:%s ", $1, $3}' "$T/rr.csv")
    [ "$got" = "0:0 4:1 8:2 12:0 16:1 20:2 " ] && ok "10: round robin 0,1,2,0,1,2 every 4 cycles" \
        || bad "10: issues $got"
else bad "10: $(tail -2 "$T/rr.log")"; fi

# 11. channel skew: two SMs in two TPC groups, 32 warps each loading 256 B
#     (as case 7). Spread over the 8 channels, each group is bound by its own
#     cap only: 932, as case 7. All in one channel, the channel's 6013 B (187
#     sectors) bind first: both SMs issue a load every 4 cycles (16 sectors),
#     so 187 sectors are out by 44 (SM 1's 12th load leaves 5 queued); each
#     completion from 440 to 484 frees what departed 440 cycles before and as
#     many depart, 374 in all; the other 512 - 374 = 138 leave on the
#     completions from 880, 16 each: the 9th, at 912, takes the last, done at
#     912 + 440 = 1352. Without channel caps (no-channel-skew), 932 again.
skew() {   # skew STRIDE
    header 0 2 1024
    for c in 0 1; do tb "$c"
        for w in $(seq 0 31); do warp "$w" 1
            printf "0010 ffffffff 1 R2 LD.MEM.GLOBAL 1 R4 8 1 0x%x 8\n" \
                $((0x100000 + (c * 32 + w) * $1)); done
        echo "#END_TB"; done
}
skew 256 | mklist spread; skew 2048 | mklist onech
P=(--param sms=2 --param gmem.sms_per_group=1)
expect_cycles spread 932 "11: two groups over 8 channels" "${P[@]}"
expect_cycles onech 1352 "11: both groups in one channel" "${P[@]}"
expect_cycles onech 932 "11: one channel under --what-if no-channel-skew" "${P[@]}" --what-if no-channel-skew

# 12. kepler4 (Table 4.1): 32 warps x 8 FFMA with sources R1,R4,R5 (banks
#     O0,E1,O1), R1,R3,R5 (R1,R3 in O0: 2-way), R1,R3,R9 (O0 3 times), one
#     engine issuing every cycle, FFMA accepted every cycle, execution 9:
#     256 issues, d cycles apart: (256 - 1) d + 9 = 264, 519, 774
ffma() {   # ffma SRCS
    header 61 1 1024; tb 0
    for w in $(seq 0 31); do warp "$w" 8
        for i in $(seq 1 8); do printf "%04x ffffffff 1 R0 FFMA 3 %s 0\n" $((i * 16)) "$1"; done
    done; echo "#END_TB"
}
ffma "R1 R4 R5" | mklist rb1; ffma "R1 R3 R5" | mklist rb2; ffma "R1 R3 R9" | mklist rb3
K=(--param engines=1 --param issue_interval=1 --param fp32.accept=1 --param fp32.warp_busy=1
   --param fp32.exec=9 --param regbank=kepler4)
expect_cycles rb1 264 "12: FFMA R0,R1,R4,R5 (no conflict), throughput 1" "${K[@]}"
expect_cycles rb2 519 "12: FFMA R0,R1,R3,R5 (2-way), throughput 1/2" "${K[@]}"
expect_cycles rb3 774 "12: FFMA R0,R1,R3,R9 (3-way), throughput 1/3" "${K[@]}"
# teg regbank on 10 FFMAs: 5 without conflict, 3 two-way, 2 three-way
{ header 61 1 32; tb 0; warp 0 10
  i=0; for s in "R1 R4 R5" "R1 R4 R5" "R1 R4 R5" "R2 R4 R7" "R0 R6 R0" "R1 R3 R5" "R0 R2 R4" \
                "R8 R9 R12" "R1 R3 R9" "R0 R2 R8"; do
      i=$((i + 1)); printf "%04x ffffffff 1 R10 FFMA 3 %s 0\n" $((i * 16)) "$s"; done
  echo "#END_TB"; } | mklist rbrep
# hand count: R0,R2,R4 -> E0,E0,E1: 2-way; R8,R9,R12 -> E0,O0,E1: none;
# R0,R2,R8 -> E0 three times: 3-way; R1,R3,R9 -> O0 three times: 3-way.
# (R1,R4,R5)x3, (R2,R4,R7), (R0,R6,R0), (R8,R9,R12): none -> 6; 2-way:
# (R1,R3,R5), (R0,R2,R4) -> 2; 3-way: 2. One opcode row.
if "$SMC" teg regbank --trace "$T/rbrep/kernelslist.g" >"$T/rbrep.log" 2>&1; then
    grep -q "^| FFMA | 10 | 20.0 % | 20.0 % |$" "$T/rbrep.log" \
        && ok "12: teg regbank counts 20 % 2-way and 20 % 3-way" \
        || bad "12: teg regbank printed: $(grep FFMA "$T/rbrep.log")"
else bad "12: teg regbank: $(tail -2 "$T/rbrep.log")"; fi

# 13. from-config on kepler-k20x: lengthening a dependent ADD.FP32 chain from
#     32 to 96 adds 64 x unit.sp.latency cycles in TEG and in the cycle model
#     (`smcosim run --trace`) alike; the latency is the preset's, read from
#     `smcosim config`
chain() {   # chain N
    header 0 1 32; tb 0; warp 0 "$1"
    for i in $(seq 1 "$1"); do printf "%04x ffffffff 1 R1 ADD.FP32 2 R1 R2 0\n" $((i * 16)); done
    echo "#END_TB"
}
chain 32 | mklist ch32; chain 96 | mklist ch96
lat=$("$SMC" config --config kepler-k20x | awk '$1 == "unit.sp.latency" {print $3}')
if teg ch32 --config kepler-k20x && teg ch96 --config kepler-k20x; then
    d=$(( $(json "$T/ch96.json" "k['cycles']") - $(json "$T/ch32.json" "k['cycles']") ))
    [ "$d" = $((64 * lat)) ] && ok "13: TEG from-config: 64 more dependent adds take $d cycles (64 x $lat)" \
        || bad "13: TEG from-config: 64 more dependent adds take $d cycles, expected $((64 * lat))"
else bad "13: $(tail -2 "$T/ch96.log")"; fi
for n in 32 96; do
    "$SMC" run --trace "$T/ch$n/kernelslist.g" --config kepler-k20x --json "$T/run$n.json" >"$T/run$n.log" 2>&1
done
d=$(( $(python3 -c "import json; print(json.load(open('$T/run96.json'))['launches'][0]['cycles'])") \
    - $(python3 -c "import json; print(json.load(open('$T/run32.json'))['launches'][0]['cycles'])") ))
[ "$d" = $((64 * lat)) ] && ok "13: the cycle model: 64 more dependent adds take $d cycles (64 x $lat)" \
    || bad "13: the cycle model: 64 more dependent adds take $d cycles, expected $((64 * lat))"

# 13b. from-config takes each instruction's unit and latency from the cycle
#      model's own rule (timing_unit_of, teg.md §5.2): on fermi-gtx480
#      (unit.opcode_latency = g321) a dependent CVT chain lengthened by 64
#      takes as many more cycles in TEG as in the cycle model, which is not
#      64 x unit.sp.latency (g321 gives cvt its own latency); a --param on
#      the class (conv.exec) puts the class's value back. The chain runs
#      over 4 pcs of one 64-byte stretch (a loop's body): fermi-gtx480 has
#      an instruction cache, which a straight run of new pcs would miss
#      every few instructions in the cycle model (TEG has none)
cvtchain() {   # cvtchain N
    header 0 1 32; tb 0; warp 0 "$1"
    for i in $(seq 1 "$1"); do printf "%04x ffffffff 1 R1 CVT.INT 1 R1 0\n" $(((i % 4) * 16)); done
    echo "#END_TB"
}
cvtchain 32 | mklist cv32; cvtchain 96 | mklist cv96
splat=$("$SMC" config --config fermi-gtx480 | awk '$1 == "unit.sp.latency" {print $3}')
for n in 32 96; do
    "$SMC" run --trace "$T/cv$n/kernelslist.g" --config fermi-gtx480 --json "$T/rcv$n.json" >"$T/rcv$n.log" 2>&1
done
dm=$(( $(python3 -c "import json; print(json.load(open('$T/rcv96.json'))['launches'][0]['cycles'])") \
     - $(python3 -c "import json; print(json.load(open('$T/rcv32.json'))['launches'][0]['cycles'])") ))
if teg cv32 --config fermi-gtx480 && teg cv96 --config fermi-gtx480; then
    d=$(( $(json "$T/cv96.json" "k['cycles']") - $(json "$T/cv32.json" "k['cycles']") ))
    [ "$d" = "$dm" ] && [ "$d" != $((64 * splat)) ] \
        && ok "13b: fermi-gtx480 from-config: 64 more dependent CVTs take $d cycles in TEG and in the cycle model (not 64 x $splat)" \
        || bad "13b: 64 more dependent CVTs take $d cycles in TEG, $dm in the cycle model (64 x unit.sp.latency = $((64 * splat)))"
else bad "13b: $(tail -2 "$T/cv96.log")"; fi
if teg cv32 --config fermi-gtx480 --param conv.exec=$splat && teg cv96 --config fermi-gtx480 --param conv.exec=$splat; then
    d=$(( $(json "$T/cv96.json" "k['cycles']") - $(json "$T/cv32.json" "k['cycles']") ))
    [ "$d" = $((64 * splat)) ] && ok "13b: --param conv.exec=$splat: the class decides again ($d cycles)" \
        || bad "13b: --param conv.exec=$splat: $d cycles, expected $((64 * splat))"
else bad "13b: --param: $(tail -2 "$T/cv96.log")"; fi

# a benchmark and a CUDA program: the trace is exported first (into
# --trace-out, kept; else a temporary folder, removed); TEG estimates every
# warp-instruction the export wrote (counted here from the trace's lines)
mkdir -p "$T/tmp"
if TMPDIR=$T/tmp "$SMC" teg --trace-out "$T/vaexp" --json "$T/va.json" --bench vectoradd --size small \
       >"$T/va.log" 2>&1; then
    lines=$(cat "$T"/vaexp/kernel-*.traceg | awk '/^[0-9a-f]+ [0-9a-f]+ /' | wc -l)
    w=$(json "$T/va.json" "k['warp_insts']")
    [ "$w" = "$lines" ] && ok "--bench vectoradd: $w warp-instructions, as many as the exported trace's lines" \
        || bad "--bench vectoradd: $w warp-instructions, the trace has $lines lines"
else bad "--bench: $(tail -2 "$T/va.log")"; fi
PROG=build/bench/vectoradd
# the ASan pass: the program (not built with ASan) loads the sanitized
# runtime, so the sanitizers' libraries come first (as run_cuda_tests.sh)
PRELOAD=
case $B in *asan*) PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)";; esac
if [ -x "$PROG" ]; then
    if TMPDIR=$T/tmp LD_PRELOAD="$PRELOAD" "$SMC" teg --json "$T/prog.json" -- "$PROG" >"$T/prog.log" 2>&1; then
        k=$(python3 -c "import json; print(len(json.load(open('$T/prog.json'))['kernels']))")
        left=$(ls -A "$T/tmp" | wc -l)
        [ "$k" -ge 1 ] && [ "$left" = 0 ] \
            && ok "-- PROGRAM: $k kernel(s) of a CUDA program estimated, the temporary trace removed" \
            || bad "-- PROGRAM: $k kernels, $left files left in TMPDIR"
    else bad "-- PROGRAM: $(tail -2 "$T/prog.log")"; fi
    "$SMC" teg -- /nonexistent/program >"$T/e7.log" 2>&1; rc=$?
    [ $rc = 1 ] && grep -q "trace export failed" "$T/e7.log" \
        && ok "-- PROGRAM: a program that cannot run fails the estimate (exit 1)" \
        || bad "-- PROGRAM: a missing program: exit $rc"
else echo "SKIP -- PROGRAM: $PROG not built (no nvcc)"; fi

# teg validate: seed 003's validation kernels through the device API (their
# results checked against the host's inside), TEG beside the cycle model on
# their trace; MatA's bank conflicts cost TEG more than MatB's padded tile,
# and the smem-conflict-free what-if on MatA's trace takes them away
V=(--warps 2 --steps 2 --config kepler-k20x)
for k in mm_abt_conflict mm_abt_padded hop_aos_dp hop_soa_dp hop_soa_sp blackscholes; do
    if "$SMC" teg validate --kernel $k "${V[@]}" --json "$T/v-$k.json" >"$T/v-$k.log" 2>&1; then
        m=$(json "$T/v-$k.json" "k['model_cycles']"); c=$(json "$T/v-$k.json" "k['cycles']")
        [ "$m" -gt 0 ] && [ "$c" -gt 0 ] && ok "validate $k: results checked; TEG $c, cycle model $m cycles" \
            || bad "validate $k: TEG $c, model $m"
    else bad "validate $k: $(tail -2 "$T/v-$k.log")"; fi
done
"$SMC" teg validate --kernel mm_abt_conflict "${V[@]}" --what-if smem-conflict-free --json "$T/v-cf.json" \
    >"$T/v-cf.log" 2>&1
a=$(json "$T/v-mm_abt_conflict.json" "k['cycles']"); b=$(json "$T/v-mm_abt_padded.json" "k['cycles']")
cf=$(json "$T/v-cf.json" "k['cycles']"); p=$(json "$T/v-mm_abt_conflict.json" "k['smem_extra_passes']")
[ "$a" -gt "$b" ] && [ "$cf" -lt "$a" ] && [ "$p" -gt 0 ] \
    && ok "validate: MatA $a > MatB $b cycles in TEG ($p extra passes); conflict-free what-if $cf" \
    || bad "validate: MatA $a, MatB $b, what-if $cf, passes $p"
"$SMC" teg validate --kernel nosuch --warps 2 >"$T/v-bad.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "kernel" "$T/v-bad.log" && ok "validate: an unknown kernel exits 2" \
    || bad "validate: unknown kernel: exit $rc"

# the SGEMM kernels (ch. 4): one block of 8 warps per SM, 2 k-steps; C is
# checked element by element inside. Their kept trace must hold what the
# kernels are built to execute: M N K / 32 FMA warp-instructions (one per
# 32 multiply-adds) and, per warp and stage of 16 k, 16 x 6 shared loads of 8
# bytes (lds64) or 16 of 16 bytes and 16 x 4 of 8 (lds128)
opcount() {   # opcount TRACE: "FMAs v2-loads v4-loads" (a line's fields: pc mask
              # ndst dsts opcode nsrc srcs width ...)
    awk '$1 ~ /^[0-9a-f]+$/ && NF > 4 { o = $(4 + $3); w = $(6 + $3 + $(5 + $3))
         if (o == "FMA.FP32") f++; if (o == "LD.MEM.SHARED" && w == 8) v2++
         if (o == "LD.MEM.SHARED" && w == 16) v4++ }
         END { printf "%d %d %d\n", f, v2, v4 }' "$1"
}
# (the ASan/UBSan pass, which looks for memory errors, runs them on
# kepler-k20x only: both presets there took it from 16 s to 40 s)
sgemm_presets="kepler-k20x fermi-gtx480"
case $B in *asan*) sgemm_presets=kepler-k20x ;; esac
for pre in $sgemm_presets; do
    sms=$("$SMC" config --config $pre | awk '$1 == "mem.num_sms" { print $3 }')
    for k in sgemm_rb6_lds64 sgemm_rb6_lds128; do
        d=$T/v-$k-$pre
        if "$SMC" teg validate --kernel $k --warps 8 --steps 2 --config $pre --trace-out "$d" \
            --json "$d.json" >"$d.log" 2>&1; then
            m=$(json "$d.json" "k['model_cycles']"); c=$(json "$d.json" "k['cycles']")
            # the grid is gy x gx blocks of 96 x 96, gy the largest divisor of
            # the SM count not above its square root; K = 16 x 2
            gy=1; for ((i = 1; i * i <= sms; i++)); do [ $((sms % i)) = 0 ] && gy=$i; done
            M=$((96 * gy)) N=$((96 * sms / gy)) K=32 warps=$((sms * 8))
            if [ $k = sgemm_rb6_lds64 ]; then want="$((M * N * K / 32)) $((warps * 2 * 96)) 0"
            else want="$((M * N * K / 32)) $((warps * 2 * 64)) $((warps * 2 * 16))"; fi
            got=$(opcount "$d/kernel-1.traceg")
            [ "$m" -gt 0 ] && [ "$c" -gt 0 ] && [ "$got" = "$want" ] && grep -q "M $M N $N K $K" "$d.log" \
                && ok "validate $k on $pre: C checked (M $M N $N K $K); FMAs, v2, v4 shared loads $got; TEG $c, cycle model $m cycles" \
                || bad "validate $k on $pre: FMAs, v2, v4 loads $got, expected $want; TEG $c, model $m"
        else bad "validate $k on $pre: $(tail -2 "$d.log")"; fi
        rm -rf "$d"
    done
done
"$SMC" teg validate --kernel sgemm_rb6_lds128 --warps 4 --config kepler-k20x >"$T/v-bad.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "warps 4: sgemm_rb6_lds128's blocks are 8 warps (256 threads), so W is 8 or 16" "$T/v-bad.log" \
    && ok "validate: sgemm with --warps 4 exits 2 naming the kernel and W = 8 or 16" \
    || bad "validate: sgemm --warps 4: exit $rc, $(head -1 "$T/v-bad.log")"

# a bad trace: a warp without instructions is refused, naming file and block
{ header 0 2 32; tb 0; warp 0 0; echo "#END_TB"; tb 1; warp 0 21
  for i in $(seq 1 21); do printf "%04x ffffffff 1 R1 ADD.FP32 2 R1 R2 0\n" $((i * 16)); done
  echo "#END_TB"; } | mklist empty
teg empty; rc=$?
[ $rc = 1 ] && grep -q "kernel-1.traceg: thread block 0,0,0: warp 0 has no instructions" "$T/empty.log" \
    && ok "14: a trace's empty warp is an error naming file and block (exit 1)" \
    || bad "14: empty warp: exit $rc, $(tail -1 "$T/empty.log")"

# 14. determinism and errors
teg ind4 && cp "$T/ind4.json" "$T/ind4.first" && teg ind4 && cmp -s "$T/ind4.json" "$T/ind4.first" \
    && ok "14: two runs give byte-identical JSON" || bad "14: two runs differ"
"$SMC" teg --trace "$T/ind4/kernelslist.g" --param teg.fp32.nosuch=1 >"$T/e1.log" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "fp32.nosuch" "$T/e1.log" && ok "14: an unknown key is named (exit 1)" \
    || bad "14: unknown key: exit $rc, $(cat "$T/e1.log")"
"$SMC" teg --trace "$T/ind4/kernelslist.g" --param fp32.exec=x >"$T/e2.log" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "fp32.exec" "$T/e2.log" && ok "14: a bad value names its key (exit 1)" \
    || bad "14: bad value: exit $rc, $(cat "$T/e2.log")"
"$SMC" teg --trace "$T/none/kernelslist.g" >"$T/e3.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "none/kernelslist.g" "$T/e3.log" && ok "14: an unreadable list is named (exit 2)" \
    || bad "14: unreadable list: exit $rc, $(cat "$T/e3.log")"
printf "%s\n" "engines = 1" "smem.group = 99" >"$T/bad.cfg"
"$SMC" teg --trace "$T/ind4/kernelslist.g" --params "$T/bad.cfg" >"$T/e4.log" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "bad.cfg:2" "$T/e4.log" && ok "14: a bad parameter file names file and line" \
    || bad "14: bad file: exit $rc, $(cat "$T/e4.log")"
"$SMC" teg --trace "$T/ind4/kernelslist.g" --what-if faster >"$T/e5.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "'faster'" "$T/e5.log" && ok "14: an unknown what-if is named (exit 2)" \
    || bad "14: bad what-if: exit $rc"
"$SMC" teg --trace "$T/ind4/kernelslist.g" --json /nonexistent/dir/x.json >"$T/e6.log" 2>&1; rc=$?
[ $rc = 1 ] && [ ! -e /nonexistent/dir/x.json ] && ok "14: an unwritable --json fails (exit 1)" \
    || bad "14: unwritable json: exit $rc"

# --compare: the cycle model on the same trace, beside TEG
if "$SMC" teg --trace "$T/dep21/kernelslist.g" --config kepler-k20x --compare --json "$T/cmp.json" \
       >"$T/cmp.log" 2>&1; then
    m=$(json "$T/cmp.json" "k['model_cycles']")
    [ "${m:-0}" -gt 0 ] && ok "--compare: the cycle model's cycles beside TEG's ($m)" \
        || bad "--compare: no model cycles"
else bad "--compare: $(tail -2 "$T/cmp.log")"; fi

# 16. teg params --params gt200: Table 3.1 (003 L1041-1053), typed from the thesis
"$SMC" teg params --params gt200 >"$T/params.log" 2>&1
want='| Integer ADD | int | 24 | 4 | 8 |
| Integer MUL (16-bit) | int | 24 | 4 | 8 |
| Integer MAD (16-bit) | int | 24 | 4 | 8 |
| Float ADD | fp32 | 24 | 4 | 8 |
| Float MUL | fmul | 24 | 2 | 8 |
| Float MAD | fp32 | 24 | 4 | 8 |
| Double ADD | fp64 | 48 | 32 | 32 |
| Double MUL | fp64 | 48 | 32 | 32 |
| Double FMA | fp64 | 48 | 32 | 32 |'
got=$(grep -E "^\| (Integer|Float|Double) " "$T/params.log")
[ "$got" = "$want" ] && ok "16: teg params prints Table 3.1's nine rows" \
    || bad "16: teg params printed: $got"
"$SMC" teg params --params gt200 --keys >"$T/keys.cfg" 2>&1 \
    && "$SMC" teg params --params "$T/keys.cfg" --keys >"$T/keys2.cfg" 2>&1 \
    && [ "$(tail -n +2 "$T/keys.cfg")" = "$(tail -n +2 "$T/keys2.cfg")" ] \
    && ok "16: --keys prints a file that reads back to the same set" || bad "16: --keys round trip"

# 15. teg bound (the numbers are tests/teg/test_teg_bound.c's): the command runs
"$SMC" teg bound >"$T/bound.log" 2>&1 && grep -q "82.5" "$T/bound.log" && grep -q "57.6" "$T/bound.log" \
    && ok "15: teg bound prints 82.5 % and 57.6 %" || bad "15: teg bound: $(tail -3 "$T/bound.log")"
"$SMC" teg bound --arch gtx9999 >"$T/bound2.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q gtx9999 "$T/bound2.log" && ok "15: an unknown --arch is named (exit 2)" \
    || bad "15: unknown arch: exit $rc"

[ $fails = 0 ] && echo "teg-run: all passed" || echo "teg-run: $fails failed"
exit $((fails > 0))
