#!/usr/bin/env python3
"""Every seed figure the results targets reproduce, in one folder with an
index page (issue 39; docs/sweeps.md "Figures"): the plots that
`make results-haws`, `results-locality`, `results-oaws` and
`results-gpudiag` drew from their sweeps' results, copied into
BUILD/results/figures/ under the seed figure's name, with index.html (open
it in a browser) and index.md listing each figure with the results table
it came from. A figure whose results target has not run is listed with the
command that makes it.

usage: scripts/results-figures.py [--build DIR] [--out DIR]
"""
import argparse
import html
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import write_atomic  # noqa: E402

# seed, figure, what it shows, results folder (under BUILD/results), plot,
# the make target that draws it
FIGURES = [
    ("000 (Gong, HAWS)", "Figs. 5.10, 5.16", "HAWS speedup over its baseline", "haws", "speedup.svg",
     "results-haws"),
    ("000 (Gong, HAWS)", "Figs. 5.11, 5.12", "issue-slot breakdown and long-latency stalls, base",
     "haws", "slots.svg", "results-haws"),
    ("000 (Gong, HAWS)", "Figs. 5.11, 5.12", "issue-slot breakdown and long-latency stalls, HAWS",
     "haws", "slots-haws.svg", "results-haws"),
    ("000 (Gong, HAWS)", "Fig. 5.13", "instructions issued per hint-mode entry", "haws",
     "insts-per-entry.svg", "results-haws"),
    ("000 (Gong, HAWS)", "Figs. 5.14, 5.15", "share of ALU instructions and long-latency loads in hint mode",
     "haws", "hinted-share.svg", "results-haws"),
    ("000 (Gong, HAWS)", "§5.3.3", "RCU depth sweep", "haws", "rcu-depth.svg", "results-haws"),
    ("000 (Gong, locality)", "Fig. 6.10", "speedup over round-robin per hint, and OWL", "locality",
     "speedup.svg", "results-locality"),
    ("000 (Gong, locality)", "Fig. 6.11", "duplicate MSHR allocations", "locality", "duplicates.svg",
     "results-locality"),
    ("000 (Gong, locality)", "Fig. 6.12", "memory requests per MSHR entry", "locality",
     "requests-per-entry.svg", "results-locality"),
    ("001 (OAWS)", "Fig. 8", "IPC normalised to GTO", "oaws", "ipc-main.svg", "results-oaws"),
    ("001 (OAWS)", "Fig. 8 (deep queues, ours)", "IPC normalised to GTO with 32-entry queues",
     "oaws", "ipc-deep.svg", "results-oaws"),
    ("001 (OAWS)", "Fig. 9", "LD/ST stall breakdown over GTO's LD/ST busy cycles", "oaws",
     "stalls.svg", "results-oaws"),
    ("001 (OAWS)", "Fig. 10", "fully cached divergent loads", "oaws", "fully-cached.svg",
     "results-oaws"),
    ("001 (OAWS)", "Fig. 12", "static miss rate sweep (OAWS-Static)", "oaws", "smr.svg", "results-oaws"),
    ("001 (OAWS)", "Fig. 13", "MSHR sweep", "oaws", "mshr.svg", "results-oaws"),
    ("001 (OAWS)", "Fig. 14", "allocate-on-fill over allocate-on-miss", "oaws", "alloc.svg",
     "results-oaws"),
    ("002 (GPUDIAG)", "Fig. 4.5 (suite kernels, ours)", "predicted against measured cycles, kepler-k20x",
     "gpudiag", "kepler-k20x.svg", "results-gpudiag"),
    ("002 (GPUDIAG)", "Fig. 4.5 (suite kernels, ours)", "predicted against measured cycles, fermi-gtx480",
     "gpudiag", "fermi-gtx480.svg", "results-gpudiag"),
    ("002 (GPUDIAG)", "Fig. 4.5 (suite kernels, ours)", "predicted against measured cycles, si-7970",
     "gpudiag", "si-7970.svg", "results-gpudiag"),
]


def size_of(folder):
    """The benchmarks' --size of the results folder's sweep (its table)."""
    try:
        with open(os.path.join(folder, "table.json")) as f:
            sizes = sorted({r["size"] for r in json.load(f) if r.get("size")})
        return ", ".join(sizes)
    except (OSError, ValueError, KeyError, TypeError):
        return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    results = os.path.join(a.build, "results")
    out = a.out or os.path.join(results, "figures")
    os.makedirs(out, exist_ok=True)
    md = ["# The seed figures, reproduced", "",
          "Made by `scripts/results-figures.py` (`make results-figures`) from the plots of the "
          "results targets; each figure's numbers and the paper's beside them are in the "
          "results table named in its row. Nothing here is tuned to match the papers.", "",
          "| seed | figure | what | size | file | numbers |", "|---|---|---|---|---|---|"]
    body = []
    have = missing = 0
    for seed, fig, what, folder, svg, target in FIGURES:
        src = os.path.join(results, folder, svg)
        name = "%s-%s" % (folder, svg)
        table = os.path.join("..", folder, "results.md")
        if os.path.isfile(src):
            shutil.copyfile(src, os.path.join(out, name + ".tmp"))
            os.replace(os.path.join(out, name + ".tmp"), os.path.join(out, name))
            size = size_of(os.path.join(results, folder))
            md.append("| %s | %s | %s | %s | [%s](%s) | [%s](%s) |" % (
                seed, fig, what, size, name, name, "%s/results.md" % folder, table))
            body.append("<h2>%s, %s</h2>\n<p>%s; size %s; numbers in <a href=\"%s\">%s/results.md</a></p>\n"
                        "<img src=\"%s\" alt=\"%s\" style=\"max-width:100%%\">"
                        % (html.escape(seed), html.escape(fig), html.escape(what), html.escape(size or "?"),
                           html.escape(table), html.escape(folder), html.escape(name),
                           html.escape(what)))
            have += 1
        else:
            if os.path.exists(os.path.join(out, name)):
                os.remove(os.path.join(out, name))     # no stale copy of a figure
            md.append("| %s | %s | %s | | not made yet: `make %s` | |" % (seed, fig, what, target))
            body.append("<h2>%s, %s</h2>\n<p>%s: not made yet (<code>make %s</code>)</p>"
                        % (html.escape(seed), html.escape(fig), html.escape(what), target))
            missing += 1
    write_atomic(os.path.join(out, "index.md"), "\n".join(md) + "\n")
    write_atomic(os.path.join(out, "index.html"),
                 "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>smcosim: the seed "
                 "figures</title></head>\n<body style=\"font-family:sans-serif;max-width:1700px\">\n"
                 "<h1>The seed figures, reproduced</h1>\n<p>Made by <code>scripts/results-figures.py"
                 "</code> from the results targets' plots. Each figure's numbers, beside the paper's, "
                 "are in the results table linked under it.</p>\n" + "\n".join(body)
                 + "\n</body></html>\n")
    print("results-figures: %d figures, %d not made yet; open %s"
          % (have, missing, os.path.join(out, "index.html")))


if __name__ == "__main__":
    main()
