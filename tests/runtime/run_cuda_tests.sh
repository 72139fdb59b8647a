#!/usr/bin/env bash
# run_cuda_tests.sh BUILD_DIR [--asan] — run the CUDA test programs of tests/runtime/
# (built by csrc/runtime/module.mk) on the simulator through the project's
# libcudart.so.13, and `smcosim run` on them when the CLI is built.
#
# Each program asserts its own results against CPU-computed values; this
# script checks exit codes, that the launches really went through the
# simulator (statistics file), and the messages on stderr. It prints
# "SKIP: ..." and succeeds when nvcc or the runtime library is absent.
# With --asan (the ASan/UBSan pass, BUILD_DIR = build/asan) the sanitizer
# runtimes are preloaded, since the nvcc-built programs are not instrumented.
set -u
B=${1:-build}
PRELOAD=
if [ "${2:-}" = "--asan" ]; then
    PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
fi
LIB=$B/lib/libcudart.so.13
CU=$B/tests/runtime/cu
CLI=$B/bin/smcosim

NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
if [ -z "$NVCC" ]; then
    echo "SKIP: nvcc not found: the CUDA test programs were not built"
    exit 0
fi
if [ ! -f "$LIB" ]; then
    echo "SKIP: $LIB not built (it needs the CUDA headers and the emulator in csrc/emu/)"
    exit 0
fi

pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; sed 's/^/     | /' "$tmp/out" "$tmp/err" | head -40; }

# run NAME EXPECTED_STATUS PROGRAM ARGS... : runs with our library first
run() {
    local name=$1 want=$2; shift 2
    rm -f "$tmp/stats"
    LD_LIBRARY_PATH="$(cd "$B/lib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    LD_PRELOAD="$PRELOAD" SMCOSIM_STATS_FILE="$tmp/stats" "$@" >"$tmp/out" 2>"$tmp/err"
    local st=$?
    if [ "$st" -ne "$want" ]; then
        bad "$name: exit status $st, expected $want"
        return 1
    fi
    return 0
}
expect_out() { grep -qF -- "$2" "$tmp/out" && ok "$1" || bad "$1: stdout lacks '$2'"; }
expect_err() { grep -qF -- "$2" "$tmp/err" && ok "$1" || bad "$1: stderr lacks '$2'"; }
expect_stats() { grep -q "^launch	$2	" "$tmp/stats" 2>/dev/null && ok "$1" || bad "$1: no launch of $2 in the statistics file"; }

for variant in zstd plain lz4; do
    if run "rt_api ($variant)" 0 "$CU/rt_api_$variant"; then
        expect_out "rt_api ($variant): all checks" "rt_api: all checks passed"
        expect_stats "rt_api ($variant): ran on the simulator" _Z5saxpyfPKfPfi
        # Event time = ceil(warp-insts / SMs) cycles / clock (docs/runtime.md),
        # for the one saxpy launch of 32 blocks of 128 threads between events.
        read -r ms sms khz < <(sed -n 's/^rt_api: event_ms \([^ ]*\) sms \([0-9]*\) clock_khz \([0-9]*\)$/\1 \2 \3/p' "$tmp/out")
        warp=$(awk -F'\t' '$1=="launch" && $2=="_Z5saxpyfPKfPfi" && $3=="32,1,1" {print $5; exit}' "$tmp/stats")
        if [ -n "${ms:-}" ] && [ -n "$warp" ] && awk -v ms="$ms" -v w="$warp" -v s="$sms" -v k="$khz" \
            'BEGIN { c = int((w + s - 1) / s); want = c / k; d = ms - want; if (d < 0) d = -d;
                     exit !(want > 0 && d <= 1e-6 * want) }'; then
            ok "rt_api ($variant): event time = ceil($warp warp-insts / $sms SMs) cycles at $khz kHz"
        else
            bad "rt_api ($variant): event time ${ms:-?} ms does not match $warp warp-insts / ${sms:-?} SMs at ${khz:-?} kHz"
        fi
    fi
done

