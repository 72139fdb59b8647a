#!/usr/bin/env bash
# Run test suites (cmocka binaries or scripts) and print the skipped tests,
# each suite's time and a closing line "suites: N passed, M failed". Every
# suite runs even when an earlier one failed; the exit status is non-zero when
# any failed.
#
#   scripts/run-tests.sh LABEL SUITE...
#
# A suite is an executable path, optionally followed by arguments when the
# whole word is quoted ("tests/e2e/run.sh --fast").
#
# Suites run TEST_JOBS at a time (default: the number of CPUs; TEST_JOBS=1
# runs them one after another). Each one's output is kept and printed whole,
# in the order the suites are named, when it and those before it are done,
# so the log reads as if they had run in turn. Suites must therefore not
# share files: each writes under its own mktemp directory (the long ones
# also run their own simulator runs in parallel, tests/lib/par.sh).
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
#
# SUITE_TIMES=FILE appends every suite's wall and CPU seconds there, a line
# `WALL CPU LABEL SUITE` each (make test's three passes into one file).
set -u
label=$1; shift
here=$(cd "$(dirname "$0")/.." && pwd)
expected_file=${SMCOSIM_EXPECTED_SKIPS:-$here/tests/expected-skips.txt}
pass=0; fail=0; failed=(); times=()
skipped=(); nvcc_skips=(); unexpected=(); gone=()
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
jobs_max=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs_max in ''|*[!0-9]*|0) echo "run-tests.sh: TEST_JOBS must be a positive number, not '$jobs_max'" >&2; exit 2 ;; esac

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

# start I SUITE: run suite number I in the background. It leaves its output
# in $work/I.out, and then "STATUS WALL CPU" in $work/I.done (CPU: user +
# system seconds of the suite's processes, from the subshell's `times`).
start() {
  local i=$1 suite=$2
  (
    t0=$(date +%s)
    # shellcheck disable=SC2086
    $suite >"$work/$i.out" 2>&1
    rc=$?
    times >"$work/$i.times"   # here, not in a $(...): that subshell has no children
    cpu=$(awk 'NR == 2 { split($1, u, /m|s/); split($2, s, /m|s/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$work/$i.times")
    echo "$rc $(( $(date +%s) - t0 )) $cpu" >"$work/$i.tmp" && mv "$work/$i.tmp" "$work/$i.done"
  ) </dev/null &
}

# report I SUITE: print a finished suite's output and judge it (status, skips).
report() {
  local i=$1 suite=$2 log=$work/$1.out rc took cpu name bad t e es found
  read -r rc took cpu <"$work/$i.done"
  echo "=== [$label] $suite"
  cat "$log"
  # shellcheck disable=SC2086
  set -- $suite; name=$(basename "$1")
  # The skips this suite reported, one identity per line.
  local suite_skips=()
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
  times+=("$took $cpu $suite")
  if [ "$rc" -eq 0 ] && [ $bad -eq 0 ]; then
    pass=$((pass + 1))
    echo "=== [$label] ok   $suite (${took}s)"
  else
    fail=$((fail + 1)); failed+=("$suite")
    echo "=== [$label] FAIL $suite (${took}s)"
  fi
}

suites=("$@")
n=${#suites[@]}; started=0; printed=0; running=0
t_start=$(date +%s)
while [ $printed -lt "$n" ]; do
  while [ $running -lt "$jobs_max" ] && [ $started -lt "$n" ]; do
    start $started "${suites[$started]}"
    started=$((started + 1)); running=$((running + 1))
  done
  if [ -f "$work/$printed.done" ]; then
    report $printed "${suites[$printed]}"
    printed=$((printed + 1))
  else
    # the next to print is still running: wait for any suite to end
    wait -n
    running=$(jobs -rp | wc -l)
  fi
done
wait
elapsed=$(( $(date +%s) - t_start ))

# The suites' times, longest first, so that growth is seen at every run.
if [ ${#times[@]} -ne 0 ]; then
  total=0; for t in "${times[@]}"; do total=$((total + ${t%% *})); done
  echo "suite times [$label], longest first (wall, CPU; their sum ${total}s, $elapsed s elapsed with $jobs_max at a time):"
  printf '%s\n' "${times[@]}" | sort -rn -k1,1 | head -12 | \
    while read -r secs cpus name; do printf '  %5ss %5ss  %s\n' "$secs" "$cpus" "$name"; done
  # Every suite's times, for whoever sizes the suites (SUITE_TIMES=FILE).
  [ -n "${SUITE_TIMES:-}" ] && printf '%s\n' "${times[@]}" | sort -rn -k1,1 | \
    while read -r secs cpus name; do echo "$secs $cpus $label $name"; done >>"$SUITE_TIMES"
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
