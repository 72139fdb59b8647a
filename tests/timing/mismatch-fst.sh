#!/usr/bin/env bash
# A lockstep mismatch (injected with the test hook SMCOSIM_TEST_LOCKSTEP_INJECT
# = SM:CYCLE, which flips a bit of the C model's stall_reason[0]) stops the
# run with the cycle, SM, signal and both values, and writes a waveform of
# that SM around it: JSON.mismatch.fst (+ .gtkw), cycles [CYCLE-W, CYCLE].
# Through `smcosim run` for a C driver (--bench) and, with nvcc, for an
# nvcc-built program on the drop-in runtime. Read back with fst2vcd.
#   tests/timing/mismatch-fst.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
b=${1:-build}
command -v fst2vcd > /dev/null || { echo "FAIL: fst2vcd is not installed (scripts/install-deps.sh installs gtkwave)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
check() { n=$((n + 1)); if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
# SM 1, cycle 300, window 100 cycles: the FST spans times 10*200 .. 10*300
# (1 ns per cycle in units of 100 ps, docs/timing-model.md); its C-side cycle counter
# ends at 299 = binary 100101011, the last cycle whose edge was taken (the
# outputs after that edge, cycle 300's, are the ones that differ).
one() {   # label, then the program after `--` or --bench NAME
  local label=$1; shift
  local j="$tmp/$label.json"
  SMCOSIM_TEST_LOCKSTEP_INJECT=1:300 \
    "$b/bin/smcosim" run --sched lockstep --mismatch-window 100 --json "$j" "$@" > "$tmp/$label.out" 2> "$tmp/$label.err"
  local rc=$?
  check "$label: run fails" "[ $rc -ne 0 ]"
  check "$label: message names SM, cycle, signal, both values" \
    "grep -q 'SM 1 .*lockstep mismatch at cycle 300: stall_reason\[0\]: cmodel=0x[0-9a-f]* rtl=0x[0-9a-f]*' '$tmp/$label.err'"
  check "$label: message names the waveform" "grep -q 'waveform of SM 1, cycles 200..300: $j.mismatch.fst' '$tmp/$label.err'"
  check "$label: waveform and save file written" "[ -s '$j.mismatch.fst' ] && [ -s '$j.mismatch.fst.gtkw' ]"
  check "$label: JSON still written" "grep -q '\"status\": \"SMC_ERR_LAUNCH_FAILED\"' '$j'"
  fst2vcd "$j.mismatch.fst" > "$tmp/$label.vcd" 2> /dev/null
  check "$label: fst2vcd reads it" "[ -s '$tmp/$label.vcd' ]"
  check "$label: C side of SM 1" "grep -q '\$scope module sm1 \$end' '$tmp/$label.vcd'"
  check "$label: RTL signals" "grep -q '\$var .* stall_reason_o ' '$tmp/$label.vcd'"
  check "$label: starts at cycle 200" "[ \"\$(grep -m1 '^#' '$tmp/$label.vcd')\" = '#2000' ]"
  check "$label: reaches cycle 300" "[ \"\$(grep '^#' '$tmp/$label.vcd' | tail -1 | tr -d '#')\" -ge 3000 ]"
  local id
  id=$(awk '/\$scope module sm1 \$end/ { s = 1 } s && /\$var .* cycle \$end/ { print $4; exit }' "$tmp/$label.vcd")
  check "$label: C-side cycle counter ends at 299" \
    "[ -n '$id' ] && [ \"\$(grep ' $id\$' '$tmp/$label.vcd' | tail -1)\" = 'b$(printf '%064d' 100101011) $id' ]"
}
one bench --bench vectoradd --size small
"$b/bin/smcosim" run --sched lockstep --mismatch-window 12x --bench vectoradd --size small \
  > /dev/null 2> "$tmp/bad.err"
check "bad --mismatch-window is an error naming it" "grep -q \"mismatch-window '12x'\" '$tmp/bad.err'"
if command -v /usr/local/cuda/bin/nvcc > /dev/null 2>&1 && [ -x build/bench/vectoradd ]; then
  one cuda -- build/bench/vectoradd --size small
else
  echo "SKIP: nvcc not found; the nvcc-built program was not run (the --bench case was)"
fi
[ $fail -eq 0 ] || { echo "mismatch-fst: FAIL"; exit 1; }
echo "mismatch-fst: $n checks passed"