if run "rt_fault" 0 "$CU/rt_fault"; then
    expect_out "rt_fault: all checks" "rt_fault: all checks passed"
    expect_err "rt_fault: report names the kernel and CTA" \
        "smcosim: device fault: SMC_ERR_ILLEGAL_ADDRESS in kernel _Z14store_past_endPiii, CTA ("
    for field in "warp " "lane " "PC " "PTX line "; do
        expect_err "rt_fault: report has '$field'" "$field"
    done
    n=$(grep -c "smcosim: device fault: SMC_ERR_ILLEGAL_ADDRESS" "$tmp/err")
    [ "$n" -eq 1 ] && ok "rt_fault: report printed once" || bad "rt_fault: report printed $n times"
    grep -q "^fault	SMC_ERR_ILLEGAL_ADDRESS" "$tmp/stats" && ok "rt_fault: fault in statistics" \
        || bad "rt_fault: no fault line in the statistics file"
    expect_out "rt_fault: device printf reaches stdout" "rt_fault: device says 0"
    expect_err "rt_fault: device assert reported" "smcosim: device fault: SMC_ERR_ASSERT in kernel _Z18check_non_negativePKii, CTA (2,0,0)"
    grep -q "^fault	SMC_ERR_ASSERT" "$tmp/stats" && ok "rt_fault: both faults in statistics" \
        || bad "rt_fault: no assert fault line in the statistics file"
    # The failed assert printed as a GPU prints it. Only p[77] is negative:
    # 32 threads per block, so block 77/32 = 2, thread 77%32 = 13; the file
    # is what nvcc was given and the line is the assert's in the source.
    aline=$(grep -n 'assert(p\[i\] >= 0);' tests/runtime/rt_fault.cu | cut -d: -f1)
    expect_err "rt_fault: assert message as a GPU prints it" \
        "tests/runtime/rt_fault.cu:$aline: void check_non_negative(const int *, int): block: [2,0,0], thread: [13,0,0] Assertion \`p[i] >= 0\` failed."
fi

# Every device attribute answers; the modelled ones follow the configuration
# (checked against what `smcosim config` prints for the preset).
if run "rt_attrs" 0 "$CU/rt_attrs"; then
    expect_out "rt_attrs: every cudaDeviceAttr answers, props agree" "all checks passed"
fi
if [ -x "$CLI" ] && SMCOSIM_CONFIG=fermi-gtx480 run "rt_attrs (fermi-gtx480)" 0 "$CU/rt_attrs"; then
    cfg() { "$CLI" config --config fermi-gtx480 | awk -v k="$1" '$1 == k { print $3 }'; }
    attr() { awk -v a="$1" '$1 == "attr" && $2 == a { print $3 }' "$tmp/out"; }
    for pair in "cudaDevAttrMultiProcessorCount mem.num_sms 1" \
                "cudaDevAttrClockRate gpu.clock_mhz 1000" \
                "cudaDevAttrMaxBlocksPerMultiprocessor sm.max_ctas 1" \
                "cudaDevAttrMaxRegistersPerMultiprocessor sm.regs 1"; do
        set -- $pair
        want=$(( $(cfg "$2") * $3 ))
        [ "$(attr "$1")" = "$want" ] && ok "rt_attrs: $1 = $2 of the preset ($want)" \
            || bad "rt_attrs: $1 is '$(attr "$1")', the preset's $2 gives $want"
    done
fi

# Thrust and CUB: functional mode, then timing mode (C model back end).
if SMCOSIM_MODE=functional run "rt_thrust (functional)" 0 "$CU/rt_thrust"; then
    expect_out "rt_thrust (functional): sort, reduce, scan, transform, CUB block/warp" "rt_thrust: all checks passed"
fi
if SMCOSIM_MODE=timing run "rt_thrust (timing)" 0 "$CU/rt_thrust"; then
    expect_out "rt_thrust (timing): sort, reduce, scan, transform, CUB block/warp" "rt_thrust: all checks passed"
fi

if run "rt_bf16" 0 "$CU/rt_bf16"; then
    expect_out "rt_bf16: bf16 conversions, +, *, fma against a CPU reference" "rt_bf16: all checks passed"
fi

if run "rt_simd" 0 "$CU/rt_simd"; then
    expect_out "rt_simd: __vabs*/__vsad* (video instructions), __fns, __prof_trigger" "rt_simd: all checks passed"
fi

