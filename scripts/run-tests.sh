#!/usr/bin/env bash
# Run test suites (cmocka binaries or scripts), one after another, and print
# a closing line "suites: N passed, M failed". Every suite runs even when an
# earlier one failed; the exit status is non-zero when any failed.
#
#   scripts/run-tests.sh LABEL SUITE...
#
# A suite is an executable path, optionally followed by arguments when the
# whole word is quoted ("tests/e2e/run.sh --fast").
set -u
label=$1; shift
pass=0; fail=0; failed=()
for suite in "$@"; do
  echo "=== [$label] $suite"
  start=$(date +%s)
  # shellcheck disable=SC2086
  if $suite; then
    pass=$((pass + 1))
    echo "=== [$label] ok   $suite ($(( $(date +%s) - start ))s)"
  else
    fail=$((fail + 1)); failed+=("$suite")
    echo "=== [$label] FAIL $suite ($(( $(date +%s) - start ))s)"
  fi
done
if [ $fail -ne 0 ]; then
  printf 'failed suites:\n'; printf '  %s\n' "${failed[@]}"
fi
echo "suites: $pass passed, $fail failed"
[ $fail -eq 0 ]
