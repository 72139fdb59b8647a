#!/usr/bin/env bash
# Run test suites (cmocka binaries or scripts), one after another, and print
# the skipped tests and a closing line "suites: N passed, M failed". Every
# suite runs even when an earlier one failed; the exit status is non-zero when
# any failed.
#
#   scripts/run-tests.sh LABEL SUITE...
#
# A suite is an executable path, optionally followed by arguments when the
# whole word is quoted ("tests/e2e/run.sh --fast").
#
# Skips are not silent. A skipped test is
#   - a cmocka test reported as "[  SKIPPED ] NAME", or
#   - a line of a script suite starting with "SKIP".
# Each must be listed in tests/expected-skips.txt (suite, test, reason); a skip
# that is not listed fails its suite, and so does a listed skip of a suite that
# ran and no longer skipped (delete its line: the feature works now). The one
# tool a machine may lack is nvcc: a "SKIP" line that names nvcc is counted
# and printed as such, and fails nothing. (Every other tool the tests need is
# installed by scripts/install-deps.sh; its absence is a failure.)
set -u
label=$1; shift
here=$(cd "$(dirname "$0")/.." && pwd)
expected_file=${SMCOSIM_EXPECTED_SKIPS:-$here/tests/expected-skips.txt}
pass=0; fail=0; failed=(); times=()
skipped=(); nvcc_skips=(); unexpected=(); gone=()
log=$(mktemp); trap 'rm -f "$log"' EXIT

# Expected skips: "SUITE | TEST | reason" (SUITE is the executable's file
# name, so the same line covers the normal and the ASan build; "LABEL:SUITE"
# holds for the runs of that label only, e.g. asan:test_config_keys).
expected=()
if [ -f "$expected_file" ]; then
  while IFS='|' read -r s t _; do
    s=$(echo "$s" | sed 's/^ *//; s/ *$//'); t=$(echo "$t" | sed 's/^ *//; s/ *$//')
    [ -z "$s" ] && continue
    case $s in \#*) continue ;; esac
    expected+=("$s|$t")
  done <"$expected_file"
fi
is_expected() { local e; for e in "${expected[@]}"; do [ "$e" = "$1" ] && return 0; done; return 1; }

for suite in "$@"; do
  echo "=== [$label] $suite"
  start=$(date +%s)
  # shellcheck disable=SC2086
  $suite 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  # shellcheck disable=SC2086
  set -- $suite; name=$(basename "$1")
  # The skips this suite reported, one identity per line.
  suite_skips=()
  # (A cmocka suite's skips are its "[  SKIPPED ]" lines; its tests' own
  # messages are not counted again.)
  while IFS= read -r t; do suite_skips+=("$t"); done < <(
    if grep -q '^\[==========\]' "$log"; then
      sed -n 's/^\[  SKIPPED \] //p' "$log" | grep -v '^[0-9]* test(s), listed below:$'
    else
      grep '^SKIP' "$log" | grep -v 'nvcc'
    fi | sort -u)
  while IFS= read -r t; do nvcc_skips+=("$name: $t"); done < <(grep '^SKIP.*nvcc' "$log")
  bad=0
  for t in "${suite_skips[@]}"; do
    skipped+=("$name | $t")
    is_expected "$name|$t" || is_expected "$label:$name|$t" || { unexpected+=("$name | $t"); bad=1; }
  done
  for e in "${expected[@]}"; do
    es=${e%%|*}
    [ "$es" = "$name" ] || [ "$es" = "$label:$name" ] || continue
    found=0
    for t in "${suite_skips[@]}"; do [ "$es|$t" = "$e" ] && found=1; done
    [ $found -eq 0 ] && { gone+=("${e/|/ | }"); bad=1; }
  done
  took=$(( $(date +%s) - start ))
  times+=("$took $suite")
  if [ "$rc" -eq 0 ] && [ $bad -eq 0 ]; then
    pass=$((pass + 1))
    echo "=== [$label] ok   $suite (${took}s)"
  else
    fail=$((fail + 1)); failed+=("$suite")
    echo "=== [$label] FAIL $suite (${took}s)"
  fi
done

# The suites' times, longest first, so that growth is seen at every run.
if [ ${#times[@]} -ne 0 ]; then
  total=0; for t in "${times[@]}"; do total=$((total + ${t%% *})); done
  echo "suite times [$label], longest first (total ${total}s):"
  printf '%s\n' "${times[@]}" | sort -rn -k1,1 | head -12 | \
    while read -r secs name; do printf '  %5ss  %s\n' "$secs" "$name"; done
fi

echo "skipped tests: ${#skipped[@]} (each listed in ${expected_file#"$here"/})"
for t in "${skipped[@]}"; do echo "  $t"; done
if [ ${#nvcc_skips[@]} -ne 0 ]; then
  echo "WARNING: nvcc is not installed: ${#nvcc_skips[@]} checks that need it did not run:"
  for t in "${nvcc_skips[@]}"; do echo "  $t"; done
fi
if [ ${#unexpected[@]} -ne 0 ]; then
  echo "unexpected skips (a test that stopped running; fix it, or list it with a reason):"
  for t in "${unexpected[@]}"; do echo "  $t"; done
fi
if [ ${#gone[@]} -ne 0 ]; then
  echo "listed skips that no longer skip (delete their lines from ${expected_file#"$here"/}):"
  for t in "${gone[@]}"; do echo "  $t"; done
fi
if [ $fail -ne 0 ]; then
  printf 'failed suites:\n'; printf '  %s\n' "${failed[@]}"
fi
echo "suites: $pass passed, $fail failed"
[ $fail -eq 0 ]
