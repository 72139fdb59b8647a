#!/usr/bin/env python3
"""Mutation run over the benchmarks' committed PTX (docs/testing.md,
"Detection power").

    scripts/mutants.py [--bin build/bin/smcosim-bench] [--per-bench K]
                       [--seed S] [--jobs J] [--timeout T] [--out DIR]
                       [--modes default,general] [--list] [NAME...]
    scripts/mutants.py --only ID [ID...]   run these mutants, general inputs;
                                           exit 1 if any survives

Each mutant changes one line of bench/ptx/NAME.ptx by one operator:

  add-sub      add.T <-> sub.T                    (arithmetic swap)
  mul-add      mul.T / mul.lo.T -> add.T, add.T -> mul.T / mul.lo.T
  round-rz     fma.rn / add / sub / mul .f32 -> .rz (rounding mode)
  cmp          setp lt<->le, gt<->ge, eq<->ne
  imm+1/imm-1  an integer immediate source operand +1 / -1
  shift+1      the immediate shift amount of shl/shr +1
  min-max      min <-> max
  and-or       and <-> or
  drop-bar     bar.sync removed
  swap         the two register sources of sub/div/rem/setp exchanged

All candidates are enumerated in file order; when a benchmark has more
than K, K are drawn with random.Random(seed) round-robin over the operator
classes (so every class present is sampled). The same seed gives the same
mutants. Each mutant runs as `smcosim-bench --size small [--inputs MODE]
--ptx-dir DIR NAME` (general inputs: also at the -n of EXTRA_SIZES) under
a timeout: a timeout, a device ERROR, a crash or
a FAIL kills it; a PTX the emulator refuses to load is "invalid" (not
counted). The report (DIR/report.md, DIR/results.json) gives per benchmark
generated / invalid / killed / survived for each input mode and lists the
survivors with their diff line and, from scripts/mutants-explained.txt,
their classification; an unexplained survivor is marked so.
"""
import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PTX_DIR = os.path.join(ROOT, "bench", "ptx")
EXPLAINED = os.path.join(ROOT, "scripts", "mutants-explained.txt")

INT_T = r"(?:s|u|b)(?:16|32|64)"

# With general inputs, extra runs at these -n besides --size small: the
# PolyBench kernels' loops are unrolled by 4 with a guard for n - 1 < 3 and a
# remainder loop for n % 4, which only n = 3 and n = 4 reach (small: n = 29);
# fwt's shared pass has a guard for chunk < 2 (n = 2); histogram's first
# bounds check only sees i == n when the grid covers n (n = 1000); scan_add's
# first-half check only sees i == n when n % 512 < 256 (n = 3684).
EXTRA_SIZES = {name: ["3", "4"] for name in
               ("gemm", "2mm", "jacobi2d", "conv2d", "mvt", "atax", "bicg")}
EXTRA_SIZES.update({"fwt": ["2"], "histogram": ["1000"], "scan": ["3684"]})
# The HAWS benchmarks: binarysearch's n > 0 test before the search loop only
# sees n = 1; dwthaar1d's last launch has one thread (the only writer of the
# final approximation, and a level loop of one pass) only when n = 2; fft's
# n < 2 guard of the stage loop only differs from n <= 2 at n = 2.
EXTRA_SIZES.update({"binarysearch": ["1"], "dwthaar1d": ["2"], "fft": ["2"]})


def split_instr(line):
    """(indent+pred+opcode, opcode, operands list, trailing) or None."""
    m = re.match(r"^(\s*(?:@!?%\w+\s+)?)([a-z][\w.]*)(\s+)(.*?);(.*)$", line)
    if not m:
        return None
    ops = [o.strip() for o in re.split(r",(?![^{]*\})", m.group(4))]
    return m.group(1), m.group(2), m.group(3), ops, m.group(5)


def join_instr(pre, opc, sp, ops, tail):
    return "%s%s%s%s;%s" % (pre, opc, sp, ", ".join(ops), tail)


def is_int_imm(s):
    return re.fullmatch(r"-?\d+", s) is not None


