#!/usr/bin/env bash
# Golden statistics: the benchmark suite's timing statistics and the memory
# model's digest, committed in tests/golden/ so that a change of behaviour is
# a failing test with a readable diff, not a silent drift (docs/testing.md).
#
#   tests/golden/golden.sh BUILD_DIR check     compare with the committed files
#   tests/golden/golden.sh BUILD_DIR update    rewrite them (make update-golden)
#   tests/golden/golden.sh BUILD_DIR check c   the C model back end only (the
#                                              ASan/UBSan build has no Verilated model)
#   tests/golden/golden.sh BUILD_DIR check quick   `make test`: the -v1
#       presets on one policy each, the lockstep on
#       every preset and policy, the plain RTL on one policy per preset (the
#       lockstep compares the RTL with the C model every cycle and its JSON
#       with the golden file, so a plain RTL run adds only its own harness
#       path, which one policy exercises); `check` alone (`make check-long`)
#       runs the plain RTL on every policy too
#
# What is recorded:
#   suite/<preset>/<policy>.json  the statistics JSON of `smcosim-bench --size
#       small` in timing mode with the C model back end, for every preset and
#       every policy (swl:2 on the barrier-free benchmarks only: with a warp
#       limit below a block's warps a barrier cannot complete, and such launches
#       are refused);
#   suite/kepler-k20x/<policy>-haws-<trigger>.json  the same with HAWS on
#       (`sched.haws=<trigger>`; HAWS_RUNS below), C model only: the HAWS
#       suite (tests/haws/haws-suite.sh) checks the Verilated back ends with
#       HAWS on against the C model, and these files the C model's timing;
#   mem-digest.txt  `mem-digest` (every observable of the memory model over
#       seeded scenarios, folded into one hash per scenario).
# The Verilated RTL and the lockstep back end are checked against the same
# files (their JSON differs only in the "sched" field) on every preset with a
# Verilated variant, so "C equals RTL" and "nothing moved" are one check.
# The runs are independent and run in parallel (tests/lib/par.sh).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/par.sh
build=${1:?usage: golden.sh BUILD_DIR check|update}
mode=${2:-check}
backends_checked=${3:-all}
bench=$build/bin/smcosim-bench
digest=$build/bin/mem-digest
gold=tests/golden
for t in "$bench" "$digest"; do
  [ -x "$t" ] || { echo "FAIL: $t is not built"; exit 1; }
done
case $mode in check|update) ;; *) echo "golden.sh: unknown mode '$mode'"; exit 2 ;; esac

presets="kepler-k20x kepler-k20x-v1 fermi-gtx480 fermi-gtx480-v1 si-7970 si-7970-v1"
rtl_presets="kepler-k20x fermi-gtx480"     # presets with a Verilated variant (fermi-gtx480-v1 has
# fermi-gtx480's: its C golden files keep the old machine's numbers)
policies="lrr gto two-level swl:2"
# HAWS on (C model): the thesis's preset, each trigger once (docs/haws.md)
HAWS_RUNS="kepler-k20x:lrr:warp kepler-k20x:gto:all"
# the benchmarks swl:2 runs (no barrier), one list for every suite that
# compares against the swl:2 golden files (tests/haws/haws-suite.sh too)
nobarrier=$(cat tests/golden/nobarrier.list)
# The runs must not pick up a caller's settings (SMCOSIM_SET, SMCOSIM_SEED, ...).
for v in $(compgen -e | grep '^SMCOSIM_'); do unset "$v"; done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0; checks=0

# run_suite BACKEND PRESET POLICY OUT.json [HAWS-TRIGGER]
run_suite() {
  local names="" set=""
  [ "$3" = swl:2 ] && names=$nobarrier
  [ -n "${5:-}" ] && set=sched.haws=$5
  # shellcheck disable=SC2086
  SMCOSIM_MODE=timing SMCOSIM_SCHED=$1 SMCOSIM_CONFIG=$2 SMCOSIM_POLICY=$3 SMCOSIM_SET=$set \
    SMCOSIM_JSON=$4 "$bench" --size small $names >"$4.log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] || ! tail -1 "$4.log" | grep -q ' 0 failed$'; then
    echo "FAIL: suite $1/$2/$3 did not pass (exit $rc):"; grep -v ': PASS' "$4.log" | head -20
    return 1
  fi
}

