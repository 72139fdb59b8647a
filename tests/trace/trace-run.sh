#!/usr/bin/env bash
# trace-run.sh BUILD — trace-driven mode end to end (`smcosim run --trace`,
# docs/traces.md):
#   - the two real traces (tests/trace/real/, xz) on the pascal-titanx preset
#     under the c, rtl and lockstep back ends (and turing-rtx2080ti, c/rtl): same statistics under all three (lockstep: zero
#     mismatches, or the run fails), the same again on a second run, and
#     warp/thread-instruction counts equal to the trace's instruction lines
#     and the popcounts of their masks, counted here with awk;
#   - synthetic traces with hand-computed results: a chain of dependent
#     FFMAs costs the opcode table's latency per link (Pascal 6, Volta 4,
#     sources in csrc/trace/sass_ops.c); a load in each address mode gives
#     the coalescer transactions its addresses make; divergent masks count
#     their lanes; a barrier holds the early warp;
#   - errors: malformed line, unknown opcode, unknown architecture, missing
#     file — each a message naming file, line and field, exit status 1 or 2.
set -u
B=${1:-build}
SMC=$B/bin/smcosim
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }

json() {   # json FILE EXPR: a value of the first launch
    python3 -c "import json,sys; l=json.load(open(sys.argv[1]))['launches'][0]; print($2)" "$1"
}

# ---- the real traces ------------------------------------------------------------
for k in vectoradd-100-32 matrixmul-32-32; do
    list=$HERE/real/$k/kernelslist.g
    lines=$(xz -dc "$HERE/real/$k/kernel-1.traceg.xz" | awk '/^[0-9a-f]+ [0-9a-f]+ /' | wc -l)
    lanes=$(xz -dc "$HERE/real/$k/kernel-1.traceg.xz" | awk '/^[0-9a-f]+ [0-9a-f]+ / {
        m = $2; n = 0
        for (i = 1; i <= length(m); i++) {
            d = index("0123456789abcdef", substr(m, i, 1)) - 1
            while (d) { n += d % 2; d = int(d / 2) }
        }
        s += n } END { print s }')
    for s in c rtl lockstep c; do
        out=$T/$k-$s.json
        [ -e "$out" ] && out=$T/$k-$s-again.json
        if ! "$SMC" run --trace "$list" --config pascal-titanx --sched $s --json "$out" >"$T/log" 2>&1; then
            bad "$k --sched $s: exit status $? ($(tail -2 "$T/log"))"
            continue
        fi
        w=$(json "$out" "l['warp_insts']"); th=$(json "$out" "l['thread_insts']")
        st=$(json "$out" "l['status']")
        if [ "$w" = "$lines" ] && [ "$th" = "$lanes" ] && [ "$st" = SMC_OK ]; then
            ok "$k --sched $s: $w warp-instructions = trace lines, $th thread-instructions = mask popcounts"
        else
            bad "$k --sched $s: warp_insts $w (trace $lines), thread_insts $th (masks $lanes), status $st"
        fi
    done
    # the same statistics under every back end and again (the back end's name aside)
    strip() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); [l.pop('sched') for l in d['launches']]; print(json.dumps(d, sort_keys=True))" "$1"; }
    ref=$(strip "$T/$k-c.json")
    same=1
    for f in "$T/$k-rtl.json" "$T/$k-lockstep.json" "$T/$k-c-again.json"; do
        [ "$(strip "$f")" = "$ref" ] || { same=0; bad "$k: $(basename "$f") differs from the c back end's statistics"; }
    done
    [ $same = 1 ] && ok "$k: c, rtl, lockstep and a second c run give the same statistics on pascal-titanx ($(json "$T/$k-c.json" "l['cycles']") cycles)"
    # the Turing-like preset on the RTL back end (its core is kepler-k20x's size)
    for s in c rtl; do
        "$SMC" run --trace "$list" --config turing-rtx2080ti --sched $s --json "$T/$k-tu-$s.json" >"$T/log" 2>&1 \
            || bad "$k on turing-rtx2080ti --sched $s: $(tail -1 "$T/log")"
    done
    [ "$(strip "$T/$k-tu-c.json")" = "$(strip "$T/$k-tu-rtl.json")" ] \
        && ok "$k: turing-rtx2080ti, c and rtl agree ($(json "$T/$k-tu-c.json" "l['cycles']") cycles)" \
        || bad "$k: turing-rtx2080ti, c and rtl differ"
