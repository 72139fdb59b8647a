#!/usr/bin/env bash
# OAWS on the whole benchmark suite (docs/oaws.md; ../shared/design/oaws.md
# D.4): on fermi-gtx480 (the paper's Table 1), --size small, every benchmark
# PASSes its CPU check under oaws-static (SMR 50 %) and oaws-dyn with the C
# model, the Verilated RTL and the lockstep back end (zero mismatches); every
# launch's warp- and thread-instructions equal the committed GTO golden
# statistics (results do not depend on the scheduler) and the predicted
# misses charged equal those given back; RTL and lockstep JSON equal the C
# model's but for the back-end name; oaws-static:0 equals GTO's golden JSON
# but for the policy string and the OAWS-only keys (§5.4), and so does
# oaws-dyn with OCW held at 48 (every warp a locality warp, eff 0). The same
# for the peers ccws and mascar (docs/oaws.md, "Peers").
# Independent runs (and each C run with the RTL and lockstep runs checked
# against it) run in parallel (tests/lib/par.sh).
#   tests/oaws/oaws-suite.sh BUILD_DIR [c|long]   (c: the C model only, for
#   ASan, each policy once; make test: the plain RTL on oaws-dyn only, the
#   lockstep on every policy; long, in make check-long: both on every policy)
set -u
cd "$(dirname "$0")/../.."
. tests/lib/par.sh
B=${1:-build}
only=${2:-all}
case $only in all|c|long) ;; *) echo "oaws-suite.sh: unknown mode '$only' (c or long)"; exit 2 ;; esac
bench=$B/bin/smcosim-bench
[ -x "$bench" ] || { echo "FAIL: $bench is not built"; exit 1; }
for v in $(compgen -e | grep '^SMCOSIM_'); do unset "$v"; done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
preset=fermi-gtx480
gold=tests/golden/suite/$preset/gto.json

# the JSON of a run: BACKEND POLICY [KEYS] (runs with other keys, other files)
json_of() { echo "$tmp/$1-$2${3:+-$(printf %s "$3" | cksum | cut -d' ' -f1)}.json"; }

run() {   # BACKEND POLICY [KEYS]   (with KEYS: the statistics must equal GTO's); fails when a check does
  local out bad=0
  out=$(json_of "$@")
  if ! SMCOSIM_MODE=timing SMCOSIM_SCHED=$1 SMCOSIM_CONFIG=$preset SMCOSIM_POLICY=$2 \
       SMCOSIM_SET="${3:-}" SMCOSIM_JSON=$out "$bench" --size small >"$out.log" 2>&1 \
     || ! tail -1 "$out.log" | grep -q ' 0 failed$'; then
    echo "FAIL: $1 $2:"; grep -v ': PASS' "$out.log" | head -5; return 1
  fi
  if ! python3 - "$out" "$gold" "$2" "${3:-}" <<'PY'
import json, sys
new = json.load(open(sys.argv[1]))["launches"]
gold = json.load(open(sys.argv[2]))["launches"]
pol = sys.argv[3]
as_gto = pol == "oaws-static:0" or sys.argv[4] != ""
if pol == "oaws-static":
    pol = "oaws-static:50"
if len(new) != len(gold):
    sys.exit("  %d launches, GTO golden %d" % (len(new), len(gold)))
for i, (n, g) in enumerate(zip(new, gold)):
    for k in ("kernel", "warp_insts", "thread_insts"):
        if n[k] != g[k]:
            sys.exit("  launch %d %s: %s %s, GTO %s" % (i, n["kernel"], k, n[k], g[k]))
    o = n["oaws"]
    if o["eff_issued"] != o["eff_retired"]:
        sys.exit("  launch %d %s: eff issued %d, retired %d" % (i, n["kernel"], o["eff_issued"], o["eff_retired"]))
    if n["policy"] != pol:
        sys.exit("  launch %d: policy %s, asked for %s" % (i, n["policy"], pol))
    # the DLC holds divergent loads only: atax_kernel1's four unrolled
    # a[i*n+j] loads (spec D.2), nothing for the coherent atax_kernel2 and
    # the transposes (divergent stores never enter it)
    want = {"atax_kernel1": 4, "atax_kernel2": 0}.get(n["kernel"])
    if n["kernel"].startswith("transpose"):
        want = 0
    if pol != "oaws-static:0" and want is not None and o["dlc_max"] != want:
        sys.exit("  launch %d %s: %d DLC entries, expected %d" % (i, n["kernel"], o["dlc_max"], want))
    if not 2 <= o["ocw_min"] <= o["ocw_max"] <= 48:
        sys.exit("  launch %d %s: OCW %d..%d outside 2..48" % (i, n["kernel"], o["ocw_min"], o["ocw_max"]))
    if as_gto:
        if n["issue_slots"].pop("occluded") != 0 or o["eff_issued"] != 0:
            sys.exit("  launch %d %s: %s held or charged something" % (i, n["kernel"], pol))
        del n["oaws"]
        n["policy"] = "gto"
        if n != g:
            sys.exit("  launch %d %s: %s differs from GTO" % (i, n["kernel"], pol))
PY
  then echo "FAIL: $1 $2 (against $gold)"; bad=1; fi
  if [ "$1" != c ]; then
    sed 's/"sched": "[a-z]*"/"sched": "X"/' "$out" >"$out.n"
    sed 's/"sched": "[a-z]*"/"sched": "X"/' "$(json_of c "$2")" >"$out.c"
    cmp -s "$out.n" "$out.c" || { echo "FAIL: $1 $2: JSON differs from the C model's"; bad=1; }
  fi
  return $bad
}

