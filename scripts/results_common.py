"""Number helpers shared by the results commands (scripts/results-*.py)."""
import math


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
