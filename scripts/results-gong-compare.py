#!/usr/bin/env python3
"""Three columns for the HAWS and locality results (issue 37): the presets
before issue 37 (`kepler-k20x-v1`, `si-7970-v1`), the Gong thesis's machines
(`kepler-k20x`, `si-7970`: its tables and Multi2Sim's models) and the thesis
(seed 000), from four results.json files of scripts/results-haws.py and
scripts/results-locality.py (--machine v1 and faithful).

  make results-gong-compare      (runs all four, then this)
  scripts/results-gong-compare.py HAWS_V1 HAWS LOCALITY_V1 LOCALITY [OUT.md]

The thesis's numbers are those its text states (its figures are images);
nothing is adjusted.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_common import fmt, geomean  # noqa: E402

HAWS_THESIS = {"kepler-lrr": "+15 % average over round-robin, max +26 % on FW (§5.4.5)",
               "kepler-gto": "(no Kepler GTO study)",
               "si-gto": "+14.6 % (§5.4.2) / +15.3 % (§5.5), max +34.2 % on BS"}
# Figs. 5.11-5.12 / 1.2 in words: memory-intensive benchmarks spend around or
# more than 25 % of cycles with every warp stalled on a long-latency load
# (§1.2), HAWS removes up to 14.9 points of it (§5.4.3)
LL_THESIS = "memory-intensive: around or above 25 % (§1.2, Fig. 1.2); HAWS: up to -14.9 points (§5.4.3)"


def load(path):
    with open(path) as f:
        return json.load(f)


def pct(x):
    return "n/a" if x is None else "%+.1f %%" % (100 * (x - 1))


def slot(m, key):
    return 100.0 * m["slot_frac"].get(key, 0.0)


def haws_tables(v1, new, L):
    by1 = {r["bench"]: r for r in v1["benchmarks"]}
    L.append("## HAWS speedup over the same preset and policy without HAWS (Figs. 5.10, 5.16)\n")
    L.append("| configuration | -v1 memory-intensive | faithful memory-intensive | -v1 other | faithful other | thesis |")
    L.append("|---|---|---|---|---|---|")
    for cn in ("kepler-lrr", "kepler-gto", "si-gto"):
        cells = []
        for typ in ("M", "N"):
            for res in (v1, new):
                xs = [r["cfg"][cn]["speedup"] for r in res["benchmarks"]
                      if r["type"] == typ and cn in r["cfg"]]
                cells.append(pct(geomean(xs)) if xs else "n/a")
        L.append("| %s | %s | %s | %s | %s | %s |" % (cn, cells[0], cells[1], cells[2], cells[3],
                                                      HAWS_THESIS[cn]))
    L.append("")
    L.append("## Issue slots without HAWS, and HAWS's speedup (kepler-k20x, LRR; Figs. 5.11-5.12)\n")
    L.append("Slots per scheduler and cycle (the thesis counts GPU cycles, spec C.9 #30). *LL* = "
             "`long_latency_dependence`, *busy* = `unit_busy` (a memory instruction found the LD/ST "
             "unit or its buffers full). Thesis: " + LL_THESIS + ".\n")
    L.append("| bench | type | LL -v1 | LL faithful | busy -v1 | busy faithful | LL with HAWS, faithful | speedup -v1 | speedup faithful |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    for r in new["benchmarks"]:
        o = by1.get(r["bench"])
        if not o:
            continue
        a, b = o["cfg"]["kepler-lrr"], r["cfg"]["kepler-lrr"]
        L.append("| %s | %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %s | %s |" % (
            r["abbr"], r["type"], slot(a["off"], "long_latency_dependence"),
            slot(b["off"], "long_latency_dependence"), slot(a["off"], "unit_busy"),
            slot(b["off"], "unit_busy"), slot(b["warp"], "long_latency_dependence"),
            fmt(a["speedup"]), fmt(b["speedup"])))
    L.append("")


def locality_tables(v1, new, L):
    L.append("## Locality-aware scheduling over round-robin, kepler-k20x (Figs. 6.1, 6.10-6.12)\n")
    L.append("| measure | -v1 | faithful | thesis |")
    L.append("|---|---|---|---|")

    def t12(res, f):
        return geomean([f(r) for r in res["benchmarks"] if r["type"] in (1, 2)])

    rows = [
        ("speedup, own Table 6.2 hint, types 1-2, geometric mean",
         lambda res: fmt(t12(res, lambda r: r["runs"][str(r["type"])]["speedup"])),
         "+13 % average (§6.4.2, §6.4.5)"),
        ("speedup, type 3, geometric mean",
         lambda res: fmt(geomean([r["runs"][str(r["type"])]["speedup"]
                                  for r in res["benchmarks"] if r["type"] == 3])),
         "\"varies\" (§6.4.2)"),
        ("baseline duplicate MSHR fraction, mean",
         lambda res: "%.1f %%" % (100 * sum(r["runs"]["0"]["dup_frac"] for r in res["benchmarks"])
                                   / max(len(res["benchmarks"]), 1)),
         "almost 60 % (§6.1, Fig. 6.1)"),
        ("duplicates with hint / baseline, types 1-2, geometric mean",
         lambda res: fmt(t12(res, lambda r: r["runs"][str(r["type"])]["dup_rel"])),
         "at least 10 % fewer on high locality (§6.4.3)"),
        ("requests per MSHR entry with hint / baseline, types 1-2, geometric mean",
         lambda res: fmt(t12(res, lambda r: r["runs"][str(r["type"])]["rpe_rel"])),
         "increased in all, doubled for MT and SC (§6.4.4)"),
    ]
    for name, f, thesis in rows:
        L.append("| %s | %s | %s | %s |" % (name, f(v1), f(new), thesis))
    L.append("")
    L.append("| bench | type | speedup -v1 | speedup faithful | dup. baseline -v1 | dup. baseline faithful |")
    L.append("|---|---|---|---|---|---|")
    by1 = {r["bench"]: r for r in v1["benchmarks"]}
    for r in new["benchmarks"]:
        o = by1.get(r["bench"])
        if not o:
            continue
        k = str(r["type"])
        L.append("| %s | %d | %s | %s | %.1f %% | %.1f %% |" % (
            r["abbr"], r["type"], fmt(o["runs"][k]["speedup"]), fmt(r["runs"][k]["speedup"]),
            100 * o["runs"]["0"]["dup_frac"], 100 * r["runs"]["0"]["dup_frac"]))
    L.append("")


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    hv1, hnew, lv1, lnew = (load(p) for p in sys.argv[1:5])
    for name, res, want in (("HAWS_V1", hv1, "v1"), ("HAWS", hnew, "faithful")):
        if res.get("machine", "faithful") != want:
            sys.exit("results-gong-compare: %s is a --machine %s run" % (name, res.get("machine")))
    for name, res, want in (("LOCALITY_V1", lv1, "kepler-k20x-v1"), ("LOCALITY", lnew, "kepler-k20x")):
        if res.get("config") != want:
            sys.exit("results-gong-compare: %s is a run on %s, not %s" % (name, res.get("config"), want))
    L = ["# The Gong thesis's machines against the presets before them (issue 37)\n",
         "Generated by `scripts/results-gong-compare.py` from `results-haws` and "
         "`results-locality` at the %s size with `--machine v1` (kepler-k20x-v1, si-7970-v1: "
         "GPGPU-Sim-style LD/ST unit, Fermi's memory latencies) and `--machine faithful` "
         "(kepler-k20x, si-7970: Multi2Sim's memory unit and memory; "
         "docs/memory-model.md, \"The Multi2Sim presets\").\n" % hnew.get("size")]
    haws_tables(hv1, hnew, L)
    locality_tables(lv1, lnew, L)
    text = "\n".join(L) + "\n"
    if len(sys.argv) == 6:
        tmp = sys.argv[5] + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, sys.argv[5])
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
