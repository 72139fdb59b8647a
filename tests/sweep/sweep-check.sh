#!/usr/bin/env bash
# The sweep engine (scripts/sweep.py, docs/sweeps.md) through its command
# line:
#   1. a bad spec (unknown benchmark, key, preset, field) is rejected before
#      anything runs, naming the entry;
#   2. a sweep (benchmarks and a CUDA program) killed midway resumes: the runs it finished are not run again
#      and the collected table is byte-identical to an uninterrupted sweep's;
#   3. the same sweep submitted to a real Slurm (a one-node cluster on this
#      machine, tests/sweep/slurm-cluster.sh) collects a byte-identical table.
#   tests/sweep/sweep-check.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
B=${1:-build}
tmp=$(mktemp -d)
cleanup() { tests/sweep/slurm-cluster.sh stop "$tmp/slurm" >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT
for v in $(compgen -e | grep '^SMCOSIM_'); do unset "$v"; done
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# 1. bad specs
cat >"$tmp/bad.json" <<'JSON'
{"defaults": {"preset": "fermi-gtx480", "size": "small"},
 "grid": {"bench": ["vectoradd", "vectoradx"]},
 "runs": [{"bench": "atax", "set": ["l1d.mshr_entriez=64"]},
          {"bench": "atax", "preset": "fermi-gtx999"},
          {"bench": "atax", "size": "huge"}]}
JSON
if scripts/sweep.py run "$tmp/bad.json" --out "$tmp/bad" --build "$B" >"$tmp/bad.log" 2>&1; then
  fail "a bad sweep spec was accepted"
fi
for want in 'grid(bench\[1\]="vectoradx"): unknown benchmark' \
            "runs\[0\]: set l1d.mshr_entriez=64: .*unknown configuration key" \
            "runs\[1\]: preset 'fermi-gtx999'" "runs\[2\]: unknown size 'huge'"; do
  grep -q "$want" "$tmp/bad.log" || fail "the bad spec's error does not say: $want"
done
[ -e "$tmp/bad/runs" ] && fail "a bad sweep started runs: $(ls "$tmp/bad/runs")"
echo '{"runs": [{"bench": "atax", "polcy": "gto"}]}' >"$tmp/bad2.json"
scripts/sweep.py run "$tmp/bad2.json" --out "$tmp/bad2" --build "$B" >"$tmp/bad2.log" 2>&1 &&
  fail "a run with an unknown field was accepted"
grep -q "runs\[0\]: unknown field polcy" "$tmp/bad2.log" || fail "unknown field: $(cat "$tmp/bad2.log")"

# 2. kill midway, resume
# six benchmark runs and a CUDA program (nvcc-built, on the drop-in runtime)
prog=build/bench/vectoradd
if [ ! -x "$prog" ]; then
  fail "$prog is not built (nvcc missing?): the sweep of a CUDA program is untested"
fi
cat >"$tmp/spec.json" <<JSON
{"defaults": {"preset": "fermi-gtx480", "size": "default"},
 "grid": {"bench": ["kmeans", "atax", "vectoradd"], "policy": ["gto", "oaws-dyn"]},
 "runs": [{"program": "$prog", "args": ["--size", "small"], "policy": "gto"}]}
JSON
n=7
scripts/sweep.py run "$tmp/spec.json" --out "$tmp/whole" --build "$B" -j 2 >"$tmp/whole.log" 2>&1 ||
  { fail "the sweep did not complete"; cat "$tmp/whole.log"; }
setsid scripts/sweep.py run "$tmp/spec.json" --out "$tmp/killed" --build "$B" -j 1 \
  >"$tmp/killed.log" 2>&1 &
pid=$!
for _ in $(seq 600); do
  [ "$(ls "$tmp"/killed/runs/*/run.json 2>/dev/null | wc -l)" -ge 2 ] && break
  sleep 0.05
done
kill -9 -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
finished=$(ls "$tmp"/killed/runs/*/run.json 2>/dev/null | wc -l)
if [ "$finished" -lt 2 ] || [ "$finished" -ge $n ]; then
  fail "the kill did not land midway ($finished of $n runs finished)"
fi
stat -c '%n %i %Y' "$tmp"/killed/runs/*/run.json | sort >"$tmp/before"
scripts/sweep.py run "$tmp/spec.json" --out "$tmp/killed" --build "$B" -j 2 >"$tmp/resume.log" 2>&1 ||
  { fail "the resumed sweep did not complete"; cat "$tmp/resume.log"; }
grep -q "$n runs, $finished already done, $((n - finished)) to run" "$tmp/resume.log" ||
  fail "the resumed sweep did not skip the $finished finished runs: $(head -1 "$tmp/resume.log")"
stat -c '%n %i %Y' $(cut -d' ' -f1 "$tmp/before") | sort | cmp -s - "$tmp/before" ||
  fail "a finished run was run again"
ls -a "$tmp/killed/runs" | grep -q '^\.tmp\.' && fail "the killed run's temporary folder is left"
cmp "$tmp/whole/table.csv" "$tmp/killed/table.csv" || fail "resumed table differs (CSV)"
cmp "$tmp/whole/table.json" "$tmp/killed/table.json" || fail "resumed table differs (JSON)"
[ "$(grep -c ',ok,' "$tmp/whole/table.csv")" -eq $n ] || fail "not $n ok rows: $(cat "$tmp/whole/table.csv")"
grep -q ',program,vectoradd,fermi-gtx480,c,gto,,,,timing,ok,1,' "$tmp/whole/table.csv" ||
  fail "the CUDA program's row is not an ok run of one launch: $(grep program "$tmp/whole/table.csv")"

# 3. the same sweep on Slurm
if conf=$(tests/sweep/slurm-cluster.sh start "$tmp/slurm" 2>"$tmp/slurm.err"); then
  if SLURM_CONF=$conf scripts/sweep.py run "$tmp/spec.json" --out "$tmp/slurm-out" --build "$B" \
       --executor slurm --wait >"$tmp/slurm.log" 2>&1; then
    grep -q "submitted Slurm job [0-9]*: $n array tasks" "$tmp/slurm.log" ||
      fail "no Slurm job array was submitted: $(cat "$tmp/slurm.log")"
    cmp "$tmp/whole/table.csv" "$tmp/slurm-out/table.csv" || fail "Slurm table differs (CSV)"
    cmp "$tmp/whole/table.json" "$tmp/slurm-out/table.json" || fail "Slurm table differs (JSON)"
  else
    fail "the Slurm sweep failed:"; cat "$tmp/slurm.log"
  fi
else
  fail "no local Slurm cluster, so the slurm executor is untested here:"; cat "$tmp/slurm.err"
fi

[ $fails -eq 0 ] && echo "sweep-check: PASS (bad specs rejected, resume after kill, Slurm = local)"
exit $((fails > 0))
