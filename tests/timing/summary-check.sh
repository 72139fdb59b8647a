#!/usr/bin/env bash
# The memory lines of the per-kernel summary that `smcosim run` prints (L1D,
# L2, MSHR, loads, DRAM) must say what the statistics JSON of the same run
# says: every count equal, every rate equal to the JSON's at the printed
# precision (docs/statistics.md). Two benchmarks: one DRAM-bound (spmv), one
# with stores and atomics (histogram).
# Usage: tests/timing/summary-check.sh BUILD_DIR
set -uo pipefail
B=${1:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
for bench in spmv histogram; do
  if ! "$B/bin/smcosim" run --sched c --json "$tmp/$bench.json" --bench "$bench" --size small \
       >/dev/null 2>"$tmp/$bench.err"; then
    echo "summary-check: FAIL: smcosim run --bench $bench failed:"; tail -5 "$tmp/$bench.err"
    fails=$((fails + 1)); continue
  fi
  python3 - "$tmp/$bench.json" "$tmp/$bench.err" "$bench" <<'EOF' || fails=$((fails + 1))
import json, re, sys
launches = json.load(open(sys.argv[1]))["launches"]
text = open(sys.argv[2]).read()
bench = sys.argv[3]
# one summary per launch, in order; the memory lines of each
blocks = text.split("\nkernel ")
if len(blocks) != len(launches):
    sys.exit(f"summary-check: FAIL: {bench}: {len(blocks)} summaries, {len(launches)} launches")
bad = 0
for i, (m, block) in enumerate(zip((l["memory"] for l in launches), blocks)):
    def line(name):
        found = re.search(r"^  " + name + r" +(.*)$", block, re.M)
        if not found:
            sys.exit(f"summary-check: FAIL: {bench} launch {i}: no '{name}' line")
        return found.group(1)
    l1, l2, mshr, dram = m["l1d"], m["l2"], m["mshr"], m["dram"]
    l1h = l1["load_hits"] + l1["store_hits"] + l1["atomic_hits"]
    l1m = l1["load_misses"] + l1["store_misses"] + l1["atomic_misses"]
    l2h = l2["read_hits"] + l2["write_hits"] + l2["atomic_hits"]
    l2m = l2["read_misses"] + l2["write_misses"] + l2["atomic_misses"]
    pct = lambda a, b: 100.0 * a / b if b else 0.0
    want = {
        "L1D": f"{l1h} hits, {l1m} misses ({pct(l1h, l1h + l1m):.1f}% hit)",
        "L2": f"{l2h} hits, {l2m} misses ({pct(l2h, l2h + l2m):.1f}% hit)",
        "loads": f"{m['loads']['completed']} done, average latency "
                 f"{m['loads']['avg_latency']:.1f} cycles, max {m['loads']['max_latency']}",
        "DRAM": f"{dram['reads']} reads, {dram['writes']} writes, {dram['row_hits']} row hits "
                f"({100.0 * dram['row_hit_rate']:.1f}%), {dram['bytes_per_cycle']:.2f} bytes/cycle",
    }
    for name, text_want in want.items():
        have = line(name)
        if have != text_want:
            print(f"summary-check: FAIL: {bench} launch {i} {name}: printed '{have}', "
                  f"JSON says '{text_want}'")
            bad += 1
    # the MSHR line: the counts, the per-SM average as in the JSON, and the
    # average over cycles of SMs with warps (from the JSON's
    # occupancy_avg_per_sm x cycles x SMs / sm_active_cycles; the SM count
    # is the launch's `sms`)
    launch = launches[i]
    have = line("MSHR")
    counts = f"{mshr['allocations']} allocated, {mshr['merges']} merged, " \
             f"{mshr['duplicate_allocations']} duplicate, max {mshr['occupancy_max']} in use"
    found = re.fullmatch(re.escape(counts) + r", avg ([0-9.]+) per SM, ([0-9.]+) per SM with warps",
                         have)
    if not found or found.group(1) != f"{mshr['occupancy_avg_per_sm']:.2f}":
        print(f"summary-check: FAIL: {bench} launch {i} MSHR: printed '{have}', "
              f"JSON says '{counts}, avg {mshr['occupancy_avg_per_sm']:.2f} per SM, ...'")
        bad += 1
    else:
        occ_sum = mshr["occupancy_avg_per_sm"] * m["cycles"] * launch["sms"]
        active = occ_sum / launch["sm_active_cycles"] if launch["sm_active_cycles"] else 0.0
        if abs(float(found.group(2)) - active) > 0.006:
            print(f"summary-check: FAIL: {bench} launch {i} MSHR: {found.group(2)} per SM with "
                  f"warps printed, {active:.4f} from the JSON")
            bad += 1
if bad:
    sys.exit(1)
print(f"summary-check: {bench}: {len(launches)} launch(es), memory lines match the JSON")
EOF
done
exit $((fails > 0))