done

# --report and --fst as for programs
k=$HERE/real/matrixmul-32-32/kernelslist.g
if "$SMC" run --trace "$k" --config pascal-titanx --report "$T/rep.txt" --fst "$T/w.fst" >"$T/log" 2>&1 \
   && grep -q "^total  *1  *4416 " "$T/rep.txt" && [ -s "$T/w.fst" ]; then
    ok "--report and --fst in trace mode"
else bad "--report/--fst in trace mode: $(tail -1 "$T/log")"; fi

# policies: swl refuses a block with more warps than the limit and a barrier
# (the barrier is found in the first block, read before the launch); gto runs
"$SMC" run --trace "$k" --policy swl:8 >"$T/log" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "policy swl:8 lets only 8 warps per SM issue, but a block of 1024 threads has 32 warps" "$T/log" \
    && ok "swl:8 on a 32-warp block with a barrier: refused" || bad "swl:8: exit $rc, $(tail -1 "$T/log")"
"$SMC" run --trace "$k" --policy gto --sched lockstep >"$T/log" 2>&1 \
    && ok "gto under lockstep" || bad "gto under lockstep: $(tail -1 "$T/log")"
# HAWS needs the program: one message, exit 2, no kernel runs
"$SMC" run --trace "$k" --set sched.haws=warp >"$T/log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "sched.haws=warp needs the program itself" "$T/log" && ! grep -q "^kernel " "$T/log" \
    && ok "sched.haws=warp in trace mode: refused before any kernel" || bad "sched.haws in trace mode: exit $rc, $(head -2 "$T/log")"

# ---- synthetic traces -------------------------------------------------------------
# header BINVER GRIDX BLOCKX
header() {
    printf -- "-kernel name = synth\n-kernel id = 1\n-grid dim = (%s,1,1)\n-block dim = (%s,1,1)\n" "$2" "$3"
    printf -- "-shmem = 0\n-nregs = 16\n-binary version = %s\n-cuda stream id = 0\n" "$1"
    printf -- "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
    printf -- "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
    printf -- "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n"
}
mklist() { mkdir -p "$T/$1"; echo kernel-1.traceg >"$T/$1/kernelslist.g"; cat >"$T/$1/kernel-1.traceg"; }
run() {   # run NAME [options]: JSON in $T/NAME.json, messages in $T/NAME.log
    local n=$1; shift
    "$SMC" run --trace "$T/$n/kernelslist.g" --json "$T/$n.json" "$@" >"$T/$n.log" 2>&1
}

# a chain of N dependent FFMAs in one warp: each waits for the previous result
chain() {   # chain BINVER N
    header "$1" 1 32
    printf "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = %d\n" $(($2 + 1))
    for i in $(seq 1 "$2"); do printf "%04x ffffffff 1 R1 FFMA 3 R1 R1 R2 0\n" $((i * 16)); done
    printf "%04x ffffffff 0 EXIT 0 0\n#END_TB\n" $((($2 + 1) * 16))
}
for v in "61 6" "70 4" "75 4" "86 4"; do
    set -- $v
    chain "$1" 10 | mklist chain$1-10; chain "$1" 20 | mklist chain$1-20
    run chain$1-10 && run chain$1-20
    d=$(( $(json "$T/chain$1-20.json" "l['cycles']") - $(json "$T/chain$1-10.json" "l['cycles']") ))
    [ "$d" = $((10 * $2)) ] && ok "binary version $1: 10 more dependent FFMAs take $d cycles (10 x $2)" \
        || bad "binary version $1: 10 more dependent FFMAs take $d cycles, expected $((10 * $2))"
done

