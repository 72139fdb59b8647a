#!/usr/bin/env bash
# `smcosim run` checks what it was asked for before it starts anything:
# a configuration that cannot work (unknown preset, bad --set key, bad
# --fst-window) and an output that cannot be written (--json, --report) are
# one clear message and exit 2, and the program never starts; a requested
# --json is written. (Issue "One home per concern", items 3 and 4.)
#   tests/cli/run-checks.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
. tests/lib/cli-refused.sh "${1:-build}"   # B, cli, tmp, fails, check, refused
refused "unknown preset"              "nosuch"                     --config nosuch
refused "unknown --set key"           "unknown configuration key 'gpu.bogus'" --set gpu.bogus=3
refused "--set value out of range"    "gpu.clock_mhz"              --set gpu.clock_mhz=0
refused "bad --fst-window"            "--fst-window '5:2'"         --sched rtl --fst "$tmp/w.fst" --fst-window 5:2
refused "unknown policy"              "bogus"                      --policy bogus
refused "--json in a missing folder"  "--json $tmp/no/such/dir/s.json: cannot write there" --json "$tmp/no/such/dir/s.json"
refused "--report in a missing folder" "--report $tmp/no/r.txt: cannot write there" --report "$tmp/no/r.txt"
[ ! -e "$tmp/w.fst" ]; check "a refused run leaves no waveform behind" $?
ls "${TMPDIR:-/tmp}" | grep -q "^smcosim-check-" && leftover=1 || leftover=0
[ $leftover -eq 0 ]; check "the configuration check leaves no scratch folder" $?

# A good run writes the JSON it was asked for (the benchmark driver, no nvcc needed).
"$cli" run --json "$tmp/s.json" --bench vectoradd --size small >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['launches'] else 1)" "$tmp/s.json"
check "--json is written by a good run (exit $rc)" $?
# ... and rewritten over an old one
"$cli" run --json "$tmp/s.json" --policy gto --bench vectoradd --size small >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && grep -q '"policy": "gto"' "$tmp/s.json"
check "--json over an existing file is rewritten (exit $rc)" $?

# Run options after --bench NAME are run options (users put them where they
# like); the driver's own options stay the driver's, and so does --seed.
rm -f "$tmp/a.json"
"$cli" run --bench vectoradd --json "$tmp/a.json" --size small --policy gto >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && grep -q '"policy": "gto"' "$tmp/a.json" && grep -q "vectoradd" "$tmp/out"
check "--json and --policy after --bench NAME are run options (exit $rc)" $?
"$cli" run --bench vectoradd --size small --set sm.no_such_key=1 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "sm.no_such_key" "$tmp/err"
check "--set after --bench NAME is checked as a run option (exit $rc)" $?
"$cli" run --bench vectoradd --size small --seed 3 --json "$tmp/b.json" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ -s "$tmp/b.json" ]
check "--seed after --bench NAME goes to the driver, the run still takes --json (exit $rc)" $?
"$cli" run --bench vectoradd --size small --bogus >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -ne 0 ] && grep -q -- "--bogus" "$tmp/err"
check "an unknown option after --bench NAME is refused by the driver, named (exit $rc)" $?
"$cli" run --bench vectoradd --bench gemm >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "given twice" "$tmp/err"
check "--bench twice is refused (exit $rc)" $?

echo "run-checks: $fails failed checks"
[ $fails -eq 0 ]