# compare NAME GOLDEN NEW: byte-identical, else a per-statistic diff.
compare() {
  if [ ! -f "$2" ]; then
    echo "FAIL $1: no golden file $2 (run make update-golden and commit it)"; return 1
  elif cmp -s "$2" "$3"; then
    echo "ok   $1"
  else
    echo "FAIL $1: differs from $2"
    python3 tests/golden/golden_diff.py "$2" "$3" | head -40
    return 1
  fi
}

# one BACKEND PRESET POLICY [HAWS-TRIGGER]: run the suite, then compare it
# with the C golden file (the C model with `update`: rewrite that file)
one() {
  local f out
  f=$(echo "$3" | tr -d :)${4:+-haws-$4}
  out=$tmp/$1-$2-$f.json
  run_suite "$1" "$2" "$3" "$out" "${4:-}" || return 1
  if [ "$mode" = update ]; then
    mkdir -p "$gold/suite/$2"; cp "$out" "$gold/suite/$2/$f.json"; return
  fi
  if [ "$1" = c ]; then
    compare "suite c/$2/$3${4:+ sched.haws=$4}" "$gold/suite/$2/$f.json" "$out"
  else
    sed -i "s/\"sched\": \"$1\"/\"sched\": \"c\"/" "$out"
    compare "suite $1/$2/$3 (against the C golden)" "$gold/suite/$2/$f.json" "$out"
  fi
}

# The ASan/UBSan pass (backends c) looks for memory errors and undefined
# behaviour, not for moved numbers (the normal pass compares every file):
# it runs each policy once and each of the three machines' code paths once
# (fermi-gtx480: GPGPU-Sim's LD/ST unit and clock domains; kepler-k20x:
# Multi2Sim's unit and clocks; si-7970: one clock), against the same
# golden files, and leaves the HAWS runs to the HAWS suite's ASan pass
# (make test's 15 minutes).
runs=""
for preset in $presets; do
  for pol in $policies; do runs="$runs $preset:$pol"; done
done
for r in $HAWS_RUNS; do runs="$runs $r"; done
[ "$mode" = check ] && [ "$backends_checked" = c ] &&
  runs="kepler-k20x:lrr fermi-gtx480:gto si-7970:two-level fermi-gtx480:swl:2"
# `make test` (quick) runs the -v1 presets on one policy each: their code
# paths are the older memory model's, which each takes with any policy;
# `make check-long` (check) compares all of their files.
V1_QUICK=" kepler-k20x-v1:lrr fermi-gtx480-v1:gto si-7970-v1:two-level "
[ "$mode" = check ] && [ "$backends_checked" = quick ] &&
  runs=$(for r in $runs; do
           case $r in *-v1:*) [[ $V1_QUICK == *" $r "* ]] || continue ;; esac
           echo "$r"
         done)
par_init "$tmp"
for r in $runs; do
  case $r in *:swl:2) preset=${r%%:*}; pol=swl:2; trig= ;;
             *) IFS=: read -r preset pol trig <<<"$r" ;; esac
  par one c "$preset" "$pol" $trig; checks=$((checks + 1))
done
if [ "$mode" = check ] && [ "$backends_checked" != c ]; then
  for be in rtl lockstep; do
    for preset in $rtl_presets; do
      for pol in $policies; do
        [ "$be" = rtl ] && [ "$backends_checked" = quick ] && [ "$pol" != gto ] && continue
        par one "$be" "$preset" "$pol"; checks=$((checks + 1))
      done
    done
  done
fi
par_wait
fails=$((fails + par_failed))

"$digest" >"$tmp/mem-digest.txt" 2>&1 || { echo "FAIL: mem-digest exited $?"; fails=$((fails + 1)); }
if [ "$mode" = update ]; then
  cp "$tmp/mem-digest.txt" "$gold/mem-digest.txt"
  echo "golden files rewritten; review with: git diff --stat $gold && git diff $gold"
  [ $fails -eq 0 ]; exit
fi
checks=$((checks + 1))
if cmp -s "$gold/mem-digest.txt" "$tmp/mem-digest.txt"; then
  echo "ok   mem-digest"
else
  echo "FAIL mem-digest: scenarios whose hash changed:"
  diff "$gold/mem-digest.txt" "$tmp/mem-digest.txt" | head -40
  fails=$((fails + 1))
fi
[ $fails -ne 0 ] && echo "If the change is intended, run 'make update-golden' and commit the diff."
echo "golden: $((checks - fails)) passed, $fails failed"
[ $fails -eq 0 ]
