#!/usr/bin/env bash
# The OAWS results command, small and quick: scripts/results-oaws.py --size
# small --quick completes (every run PASSes its CPU check), the IPC table has
# one row per Table 2 benchmark (the ones the suite lacks say so), each policy
# is reported as available exactly when the binary accepts it (checked here
# independently with smcosim run), and SWL-Best really throttled (docs/oaws.md
# "Results").
#   tests/oaws-results/results-smoke.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
B=${1:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for v in $(compgen -e | grep '^SMCOSIM_'); do unset "$v"; done
start=$(date +%s)
if ! scripts/results-oaws.py --build "$B" --size small --quick --out "$tmp" >"$tmp/log" 2>&1; then
  echo "FAIL: scripts/results-oaws.py --size small --quick"; tail -20 "$tmp/log"; exit 1
fi
secs=$(( $(date +%s) - start ))
fails=0
md=$tmp/results.md
# main table: one row each; deep-queue table: the divergent ones again
for abbr in ATAX BICG MVT GES SYRK SYR2K PF BFS SC KMN SPMV IIX 3DC 2MM SRAD1 SRAD2 BP FD 3MM LBM; do
  n=$(grep -c "^| $abbr | [a-z0-9]* | \(divergent\|coherent\) |" "$md")
  case $abbr in 3DC|2MM|SRAD1|SRAD2|BP|FD|3MM|LBM) want=1 ;; *) want=2 ;; esac
  [ "$n" -eq "$want" ] || { echo "FAIL: $abbr has $n IPC rows, expected $want"; fails=$((fails + 1)); }
done
# every Table 2 benchmark is in the suite now (IIX was the last one)
if grep -q "not in the suite" "$md"; then
  echo "FAIL: a benchmark is listed as missing from the suite:"; grep "not in the suite" "$md"
  fails=$((fails + 1))
fi
# availability: what the binary says, asked here directly
for pair in "MASCAR|mascar" "CCWS|ccws" "OAWS-Static|oaws-static:50" "OAWS-Dyn|oaws-dyn" \
            "SWL-Best|swl:2"; do
  label=${pair%|*} pol=${pair#*|}
  if "$B/bin/smcosim" run --config fermi-gtx480 --policy "$pol" --bench vectoradd --size small \
       >"$tmp/probe" 2>&1; then want=yes; else want=no; fi
  row=$(grep "^| $label | \`" "$md")
  case "$want:$row" in
    yes:*"| yes |"|no:*"not available in this build"*) ;;
    *) echo "FAIL: policy $pol: binary says $want, results.md says: $row"; fails=$((fails + 1)) ;;
  esac
done
grep -q "^| bench | policy | coal | mshr | icnt | MASCAR_Replay | busy |$" "$md" ||
  { echo "FAIL: the Fig. 9 table has no MASCAR_Replay column"; fails=$((fails + 1)); }
python3 - "$tmp/results.json" <<'PY' || fails=$((fails + 1))
import json, sys
r = json.load(open(sys.argv[1]))
m = r["main"]
bad = [a for a, x in m.items() if abs(x["policy"]["gto"]["norm_ipc"] - 1) > 1e-12]
if bad:
    sys.exit("FAIL: GTO over GTO is not 1 for %s" % bad)
# SWL-Best (Table 3 limits) must change the schedule of some divergent benchmark
moved = [a for a, x in m.items() if "swl" in x["policy"] and x["policy"]["swl"]["cycles"]
         != x["policy"]["gto"]["cycles"]]
if not moved:
    sys.exit("FAIL: SWL-Best ran exactly like GTO on every benchmark")
# Fig. 9's MASCAR_Replay: a number for MASCAR (its re-execution queue is on
# by default), absent (n/a) for every other policy
for a, x in m.items():
    st = x["stalls"]
    if x["class"] == "divergent" and "mascar" in st:
        others = [k for k, v in st.items() if k != "mascar" and "mascar_replay" in v]
        if "mascar_replay" not in st["mascar"] or others:
            sys.exit("FAIL: %s: MASCAR_Replay under MASCAR %s, under %s"
                     % (a, st["mascar"].get("mascar_replay"), others))
for a, x in r["alloc"].items():
    if "gto" not in x:
        sys.exit("FAIL: no allocation-policy ratio for GTO on %s" % a)
print("SWL-Best differs from GTO on %s" % ", ".join(sorted(moved)))
PY
if command -v gnuplot >/dev/null; then
  for f in ipc-main ipc-deep mshr stalls fully-cached alloc smr; do
    [ -s "$tmp/$f.svg" ] || { echo "FAIL: no $f.svg"; fails=$((fails + 1)); }
  done
  # the figures page (scripts/results-figures.py) finds them under the
  # seed's figure numbers and lists the other targets' figures as not made
  mkdir -p "$tmp/fake-build/results" && ln -s "$tmp" "$tmp/fake-build/results/oaws"
  scripts/results-figures.py --build "$tmp/fake-build" >"$tmp/figures.log" 2>&1 ||
    { echo "FAIL: results-figures.py: $(cat "$tmp/figures.log")"; fails=$((fails + 1)); }
  idx=$tmp/fake-build/results/figures/index.md
  for fig in "Fig. 8 |" "Fig. 9 |" "Fig. 10 |" "Fig. 12 |" "Fig. 13 |" "Fig. 14 |"; do
    grep "| 001 (OAWS) | $fig" "$idx" | grep -q "svg](oaws-" ||
      { echo "FAIL: figures index has no plot for OAWS $fig"; fails=$((fails + 1)); }
  done
  grep -q "Fig. 6.10 | .*not made yet: \`make results-locality\`" "$idx" ||
    { echo "FAIL: figures index does not say Fig. 6.10 is not made"; fails=$((fails + 1)); }
fi
# the sweep's table: one ok row per run folder, small size
python3 - "$tmp" <<'PY' || fails=$((fails + 1))
import json, os, sys
rows = json.load(open(os.path.join(sys.argv[1], "table.json")))
runs = [d for d in os.listdir(os.path.join(sys.argv[1], "runs")) if not d.startswith(".")]
if sorted(r["key"] for r in rows) != sorted(runs):
    sys.exit("FAIL: table.json rows (%d) are not the run folders (%d)" % (len(rows), len(runs)))
bad = [r["key"] for r in rows if r["status"] != "ok" or r["size"] != "small" or not r["cycles"]]
if bad:
    sys.exit("FAIL: table rows not ok / not small / no cycles: %s" % bad[:5])
PY
[ $secs -lt 60 ] || echo "note: the small run took ${secs}s (target < 60 s)"
[ $fails -eq 0 ] && echo "OAWS results (small, quick): tables, availability and plots ok (${secs}s)"
[ $fails -eq 0 ]
