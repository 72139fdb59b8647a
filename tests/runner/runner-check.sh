#!/usr/bin/env bash
# scripts/run-tests.sh judges skips: a listed skip passes, an unlisted one
# fails its suite, a listed skip that no longer happens fails, a skip for the
# missing nvcc is reported and fails nothing, and a suite's exit status counts.
# Suites run TEST_JOBS at a time, and their output still reads in the order
# they were named, each suite's lines together, with each one's time.
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }

# Fake suites: a cmocka-style one that skips "t_skip", a script that skips.
cat >"$tmp/cm_suite" <<'S'
#!/bin/sh
echo "[==========] tests: Running 2 test(s)."
echo "SKIP (emulator reports unsupported): says why"
echo "[  SKIPPED ] t_skip"
echo "[  SKIPPED ] 1 test(s), listed below:"
echo "[  SKIPPED ] t_skip"
S
printf '#!/bin/sh\necho "SKIP: something was not built"\n' >"$tmp/sh_suite"
printf '#!/bin/sh\necho "SKIP: nvcc not found; programs not built"\n' >"$tmp/nvcc_suite"
printf '#!/bin/sh\necho "[==========] tests: Running 1 test(s)."\necho "[  PASSED  ] 1 test(s)."\n' >"$tmp/cm_clean"
printf '#!/bin/sh\nexit 3\n' >"$tmp/exits"
chmod +x "$tmp"/*

unset SUITE_TIMES   # a caller's file (make test's) is not this test's
run() { SMCOSIM_EXPECTED_SKIPS="$tmp/list" scripts/run-tests.sh t "$@" >"$tmp/out" 2>&1; }

printf 'cm_suite | t_skip | reason\n' >"$tmp/list"
run "$tmp/cm_suite"; rc=$?
[ $rc -eq 0 ] && grep -qx 'suites: 1 passed, 0 failed' "$tmp/out" && grep -q 'cm_suite | t_skip' "$tmp/out"
check "a listed cmocka skip passes and is printed" $?

printf '# nothing listed\n' >"$tmp/list"
run "$tmp/cm_suite"; rc=$?
[ $rc -ne 0 ] && grep -q 'unexpected skips' "$tmp/out" && grep -qx 'suites: 0 passed, 1 failed' "$tmp/out"
check "an unlisted cmocka skip fails its suite" $?

run "$tmp/sh_suite"; rc=$?
[ $rc -ne 0 ] && grep -q 'sh_suite | SKIP: something was not built' "$tmp/out"
check "an unlisted script skip fails its suite" $?

printf 'cm_clean | t_gone | reason\nt:cm_suite | t_skip | label-only\n' >"$tmp/list"
run "$tmp/cm_clean" "$tmp/cm_suite"; rc=$?
[ $rc -ne 0 ] && grep -q 'no longer skip' "$tmp/out" && grep -q 'cm_clean | t_gone' "$tmp/out" &&
  grep -qx 'suites: 1 passed, 1 failed' "$tmp/out"
check "a listed skip that no longer happens fails; a LABEL:suite line matches that label" $?

run "$tmp/nvcc_suite"; rc=$?
[ $rc -eq 0 ] && grep -q 'WARNING: nvcc is not installed' "$tmp/out"
check "a skip for the missing nvcc is reported loudly and fails nothing" $?

run "$tmp/exits"; rc=$?
[ $rc -ne 0 ] && grep -qx 'suites: 0 passed, 1 failed' "$tmp/out"
check "a suite's non-zero exit fails it" $?

# Two at a time: "waits" ends only once "signals" (named after it) has run,
# so with one at a time it would time out; the log still shows "waits" first,
# whole, then "signals".
cat >"$tmp/waits" <<S
#!/bin/sh
echo "waits: line 1"
i=0; while [ ! -f "$tmp/flag" ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
[ -f "$tmp/flag" ] && echo "waits: line 2"
S
printf '#!/bin/sh\necho "signals: ran"\ntouch "%s/flag"\n' "$tmp" >"$tmp/signals"
chmod +x "$tmp/waits" "$tmp/signals"
printf '# nothing listed\n' >"$tmp/list"
TEST_JOBS=2 SUITE_TIMES="$tmp/times" run "$tmp/waits" "$tmp/exits" "$tmp/signals"; rc=$?
grep -E '^(waits|signals|=== \[t\] (ok|FAIL))' "$tmp/out" | sed "s|$tmp/||" >"$tmp/order"
printf '%s\n' "waits: line 1" "waits: line 2" "=== [t] ok   waits (0s)" "=== [t] FAIL exits (0s)" \
  "signals: ran" "=== [t] ok   signals (0s)" >"$tmp/want"
[ $rc -ne 0 ] && grep -qx 'suites: 2 passed, 1 failed' "$tmp/out" &&
  sed 's/([0-9]*s)$/(0s)/' "$tmp/order" | cmp -s - "$tmp/want" &&
  [ "$(wc -l <"$tmp/times")" -eq 3 ] && grep -q ' 2 at a time' "$tmp/out"
check "TEST_JOBS=2 runs suites side by side and prints each whole, in order" $?
rm -f "$tmp/flag"
TEST_JOBS=1 run "$tmp/signals" "$tmp/waits"; rc=$?
[ $rc -eq 0 ] && grep -qx 'suites: 2 passed, 0 failed' "$tmp/out"
check "TEST_JOBS=1 runs them one after another" $?
TEST_JOBS=x run "$tmp/signals"; rc=$?
[ $rc -eq 2 ] && grep -q 'TEST_JOBS must be a positive number' "$tmp/out"
check "a bad TEST_JOBS is named" $?

# A suite's CPU seconds are its processes' (here 1.2 s of a child's CPU).
printf '#!/bin/sh\npython3 -c "import time\nwhile time.process_time() < 1.2: pass"\n' >"$tmp/burns"
chmod +x "$tmp/burns"
rm -f "$tmp/times"
SUITE_TIMES="$tmp/times" run "$tmp/burns"; rc=$?
[ $rc -eq 0 ] && read -r _ cpu label _ <"$tmp/times" && [ "$cpu" -ge 1 ] && [ "$label" = t ]
check "a suite's CPU seconds are counted (${cpu:-?} s)" $?

echo "runner-check: $fails failed checks"
[ $fails -eq 0 ]
