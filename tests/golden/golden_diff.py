#!/usr/bin/env python3
"""Readable diff of two statistics files written by the timing model
(tests/golden/golden.sh): one line per statistic that changed, named by
launch (index and kernel) and key path, old -> new.

    golden_diff.py GOLDEN.json NEW.json
"""
import json
import sys

LIMIT = 12  # lines printed per file; the count of the rest follows


def flatten(value, path, out):
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(v, f"{path}.{k}" if path else k, out)
    elif isinstance(value, list) and value and isinstance(value[0], (dict, list)):
        for i, v in enumerate(value):
            flatten(v, f"{path}[{i}]", out)
    else:
        out[path] = value


def load(path):
    with open(path) as f:
        try:
            return json.load(f)["launches"]
        except (ValueError, KeyError) as e:
            sys.exit(f"{path}: not a statistics file ({e})")


def main():
    old, new = load(sys.argv[1]), load(sys.argv[2])
    if len(old) != len(new):
        print(f"  launches: {len(old)} -> {len(new)}")
    lines, changed = 0, 0
    for i, (a, b) in enumerate(zip(old, new)):
        fa, fb = {}, {}
        flatten(a, "", fa)
        flatten(b, "", fb)
        for key in sorted(set(fa) | set(fb)):
            va, vb = fa.get(key, "(absent)"), fb.get(key, "(absent)")
            if va != vb:
                if lines < LIMIT:
                    print(f"  launch {i} {a.get('kernel', '?')}: {key} {va} -> {vb}")
                lines += 1
        changed += fa != fb
    if lines > LIMIT:
        print(f"  ... {lines} statistics differ in {changed} of {len(old)} launches")
    if lines == 0 and len(old) == len(new):
        print("  same statistics, different text (formatting or key order)")


if __name__ == "__main__":
    main()
