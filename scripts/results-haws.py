#!/usr/bin/env python3
"""HAWS against its baselines (issue 16, seed 000 ch. 5, docs/haws.md): the
benchmarks of Tables 5.1 and 5.3 that the suite has, each run without and
with HAWS (sched.haws=warp; C model back end) on

  kepler-k20x, LRR   the thesis's Kepler study (§5.4.5: round-robin baseline)
  kepler-k20x, GTO   the thesis's regular scheduler under HAWS (§5.4.1)
  si-7970, GTO       the Southern Islands study (Table 5.2), 40 warps per SM

plus the other trigger (sched.haws=all, C.9 #1) and an RCU-depth sweep
(sched RcuDepth 1, 2, 4, 8 through haws.rcu_depth) on kepler-k20x LRR.

Writes into OUT (default build/results/haws):
  results.md      Markdown tables beside the thesis's numbers (text numbers
                  only: the thesis's figures are images, spec A.11)
  results.json    every number the tables use
  *.dat, *.svg    gnuplot input and plots (speedup; issue-slot breakdown,
                  Fig. 5.11; long-latency stalls, Fig. 5.12; instructions per
                  entry, Fig. 5.13; ALU and memory instructions in hint mode,
                  Figs. 5.14-5.15; RCU depth), when gnuplot is installed
  runs/           every run's folder (statistics JSON, log; scripts/sweep.py)
  table.csv/json  the sweep's table, one row per run

What the model gives is reported as it is; nothing is tuned to match.

usage: scripts/results-haws.py [--build DIR] [--size small|default|large|paper]
                               [--out DIR] [--quick] [--no-plots] [NAME...]
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_common import GNUPLOT_HISTOGRAMS, add_machine_arg, fmt, geomean, machine_preset, ratio, results_argparser, run_gnuplot, select_benchmarks  # noqa: E402
from sweep import Sweep, run_tables  # noqa: E402

# Tables 5.1 (Southern Islands) and 5.3 (Kepler), seed 000 §5.4.1/§5.4.5:
# thesis abbreviation, suite benchmark, type (M memory-intensive, N not);
# mapping and caveats in haws-locality.md A.12 and docs/benchmarks.md.
BENCHES = [
    ("BS", "binarysearch", "M"), ("BI", "bitonic", "N"), ("DCT", "dct", "M"),
    ("DH", "dwthaar1d", "M"), ("FFT", "fft", "N"), ("FW", "fwt", "M"),
    ("MM", "matmul", "M"), ("MT", "transpose", "M"), ("PS", "scan", "M"),
    ("RD", "reduction", "M"), ("SC", "conv2d", "M"), ("SP", "scalarprod", "M"),
    ("IM", "inlinemath", "M"),
]
# Configurations: name, preset, policy, extra keys.
CONFIGS = [
    ("kepler-lrr", "kepler-k20x", "lrr"),
    ("kepler-gto", "kepler-k20x", "gto"),
    ("si-gto", "si-7970", "gto"),
]
RCU_DEPTHS = (1, 2, 4, 8)
MACHINE = "faithful"     # --machine
SLOT_KEYS = ("issued", "long_latency_dependence")


def run_one(sw, size, name, preset, policy, haws, extra):
    """One run of the sweep sw (planning mode: added, zeros back)."""
    sets = ["sched.haws=%s" % haws] + extra
    launches = sw.stats({"bench": name, "preset": machine_preset(preset, MACHINE), "policy": policy, "sched": "c",
                         "set": sets, "size": size})["launches"]
    m = {"cycles": 0, "warp_insts": 0, "slots": {}, "haws": {}}
    for l in launches:
        m["cycles"] += l["cycles"]
        m["warp_insts"] += l["warp_insts"]
        for k, v in l["issue_slots"].items():
            m["slots"][k] = m["slots"].get(k, 0) + v
        for k, v in l.get("haws", {}).items():
            if isinstance(v, int):
                m["haws"][k] = m["haws"].get(k, 0) + v
    h = m["haws"]
    if haws != "off":
        # identities of spec D.1 #4 over the whole benchmark
        issued = m["slots"].get("issued", 0)
        expect = m["warp_insts"] + h.get("copies", 0) + h.get("hinted_branches", 0)
        if issued != expect:
            sys.exit("results-haws: %s: issue slots %d != warp_insts + copies + hinted branches %d"
                     % (name, issued, expect))
        h["insts_per_entry"] = h["hinted_issues"] / h["entries"] if h.get("entries") else 0.0
        h["alu_pct"] = 100.0 * h["hinted_alu"] / h["alu_insts"] if h.get("alu_insts") else 0.0
        h["mem_pct"] = (100.0 * h["hinted_long_mem"] / h["long_mem_insts"]
                        if h.get("long_mem_insts") else 0.0)
    total = sum(m["slots"].values())
    m["slot_frac"] = {k: (v / total if total else 0.0) for k, v in m["slots"].items()}
    return m


def pct_change(x):
    return "n/a" if math.isnan(x) else "%+.1f %%" % (100 * (x - 1))


def main():
    ap = results_argparser(__doc__, quick_help="kepler-k20x LRR only, no trigger or depth sweep (make test)")
    ap.add_argument("names", nargs="*", help="benchmarks (default: all of Tables 5.1/5.3)")
    add_machine_arg(ap, ("kepler-k20x", "si-7970"))
    a = ap.parse_args()
    global MACHINE
    MACHINE = a.machine
    out = a.out or os.path.join(a.build, "results", "haws" if a.machine == "faithful" else "haws-v1")
    rows = select_benchmarks(BENCHES, a.names, "results-haws", "Table 5.1/5.3")
    configs = CONFIGS[:1] if a.quick else CONFIGS
    sw = Sweep(out, a.build, "results-haws")

    def tables():
        res = []
        for abbr, name, typ in rows:
            r = {"abbr": abbr, "bench": name, "type": typ, "cfg": {}}
            for cname, preset, policy in configs:
                c = {}
                for haws in ("off", "warp") + (("all",) if cname == "kepler-lrr" and not a.quick else ()):
                    c[haws] = run_one(sw, a.size, name, preset, policy, haws, [])
                c["speedup"] = ratio(c["off"]["cycles"], c["warp"]["cycles"])
                if "all" in c:
                    c["speedup_all"] = ratio(c["off"]["cycles"], c["all"]["cycles"])
                r["cfg"][cname] = c
            if not a.quick:
                r["depth"] = {}
                for d in RCU_DEPTHS:
                    x = run_one(sw, a.size, name, "kepler-k20x", "lrr", "warp",
                                ["haws.rcu_depth=%d" % d])
                    r["depth"][d] = ratio(r["cfg"]["kepler-lrr"]["off"]["cycles"], x["cycles"])
            res.append(r)
            if not sw.planning:
                print("%-13s %s  " % (name, typ) + "  ".join(
                    "%s %.3f" % (cn, r["cfg"][cn]["speedup"]) for cn, _, _ in configs), flush=True)
        return res

    res = run_tables(sw, a, tables)

    json.dump({"size": a.size, "machine": a.machine, "benchmarks": res},
              open(os.path.join(out, "results.json"), "w"), indent=1)
    write_markdown(res, a, configs, os.path.join(out, "results.md"))
    write_dat(res, configs, out, a.quick)
    if not a.no_plots:
        plot(out, a.quick)
    print("results-haws: %d benchmarks, %s size; %s" % (len(res), a.size,
                                                       os.path.join(out, "results.md")))


def write_markdown(res, a, configs, path):
    L = ["# HAWS against its baselines (seed 000 ch. 5)\n"]
    L.append("Generated by `scripts/results-haws.py --size %s%s` (`make results-haws`). C model "
             "back end; HAWS = `sched.haws=warp` (per-warp trigger, §5.3.3) with the hint pass's "
             "hints (docs/haws.md); baseline = the same preset and policy with `sched.haws=off`. "
             "Speedup = baseline cycles / HAWS cycles over all launches of the benchmark. Type "
             "M/N = memory-intensive or not, as the thesis classes them (Table 5.1). The thesis "
             "ran Multi2Sim on Southern Islands and Kepler SASS with hand-inserted Kepler hints; "
             "we run PTX with generated hints, so its numbers are context, not targets.\n"
             % (a.size, " --quick" if a.quick else ""))
    L.append("## Speedup (Figs. 5.10 and 5.16)\n")
    head = "| bench | suite | type | " + " | ".join(
        "%s speedup" % cn for cn, _, _ in configs) + (" | all-trigger (kepler-lrr) |" if not a.quick else " |")
    L.append(head)
    L.append("|---|---|---|" + "---|" * len(configs) + ("---|" if not a.quick else ""))
    for r in res:
        cells = [fmt(r["cfg"][cn]["speedup"]) for cn, _, _ in configs]
        if not a.quick:
            cells.append(fmt(r["cfg"]["kepler-lrr"].get("speedup_all", float("nan"))))
        L.append("| %s | %s | %s | %s |" % (r["abbr"], r["bench"], r["type"], " | ".join(cells)))
    L.append("")
    L.append("| summary | this model | thesis |")
    L.append("|---|---|---|")
    for cn, preset, policy in configs:
        mem = [r["cfg"][cn]["speedup"] for r in res if r["type"] == "M"]
        com = [r["cfg"][cn]["speedup"] for r in res if r["type"] == "N"]
        best = max((r["cfg"][cn]["speedup"], r["abbr"]) for r in res)
        thesis_m = {"kepler-lrr": "+15 % average over round-robin, max +26 % on FW (§5.4.5)",
                    "kepler-gto": "(no Kepler GTO study)",
                    "si-gto": "+14.6 % (§5.4.2) / +15.3 % (§5.5) memory-intensive average, max +34.2 % on BS"}[cn]
        L.append("| %s: memory-intensive, geometric mean | %s | %s |" % (cn, pct_change(geomean(mem)), thesis_m))
        L.append("| %s: not memory-intensive, geometric mean | %s | %s |" % (
            cn, pct_change(geomean(com)), "+2.3 % (FFT, BI; §5.4.2)" if cn == "si-gto" else "-"))
        L.append("| %s: maximum | %s (%s) | |" % (cn, pct_change(best[0]), best[1]))
    L.append("")
    L.append("## What HAWS did (kepler-k20x, LRR): Figs. 5.11-5.15\n")
    L.append("Issue slots are counted per scheduler and cycle (the thesis counts per GPU cycle, "
             "C.9 #30). *LL stall* = slots whose reason was `long_latency_dependence`. "
             "*Insts/entry* = chain members issued per hint-mode entry (Fig. 5.13, thesis 0.55 "
             "average, DCT 1.23); *ALU %* = ALU warp-instructions executed in hint mode "
             "(Fig. 5.14: MM almost 20 %, FFT 0.39 %); *mem %* = long-latency loads executed in "
             "hint mode (Fig. 5.15: BS nearly 20 %).\n")
    L.append("| bench | issued base | issued HAWS | LL stall base | LL stall HAWS | LL change | entries | insts/entry | ALU % | mem % | skips | copies | flushed |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in res:
        c = r["cfg"]["kepler-lrr"]
        b, h = c["off"], c["warp"]
        hh = h["haws"]
        llb = b["slot_frac"].get("long_latency_dependence", 0.0)
        llh = h["slot_frac"].get("long_latency_dependence", 0.0)
        L.append("| %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %+.1f pp | %d | %.2f | %.2f | %.2f | %d | %d | %d |" % (
            r["abbr"], 100 * b["slot_frac"].get("issued", 0), 100 * h["slot_frac"].get("issued", 0),
            100 * llb, 100 * llh, 100 * (llh - llb), hh.get("entries", 0),
            hh.get("insts_per_entry", 0.0), hh.get("alu_pct", 0.0), hh.get("mem_pct", 0.0),
            hh.get("skips", 0), hh.get("copies", 0), hh.get("flushed", 0)))
    ipe = [r["cfg"]["kepler-lrr"]["warp"]["haws"].get("insts_per_entry", 0.0) for r in res
           if r["cfg"]["kepler-lrr"]["warp"]["haws"].get("entries", 0)]
    L.append("")
    L.append("Average instructions per entry over benchmarks with entries: %s (thesis 0.55)."
             % (fmt(sum(ipe) / len(ipe), "%.2f") if ipe else "n/a"))
    if not a.quick:
        L.append("")
        L.append("## RCU depth (kepler-k20x, LRR)\n")
        L.append("The thesis chose 8 entries \"based on our experiments\" without data (§5.3.3). "
                 "Speedup over the HAWS-off baseline with the core's RcuDepth set by "
                 "`haws.rcu_depth`; the hint pass builds chains of at most 8 members, so a "
                 "16-entry RCU would hold nothing more than 8 here.\n")
        L.append("| bench | " + " | ".join("depth %d" % d for d in RCU_DEPTHS) + " |")
        L.append("|---|" + "---|" * len(RCU_DEPTHS))
        for r in res:
            L.append("| %s | %s |" % (r["abbr"], " | ".join(fmt(r["depth"][d]) for d in RCU_DEPTHS)))
        L.append("| geometric mean | %s |" % " | ".join(
            fmt(geomean([r["depth"][d] for r in res])) for d in RCU_DEPTHS))
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


def write_dat(res, configs, out, quick):
    with open(os.path.join(out, "speedup.dat"), "w") as f:
        f.write("# abbr " + " ".join(cn for cn, _, _ in configs) + "\n")
        for r in res:
            f.write("%s %s\n" % (r["abbr"], " ".join("%.4f" % r["cfg"][cn]["speedup"] for cn, _, _ in configs)))
    with open(os.path.join(out, "slots.dat"), "w") as f:
        f.write("# abbr issued_base issued_haws ll_base ll_haws other_base other_haws "
                "insts_per_entry alu_pct mem_pct\n")
        for r in res:
            c = r["cfg"]["kepler-lrr"]
            b, h = c["off"]["slot_frac"], c["warp"]["slot_frac"]
            hh = c["warp"]["haws"]
            ib, ih = b.get("issued", 0), h.get("issued", 0)
            lb, lh = b.get("long_latency_dependence", 0), h.get("long_latency_dependence", 0)
            f.write("%s %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f\n" % (
                r["abbr"], ib, ih, lb, lh, 1 - ib - lb, 1 - ih - lh,
                hh.get("insts_per_entry", 0.0), hh.get("alu_pct", 0.0), hh.get("mem_pct", 0.0)))
    if not quick:
        with open(os.path.join(out, "depth.dat"), "w") as f:
            f.write("# abbr " + " ".join("d%d" % d for d in RCU_DEPTHS) + "\n")
            for r in res:
                f.write("%s %s\n" % (r["abbr"], " ".join("%.4f" % r["depth"][d] for d in RCU_DEPTHS)))


GNUPLOT = GNUPLOT_HISTOGRAMS + """set output "{out}/speedup.svg"
set title "HAWS speedup over its baseline (seed 000 Figs. 5.10, 5.16)"
set ylabel "baseline cycles / HAWS cycles"
plot {speedup_plot}, 1 with lines lc rgb "black" notitle
set output "{out}/slots.svg"
set title "Issue-slot breakdown, kepler-k20x LRR: base vs HAWS (Fig. 5.11)"
set ylabel "fraction of scheduler slots"
set style histogram rowstacked
plot "{out}/slots.dat" using 2:xtic(1) title "issued (base)", "" using 4 title "LL stall (base)", "" using 6 title "other (base)"
set output "{out}/slots-haws.svg"
plot "{out}/slots.dat" using 3:xtic(1) title "issued (HAWS)", "" using 5 title "LL stall (HAWS)", "" using 7 title "other (HAWS)"
set style histogram clustered gap 1
set output "{out}/insts-per-entry.svg"
set title "Instructions issued per hint-mode entry (Fig. 5.13; thesis average 0.55)"
set ylabel "instructions per entry"
plot "{out}/slots.dat" using 8:xtic(1) title "kepler-k20x LRR"
set output "{out}/hinted-share.svg"
set title "Share executed in hint mode (Figs. 5.14-5.15)"
set ylabel "percent"
plot "{out}/slots.dat" using 9:xtic(1) title "ALU instructions", "" using 10 title "long-latency loads"
{depth}
"""

DEPTH = """
set output "{out}/rcu-depth.svg"
set title "RCU depth sweep, kepler-k20x LRR"
set ylabel "speedup over HAWS off"
plot "{out}/depth.dat" using 2:xtic(1) title "1", "" using 3 title "2", "" using 4 title "4", "" using 5 title "8", 1 with lines lc rgb "black" notitle
"""


def plot(out, quick):
    cols = ["kepler-lrr"] if quick else [c[0] for c in CONFIGS]
    sp = ", ".join('"%s/speedup.dat" using %d%s title "%s"' % (out, i + 2, ":xtic(1)" if i == 0 else "", c)
                   for i, c in enumerate(cols))
    script = GNUPLOT.format(out=out, speedup_plot=sp,
                            depth="" if quick else DEPTH.format(out=out))
    run_gnuplot("results-haws", script)


if __name__ == "__main__":
    main()
