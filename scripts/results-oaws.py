#!/usr/bin/env python3
"""OAWS and its peers against GTO (issue 18, seed 001 = OAWS, PACT'16,
/work/shared/design/oaws.md A.10-A.12, C.1-C.2, D.5-D.6; docs/oaws.md
"Results"): the Table 2 benchmarks that the suite has, on the fermi-gtx480
preset (= the paper's Table 1, spec C.1), C model back end, each run under
every policy of POLICIES that this build accepts:

  main         IPC normalised to GTO, divergent and coherent sets (Fig. 8),
               and the LD/ST stall breakdown normalised to GTO's LD/ST busy
               cycles (Fig. 9)
  deep         the divergent set again with deeper interconnect / L2 queues
               (spec C.4: with the preset's 8-entry queues spmv and bfs stall
               on the interconnect, which Eq. 1 cannot see)
  mshr         l1d.mshr_entries 32/48/64/96, normalised to GTO at 32 (Fig. 13)
  alloc        l1d.alloc on_fill against on_miss, per policy (Fig. 14)
  smr          oaws-static:S for S = 0, 5, ..., 100 (Fig. 12)

A policy that the binary rejects (probed once with `smcosim run --policy P
--bench vectoradd --size small`) is listed as "not available in this build"
with the binary's message; nothing is left out silently or made up.

Writes into OUT (default build/results/oaws):
  results.md      Markdown tables beside the paper's numbers (text numbers
                  only: the paper's bar heights are not in the seed text,
                  spec A.12)
  results.json    every number the tables use
  *.dat, *.svg    gnuplot input and plots (when gnuplot is installed)
  runs/           every run's folder (statistics JSON, log; scripts/sweep.py)
  table.csv/json  the sweep's table, one row per run

What the model gives is reported as it is; nothing is tuned to match.

usage: scripts/results-oaws.py [--build DIR] [--size small|default|large|paper] [--preset NAME]
                               [--out DIR] [--quick] [--no-sweeps] [--no-deep] [--no-plots]
                               [sweep options: -j N, --executor slurm, ...] [NAME...]
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_common import fmt, geomean, ratio, results_argparser, run_gnuplot  # noqa: E402
from sweep import Sweep, clean_env, normalize, run_key, run_tables  # noqa: E402

PRESET = "fermi-gtx480"


def set_preset(name):
    """The machine every run uses (--preset)."""
    global PRESET
    PRESET = name

# Table 2 (seed 001 §5): abbreviation, suite benchmark (None: not in the
# suite), class, SWL-Best's "#Warps" from Table 3 (None: the paper gives
# none). Expansions of the abbreviations are the spec's reading (A.11).
BENCHES = [
    ("ATAX", "atax", "divergent", 2), ("BICG", "bicg", "divergent", 2),
    ("MVT", "mvt", "divergent", 2), ("GES", "gesummv", "divergent", 1),
    ("SYRK", "syrk", "divergent", 2), ("SYR2K", "syr2k", "divergent", 2),
    ("PF", "particlefilter", "divergent", None), ("BFS", "bfs", "divergent", 3),
    ("SC", "streamcluster", "divergent", None), ("KMN", "kmeans", "divergent", 4),
    ("SPMV", "spmv", "divergent", 2), ("IIX", "iix", "divergent", 4),
    ("3DC", "3dconv", "coherent", None), ("2MM", "2mm", "coherent", None),
    ("SRAD1", "srad1", "coherent", None), ("SRAD2", "srad2", "coherent", None),
    ("BP", "backprop", "coherent", None), ("FD", "fdtd2d", "coherent", None),
    ("3MM", "3mm", "coherent", None), ("LBM", "lbm", "coherent", None),
]
NOTES = {
    "PF": "Particle Filter read (spec A.11: PF is ambiguous); Table 3 gives no SWL limit",
    "SC": "Rodinia pgain kernel only; Table 3 gives no SWL limit",
    "SRAD1": "srad_v1 style, our kernels and a smaller image (paper: 502 launches)",
    "SRAD2": "srad_v2 style, our kernels and a smaller image",
    "BP": "backprop style, our kernels; host steps between the two kernels",
    "LBM": "Parboil lbm style D3Q19, our kernel and a smaller grid",
    "IIX": "Mars InvertedIndex style, our kernels; 108 launches (paper: 149), 5 divergent load PCs per scan kernel (paper: 26)",
    "KMN": "the suite's kmeans has no divergent load (spec C.2): divergent in the paper only",
    "SYR2K": "paper: SWL-Best beats OAWS-Dyn here (§5.1)",
    "SPMV": "paper: SWL-Best beats OAWS-Dyn here (§5.1); no coherent loads",
}

# SWL-Best: Table 3 gives "#Warps" without saying per SM or per scheduler.
# The paper's numbers come from GPGPU-Sim, whose swl scheduler applies the
# limit to each scheduler unit's supervised warps (spec B). smcosim's
# swl:N admits the first N alive warps of the SM, by id (docs/
# sched-interface.md), and warp w goes to scheduler w % 2 on Fermi, so
# swl:(2*limit) gives each of the two schedulers `limit` warps: the
# per-scheduler reading. SWL_PER_SM runs the literal per-SM reading beside it.
SWL_SCHEDULERS = 2           # fermi-gtx480 sched.num (spec C.1)


def swl_policy(limit):
    return "swl:%d" % (SWL_SCHEDULERS * limit)


# Every policy compared, in the paper's order (Fig. 8): key, label, the
# --policy string (a function of the Table 3 limit for SWL), the paper's mean
# IPC over the divergent benchmarks normalised to GTO (§5.1, spec A.12).
POLICIES = [
    ("gto", "GTO", lambda limit: "gto", 1.000),
    ("mascar", "MASCAR", lambda limit: "mascar", 1.017),
    ("ccws", "CCWS", lambda limit: "ccws", 1.097),
    ("swl", "SWL-Best", lambda limit: swl_policy(limit) if limit else None, 1.555),
    ("static", "OAWS-Static", lambda limit: "oaws-static:50", 1.367),
    ("dyn", "OAWS-Dyn", lambda limit: "oaws-dyn", 1.731),
]
SWL_PER_SM = ("swl-sm", "SWL-Best per SM", lambda limit: "swl:%d" % limit if limit else None)
# Fig. 9's bar labels: G(TO), M(ASCAR), C(CWS), S(WL-Best), O(AWS-Static),
# D(yn); s = SWL-Best per SM (ours).
INITIAL = {"gto": "G", "mascar": "M", "ccws": "C", "swl": "S", "static": "O", "dyn": "D",
           "swl-sm": "s"}
# The probe string of a policy whose string depends on the benchmark, and
# how the Markdown shows it.
PROBE = {"swl": "swl:2", "swl-sm": "swl:2"}
SHOWN = {"swl": "swl:2N", "swl-sm": "swl:N"}

# Configurations (sets on top of the preset). BASE spells out the two keys
# the sweeps vary, at the preset's (= Table 1's) values, so that the MSHR-32
# and on_fill points are the main runs.
BASE = ("l1d.mshr_entries=32", "l1d.alloc=on_fill")
DEEP = ("icnt.queue_entries=32", "l2.queue_entries=32", "l2.mshr_entries=128")
MSHRS = (32, 48, 64, 96)
MSHR_POLICIES = ("gto", "static", "dyn")
SMRS = tuple(range(0, 101, 5))

# The paper's numbers (spec A.12).
PAPER_MSHR = {"gto": "no gain (icnt congestion)", "static": "degrades",
              "dyn": "1.731 / 1.891 / 1.926 / 1.994"}
PAPER_ALLOC = {"gto": "1.209 (+20.9 %)", "ccws": "< 1 (the only one favouring on_miss; 15.5 %)",
               "mascar": "about 1 (similar)"}


class Runner:
    """The runs of the tables, on the sweep engine (scripts/sweep.py). In
    planning mode run() only adds the run to the sweep and returns a
    neutral stand-in, so that the tables' code is walked once to list its
    runs; the sweep then runs them (resuming: a finished run of the same
    simulator build is not run again), and the second walk reads them."""
    def __init__(self, build, size, out):
        self.build, self.size, self.out = build, size, out
        self.sweep = Sweep(out, build, "results-oaws")
        self.cache = {}
        self.avail = {}

    @property
    def planning(self):
        return self.sweep.planning

    def probe(self, policy):
        """(True, "") when the binary accepts --policy policy, else (False, its message)."""
        if policy in self.avail:
            return self.avail[policy]
        p = subprocess.run([os.path.join(self.build, "bin", "smcosim"), "run", "--config", PRESET,
                            "--policy", policy, "--bench", "vectoradd", "--size", "small"],
                           env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if p.returncode == 0 and "vectoradd: PASS" in p.stdout:
            r = (True, "")
        else:
            msg = [l for l in p.stdout.splitlines() if "policy" in l] or p.stdout.splitlines()[-1:]
            if not any("unknown policy" in l or "--policy" in l for l in msg):
                sys.exit("results-oaws: probing --policy %s failed for another reason (exit %d):\n%s"
                         % (policy, p.returncode, p.stdout[-2000:]))
            r = (False, msg[0].strip() if msg else "exit %d" % p.returncode)
        self.avail[policy] = r
        return r

    def run(self, name, policy, sets):
        """One benchmark run: sums over its launches, per-kernel cycles."""
        spec = {"bench": name, "preset": PRESET, "sched": "c", "policy": policy,
                "set": list(sets), "size": self.size}
        key = run_key(normalize(spec, name))
        if key not in self.cache:
            st = self.sweep.stats(spec)
            if self.planning:
                return self.summarise(st)
            self.cache[key] = self.summarise(st)
        return self.cache[key]

    @staticmethod
    def summarise(stats):
        m = {"cycles": 0, "warp_insts": 0, "ldst": {}, "slots": {}, "div_insts": 0,
             "kernels": {}, "fully": None}
        for l in stats["launches"]:
            m["cycles"] += l["cycles"]
            m["warp_insts"] += l["warp_insts"]
            # fully cached divergent loads (Fig. 10): counted under OAWS
            # ("oaws") and under the peers ("peers"), [loads, fully cached]
            fc = l.get("oaws") or l.get("peers")
            if fc is not None:
                f = m["fully"] or [0, 0]
                m["fully"] = [f[0] + fc["div_loads"], f[1] + fc["div_fully_cached"]]
            for k, v in l["memory"]["ldst"].items():
                m["ldst"][k] = m["ldst"].get(k, 0) + v
            for k, v in l["issue_slots"].items():
                m["slots"][k] = m["slots"].get(k, 0) + v
            div = l["memory"]["coalescer"]["divergent_insts"]
            m["div_insts"] += div
            kk = m["kernels"].setdefault(l["kernel"], {"cycles": 0, "warp_insts": 0, "div_insts": 0})
            kk["cycles"] += l["cycles"]
            kk["warp_insts"] += l["warp_insts"]
            kk["div_insts"] += div
        if not stats["launches"]:       # a planning stand-in: neutral numbers
            m.update(cycles=1, warp_insts=1)
        m["ipc"] = ratio(m["warp_insts"], m["cycles"])
        return m


def norm_ipc(x, base):
    """IPC of x over IPC of base (the instruction counts are the same for a
    deterministic program; the ratio of IPCs is stated as the paper states it)."""
    return ratio(x["ipc"], base["ipc"])


def main():
    ap = results_argparser(__doc__,
                           quick_help="main table, deep queues and one point of each sweep only (make test)")
    ap.add_argument("--no-deep", action="store_true",
                    help="no deep-queue table (the paper-size main table alone)")
    ap.add_argument("--no-sweeps", action="store_true",
                    help="main table and deep queues only (no MSHR, allocation or SMR sweep)")
    ap.add_argument("--preset", default=PRESET,
                    help="the machine (default %s; %s-v1 is the one-clock machine before "
                         "issue 36)" % (PRESET, PRESET))
    ap.add_argument("names", nargs="*", help="suite benchmarks (default: every Table 2 one we have)")
    a = ap.parse_args()
    set_preset(a.preset)
    out = a.out or os.path.join(a.build, "results", "oaws" if a.preset == "fermi-gtx480"
                                else "oaws-" + a.preset.replace("fermi-gtx480-", ""))
    known = {b[1] for b in BENCHES if b[1]}
    unknown = set(a.names) - known
    if unknown:
        sys.exit("results-oaws: not a Table 2 benchmark of the suite: %s" % ", ".join(sorted(unknown)))
    os.makedirs(os.path.join(out, "runs"), exist_ok=True)
    R = Runner(a.build, a.size, out)

    # Which policies this build has.
    pols = []
    for key, label, fn, paper in POLICIES + [SWL_PER_SM + (None,)]:
        ok, msg = R.probe(PROBE.get(key, fn(1)))
        pols.append({"key": key, "label": label, "fn": fn, "paper": paper, "ok": ok, "why": msg})
    P = {p["key"]: p for p in pols}
    for p in pols:
        if not p["ok"]:
            print("results-oaws: %s: not available in this build (%s)" % (p["label"], p["why"]))
    if not P["gto"]["ok"]:
        sys.exit("results-oaws: GTO itself is rejected: %s" % P["gto"]["why"])

    def tables():
        rows = [b for b in BENCHES if b[1] and (not a.names or b[1] in a.names)]
        div = [b for b in rows if b[2] == "divergent"]
        res = {"size": a.size, "preset": PRESET, "quick": a.quick,
               "policies": [{k: p[k] for k in ("key", "label", "paper", "ok", "why")} for p in pols],
               "main": {}, "deep": {}, "mshr": {}, "alloc": {}, "smr": {}}

        def pol_string(p, limit):
            return p["fn"](limit) if p["ok"] else None

        # main + stall breakdown (Figs. 8, 9), and the deep-queue configuration
        for cname, extra, bset in (("main", (), rows), ("deep", DEEP, [] if a.no_deep else div)):
            for abbr, name, cls, limit in bset:
                base = R.run(name, "gto", BASE + extra)
                r = {"bench": name, "class": cls, "policy": {}, "stalls": {}}
                for p in pols:
                    ps = pol_string(p, limit)
                    if ps is None:
                        continue
                    m = R.run(name, ps, BASE + extra)
                    r["policy"][p["key"]] = {"string": ps, "norm_ipc": norm_ipc(m, base),
                                             "cycles": m["cycles"], "ipc": m["ipc"],
                                             "div_kernels": {k: ratio(base["kernels"][k]["cycles"], v["cycles"])
                                                             for k, v in m["kernels"].items()
                                                             if base["kernels"][k]["div_insts"]}}
                    if m["fully"] and m["fully"][0]:
                        r["policy"][p["key"]]["fully_cached"] = 100.0 * m["fully"][1] / m["fully"][0]
                    busy = base["ldst"].get("busy_cycles", 0)
                    r["stalls"][p["key"]] = {k: ratio(m["ldst"].get(k, 0), busy)
                                             for k in ("stall_coal", "stall_mshr", "stall_icnt", "busy_cycles")}
                    # Fig. 9's MASCAR_Replay: cycles in which the head of MASCAR's
                    # re-execution queue could not be sent (memory.ldst, only when
                    # the queue is on: absent = n/a)
                    if "mascar_replay" in m["ldst"]:
                        r["stalls"][p["key"]]["mascar_replay"] = ratio(m["ldst"]["mascar_replay"], busy)
                r["div_kernels"] = sorted(k for k, v in base["kernels"].items() if v["div_insts"])
                # GTO's fully cached loads: from oaws-static:0, which is GTO
                # exactly (§5.4, tests/oaws/oaws-suite.sh) and counts them
                if P["static"]["ok"] and cls == "divergent" and not extra and "gto" in r["policy"]:
                    g0 = R.run(name, "oaws-static:0", BASE)
                    if g0["fully"] and g0["fully"][0] and g0["cycles"] == base["cycles"]:
                        r["policy"]["gto"]["fully_cached"] = 100.0 * g0["fully"][1] / g0["fully"][0]
                # GTO with these queues over GTO on the preset (1 for the preset itself)
                r["gto_vs_preset"] = norm_ipc(base, R.run(name, "gto", BASE))
                res[cname][abbr] = r
                if not R.planning:
                    print("%-6s %-5s %s" % (cname, abbr, "  ".join(
                        "%s %.3f" % (k, v["norm_ipc"]) for k, v in r["policy"].items())), flush=True)

        # MSHR sweep (Fig. 13) and allocation policy (Fig. 14), divergent set
        mshrs = (32, 48) if a.quick else MSHRS
        for abbr, name, cls, limit in ([] if a.no_sweeps else div):
            g32 = R.run(name, "gto", BASE)
            res["mshr"][abbr] = {}
            for k in MSHR_POLICIES:
                if not P[k]["ok"]:
                    continue
                res["mshr"][abbr][k] = {m: norm_ipc(R.run(name, pol_string(P[k], limit),
                                                          ("l1d.mshr_entries=%d" % m, BASE[1])), g32)
                                        for m in mshrs}
            res["alloc"][abbr] = {}
            for p in pols:
                ps = pol_string(p, limit)
                if ps is None or p["key"] == "swl-sm" or (a.quick and p["key"] != "gto"):
                    continue
                fill = R.run(name, ps, BASE)
                miss = R.run(name, ps, (BASE[0], "l1d.alloc=on_miss"))
                res["alloc"][abbr][p["key"]] = norm_ipc(fill, miss)

        # SMR sweep (Fig. 12): oaws-static:S, normalised to GTO
        if P["static"]["ok"] and not a.no_sweeps:
            smrs = (0, 50, 100) if a.quick else SMRS
            for abbr, name, cls, limit in div:
                g = R.run(name, "gto", BASE)
                res["smr"][abbr] = {s: norm_ipc(R.run(name, "oaws-static:%d" % s, BASE), g) for s in smrs}
        return res, rows

    res, rows = run_tables(R.sweep, a, tables)

    json.dump(res, open(os.path.join(out, "results.json"), "w"), indent=1, default=str)
    write_markdown(res, pols, a, os.path.join(out, "results.md"))
    write_dat(res, pols, out)
    if not a.no_plots:
        plot(res, pols, out)
    print("results-oaws: %d benchmarks, %s size; %s" % (len(rows), a.size,
                                                       os.path.join(out, "results.md")))


def means(table, cls, key):
    return geomean([r["policy"][key]["norm_ipc"] for r in table.values()
                    if r["class"] == cls and key in r["policy"]])


def write_markdown(res, pols, a, path):
    ok = [p for p in pols if p["ok"]]
    L = ["# OAWS and its peers against GTO (seed 001, PACT'16)\n"]
    L.append("Generated by `scripts/results-oaws.py --size %s%s` (`make results-oaws`). Preset "
             "`%s` (= the paper's Table 1, spec C.1), C model back end. *IPC/GTO* = the "
             "benchmark's IPC over all its launches under the policy, over GTO's; means are "
             "geometric. SWL-Best = `swl:2N` for the Table 3 limit N (per scheduler, the "
             "GPGPU-Sim reading: two schedulers on Fermi), *SWL-Best per SM* = `swl:N`. The "
             "paper's per-benchmark bars are not in its text; only its means are given beside "
             "ours.\n" % (res["size"], " --quick" if res["quick"] else "", res["preset"]))
    L.append("| policy | `--policy` | in this build |")
    L.append("|---|---|---|")
    for p in pols:
        L.append("| %s | `%s` | %s |" % (p["label"], SHOWN.get(p["key"], p["fn"](1)),
                                         "yes" if p["ok"] else "not available in this build (%s)" % p["why"]))
    L.append("")
    for cname, title in (("main", "IPC normalised to GTO, %s (Fig. 8)" % res["preset"]),
                         ("deep", "Divergent set with deep queues (`%s`)" % ";".join(DEEP))):
        t = res[cname]
        if not t:
            continue
        L.append("## %s\n" % title)
        deep = cname == "deep"
        if deep:
            L.append("Same normalisation, to GTO with the same deep queues; *GTO deep/preset* = "
                     "GTO's IPC with these queues over GTO's on the preset.\n")
        L.append("| bench | suite | class | SWL N | " + " | ".join(p["label"] for p in ok) + " | "
                 + ("GTO deep/preset | " if deep else "") + "note |")
        L.append("|---|---|---|---|" + "---|" * len(ok) + ("---|" if deep else "") + "---|")
        for abbr, name, cls, limit in BENCHES:
            if cname == "deep" and cls != "divergent":
                continue
            if abbr not in t:
                if name is None:
                    L.append("| %s | - | %s | %s | %s | %snot in the suite |" % (
                        abbr, cls, limit or "-", " | ".join("-" for _ in ok), "- | " if deep else ""))
                continue
            r = t[abbr]
            L.append("| %s | %s | %s | %s | %s | %s%s |" % (
                abbr, name, cls, limit or "-",
                " | ".join(fmt(r["policy"][p["key"]]["norm_ipc"]) if p["key"] in r["policy"] else "n/a"
                           for p in ok), fmt(r["gto_vs_preset"]) + " | " if deep else "",
                NOTES.get(abbr, "")))
        for cls in ("divergent", "coherent"):
            if any(r["class"] == cls for r in t.values()):
                L.append("| **%s geomean** | | | | %s | %s|" % (
                    cls, " | ".join(fmt(means(t, cls, p["key"])) for p in ok),
                    fmt(geomean([r["gto_vs_preset"] for r in t.values() if r["class"] == cls]))
                    + " | " if deep else ""))
        if cname == "main":
            L.append("| **paper, divergent mean** | | | | %s | Fig. 8, §5.1 |" % " | ".join(
                fmt(p["paper"]) if p["paper"] is not None else "-" for p in ok))
            L.append("| **paper, coherent** | | | | %s | \"no significant gains\", OAWS \"no detrimental effects\" |"
                     % " | ".join("~1" for _ in ok))
        L.append("")
    if res["main"]:
        L.append("## Kernels with divergent loads, %s\n" % res["preset"])
        L.append("Per kernel (launches summed): GTO cycles over the policy's cycles, for the "
                 "kernels whose `memory.coalescer.divergent_insts` is non-zero under GTO. ATAX, "
                 "BICG and MVT also have a coherent kernel that SWL-Best slows down (§5.1); here "
                 "only their divergent kernel counts.\n")
        L.append("| bench | kernel | " + " | ".join(p["label"] for p in ok) + " |")
        L.append("|---|---|" + "---|" * len(ok))
        per = {p["key"]: [] for p in ok}
        for abbr, r in res["main"].items():
            for k in r["div_kernels"]:
                cells = []
                for p in ok:
                    v = r["policy"].get(p["key"], {}).get("div_kernels", {}).get(k)
                    cells.append(fmt(v))
                    if v is not None:
                        per[p["key"]].append(v)
                L.append("| %s | `%s` | %s |" % (abbr, k, " | ".join(cells)))
        L.append("| **geomean** | | %s |" % " | ".join(fmt(geomean(per[p["key"]])) for p in ok))
        L.append("")
        L.append("## Fully cached divergent loads, divergent set (Fig. 10)\n")
        L.append("Percent of divergent global/local loads (coalescer: more than two lines) none "
                 "of whose L1D accesses missed (an MSHR merge counts as a miss), over the "
                 "benchmark's launches. GTO's column is from `oaws-static:0` (GTO exactly); "
                 "policies that do not count them show n/a. Paper averages: GTO 20 %, CCWS "
                 "25 %, SWL-Best 31 %, OAWS-Dyn 45 % (§5.3).\n")
        L.append("| bench | " + " | ".join(p["label"] for p in ok) + " |")
        L.append("|---|" + "---|" * len(ok))
        fcs = {p["key"]: [] for p in ok}
        for abbr, r in res["main"].items():
            if r["class"] != "divergent":
                continue
            cells = []
            for p in ok:
                v = r["policy"].get(p["key"], {}).get("fully_cached")
                cells.append("%.1f" % v if v is not None else "n/a")
                if v is not None:
                    fcs[p["key"]].append(v)
            L.append("| %s | %s |" % (abbr, " | ".join(cells)))
        L.append("| **mean** | %s |" % " | ".join(
            "%.1f" % (sum(fcs[p["key"]]) / len(fcs[p["key"]])) if fcs[p["key"]] else "n/a"
            for p in ok))
        paper_fc = {"gto": "20", "ccws": "25", "swl": "31", "dyn": "45"}
        L.append("| **paper, mean** | %s |" % " | ".join(paper_fc.get(p["key"], "-") for p in ok))
        L.append("")
        L.append("## LD/ST stalls, divergent set (Fig. 9)\n")
        L.append("Cycles of `memory.ldst` stall_coal / stall_mshr / stall_icnt under each policy, "
                 "normalised to GTO's LD/ST busy cycles (GPU-wide sums over the benchmark's "
                 "launches); MASCAR_Replay = `memory.ldst.mascar_replay`, the SM-cycles in which "
                 "the head of MASCAR's re-execution queue could not be sent (n/a: no queue). "
                 "Paper: LDST_ICNT negligible for all; SWL-Best, Static and Dyn cut the "
                 "stalls about equally.\n")
        L.append("| bench | policy | coal | mshr | icnt | MASCAR_Replay | busy |")
        L.append("|---|---|---|---|---|---|---|")
        for abbr, r in res["main"].items():
            if r["class"] != "divergent":
                continue
            for p in ok:
                s = r["stalls"].get(p["key"])
                if s:
                    L.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                        abbr, p["label"], fmt(s["stall_coal"]), fmt(s["stall_mshr"]),
                        fmt(s["stall_icnt"]),
                        fmt(s["mascar_replay"]) if "mascar_replay" in s else "n/a",
                        fmt(s["busy_cycles"])))
        L.append("")
    if res["mshr"]:
        ms = sorted({m for v in res["mshr"].values() for x in v.values() for m in x})
        L.append("## MSHR sweep, divergent set (Fig. 13)\n")
        L.append("`l1d.mshr_entries` = %s, IPC over GTO's at 32 entries (on_fill).\n"
                 % "/".join(map(str, ms)))
        keys = [k for k in MSHR_POLICIES if any(k in v for v in res["mshr"].values())]
        L.append("| bench | " + " | ".join("%s %d" % (label_of(pols, k), m) for k in keys for m in ms) + " |")
        L.append("|---|" + "---|" * (len(keys) * len(ms)))
        for abbr, v in res["mshr"].items():
            L.append("| %s | %s |" % (abbr, " | ".join(fmt(v[k][m]) if k in v else "n/a"
                                                       for k in keys for m in ms)))
        L.append("| **geomean** | %s |" % " | ".join(
            fmt(geomean([v[k][m] for v in res["mshr"].values() if k in v])) for k in keys for m in ms))
        L.append("")
        L.append("Paper (geomean): " + "; ".join("%s %s" % (label_of(pols, k), PAPER_MSHR[k])
                                                 for k in MSHR_POLICIES) + ".\n")
    if res["alloc"]:
        keys = [p["key"] for p in ok if any(p["key"] in v for v in res["alloc"].values())]
        L.append("## Allocate-on-fill over allocate-on-miss, divergent set (Fig. 14)\n")
        L.append("IPC with `l1d.alloc=on_fill` over IPC with `on_miss`, same policy.\n")
        L.append("| bench | " + " | ".join(label_of(pols, k) for k in keys) + " |")
        L.append("|---|" + "---|" * len(keys))
        for abbr, v in res["alloc"].items():
            L.append("| %s | %s |" % (abbr, " | ".join(fmt(v.get(k)) for k in keys)))
        L.append("| **geomean** | %s |" % " | ".join(
            fmt(geomean([v[k] for v in res["alloc"].values() if k in v])) for k in keys))
        L.append("| **paper** | %s |" % " | ".join(PAPER_ALLOC.get(k, "-") for k in keys))
        L.append("")
    if res["smr"]:
        ss = sorted({s for v in res["smr"].values() for s in v})
        L.append("## SMR sweep, divergent set (Fig. 12)\n")
        L.append("`oaws-static:S`, IPC over GTO. Paper (five unnamed benchmarks): S = 0 is GTO, "
                 "peak +35.3 % at 50 %, flat (sd 0.014) over 35-90 %.\n")
        L.append("| bench | " + " | ".join("%d %%" % s for s in ss) + " |")
        L.append("|---|" + "---|" * len(ss))
        for abbr, v in res["smr"].items():
            L.append("| %s | %s |" % (abbr, " | ".join(fmt(v[s]) for s in ss)))
        L.append("| **geomean** | %s |" % " | ".join(
            fmt(geomean([v[s] for v in res["smr"].values()])) for s in ss))
        L.append("")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


def label_of(pols, key):
    return next(p["label"] for p in pols if p["key"] == key)


def fully_policies(res, pols):
    """The policies with a fully-cached share on some divergent benchmark
    (the share comes from the OAWS and peer-policy counters; a policy
    whose runs carry neither has no column)."""
    return [p for p in pols if p["ok"] and any(
        "fully_cached" in r["policy"].get(p["key"], {}) for r in res["main"].values()
        if r["class"] == "divergent")]


def write_dat(res, pols, out):
    ok = [p for p in pols if p["ok"]]
    for cname in ("main", "deep"):
        with open(os.path.join(out, "ipc-%s.dat" % cname), "w") as f:
            f.write("# abbr " + " ".join(p["key"] for p in ok) + "\n")
            for abbr, r in res[cname].items():
                f.write("%s %s\n" % (abbr, " ".join("%.4f" % r["policy"][p["key"]]["norm_ipc"]
                                                    if p["key"] in r["policy"] else "NaN" for p in ok)))
    with open(os.path.join(out, "mshr.dat"), "w") as f:
        keys = [k for k in MSHR_POLICIES if any(k in v for v in res["mshr"].values())]
        f.write("# entries " + " ".join(keys) + " (geomean over the divergent set)\n")
        ms = sorted({m for v in res["mshr"].values() for x in v.values() for m in x})
        for m in ms:
            f.write("%d %s\n" % (m, " ".join("%.4f" % geomean([v[k][m] for v in res["mshr"].values()
                                                              if k in v]) for k in keys)))
    div = [(abbr, r) for abbr, r in res["main"].items() if r["class"] == "divergent"]
    with open(os.path.join(out, "fully-cached.dat"), "w") as f:
        f.write("# abbr " + " ".join(p["key"] for p in fully_policies(res, pols))
                + " (% fully cached divergent loads)\n")
        for abbr, r in div:
            f.write("%s %s\n" % (abbr, " ".join("%.2f" % r["policy"][p["key"]]["fully_cached"]
                                                if "fully_cached" in r["policy"].get(p["key"], {})
                                                else "NaN" for p in fully_policies(res, pols))))
    with open(os.path.join(out, "stalls.dat"), "w") as f:
        f.write("# bench:policy coal mshr icnt (over GTO's LD/ST busy cycles)\n")
        # one bar per policy, labelled by its initial as in the paper (the
        # benchmark's name on its first bar), an empty bar between benchmarks
        for abbr, r in div:
            first = True
            for p in ok:
                st = r["stalls"].get(p["key"])
                if st:
                    f.write('"%s%s" %s\n' % (abbr + " " if first else "", INITIAL[p["key"]], " ".join(
                        "%.4f" % st.get(k, float("nan")) for k in ("stall_coal", "stall_mshr", "stall_icnt"))))
                    first = False
            f.write('" " 0 0 0\n')
    with open(os.path.join(out, "alloc.dat"), "w") as f:
        keys = [p["key"] for p in ok if any(p["key"] in v for v in res["alloc"].values())]
        f.write("# abbr " + " ".join(keys) + " (IPC on_fill / IPC on_miss)\n")
        for abbr, v in res["alloc"].items():
            f.write("%s %s\n" % (abbr, " ".join("%.4f" % v[k] if k in v else "NaN" for k in keys)))
    with open(os.path.join(out, "smr.dat"), "w") as f:
        f.write("# smr geomean\n")
        ss = sorted({s for v in res["smr"].values() for s in v})
        for s in ss:
            f.write("%d %.4f\n" % (s, geomean([v[s] for v in res["smr"].values()])))


def plot(res, pols, out):
    ok = [p for p in pols if p["ok"]]
    S = ['set terminal svg size 1000,420 dynamic font "sans,11"',
         'set datafile commentschars "#"', 'set grid ytics', 'set key top left',
         'set style fill solid 0.8 border -1']
    for cname, title in (("main", "IPC normalised to GTO, %s (seed 001 Fig. 8)" % PRESET),
                         ("deep", "IPC normalised to GTO, deep queues, divergent set")):
        if not res[cname]:
            continue
        S += ['set style data histograms', 'set style histogram clustered gap 1', 'set boxwidth 0.9',
              'set output "%s/ipc-%s.svg"' % (out, cname), 'set title "%s"' % title,
              'set ylabel "IPC / IPC(GTO)"',
              'plot ' + ", ".join('"%s/ipc-%s.dat" using %d%s title "%s"' % (
                  out, cname, i + 2, ":xtic(1)" if i == 0 else "", p["label"])
                  for i, p in enumerate(ok)) + ', 1 with lines lc rgb "black" notitle']
    if any(r["class"] == "divergent" for r in res["main"].values()):
        S += ['set style data histograms', 'set style histogram clustered gap 1', 'set boxwidth 0.9',
              'set output "%s/fully-cached.svg"' % out,
              'set title "Fully cached divergent loads, %s (seed 001 Fig. 10)"' % PRESET,
              'set ylabel "% of divergent loads with no L1 miss"',
              'plot ' + ", ".join('"%s/fully-cached.dat" using %d%s title "%s"' % (
                  out, i + 2, ":xtic(1)" if i == 0 else "", p["label"])
                  for i, p in enumerate(fully_policies(res, pols)))]
        S += ['set terminal svg size 1600,420 dynamic font "sans,10"',
              'set style histogram rowstacked', 'set boxwidth 0.8', 'set xtics rotate by -90',
              'set output "%s/stalls.svg"' % out, 'set key top right',
              'set title "LD/ST stalls over GTO\'s LD/ST busy cycles, divergent set (seed 001 Fig. 9)"',
              'set ylabel "stall cycles / GTO busy cycles"',
              'plot "%s/stalls.dat" using 2:xtic(1) title "LDST\\_COAL", "" using 3 title '
              '"LDST\\_MSHR", "" using 4 title "LDST\\_ICNT"' % out,
              'set xtics norotate', 'set key top left',
              'set terminal svg size 1000,420 dynamic font "sans,11"']
    akeys = [p for p in ok if any(p["key"] in v for v in res["alloc"].values())]
    if akeys:
        S += ['set style data histograms', 'set style histogram clustered gap 1', 'set boxwidth 0.9',
              'set output "%s/alloc.svg"' % out,
              'set title "Allocate-on-fill over allocate-on-miss, divergent set (seed 001 Fig. 14)"',
              'set ylabel "IPC(on_fill) / IPC(on_miss)"',
              'plot ' + ", ".join('"%s/alloc.dat" using %d%s title "%s"' % (
                  out, i + 2, ":xtic(1)" if i == 0 else "", p["label"]) for i, p in enumerate(akeys))
              + ', 1 with lines lc rgb "black" notitle']
    keys = [k for k in MSHR_POLICIES if any(k in v for v in res["mshr"].values())]
    if keys:
        S += ['set style data linespoints', 'set output "%s/mshr.svg"' % out,
              'set title "MSHR sweep, divergent set geomean (Fig. 13)"',
              'set xlabel "L1D MSHR entries"', 'set ylabel "IPC / IPC(GTO, 32)"',
              'plot ' + ", ".join('"%s/mshr.dat" using 1:%d title "%s"' % (out, i + 2, label_of(pols, k))
                                  for i, k in enumerate(keys))]
    if res["smr"]:
        S += ['set style data linespoints', 'set output "%s/smr.svg"' % out,
              'set title "SMR sweep, oaws-static:S, divergent set geomean (Fig. 12)"',
              'set xlabel "static miss rate S (%)"', 'set ylabel "IPC / IPC(GTO)"',
              'plot "%s/smr.dat" using 1:2 title "OAWS-Static"' % out]
    run_gnuplot("results-oaws", "\n".join(S) + "\n")


if __name__ == "__main__":
    main()
