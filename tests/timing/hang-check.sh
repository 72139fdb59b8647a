#!/usr/bin/env bash
# Issue 24: an nvcc-built program whose kernel never finishes (a spin on a
# flag no one sets; two blocks each waiting for the other) under
# `smcosim run`, functional and timing mode, --sched c|rtl|lockstep: the
# launch is reported hung within the configured watchdog budget
# (gpu.watchdog_insts in every mode; gpu.watchdog_cycles=200000 in timing
# mode, issue 24's command), as cudaErrorLaunchTimeout with the kernel,
# CTA, warp, lane and pc; the host continues, its next call sees the error,
# and after cudaDeviceReset it works. SKIP without nvcc.
#   tests/timing/hang-check.sh BUILD_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/cuda-prog.sh
cuda_prog_open "${1:-build}" hang "the CUDA hang program was not run"
fails=0 runs=0
fail() { echo "hang-check: FAIL: $*"; fails=$((fails + 1)); }
# one run: NAME, the budget key=value, smcosim run options...
check() {
  local which=$1 budget=$2; shift 2
  local key=${budget%%=*}
  runs=$((runs + 1))
  # a hang that is not caught would run forever: bound it
  out=$(timeout 300 "$b/bin/smcosim" run "$@" --set "$budget" -- "$prog" "$which" 2>"$tmp/err")
  local rc=$?
  local what="$which $* --set $budget"
  [ $rc -eq 0 ] || { fail "$what: exit $rc"; sed 's/^/  /' "$tmp/err" | tail -5; return; }
  grep -qx "sync cudaErrorLaunchTimeout" <<<"$out" || fail "$what: synchronize did not return cudaErrorLaunchTimeout: $out"
  grep -qx "next cudaErrorLaunchTimeout" <<<"$out" || fail "$what: the next call did not see the error: $out"
  grep -qx "after reset ok" <<<"$out" || fail "$what: the device did not work after the reset: $out"
  # the report: status, reason naming the budget's key, kernel, CTA, warp, lane, pc
  grep -E "SMC_ERR_LAUNCH_TIMEOUT: watchdog: .*\($key\) in kernel .*$which.*, CTA \([01],0,0\), warp [01], lane 0, pc [0-9]+ \(PTX line [0-9]+\)" \
    "$tmp/err" >/dev/null || { fail "$what: no fault report on stderr"; sed 's/^/  /' "$tmp/err" | head -5; }
  # within the budget (timing mode: the statistics printed on stderr)
  if [ "$key" = gpu.watchdog_cycles ]; then
    # (the printed statistics: the JSON is rewritten by the device made after the reset)
    c=$(awk -v k="$which" '/^kernel / { on = index($2, k) > 0 } on && $1 == "cycles" { print $2; exit }' "$tmp/err")
    [ "$c" -gt 200000 ] && [ "$c" -le 200008 ] || fail "$what: stopped at cycle $c, budget 200000"
  fi
}
for which in spin mutual; do
  check "$which" gpu.watchdog_insts=20000 --functional
  for s in c rtl lockstep; do
    check "$which" gpu.watchdog_insts=20000 --sched "$s"
    check "$which" gpu.watchdog_cycles=200000 --sched "$s"
  done
done
if [ $fails -ne 0 ]; then echo "hang-check: $fails of $runs runs failed"; exit 1; fi
echo "hang-check: $runs runs passed (spin and mutual wait; functional + timing c/rtl/lockstep; gpu.watchdog_insts and gpu.watchdog_cycles)"