def mutations(line):
    """Yield (op, new_line) for one PTX line."""
    p = split_instr(line)
    if not p:
        return
    pre, opc, sp, ops, tail = p
    parts = opc.split(".")
    base = parts[0]

    def with_opc(new):
        return join_instr(pre, new, sp, ops, tail)

    if opc.startswith("bar.sync") or opc.startswith("barrier.sync"):
        yield "drop-bar", pre + "// dropped: " + line.strip()
        return
    # arithmetic swaps
    if base in ("add", "sub") and len(parts) >= 2:
        yield "add-sub", with_opc(".".join(["sub" if base == "add" else "add"] + parts[1:]))
    if base == "mul" and len(parts) >= 2:
        rest = [q for q in parts[1:] if q not in ("lo", "wide", "hi")]
        if "wide" not in parts and "hi" not in parts:
            yield "mul-add", with_opc(".".join(["add"] + rest))
    if base == "add" and len(parts) >= 2:
        if parts[-1] == "f32":
            yield "mul-add", with_opc(".".join(["mul"] + parts[1:]))
        elif re.fullmatch(r"[su](16|32|64)", parts[-1]) and "cc" not in parts:
            yield "mul-add", with_opc("mul.lo." + parts[-1])
    # rounding modes
    if base == "fma" and "rn" in parts:
        yield "round-rz", with_opc(opc.replace(".rn.", ".rz."))
    if base in ("add", "sub", "mul") and parts[-1] == "f32" and "rz" not in parts:
        new = [base] + [q for q in parts[1:] if q not in ("rn", "f32")] + ["rz", "f32"]
        yield "round-rz", with_opc(".".join(new))
    # comparisons
    if base == "setp" and len(parts) >= 3:
        swap = {"lt": "le", "le": "lt", "gt": "ge", "ge": "gt", "eq": "ne", "ne": "eq"}
        if parts[1] in swap:
            yield "cmp", with_opc(".".join([base, swap[parts[1]]] + parts[2:]))
    # min/max, and/or
    if base in ("min", "max"):
        yield "min-max", with_opc(".".join(["max" if base == "min" else "min"] + parts[1:]))
    if base in ("and", "or"):
        yield "and-or", with_opc(".".join(["or" if base == "and" else "and"] + parts[1:]))
    # immediates
    int_typed = re.fullmatch(INT_T, parts[-1] or "") is not None
    if base in ("shl", "shr") and len(ops) == 3 and is_int_imm(ops[2]):
        yield "shift+1", join_instr(pre, opc, sp, ops[:2] + [str(int(ops[2]) + 1)], tail)
    elif int_typed and base in ("add", "sub", "mul", "mad", "setp", "mov", "and", "or",
                                "xor", "min", "max", "div", "rem", "selp") and len(ops) >= 2:
        for i in range(1, len(ops)):
            if is_int_imm(ops[i]):
                for d, name in ((1, "imm+1"), (-1, "imm-1")):
                    o2 = list(ops)
                    o2[i] = str(int(ops[i]) + d)
                    yield name, join_instr(pre, opc, sp, o2, tail)
                break
    # operand swap of non-commutative ops (two register sources)
    if base in ("sub", "div", "rem") and len(ops) == 3 or (
            base == "setp" and len(parts) >= 3 and parts[1] in ("lt", "le", "gt", "ge")
            and len(ops) == 3):
        a, b = ops[1], ops[2]
        if a.startswith("%") and b.startswith("%") and a != b:
            yield "swap", join_instr(pre, opc, sp, [ops[0], b, a], tail)


def enumerate_mutants(name):
    path = os.path.join(PTX_DIR, name + ".ptx")
    with open(path) as f:
        lines = f.read().split("\n")
    out = []
    for i, line in enumerate(lines):
        s = line.strip()
        if not s or s.startswith("//") or s.startswith("."):
            continue
        seen = set()
        for op, new in mutations(line):
            if new == line or (op, new) in seen:
                continue
            seen.add((op, new))
            out.append({"id": "%s:%d:%s" % (name, i + 1, op), "bench": name, "line": i + 1,
                        "op": op, "old": line.strip(), "new": new.strip(),
                        "text": "\n".join(lines[:i] + [new] + lines[i + 1:])})
    return out