# The occupancy API answers what the timing model does (allocation units
# included): the answer equals the launch's blocks_per_sm in the JSON and
# floor(sm.smem / roundup(9800, sm.smem_alloc_unit)) from the preset's keys.
if [ -x "$CLI" ] && SMCOSIM_MODE=timing SMCOSIM_JSON="$tmp/occ.json" run "rt_occupancy" 0 "$CU/rt_occupancy"; then
    got=$(sed -n 's/^rt_occupancy: \([0-9]*\) blocks per SM.*/\1/p' "$tmp/out")
    json=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['launches'][0]['blocks_per_sm'])" "$tmp/occ.json" 2>/dev/null)
    key() { "$CLI" config | awk -v k="$1" '$1 == k { print $3 }'; }
    smem=$(key sm.smem); unit=$(key sm.smem_alloc_unit)
    want=$(( smem / (( (9800 + unit - 1) / unit ) * unit) ))
    [ -n "$got" ] && [ "$got" = "$json" ] && [ "$got" = "$want" ] &&
        ok "rt_occupancy: cudaOccupancyMaxActiveBlocksPerMultiprocessor = launch's blocks_per_sm = $want" ||
        bad "rt_occupancy: API says '${got:-?}', the launch had '${json:-?}', the keys give $want"
fi

# The locality hint from CUDA source (smcosimSetNextLaunchHint,
# csrc/include/smcosim_cuda.h; docs/locality.md): the first launch has hint
# 2 in the JSON, the next (no call) and the one after a rejected value none.
if SMCOSIM_MODE=timing SMCOSIM_JSON="$tmp/loc.json" run "rt_locality" 0 "$CU/rt_locality"; then
    expect_out "rt_locality: hinted launch computes the same" "rt_locality: all checks passed"
    expect_err "rt_locality: a bad hint is reported" "smcosimSetNextLaunchHint: hint 7 is not one of 0..3"
    hints=$(python3 -c "import json,sys; print(' '.join('%s:%s' % (l['kernel'], l.get('locality_hint', 0)) for l in json.load(open(sys.argv[1]))['launches']))" "$tmp/loc.json" 2>/dev/null)
    [ "$hints" = "_Z4rowsPii:2 _Z4colsPii:0 _Z4rowsPii:0" ] &&
        ok "rt_locality: the hint goes to the next launch only ($hints)" ||
        bad "rt_locality: launches and hints '$hints', expected '_Z4rowsPii:2 _Z4colsPii:0 _Z4rowsPii:0'"
fi

# malloc/free and new/delete in kernels, functional and timing mode; a bad
# free() is a device fault that names the address.
for mode in functional timing; do
    if SMCOSIM_MODE=$mode run "rt_malloc ($mode)" 0 "$CU/rt_malloc"; then
        expect_out "rt_malloc ($mode): device heap, NULL beyond it, a bad free faults" "rt_malloc: all checks passed"
        expect_err "rt_malloc ($mode): the bad free is named" "not a block from malloc() in a kernel"
    fi
done

# Cooperative launches: grid.sync() between the phases of a grid reduction,
# functional mode (all CTAs interleaved) and timing mode (all CTAs resident);
# a grid one block larger than fits co-resident is refused.
for mode in functional timing; do
    if SMCOSIM_MODE=$mode run "rt_coop ($mode)" 0 "$CU/rt_coop"; then
        expect_out "rt_coop ($mode): grid.sync() reduction matches the CPU, too large refused" "rt_coop: all checks passed"
        expect_err "rt_coop ($mode): the refusal is named" "SMC_ERR_COOPERATIVE_TOO_LARGE"
        if [ "$mode" = timing ]; then
            n=$(awk -F'\t' '$1 == "launch" && $5 > 0' "$tmp/stats" 2>/dev/null | wc -l)
            [ "$n" -eq 3 ] && ok "rt_coop (timing): 3 timed launches with cycles" || bad "rt_coop (timing): $n timed launches in the statistics, expected 3"
        fi
    fi
done

# Block reductions: the ballot-masked second stage whose shuffles read lanes
# that do not execute them (they give 0), multi-warp tiled_partition<64..512>
# and tiled_partition<16>/<8>, against CPU sums; functional and timing mode.
for mode in functional timing; do
    if SMCOSIM_MODE=$mode run "rt_warpreduce ($mode)" 0 "$CU/rt_warpreduce"; then
        expect_out "rt_warpreduce ($mode): ballot, multi-warp and small-tile reductions match the CPU" "rt_warpreduce: all checks passed"
        expect_stats "rt_warpreduce ($mode): ran on the simulator" _Z13reduce_ballotPKiPij
    fi
done

