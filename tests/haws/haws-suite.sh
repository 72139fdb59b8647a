#!/usr/bin/env bash
# HAWS on the whole benchmark suite (spec D.1 #1, #2, #4): every benchmark
# PASSes its CPU check with sched.haws=warp and =all under lrr, gto and
# two-level (swl:2 on the barrier-free ones) on every preset with the C model,
# and on kepler-k20x (and, in `long`, fermi-gtx480) with the Verilated RTL or
# the lockstep back end (zero mismatches; `make test`: the lockstep under
# sched.haws=warp, the RTL under =all; `long`, in `make check-long`: both
# under both), all
# with the register-allocation verifier on;
# every launch's warp- and thread-instructions equal the committed HAWS-off
# golden statistics (tests/golden/suite), and its issue slots equal
# warp-instructions + copies + hinted branches; RTL and lockstep JSON equal
# the C model's but for the back-end name.
# The (preset, policy, trigger) groups run in parallel (tests/lib/par.sh).
#   tests/haws/haws-suite.sh BUILD_DIR [c|long]   (c: the C model only, for ASan)
set -u
cd "$(dirname "$0")/../.."
. tests/lib/par.sh
B=${1:-build}
only=${2:-all}
case $only in all|c|long) ;; *) echo "haws-suite.sh: unknown mode '$only' (c or long)"; exit 2 ;; esac
bench=$B/bin/smcosim-bench
for v in $(compgen -e | grep '^SMCOSIM_'); do unset "$v"; done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
nobarrier=$(cat tests/golden/nobarrier.list)   # as tests/golden/golden.sh runs swl:2

run() {   # BACKEND PRESET POLICY TRIGGER; fails when a check does
  local names="" out="$tmp/$1-$2-$3-$4.json" bad=0
  [ "$3" = swl:2 ] && names=$nobarrier
  # shellcheck disable=SC2086
  if ! SMC_VERIFY_REGALLOC=1 SMCOSIM_MODE=timing SMCOSIM_SCHED=$1 SMCOSIM_CONFIG=$2 SMCOSIM_POLICY=$3 \
       SMCOSIM_SET="sched.haws=$4" SMCOSIM_JSON=$out "$bench" --size small $names >"$out.log" 2>&1 \
     || ! tail -1 "$out.log" | grep -q ' 0 failed$'; then
    echo "FAIL: $1 $2 $3 sched.haws=$4:"; grep -v ': PASS' "$out.log" | head -5; return 1
  fi
  local gold="tests/golden/suite/$2/${3/:/}.json"
  if ! python3 - "$out" "$gold" "$1" <<'PY'
import json, sys
new = json.load(open(sys.argv[1]))["launches"]
gold = json.load(open(sys.argv[2]))["launches"]
if len(new) != len(gold):
    sys.exit("  %d launches, golden %d" % (len(new), len(gold)))
for i, (n, g) in enumerate(zip(new, gold)):
    for k in ("kernel", "warp_insts", "thread_insts"):
        if n[k] != g[k]:
            sys.exit("  launch %d %s: %s %s, HAWS off %s" % (i, n["kernel"], k, n[k], g[k]))
    h = n["haws"]
    if n["issue_slots"]["issued"] != n["warp_insts"] + h["copies"] + h["hinted_branches"]:
        sys.exit("  launch %d %s: issued %d != warp_insts %d + copies %d + hinted branches %d"
                 % (i, n["kernel"], n["issue_slots"]["issued"], n["warp_insts"], h["copies"],
                    h["hinted_branches"]))
    if h["skips"] + h["copies"] != h["hinted_issues"] - h["hinted_branches"] or h["reexec"] != h["hinted_branches"]:
        sys.exit("  launch %d %s: return pass %s does not account for the hinted issues" % (i, n["kernel"], h))
PY
  then echo "FAIL: $1 $2 $3 sched.haws=$4 (against $gold)"; bad=1; fi
  if [ "$1" != c ]; then
    sed 's/"sched": "[a-z]*"/"sched": "X"/' "$out" >"$out.n"
    sed 's/"sched": "[a-z]*"/"sched": "X"/' "$tmp/c-$2-$3-$4.json" >"$out.c"
    cmp -s "$out.n" "$out.c" || { echo "FAIL: $1 $2 $3 sched.haws=$4: JSON differs from the C model's"; bad=1; }
  fi
  return $bad
}

# the Verilated back ends a PRESET POLICY TRIGGER runs with (make test:
# kepler-k20x only, the lockstep under sched.haws=warp with lrr and
# two-level, the plain RTL under =all with gto and swl:2, to keep make
# test within its 15 minutes; fermi-gtx480's Verilated variant runs the
# golden suite's lockstep and RTL checks there, and `long` runs both back
# ends under both triggers with every policy on both presets)
backends() {
  [ "$only" = c ] || [ "$1" = si-7970 ] && return
  [ "$only" = all ] && [ "$1" = fermi-gtx480 ] && return
  case $only:$2:$3 in
    long:*)                    echo rtl lockstep ;;
    *:lrr:warp|*:two-level:warp) echo lockstep ;;
    *:gto:all|*:swl:2:all)     echo rtl ;;
  esac
}

group() {   # PRESET POLICY TRIGGER: the C model, then the Verilated back ends against it
  local bad=0 be
  run c "$@" || bad=1
  for be in $(backends "$1" "$2" "$3"); do run "$be" "$@" || bad=1; done
  return $bad
}

par_init "$tmp"
# The ASan/UBSan pass (mode c) looks for memory errors and undefined
# behaviour: each policy and each trigger once, on the HAWS thesis's two
# machines (the normal pass runs every combination), to keep make test
# within its 15 minutes.
if [ "$only" = c ]; then
  for g in kepler-k20x:lrr:warp kepler-k20x:gto:all si-7970:two-level:warp si-7970:swl:2:all; do
    trig=${g##*:}; g=${g%:*}
    par group "${g%%:*}" "${g#*:}" "$trig"
  done
else
  for preset in kepler-k20x fermi-gtx480 si-7970; do
    for pol in lrr gto two-level swl:2; do
      for trig in warp all; do
        par group $preset $pol $trig
      done
    done
  done
fi
par_wait
fails=$par_failed
runs=$(ls "$tmp"/*.json.log | wc -l)    # every run leaves its log
[ $fails -eq 0 ] && echo "haws suite: $runs runs (c$([ "$only" != c ] && echo ", rtl, lockstep")), every benchmark PASS, counts equal HAWS off"
[ $fails -eq 0 ]
