"""Helpers shared by the results commands (scripts/results-*.py): numbers,
the common command line and gnuplot."""
import argparse
import math
import shutil
import subprocess
import sys

from sweep import add_executor_args


def ratio(a, b):
    """a / b, NaN when b is 0."""
    return a / b if b else float("nan")


def fmt(x, spec="%.3f"):
    """x formatted with spec, "n/a" for None or NaN."""
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else spec % x


def geomean(xs):
    """Geometric mean of the non-zero, non-NaN values (NaN when none)."""
    xs = [x for x in xs if x and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def pearson(xs, ys):
    """Pearson's r of two equal-length sequences (NaN when undefined)."""
    n = len(xs)
    if n < 2:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def results_argparser(doc, quick_help=None):
    """The command line every results command starts from (--build, --size,
    --out, --quick when quick_help is given, --no-plots, and the sweep
    engine's executor options: -j, --executor local|slurm, --partition,
    ...), described by the first line of doc; the command adds its own
    options after these."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--size", default="default", choices=("small", "default", "large", "paper"))
    ap.add_argument("--out", default=None)
    if quick_help is not None:
        ap.add_argument("--quick", action="store_true", help=quick_help)
    ap.add_argument("--no-plots", action="store_true")
    add_executor_args(ap)
    return ap


def add_machine_arg(ap, presets):
    """--machine faithful|v1 (issue 37): the Gong thesis's presets as they are
    now (the thesis's tables and Multi2Sim's models) or as they were before
    (kepler-k20x-v1, si-7970-v1), for the three-column tables of
    scripts/results-gong-compare.py."""
    ap.add_argument("--machine", default="faithful", choices=("faithful", "v1"),
                    help="faithful: %s; v1: the same presets before issue 37 (%s)"
                    % (", ".join(presets), ", ".join(p + "-v1" for p in presets)))


def machine_preset(preset, machine):
    """The preset name a run uses under --machine."""
    return preset + "-v1" if machine == "v1" else preset


def select_benchmarks(table, names, command, which):
    """The rows of table (the benchmark's name second in each) that names
    names, in the table's order, or every row when names is empty; a name
    not in the table ends command with an error that says which table."""
    unknown = set(names) - {r[1] for r in table}
    if unknown:
        sys.exit("%s: not a %s benchmark: %s" % (command, which, ", ".join(sorted(unknown))))
    return [r for r in table if not names or r[1] in names]


# The opening of a gnuplot script of clustered bar charts, as SVG (the
# speedup figures of results-haws and results-locality).
GNUPLOT_HISTOGRAMS = """
set terminal svg size 900,420 dynamic font "sans,11"
set datafile commentschars "#"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key top left
set xtics nomirror
"""


def run_gnuplot(command, script):
    """Runs gnuplot on script for the results command named command; without
    gnuplot it says so and makes no plots, and when gnuplot fails the command
    exits with gnuplot's output."""
    gp = shutil.which("gnuplot")
    if not gp:
        print("%s: gnuplot not found (scripts/install-deps.sh installs it): no plots" % command)
        return
    p = subprocess.run([gp], input=script, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        sys.exit("%s: gnuplot failed:\n" % command + p.stdout)
