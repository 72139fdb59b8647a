#!/usr/bin/env python3
"""Hint-assisted locality-aware scheduling against round-robin (issue 17,
seed 000 ch. 6, docs/locality.md): the ten Table 6.2 benchmarks with the
Table 6.3 configuration (preset kepler-k20x, LRR = the thesis's "Round
Robin", C model back end), each run with no hint (the baseline,
gpu.locality_hint=0), under each of the hints 1, 2 and 3
(gpu.locality_hint=H: every kernel of the benchmark gets H; CTA placement
and warp grouping), under its Table 6.2 hint with the placement only
(gpu.locality_warps=0), and under the peer OWL (sched.policy=owl, no hint).

Writes into OUT (default build/results/locality):
  results.md      Markdown tables beside the thesis's numbers (text numbers
                  only: the thesis's figures are images, spec B.7)
  results.json    every number the tables use
  results.dat     the same as whitespace-separated columns (gnuplot input)
  *.svg           gnuplot plots (speedup; duplicate MSHR allocations relative
                  to baseline, Fig. 6.11; requests per MSHR entry, Fig. 6.12),
                  when gnuplot is installed (scripts/install-deps.sh)
  runs/           every run's folder (statistics JSON, log; scripts/sweep.py)
  table.csv/json  the sweep's table, one row per run

What the model gives is reported as it is; nothing is tuned to match.

usage: scripts/results-locality.py [--build DIR] [--size small|default|large|paper]
                                   [--out DIR] [--no-plots] [NAME...]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_common import GNUPLOT_HISTOGRAMS, add_machine_arg, fmt, geomean, machine_preset, ratio, results_argparser, run_gnuplot, select_benchmarks  # noqa: E402
from sweep import Sweep, run_tables  # noqa: E402

# Table 6.2 (seed 000 §6.4.1): abbreviation, type; the suite's benchmark
# (docs/benchmarks.md: MT = transpose, JS = jacobi2d, CONV = conv2d,
# HS = histogram, SC = scan, FW = fwt, BS = bitonic).
TABLE_6_2 = [
    ("GEMM", "gemm", 1), ("2MM", "2mm", 1), ("MT", "transpose", 1),
    ("JS", "jacobi2d", 2), ("CONV", "conv2d", 2),
    ("HS", "histogram", 3), ("SC", "scan", 3), ("FW", "fwt", 3),
    ("BS", "bitonic", 3), ("MVT", "mvt", 3),
]

# What the thesis says per benchmark, in its text (seed 000 §6.1, §6.2,
# §6.4.2-§6.4.4). Figures 6.1 and 6.10-6.12 are images: no per-benchmark
# values beyond these exist in the seed.
THESIS_NOTE = {
    "GEMM": "baseline dup. ~90 % (§6.1)",
    "2MM": "baseline dup. ~90 % (§6.1)",
    "MT": "max. speedup +19 % (§6.4.2); no dup. reduction (§6.4.3); req./entry doubles (§6.4.4)",
    "JS": "baseline dup. up to 68 % (§6.2)",
    "CONV": "baseline dup. up to 68 % (§6.2)",
    "HS": "lower dup. (§6.2)",
    "SC": "req./entry doubles (§6.4.4)",
    "FW": "lower dup. (§6.2)",
    "BS": "lower dup. (§6.2)",
    "MVT": "little inter-block locality; MASCAR beats it (§6.4.2)",
}
HINTS = (1, 2, 3)
# The runs of one benchmark: key -> (hint, policy, extra keys). "place" is
# filled in per benchmark with its Table 6.2 hint.
VARIANTS = {0: (0, "lrr", ""), 1: (1, "lrr", ""), 2: (2, "lrr", ""), 3: (3, "lrr", ""),
            "owl": (0, "owl", ""), "auto": ("auto", "lrr", "")}


MACHINE = "faithful"     # --machine


def run_one(sw, size, name, variant):
    """One benchmark run of the sweep sw (planning mode: added, zeros back):
    variant = (hint, policy, extra set keys, ";"-separated)."""
    hint, policy, extra = variant
    sets = ["gpu.locality_hint=%s" % hint] + [x for x in extra.split(";") if x]
    launches = sw.stats({"bench": name, "preset": machine_preset("kepler-k20x", MACHINE), "policy": policy, "sched": "c",
                         "set": sets, "size": size})["launches"]
    m = {"cycles": 0, "alloc": 0, "merges": 0, "dup": 0, "launches": len(launches), "detected": []}
    for l in launches:
        if "locality_detected" in l:
            m["detected"].append(l["locality_detected"])
        if hint != "auto" and l.get("locality_hint", 0) != hint:
            sys.exit("results-locality: %s: launch %s ran with hint %s, not %d"
                     % (name, l["kernel"], l.get("locality_hint", 0), hint))
        ms = l["memory"]["mshr"]
        m["cycles"] += l["cycles"]
        m["alloc"] += ms["allocations"]
        m["merges"] += ms["merges"]
        m["dup"] += ms["duplicate_allocations"]
    # duplicate fraction (Fig. 6.1/6.11) and requests per entry (Fig. 6.12),
    # over all launches of the benchmark
    m["dup_frac"] = m["dup"] / m["alloc"] if m["alloc"] else 0.0
    m["req_per_entry"] = (m["alloc"] + m["merges"]) / m["alloc"] if m["alloc"] else 0.0
    return m


def main():
    ap = results_argparser(__doc__)
    ap.add_argument("names", nargs="*", help="benchmarks (default: the ten of Table 6.2)")
    add_machine_arg(ap, ("kepler-k20x",))
    a = ap.parse_args()
    global MACHINE
    MACHINE = a.machine
    out = a.out or os.path.join(a.build, "results", "locality" if a.machine == "faithful" else "locality-v1")
    rows = select_benchmarks(TABLE_6_2, a.names, "results-locality", "Table 6.2")
    sw = Sweep(out, a.build, "results-locality")

    def tables():
        res = []
        for abbr, name, typ in rows:
            r = {"abbr": abbr, "bench": name, "type": typ, "runs": {}}
            variants = dict(VARIANTS)
            variants["place"] = (typ, "lrr", ";gpu.locality_warps=0")
            for v, spec in variants.items():
                r["runs"][v] = run_one(sw, a.size, name, spec)
            base = r["runs"][0]
            det = r["runs"]["auto"]["detected"]
            # the benchmark's detected type: the most frequent over its kernels'
            # first launches (ties: the first kernel's)
            r["detected"] = max(det, key=lambda t: (det.count(t), -det.index(t))) if det else None
            for h in HINTS + ("place", "owl", "auto"):
                x = r["runs"][h]
                x["speedup"] = ratio(base["cycles"], x["cycles"])
                x["dup_rel"] = ratio(x["dup_frac"], base["dup_frac"])
                x["rpe_rel"] = ratio(x["req_per_entry"], base["req_per_entry"])
            res.append(r)
            if sw.planning:
                continue
            print("%-9s type %d  base %9d cycles  speedup h1 %.3f h2 %.3f h3 %.3f place %.3f owl %.3f" % (
                name, typ, base["cycles"], r["runs"][1]["speedup"], r["runs"][2]["speedup"],
                r["runs"][3]["speedup"], r["runs"]["place"]["speedup"], r["runs"]["owl"]["speedup"]),
                flush=True)
        return res

    res = run_tables(sw, a, tables)

    json.dump({"size": a.size, "config": machine_preset("kepler-k20x", a.machine), "policy": "lrr",
               "benchmarks": res},
              open(os.path.join(out, "results.json"), "w"), indent=1)
    write_markdown(res, a.size, os.path.join(out, "results.md"))
    with open(os.path.join(out, "results.dat"), "w") as f:
        f.write("# abbr type speedup_h1 speedup_h2 speedup_h3 speedup_own dup_base dup_own "
                "dup_rel_own rpe_base rpe_own rpe_rel_own speedup_place speedup_owl "
                "dup_owl rpe_owl\n")
        for r in res:
            own, b, o = r["runs"][r["type"]], r["runs"][0], r["runs"]["owl"]
            f.write("%s %d %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f\n" % (
                r["abbr"], r["type"], r["runs"][1]["speedup"], r["runs"][2]["speedup"],
                r["runs"][3]["speedup"], own["speedup"], b["dup_frac"], own["dup_frac"],
                own["dup_rel"], b["req_per_entry"], own["req_per_entry"], own["rpe_rel"],
                r["runs"]["place"]["speedup"], o["speedup"], o["dup_frac"], o["req_per_entry"]))
    if not a.no_plots:
        plot(out)
    print("results-locality: %d benchmarks, %s size; %s" % (len(res), a.size,
                                                           os.path.join(out, "results.md")))


def write_markdown(res, size, path):
    L = []
    L.append("# Locality-aware CTA and warp scheduling and OWL against round-robin (seed 000 ch. 6)\n")
    L.append("Generated by `scripts/results-locality.py --size %s` (`make results-locality`). "
             "Configuration: Table 6.3 = preset `kepler-k20x`, policy `lrr` (the thesis's "
             "round-robin), C model back end. Baseline: no hint (`gpu.locality_hint=0`); "
             "hint H: `gpu.locality_hint=H` on every kernel of the benchmark: CTA placement and "
             "warp grouping (the scheduler core's grouped policy, docs/locality.md); *placement "
             "only*: the Table 6.2 hint with `gpu.locality_warps=0`; OWL: `sched.policy=owl` "
             "(CTA groups with OWL's priority, no hint). The thesis's numbers are text numbers "
             "only (its figures are images).\n" % size)
    L.append("## Speedup over round-robin (Fig. 6.10)\n")
    L.append("Cycles of the baseline divided by cycles with the hint, all launches of the "
             "benchmark. **Bold**: the benchmark's Table 6.2 hint.\n")
    L.append("| bench | suite name | Table 6.2 type | baseline cycles | hint 1 | hint 2 | hint 3 | placement only | OWL | thesis (text) |")
    L.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in res:
        cells = []
        for h in HINTS:
            c = fmt(r["runs"][h]["speedup"])
            cells.append("**%s**" % c if h == r["type"] else c)
        L.append("| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |" % (
            r["abbr"], r["bench"], r["type"], r["runs"][0]["cycles"], cells[0], cells[1],
            cells[2], fmt(r["runs"]["place"]["speedup"]), fmt(r["runs"]["owl"]["speedup"]),
            THESIS_NOTE[r["abbr"]]))
    t12 = [r["runs"][r["type"]]["speedup"] for r in res if r["type"] in (1, 2)]
    t3 = [r["runs"][r["type"]]["speedup"] for r in res if r["type"] == 3]
    own = [(r["runs"][r["type"]]["speedup"], r["abbr"]) for r in res]
    L.append("")
    L.append("| summary (own Table 6.2 hint) | this model | thesis |")
    L.append("|---|---|---|")
    L.append("| geometric mean, types 1 and 2 | %s | +13 %% average (§6.4.2, §6.4.5) |" % fmt(geomean(t12)))
    L.append("| geometric mean, type 3 | %s | \"varies\" (§6.4.2) |" % fmt(geomean(t3)))
    if own:
        best = max(own)
        L.append("| maximum | %s (%s) | +19 %% on MT (§6.4.2) |" % (fmt(best[0]), best[1]))
    L.append("| geometric mean, types 1 and 2, placement only | %s | — |" % fmt(geomean(
        [r["runs"]["place"]["speedup"] for r in res if r["type"] in (1, 2)])))
    L.append("| CTA-aware (OWL), geometric mean, all | %s | +5 %% (§6.4.2) |" % fmt(geomean(
        [r["runs"]["owl"]["speedup"] for r in res])))
    L.append("")
    L.append("## Automatic detection (`gpu.locality_hint=auto`, beyond the thesis)\n")
    L.append("The locality type detected from the global loads of each kernel's first CTAs "
             "(csrc/timing/locality_detect.c, docs/locality.md) at the kernel's first launch, "
             "which runs without a hint; later launches of the kernel use it. *speedup*: the "
             "auto run against the baseline (benchmarks with one launch per kernel cannot gain).\n")
    L.append("| bench | Table 6.2 type | detected (per kernel) | benchmark | agrees | speedup (auto) |")
    L.append("|---|---|---|---|---|---|")
    for r in res:
        det = r["runs"]["auto"]["detected"]
        L.append("| %s | %d | %s | %s | %s | %s |" % (
            r["abbr"], r["type"], " ".join(str(t) for t in det) or "—",
            r["detected"] if r["detected"] is not None else "—",
            "yes" if r["detected"] == r["type"] else "no", fmt(r["runs"]["auto"]["speedup"])))
    agree = sum(1 for r in res if r["detected"] == r["type"])
    L.append("")
    L.append("Detection agrees with Table 6.2 on %d of %d benchmarks.\n" % (agree, len(res)))
    L.append("## Duplicate MSHR allocations (Fig. 6.11) and requests per MSHR entry (Fig. 6.12)\n")
    L.append("Under each benchmark's Table 6.2 hint. Duplicate fraction: L1 MSHR allocations "
             "whose line another SM allocated within `mem.dup_window` = 2000 cycles (§6.1), over "
             "all allocations; *relative* = with hint / baseline (Fig. 6.11 plots it relative to "
             "the baseline). Requests per entry: (allocations + merges) / allocations, at most "
             "`l1d.mshr_max_merge` = 8 (Table 6.3).\n")
    L.append("| bench | hint | dup. baseline | dup. with hint | relative | placement only | OWL | req./entry baseline | req./entry with hint | ratio | placement only | OWL | thesis (text) |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in res:
        b, x, pl, o = r["runs"][0], r["runs"][r["type"]], r["runs"]["place"], r["runs"]["owl"]
        L.append("| %s | %d | %.1f %% | %.1f %% | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["abbr"], r["type"], 100 * b["dup_frac"], 100 * x["dup_frac"], fmt(x["dup_rel"]),
            fmt(pl["dup_rel"]), fmt(o["dup_rel"]),
            fmt(b["req_per_entry"], "%.2f"), fmt(x["req_per_entry"], "%.2f"), fmt(x["rpe_rel"]),
            fmt(pl["rpe_rel"]), fmt(o["rpe_rel"]), THESIS_NOTE[r["abbr"]]))
    dup_hi = [r["runs"][r["type"]]["dup_rel"] for r in res if r["type"] in (1, 2)]
    L.append("")
    L.append("| summary | this model | thesis |")
    L.append("|---|---|---|")
    L.append("| baseline duplicate fraction, mean | %.1f %% | almost 60 %% (§6.1, Fig. 6.1) |"
             % (100 * sum(r["runs"][0]["dup_frac"] for r in res) / max(len(res), 1)))
    L.append("| duplicates relative to baseline, types 1-2, geometric mean | %s | at least 10 %% fewer on high-locality benchmarks; all except MT reduced (§6.4.3) |"
             % fmt(geomean(dup_hi)))
    L.append("| benchmarks with fewer duplicates | %d of %d | all but MT (§6.4.3) |" % (
        sum(1 for r in res if r["runs"][r["type"]]["dup_rel"] < 1), len(res)))
    L.append("| benchmarks with more requests per entry | %d of %d | all; doubled for MT and SC (§6.4.4) |" % (
        sum(1 for r in res if r["runs"][r["type"]]["rpe_rel"] > 1), len(res)))
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


GNUPLOT = GNUPLOT_HISTOGRAMS + """set output "{out}/speedup.svg"
set title "Speedup over round-robin (seed 000 Fig. 6.10)"
set ylabel "baseline cycles / cycles"
plot "{dat}" using 3:xtic(1) title "hint 1", "" using 4 title "hint 2", "" using 5 title "hint 3", "" using 14 title "OWL", 1 with lines lc rgb "black" notitle
set output "{out}/duplicates.svg"
set title "Duplicate MSHR allocations, 2000-cycle window (Fig. 6.11), Table 6.2 hint"
set ylabel "fraction of allocations"
plot "{dat}" using 7:xtic(1) title "round-robin", "" using 8 title "locality hint", "" using 15 title "OWL"
set output "{out}/requests-per-entry.svg"
set title "Memory requests per MSHR entry (Fig. 6.12), Table 6.2 hint"
set ylabel "requests per entry"
plot "{dat}" using 10:xtic(1) title "round-robin", "" using 11 title "locality hint", "" using 16 title "OWL"
"""


def plot(out):
    run_gnuplot("results-locality", GNUPLOT.format(out=out, dat=os.path.join(out, "results.dat")))


if __name__ == "__main__":
    main()