# one load per address mode; 128-byte coalescing segments (docs/memory-model.md)
#   base+stride 4 over 32 lanes: 128 contiguous bytes, 1 transaction
#   list: 32 addresses 256 bytes apart: 32 transactions
#   base+deltas 4,4,...: the same 128 bytes as the stride, 1 transaction
#   deltas of 128 over lanes 0..7 (mask 000000ff): 8 transactions
list=""; for l in $(seq 0 31); do list="$list 0x$(printf %x $((0x10000 + l * 256)))"; done
deltas=""; for l in $(seq 1 31); do deltas="$deltas 4"; done
modeload() {   # modeload MASK ADDRESS-PART
    header 61 1 32
    printf "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
    printf "0010 %s 1 R2 LDG.E 1 R4 4 %s\n0020 ffffffff 0 EXIT 0 0\n#END_TB\n" "$1" "$2"
}
check_tx() {   # check_tx NAME WANT WHAT
    if run "$1"; then
        local tx; tx=$(json "$T/$1.json" "l['memory']['coalescer']['transactions']")
        [ "$tx" = "$2" ] && ok "$3: $tx coalescer transactions" || bad "$3: $tx transactions, expected $2"
    else bad "$3: $(tail -1 "$T/$1.log")"; fi
}
modeload ffffffff "1 0x10000 4" | mklist stride; check_tx stride 1 "base+stride load"
modeload ffffffff "0$list" | mklist listm; check_tx listm 32 "address-list load"
modeload ffffffff "2 0x10000$deltas" | mklist delta; check_tx delta 1 "base+deltas load"
modeload 000000ff "2 0x10000 128 128 128 128 128 128 128" | mklist delta8; check_tx delta8 8 "base+deltas load on lanes 0..7"

# a load's dependent waits as on a long-latency load when the load reads
# global or local memory (LDG, LDL) and as on a short one when it reads
# shared memory (LDS): issue slots counted as long_latency_dependence
depload() {   # depload OPCODE: the load, then an FFMA that reads its result
    header 61 1 32
    printf "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
    printf "0010 ffffffff 1 R2 %s 1 R4 4 1 0x100 4\n" "$1"
    printf "0020 ffffffff 1 R1 FFMA 3 R2 R2 R2 0\n0030 ffffffff 0 EXIT 0 0\n#END_TB\n"
}
for op in LDG.E:long LDL:long LDS:short; do
    depload "${op%%:*}" | mklist "dep${op%%[.:]*}"
    if run "dep${op%%[.:]*}"; then
        n=$(json "$T/dep${op%%[.:]*}.json" "l['issue_slots']['long_latency_dependence']")
        if [ "${op##*:}" = long ]; then
            [ "$n" -gt 0 ] && ok "${op%%:*}: its dependent waits on a long-latency load ($n slots)" \
                || bad "${op%%:*}: no slot counted as long-latency dependence"
        else
            [ "$n" = 0 ] && ok "${op%%:*}: its dependent waits on a short-latency load" \
                || bad "${op%%:*}: $n slots counted as long-latency dependence"
        fi
    else bad "${op%%:*} then a dependent: $(tail -1 "$T/dep${op%%[.:]*}.log")"; fi
done

# divergence: masks of 32, 5 and 1 lanes (and a predicated-off EXIT) in each of 2 warps
{ header 70 1 64
  printf "#BEGIN_TB\nthread block = 0,0,0\n"
  for w in 0 1; do
      printf "warp = %d\ninsts = 5\n" $w
      printf "0010 ffffffff 1 R1 IADD3 2 R2 R3 0\n0020 0000001f 1 R1 IADD3 2 R2 R3 0\n"
      printf "0030 80000000 1 R1 IADD3 2 R2 R3 0\n0040 00000000 0 EXIT 0 0\n0050 ffffffff 0 EXIT 0 0\n"
  done
  printf "#END_TB\n"; } | mklist diverge
if run diverge; then
    w=$(json "$T/diverge.json" "l['warp_insts']"); th=$(json "$T/diverge.json" "l['thread_insts']")
    [ "$w" = 10 ] && [ "$th" = $((2 * (32 + 5 + 1 + 0 + 32))) ] \
        && ok "divergent masks: 10 warp-instructions, $th thread-instructions (2 x (32+5+1+0+32))" \
        || bad "divergent masks: $w warp-instructions, $th thread-instructions, expected 10 and 140"
