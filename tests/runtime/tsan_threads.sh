#!/usr/bin/env bash
# tsan_threads.sh BUILD_DIR — the host-thread program (rt_threads.cu) on the
# ThreadSanitizer build of the runtime (BUILD_DIR = build/tsan, `make
# check-tsan`). The program itself is not instrumented: what is checked is
# every access the runtime and the simulator behind it make while eight host
# threads call CUDA at once. Any report fails the suite.
set -u
B=${1:-build/tsan}
LIB=$B/lib/libcudart.so.13
PROG=$B/tests/runtime/cu/rt_threads
if [ ! -x "$PROG" ]; then
    echo "SKIP: $PROG not built (needs nvcc)"
    exit 0
fi
[ -f "$LIB" ] || { echo "FAIL: $LIB not built"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
for mode in functional timing; do
    LD_PRELOAD="$(gcc -print-file-name=libtsan.so)" \
    LD_LIBRARY_PATH="$(cd "$B/lib" && pwd)" SMCOSIM_MODE=$mode \
    TSAN_OPTIONS="halt_on_error=1 exitcode=66 report_signal_unsafe=0" \
        "$PROG" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ "$st" -eq 0 ] && grep -qF "rt_threads: all checks passed" "$tmp/out" &&
       ! grep -q "ThreadSanitizer" "$tmp/err"; then
        pass=$((pass + 1)); echo "ok   rt_threads ($mode) under ThreadSanitizer: no report"
    else
        fail=$((fail + 1)); echo "FAIL rt_threads ($mode) under ThreadSanitizer: exit status $st"
        head -60 "$tmp/err" | sed 's/^/     | /'
    fi
done
echo "tsan runtime tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