# Device-side C++ (docs/emulator.md "Calls"): virtual functions of objects
# made with new (lanes of a warp reach different overrides), function-pointer
# tables and pointers passed as kernel arguments, recursion; functional and
# timing mode, with the register-allocation verifier on (a call saves and
# restores the callee's registers). A call through a data pointer and a
# recursion deeper than the call stack are device faults that say so.
for mode in functional timing; do
    for prog in rt_virtual rt_fnptr rt_recursion; do
        if SMCOSIM_MODE=$mode SMC_VERIFY_REGALLOC=1 run "$prog ($mode)" 0 "$CU/$prog"; then
            expect_out "$prog ($mode): results match the CPU" "$prog: all checks passed"
        fi
    done
    if SMCOSIM_MODE=$mode run "rt_fnptr bad-call ($mode)" 0 "$CU/rt_fnptr" bad-call; then
        expect_out "rt_fnptr bad-call ($mode): cudaErrorIllegalAddress" "rt_fnptr: bad call gives cudaErrorIllegalAddress"
        expect_err "rt_fnptr bad-call ($mode): the fault names the address" "indirect call to 0x"
        expect_err "rt_fnptr bad-call ($mode): and the kernel, warp and lane" \
            "SMC_ERR_ILLEGAL_ADDRESS in kernel _Z9call_dataPiPFiiiE, CTA (0,0,0), warp 0, lane 0, PC "
    fi
    if SMCOSIM_MODE=$mode run "rt_recursion overflow ($mode)" 0 "$CU/rt_recursion" overflow; then
        expect_out "rt_recursion overflow ($mode): cudaErrorLaunchFailure" "recursion 10^6 deep gives cudaErrorLaunchFailure"
        expect_err "rt_recursion overflow ($mode): the fault names the function and depth" \
            "stack overflow: call of '_Z4deepPii' at call depth "
        expect_err "rt_recursion overflow ($mode): and the kernel and warp" \
            "SMC_ERR_LAUNCH_FAILED in kernel _Z8too_deepPii, CTA (0,0,0), warp 0, lane 0, PC "
    fi
done
# the same under `smcosim run` with hint-assisted scheduling (an out-of-line
# call or ret ends every HAWS chain)
if [ -x "$CLI" ]; then
    for prog in rt_virtual rt_fnptr rt_recursion; do
        if LD_PRELOAD="$PRELOAD" "$CLI" run --set sched.haws=warp --policy lrr -- "$CU/$prog" >"$tmp/out" 2>"$tmp/err"; then
            expect_out "$prog (smcosim run, HAWS): results match the CPU" "$prog: all checks passed"
        else
            bad "$prog (smcosim run, HAWS): exit status $?"
        fi
    done
fi

# Calls no other program makes (channel descriptors, cache config, memory
# info, stream priorities and ids, async symbol copies, 2D memset,
# cudaLaunchKernelExC, prefetch), and the same built with
# --default-stream per-thread (the *_ptds / *_ptsz entry points).
for prog in rt_misc rt_misc_ptds; do
    if run "$prog" 0 "$CU/$prog"; then
        expect_out "$prog: every call answers as a program relies on" "rt_misc: all checks passed"
    fi
done

# Functions the simulator cannot honour load, return cudaErrorNotSupported
# and say so once each, naming the function.
if run "rt_unsupported" 0 "$CU/rt_unsupported"; then
    expect_out "rt_unsupported: calls fail, the program carries on" "rt_unsupported: all checks passed"
    expect_err "rt_unsupported: the line names the function" \
        "smcosim runtime: cudaIpcGetMemHandle is not supported by the simulator"
    n=$(grep -c "cudaIpcGetMemHandle is not supported" "$tmp/err")
    [ "$n" -eq 1 ] && ok "rt_unsupported: said once for two calls" || bad "rt_unsupported: said $n times"
    expect_err "rt_unsupported: a second function is named too" "cudaImportExternalMemory is not supported"
fi

# Host functions and callbacks, registered host memory, peer access, stream
# attributes, the default memory pool, cudaLaunchKernelEx.
if run "rt_stream" 0 "$CU/rt_stream"; then
    expect_out "rt_stream: host functions, host register, pools, attributes, launch ex" "rt_stream: all checks passed"
    expect_err "rt_stream: refused cluster launch says why" "thread block clusters"
fi