else bad "divergent masks: $(tail -1 "$T/diverge.log")"; fi

# lineinfo (a source line number before each instruction), Volta, two blocks:
# 9 lines; lanes 32+32+4+2+32 + 32+32 + 32+32 = 230
mkdir -p "$T/lineinfo"; cp "$HERE/corpus/lineinfo.traceg" "$T/lineinfo/kernel-1.traceg"
echo kernel-1.traceg >"$T/lineinfo/kernelslist.g"
if run lineinfo --sched lockstep; then
    w=$(json "$T/lineinfo.json" "l['warp_insts']"); th=$(json "$T/lineinfo.json" "l['thread_insts']")
    [ "$w" = 9 ] && [ "$th" = 230 ] && ok "lineinfo trace: 9 warp-instructions, 230 thread-instructions" \
        || bad "lineinfo trace: $w / $th, expected 9 / 230"
else bad "lineinfo trace: $(tail -1 "$T/lineinfo.log")"; fi

# generic addresses: inside the shared window (shmem base_addr) an LD is a
# shared-memory access, elsewhere a global one
generic() {   # generic ADDRESS
    header 70 1 32
    printf "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
    printf "0010 ffffffff 1 R2 LD.E 1 R4 4 1 %s 4\n0020 ffffffff 0 EXIT 0 0\n#END_TB\n" "$1"
}
generic 0x7f0000000100 | mklist gshared; generic 0x10000 | mklist gglobal
if run gshared && run gglobal; then
    a=$(json "$T/gshared.json" "l['memory']['smem']['accesses'], l['memory']['coalescer']['transactions']")
    b=$(json "$T/gglobal.json" "l['memory']['smem']['accesses'], l['memory']['coalescer']['transactions']")
    [ "$a" = "1 0" ] && [ "$b" = "0 1" ] && ok "generic LD: shared window -> shared memory, else global" \
        || bad "generic LD: shared window gives smem/transactions $a, global $b"
else bad "generic: $(tail -1 "$T/gshared.log")"; fi

# a barrier: warp 1 reaches BAR only after 12 dependent FFMAs (Pascal: 6 cycles
# each), so warp 0's instruction after the barrier issues after them; without
# the barrier it does not wait. The difference is at least 11 x 6 cycles.
barrier() {   # barrier OPCODE
    header 61 1 64
    printf "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
    printf "0100 ffffffff 0 %s 0 0\n0110 ffffffff 1 R5 FFMA 2 R5 R5 0\n0120 ffffffff 1 R5 FFMA 2 R5 R5 0\n0130 ffffffff 0 EXIT 0 0\n" "$1"
    printf "warp = 1\ninsts = 14\n"
    for i in $(seq 1 12); do printf "%04x ffffffff 1 R1 FFMA 3 R1 R1 R2 0\n" $((i * 16)); done
    printf "0100 ffffffff 0 %s 0 0\n0130 ffffffff 0 EXIT 0 0\n#END_TB\n" "$1"
}
barrier BAR.SYNC | mklist bar; barrier NOP | mklist nobar
if run bar && run nobar; then
    cb=$(json "$T/bar.json" "l['cycles']"); cn=$(json "$T/nobar.json" "l['cycles']")
    sb=$(json "$T/bar.json" "l['issue_slots']['barrier']")
    [ "$sb" -gt 0 ] && [ "$cb" -ge "$cn" ] \
        && ok "BAR.SYNC: the early warp waits ($sb barrier issue slots; $cb cycles, $cn with NOP)" \
        || bad "BAR.SYNC: $sb barrier slots, $cb cycles vs $cn without"
else bad "barrier: $(tail -1 "$T/bar.log") $(tail -1 "$T/nobar.log")"; fi

