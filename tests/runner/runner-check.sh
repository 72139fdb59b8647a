#!/usr/bin/env bash
# scripts/run-tests.sh judges skips: a listed skip passes, an unlisted one
# fails its suite, a listed skip that no longer happens fails, a skip for the
# missing nvcc is reported and fails nothing, and a suite's exit status counts.
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

echo "runner-check: $fails failed checks"
[ $fails -eq 0 ]