def sample(muts, k, seed, name):
    if k <= 0 or len(muts) <= k:
        return muts
    rng = random.Random("%s:%s" % (seed, name))
    by_op = {}
    for m in muts:
        by_op.setdefault(m["op"], []).append(m)
    for v in by_op.values():
        rng.shuffle(v)
    chosen = []
    ops = sorted(by_op)
    while len(chosen) < k:
        for op in ops:
            if by_op[op] and len(chosen) < k:
                chosen.append(by_op[op].pop())
    return sorted(chosen, key=lambda m: (m["line"], m["op"]))


def run_one(args, m, mode, tmp):
    d = tempfile.mkdtemp(dir=tmp)
    with open(os.path.join(d, m["bench"] + ".ptx"), "w") as f:
        f.write(m["text"])
    sizes = [["--size", "small"]]
    if mode == "general":
        sizes += [["-n", n] for n in EXTRA_SIZES.get(m["bench"], [])]
    try:
        for k, size in enumerate(sizes):
            verdict, why = run_size(args, m, mode, d, size)
            if k > 0 and why:
                why = "-n %s: %s" % (size[1], why)
            if verdict != "survived":
                return verdict, why
        return "survived", ""
    finally:
        try:
            os.remove(os.path.join(d, m["bench"] + ".ptx"))
            os.rmdir(d)
        except OSError:
            pass


def run_size(args, m, mode, d, size):
    cmd = [args.bin] + size + ["--ptx-dir", d]
    if mode != "default":
        cmd += ["--inputs", mode]
    cmd.append(m["bench"])
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=args.timeout, universal_newlines=True)
        out, rc = r.stdout, r.returncode
    except subprocess.TimeoutExpired:
        return "killed", "timeout (%ds)" % args.timeout
    if rc == 0 and re.search(r"^%s: PASS" % re.escape(m["bench"]), out, re.M):
        return "survived", ""
    why = ""
    mm = re.search(r"^%s: (FAIL|ERROR) \((.*)\)$" % re.escape(m["bench"]), out, re.M)
    if mm:
        why = mm.group(1) + ": " + mm.group(2)
        if mm.group(1) == "ERROR" and (m["bench"] + ".ptx") in mm.group(2):
            return "invalid", why   # the module did not load: not a mutant of the program
    elif rc < 0:
        why = "crash (signal %d)" % -rc
    else:
        why = "exit %d" % rc
    return "killed", why[:200]


