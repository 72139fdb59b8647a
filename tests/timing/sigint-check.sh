#!/usr/bin/env bash
# Ctrl-C: SIGINT during a long kernel stops the simulation, the statistics so
# far are printed and the JSON is written with status SMC_ERR_INTERRUPTED.
#   tests/timing/sigint-check.sh BENCH_BIN
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# bicg at its default size runs for many seconds in timing mode
SMCOSIM_MODE=timing SMCOSIM_PRINT_STATS=1 SMCOSIM_JSON="$tmp/s.json" \
  timeout -s INT 1 "$bin" bicg > "$tmp/out" 2>&1
rc=$?
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
check "stopped by the signal or with an error (status $rc)" "[ $rc -ne 0 ]"
check "statistics so far printed" "grep -q 'status  *SMC_ERR_INTERRUPTED' '$tmp/out'"
check "JSON written with the interruption" "grep -q '\"status\": \"SMC_ERR_INTERRUPTED\"' '$tmp/s.json'"
check "JSON is complete" "tail -1 '$tmp/s.json' | grep -q '^]}'"
exit $fail