# The peers CCWS and MASCAR (docs/oaws.md, "Peers"): every benchmark PASSes,
# instruction counts equal GTO's, the policy is named and its "peers" object
# is there; RTL and lockstep JSON equal the C model's; CCWS with
# K_THROTTLE 0 (a VTA hit adds nothing, nothing is ever held) equals GTO's
# golden JSON but for the policy string and the "peers" object. MASCAR's
# re-execution queue (P10) writes memory.ldst.reexec_accesses/mascar_replay
# exactly when it is on, and is used somewhere in the suite.
run_peer() {   # BACKEND POLICY [KEYS [gto]]   (gto: the statistics must equal GTO's)
  local out bad=0
  out=$(json_of "$1" "$2" "${3:-}")
  if ! SMCOSIM_MODE=timing SMCOSIM_SCHED=$1 SMCOSIM_CONFIG=$preset SMCOSIM_POLICY=$2 \
       SMCOSIM_SET="${3:-}" SMCOSIM_JSON=$out "$bench" --size small >"$out.log" 2>&1 \
     || ! tail -1 "$out.log" | grep -q ' 0 failed$'; then
    echo "FAIL: $1 $2:"; grep -v ': PASS' "$out.log" | head -5; return 1
  fi
  if ! python3 - "$out" "$gold" "$2" "${4:-}" "${3:-}" <<'PY'
import json, sys
new = json.load(open(sys.argv[1]))["launches"]
gold = json.load(open(sys.argv[2]))["launches"]
pol, as_gto = sys.argv[3], sys.argv[4] == "gto"
# MASCAR's re-execution queue (P10): its memory.ldst members exactly when it
# is on (mascar without sched.mascar_reexec_entries=0), and then it is used
reexec = pol == "mascar" and "mascar_reexec_entries=0" not in sys.argv[5]
queued = 0
if len(new) != len(gold):
    sys.exit("  %d launches, GTO golden %d" % (len(new), len(gold)))
for i, (n, g) in enumerate(zip(new, gold)):
    for k in ("kernel", "warp_insts", "thread_insts"):
        if n[k] != g[k]:
            sys.exit("  launch %d %s: %s %s, GTO %s" % (i, n["kernel"], k, n[k], g[k]))
    if n["policy"] != pol or n["peers"]["peer"] != pol:
        sys.exit("  launch %d: policy %s / %s, asked for %s" % (i, n["policy"], n["peers"], pol))
    if pol == "mascar" and n["peers"]["vta_hits"] != 0:
        sys.exit("  launch %d: VTA hits under MASCAR" % i)
    ld = n["memory"]["ldst"]
    if ("mascar_replay" in ld) != reexec or ("reexec_accesses" in ld) != reexec:
        sys.exit("  launch %d %s: re-execution queue members %s, queue %s" % (i, n["kernel"], sorted(ld), reexec))
    queued += ld.get("reexec_accesses", 0)
    if as_gto:
        del n["peers"]
        n["policy"] = "gto"
        if n != g:
            sys.exit("  launch %d %s: %s differs from GTO" % (i, n["kernel"], pol))
if reexec and queued == 0:
    sys.exit("  MASCAR's re-execution queue never used over the suite")
PY
  then echo "FAIL: $1 $2 (against $gold)"; bad=1; fi
  if [ "$1" != c ]; then
    sed 's/"sched": "[a-z]*"/"sched": "X"/' "$out" >"$out.n"
    sed 's/"sched": "[a-z]*"/"sched": "X"/' "$(json_of c "$2" "${3:-}")" >"$out.c"
    cmp -s "$out.n" "$out.c" || { echo "FAIL: $1 $2: JSON differs from the C model's"; bad=1; }
  fi
  return $bad
}