def load_explained():
    ex = {}
    if os.path.exists(EXPLAINED):
        with open(EXPLAINED) as f:
            for line in f:
                line = line.rstrip("\n")
                if not line.strip() or line.startswith("#"):
                    continue
                parts = line.split("\t", 2)
                if len(parts) == 3:
                    ex[parts[0]] = (parts[1], parts[2])
    return ex


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin", "smcosim-bench"))
    ap.add_argument("--per-bench", type=int, default=24)
    ap.add_argument("--seed", default="25")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "mutants"))
    ap.add_argument("--modes", default="default,general")
    ap.add_argument("--list", action="store_true", help="print the sampled mutants and stop")
    ap.add_argument("--only", nargs="+", metavar="ID",
                    help="run just these mutant ids with --inputs general; exit 1 if any survives")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if not os.access(args.bin, os.X_OK):
        print("mutants: %s is not built" % args.bin, file=sys.stderr)
        return 2
    names = args.names or sorted(os.path.basename(p)[:-4] for p in os.listdir(PTX_DIR)
                                 if p.endswith(".ptx"))
    tmp = tempfile.mkdtemp(prefix="smc-mutants-")

    if args.only:
        bad = 0
        wanted = set(args.only)
        found = {}
        for name in sorted({i.split(":")[0] for i in wanted}):
            for m in enumerate_mutants(name):
                if m["id"] in wanted:
                    found[m["id"]] = m
        for i in args.only:
            if i not in found:
                print("FAIL %s: no such mutant (the PTX changed?)" % i)
                bad += 1
                continue
            m = found[i]
            verdict, why = run_one(args, m, "general", tmp)
            ok = verdict == "killed"
            print("%s %s  %s -> %s  [%s%s]" % ("ok  " if ok else "FAIL", i, m["old"], m["new"],
                                               verdict, ": " + why if why else ""))
            bad += not ok
        os.rmdir(tmp)
        return 1 if bad else 0

    muts = []
    for name in names:
        allm = enumerate_mutants(name)
        s = sample(allm, args.per_bench, args.seed, name)
        for m in s:
            m["candidates"] = len(allm)
        muts += s
    if args.list:
        for m in muts:
            print("%-28s %s  ->  %s" % (m["id"], m["old"], m["new"]))
        return 0
    modes = [x for x in args.modes.split(",") if x]
    jobs = [(m, mode) for m in muts for mode in modes]
    res = {}
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(run_one, args, m, mode, tmp): (m["id"], mode) for m, mode in jobs}
        done = 0
        for f in cf.as_completed(futs):
            res[futs[f]] = f.result()
            done += 1
            if done % 100 == 0:
                print("mutants: %d/%d runs" % (done, len(jobs)), file=sys.stderr)
    os.rmdir(tmp)

    explained = load_explained()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for m in muts:
        r = {k: m[k] for k in ("id", "bench", "line", "op", "old", "new")}
        for mode in modes:
            r[mode] = res[(m["id"], mode)]
        rows.append(r)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(rows, f, indent=1)

    L = []
    L.append("# Mutation run\n")
    L.append("command: scripts/mutants.py --per-bench %d --seed %s --timeout %d (modes: %s)\n"
             % (args.per_bench, args.seed, args.timeout, ", ".join(modes)))
    hdr = "| benchmark | candidates | sampled |" + "".join(
        " %s: invalid / killed / survived |" % mo for mo in modes)
    L.append(hdr)
    L.append("|" + "---|" * (3 + len(modes)))
    tot = {mo: [0, 0, 0] for mo in modes}
    for name in names:
        ms = [r for r in rows if r["bench"] == name]
        cand = next((m["candidates"] for m in muts if m["bench"] == name), 0)
        cells = []
        for mo in modes:
            c = [sum(1 for r in ms if r[mo][0] == v) for v in ("invalid", "killed", "survived")]
            for i in range(3):
                tot[mo][i] += c[i]
            cells.append(" %d / %d / %d |" % tuple(c))
        L.append("| %s | %d | %d |%s" % (name, cand, len(ms), "".join(cells)))
    L.append("| total | | %d |%s" % (len(rows), "".join(" %d / %d / %d |" % tuple(tot[mo])
                                                      for mo in modes)))
    L.append("")
    for mo in modes:
        inv, k, s = tot[mo]
        rate = 100.0 * k / (k + s) if k + s else 0.0
        L.append("kill rate, %s inputs: %d / %d valid mutants = %.1f%%" % (mo, k, k + s, rate))
    last = modes[-1]
    surv = [r for r in rows if r[last][0] == "survived"]
    L.append("\n## Survivors (%s inputs): %d\n" % (last, len(surv)))
    unexplained = 0
    for r in surv:
        cls, why = explained.get(r["id"], ("UNEXPLAINED", ""))
        unexplained += cls == "UNEXPLAINED"
        L.append("- `%s` [%s] `%s` -> `%s`%s" % (r["id"], cls, r["old"], r["new"],
                                               (": " + why) if why else ""))
    if len(modes) > 1:
        gained = [r for r in rows if r[modes[0]][0] == "survived" and r[last][0] == "killed"]
        L.append("\n## Killed by %s inputs only: %d\n" % (last, len(gained)))
        for r in gained:
            L.append("- `%s` `%s` -> `%s` (%s)" % (r["id"], r["old"], r["new"], r[last][1]))
    L.append("\nunexplained survivors: %d" % unexplained)
    text = "\n".join(L) + "\n"
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write(text)
    print(text)
    print("mutants: report in %s/report.md" % os.path.relpath(args.out, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
