#!/usr/bin/env python3
"""planted.py [TREE] -- does `make test` still catch a bug in each concern?
(docs/testing.md, "Planted bugs against make test"; `make planted`.)

For each bug of tests/mutants/planted.txt: plant it (one exact text
replacement in one source file), rebuild what make test needs (`make
test-deps`), run the suite of make test that should fail, and put the file
back. "caught" when that suite fails, "MISSED" when it passes (the script
then exits 1); a bug that does not apply or does not build is reported as
such and is not a catch. The scheduler core's own planted bugs (C model and
RTL) are tests/sched/test_sched_mutants and the benchmarks' PTX mutants
tests/mutants/guard.sh, both suites of make test as they are.

TREE: a built checkout to plant in (default: a fresh clone of this
repository's HEAD in a temporary folder, built first: about 4 minutes on a
2-core machine, then one to four minutes a bug). The tree is left as it was.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
LIST = os.path.join(HERE, "planted.txt")
KEYS = ("concern", "file", "old", "new", "suite")


def read_list(path):
    """The bugs: blocks of 'key: value' lines separated by blank lines."""
    bugs, cur = [], {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            if not line.strip():
                if cur:
                    bugs.append(cur)
                cur = {}
                continue
            m = re.match(r"(\w+): ?(.*)$", line)
            if not m or m.group(1) not in KEYS or m.group(1) in cur:
                sys.exit("%s:%d: expected one of %s, once per block" % (path, n, ", ".join(KEYS)))
            cur[m.group(1)] = m.group(2).replace("\\n", "\n")
            cur["line"] = cur.get("line", n)
    if cur:
        bugs.append(cur)
    for b in bugs:
        missing = [k for k in KEYS if k not in b]
        if missing:
            sys.exit("%s:%d: block without %s" % (path, b["line"], ", ".join(missing)))
    return bugs


def make(tree, log):
    with open(log, "w") as f:
        return subprocess.run(["make", "-j%d" % (os.cpu_count() or 1), "test-deps"], cwd=tree,
                              stdout=f, stderr=subprocess.STDOUT).returncode == 0


def first_failure(text):
    for line in text.splitlines():
        if re.search(r"FAIL|\[  FAILED  \]|differs", line):
            return line.strip()[:100].replace("|", "\\|")
    return "(exit status)"


def main():
    bugs = read_list(LIST)
    tmp = tempfile.mkdtemp(prefix="planted-")
    try:
        tree = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tmp, "tree")
        if len(sys.argv) == 1:
            subprocess.run(["git", "clone", "-q", REPO, tree], check=True)
        os.environ["PATH"] = "/usr/local/cuda/bin:" + os.environ["PATH"]
        log = os.path.join(tmp, "build.log")
        print("planted bugs in %s; building make test's programs first" % tree, flush=True)
        if not make(tree, log):
            sys.exit("the unplanted tree does not build (%s)" % log)
        rows, missed = [], 0
        for b in bugs:
            start = time.time()
            path = os.path.join(tree, b["file"])
            text = open(path, encoding="utf-8").read()
            if text.count(b["old"]) != 1:
                verdict = "**did not apply** (found %d times)" % text.count(b["old"])
            else:
                shutil.copy2(path, path + ".orig")
                try:
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(text.replace(b["old"], b["new"]))
                    if not make(tree, log):
                        verdict = "**did not build**"
                    else:
                        p = subprocess.run(b["suite"].split(), cwd=tree, capture_output=True, text=True)
                        verdict = ("caught: " + first_failure(p.stdout + p.stderr)) if p.returncode \
                            else "**MISSED**"
                finally:
                    os.replace(path + ".orig", path)
                    os.utime(path)      # newer than the planted build's objects
            missed += not verdict.startswith("caught")
            show = lambda s: "`%s`" % s.strip().replace("\n", " ").replace("|", "\\|") if s.strip() else "(deleted)"
            rows.append("| %s | `%s`: %s → %s | `%s` | %s | %d s |" % (
                b["concern"], b["file"], show(b["old"]), show(b["new"]), b["suite"], verdict,
                time.time() - start))
            print(rows[-1], flush=True)
        if not make(tree, log):
            print("WARNING: the tree did not rebuild after the last bug (%s)" % log)
        print("\n| concern | planted bug | suite of make test | verdict | time |")
        print("|---|---|---|---|---:|")
        print("\n".join(rows))
        print("planted: %d bugs, %d not caught" % (len(rows), missed))
        return 1 if missed else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