# CUDA graphs built by hand and by stream capture.
if run "rt_graph" 0 "$CU/rt_graph"; then
    expect_out "rt_graph: graphs and stream capture" "rt_graph: all checks passed"
    expect_stats "rt_graph: graph kernels ran on the simulator" _Z6axpb_iPiS_ii
fi

if run "rt_multiarch" 0 "$CU/rt_multiarch"; then
    expect_out "rt_multiarch: compute_75 PTX chosen and run" "rt_image: all checks passed"
fi

if run "rt_sass" 0 "$CU/rt_sass" --expect-no-image; then
    expect_out "rt_sass: launch fails with cudaErrorNoKernelImageForDevice" "no usable image, as expected"
    expect_err "rt_sass: message names what was found" "found: sm_75 (SASS)"
    expect_err "rt_sass: message says how to rebuild" "rebuild with -gencode arch=compute_75,code=compute_75"
fi

if run "rt_rdc" 0 "$CU/rt_rdc" --expect-no-image; then
    expect_out "rt_rdc: launch fails with cudaErrorNoKernelImageForDevice" "no usable image, as expected"
    expect_err "rt_rdc: message says -rdc is not supported" "relocatable device code (-rdc) and separately linked device code are not supported"
fi

# Host threads: eight threads allocate, copy, launch, record events and add
# callbacks at once, round after round. One run proves little about a race,
# so it runs RT_THREADS_RUNS times (default 200, about 20 ms each; 20 in
# the slower ASan/UBSan pass), in functional mode, then once in timing mode.
runs=${RT_THREADS_RUNS:-$([ -n "$PRELOAD" ] && echo 20 || echo 200)}
failed_at=
for i in $(seq 1 "$runs"); do
    if ! SMCOSIM_MODE=functional run "rt_threads (run $i of $runs)" 0 "$CU/rt_threads" ||
       ! grep -qF "rt_threads: all checks passed" "$tmp/out"; then
        failed_at=$i
        break
    fi
done
if [ -z "$failed_at" ]; then
    ok "rt_threads: $runs runs of 8 host threads, no crash, every result right"
else
    bad "rt_threads: run $failed_at of $runs failed"
fi
if SMCOSIM_MODE=timing run "rt_threads (timing)" 0 "$CU/rt_threads"; then
    expect_out "rt_threads (timing): 8 host threads on the timing model" "rt_threads: all checks passed"
    n=$(awk -F'\t' '$1 == "launch" && $5 > 0' "$tmp/stats" 2>/dev/null | wc -l)
    [ "$n" -eq 96 ] && ok "rt_threads (timing): all 96 launches recorded" || bad "rt_threads (timing): $n launches recorded, expected 96"
fi

# exit() while another thread's CUDA call never returns: the process ends
# (the exit path waits for the API lock two seconds at most) and the
# statistics file is written.
if run "rt_threads exit-during-callback" 0 timeout 30 "$CU/rt_threads" exit-during-callback; then
    expect_out "rt_threads: exit while a host function blocks" "exiting while a host function blocks"
    expect_stats "rt_threads: the statistics file is written at that exit" _Z10add_kernelPiii
fi

if [ -x "$CLI" ]; then
    export LD_PRELOAD="$PRELOAD"
    if "$CLI" run --report "$tmp/report" -- "$CU/rt_api_zstd" >"$tmp/out" 2>"$tmp/err"; then
        expect_out "smcosim run: program output passes through" "rt_api: all checks passed"
        expect_err "smcosim run: per-kernel table" "_Z5saxpyfPKfPfi"
        grep -q "_Z5saxpyfPKfPfi" "$tmp/report" && ok "smcosim run: --report written" \
            || bad "smcosim run: --report lacks the kernel"
    else
        bad "smcosim run rt_api_zstd: exit status $?"
    fi
    "$CLI" run -- "$CU/rt_sass" >"$tmp/out" 2>"$tmp/err"
    st=$?
    [ "$st" -eq 1 ] && ok "smcosim run: exit status is the program's" \
        || bad "smcosim run rt_sass: exit status $st, expected 1"
    "$CLI" run --bogus -- true >"$tmp/out" 2>"$tmp/err"
    st=$?
    [ "$st" -eq 2 ] && grep -qF -- "--bogus" "$tmp/err" && ok "smcosim run: unknown option rejected" \
        || bad "smcosim run --bogus: status $st"
else
    echo "SKIP: $CLI not built: 'smcosim run' not tested"
fi

echo "runtime CUDA tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