# c_rtl_lockstep: RUN_FN POLICY — the C model, then the lockstep against it
# and, for oaws-dyn (or every policy with `long`), the plain RTL: the
# lockstep compares the RTL with the C model every cycle, a plain RTL run
# adds only its own harness path (make test's 15 minutes)
c_rtl_lockstep() {
  local bad=0
  $1 c "$2" || bad=1
  if [ "$only" != c ]; then
    if [ "$only" = long ] || [ "$2" = oaws-dyn ]; then $1 rtl "$2" || bad=1; fi
    $1 lockstep "$2" || bad=1
  fi
  return $bad
}
# tiny_ccws: CCWS on a 2-set L1D, C then lockstep.  At --size small the 32
# KiB L1D hardly evicts, so CCWS never throttles; with a 256-byte L1D (2
# sets, hash index) the VTA hits tens of thousands of times and CCWS holds
# warps: the lockstep must still see no difference.
tiny="l1d.sets=2;l1d.index=hash"
tiny_ccws() {
  local bad=0
  run_peer c ccws "$tiny" || bad=1
  if [ "$only" != c ]; then run_peer lockstep ccws "$tiny" || bad=1; fi
  return $bad
}

par_init "$tmp"
# (the ASan/UBSan pass, mode c, looks for memory errors, not for moved
# numbers: each policy once, CCWS where it throttles, MASCAR with its
# re-execution queue; the normal pass runs the degenerate settings too)
if [ "$only" != c ]; then
  par run_peer c ccws "sched.ccws_k_throttle=0" gto
  # MASCAR without its re-execution queue: the scheduling half alone
  par run_peer c mascar "sched.mascar_reexec_entries=0"
  par c_rtl_lockstep run_peer ccws
  par run c oaws-static:0
  par run c oaws-dyn "sched.oaws_ocw_min=48"    # every warp a locality warp: GTO
fi
par tiny_ccws
par c_rtl_lockstep run_peer mascar
for pol in oaws-static oaws-dyn; do par c_rtl_lockstep run $pol; done
par_wait
fails=$par_failed
runs=$(ls "$tmp"/*.json.log | wc -l)
[ $fails -eq 0 ] && echo "oaws suite: $runs runs on $preset (c$([ "$only" != c ] && echo ", rtl, lockstep")), every benchmark PASS, counts equal GTO"
[ $fails -eq 0 ]