# ---- export and round trip (smcosim trace-export) ----------------------------------
# A benchmark run functionally and written as a trace; the trace run in trace
# mode executes as many warp-instructions as the emulator did (the driver's
# warp-insts=), which is also the number of instruction lines in the files.
if [ -x "$B/bin/smcosim-bench" ]; then
    for bench in vectoradd bitonic bfs; do
        d=$T/export-$bench
        if ! "$SMC" trace-export --out "$d" --bench $bench --size small >"$T/export.log" 2>&1; then
            bad "trace-export $bench: $(tail -2 "$T/export.log")"; continue
        fi
        emu=$(sed -n 's/.*warp-insts=\([0-9]*\).*/\1/p' "$T/export.log" | head -1)
        lines=$(cat "$d"/kernel-*.traceg | awk '/^[0-9a-f]+ [0-9a-f]+ /' | wc -l)
        nk=$(grep -c traceg "$d/kernelslist.g")
        if "$SMC" run --trace "$d/kernelslist.g" --json "$T/rt-$bench.json" >"$T/rt.log" 2>&1; then
            w=$(python3 -c "import json,sys; print(sum(l['warp_insts'] for l in json.load(open(sys.argv[1]))['launches']))" "$T/rt-$bench.json")
            [ "$w" = "$emu" ] && [ "$w" = "$lines" ] \
                && ok "round trip $bench: $nk kernels, $w warp-instructions (emulator $emu, trace lines $lines)" \
                || bad "round trip $bench: trace mode $w, emulator $emu, trace lines $lines"
        else bad "round trip $bench: $(tail -1 "$T/rt.log")"; fi
    done
    grep -q "^MemcpyHtoD,0x" "$T/export-vectoradd/kernelslist.g" && ok "export: MemcpyHtoD lines in kernelslist.g" \
        || bad "export: no MemcpyHtoD line"
fi

# ---- errors -------------------------------------------------------------------------
expect_err() {   # expect_err NAME STATUS TEXT WHAT
    run "$1"; local rc=$?
    if [ $rc = "$2" ] && grep -qF -- "$3" "$T/$1.log"; then ok "$4: exit $rc, '$3'"
    else bad "$4: exit $rc (want $2), log: $(grep -v '^ ' "$T/$1.log" | tail -2)"; fi
}
{ header 61 1 32; printf "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
  printf "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x1000\n0020 ffffffff 0 EXIT 0 0\n#END_TB\n"; } | mklist malformed
expect_err malformed 1 "kernel-1.traceg:21: field 'stride'" "malformed instruction line"
{ header 61 1 32; printf "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
  printf "0010 ffffffff 1 R2 IADD3.X 2 R4 R5 0\n0020 ffffffff 0 EXIT 0 0\n#END_TB\n"; } | mklist unknown
expect_err unknown 1 "kernel-1.traceg:21: field 'opcode': unknown SASS opcode 'IADD3' for Pascal (binary version 61)" "unknown opcode"
{ header 35 1 32; printf "#BEGIN_TB\n#END_TB\n"; } | mklist kepler
expect_err kepler 1 "field 'binary version': no SASS opcode table for 35" "unknown architecture"
{ header 61 2 32; printf "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 1\n0020 ffffffff 0 EXIT 0 0\n#END_TB\n"; } | mklist missing
expect_err missing 1 "thread block 0,0,0 of the grid (2,1,1) is not in the trace" "missing thread block"
mkdir -p "$T/nofile"; echo kernel-9.traceg >"$T/nofile/kernelslist.g"
expect_err nofile 1 "kernel-9.traceg: cannot open" "missing kernel file"
"$SMC" run --trace "$T/none/kernelslist.g" >"$T/none.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "cannot open" "$T/none.log" && ok "missing list: exit 2" || bad "missing list: exit $rc"
"$SMC" run --trace "$T/stride/kernelslist.g" -- /bin/true >"$T/both.log" 2>&1; rc=$?
[ $rc = 2 ] && ok "--trace with a program: exit 2" || bad "--trace with a program: exit $rc"

if [ $fails -ne 0 ]; then echo "trace-run: $fails failed"; exit 1; fi
echo "trace-run: all passed"
