#!/usr/bin/env python3
"""smcosim's sweep engine: many simulator runs, run once each, locally or as a
Slurm job array, collected into one table (docs/sweeps.md).

A sweep is a list of runs. A run is a benchmark of the suite (`bench`), a
CUDA program (`program` + `args`) or GPUDIAG (`diag`), with a machine
(`preset`), a scheduler back end (`sched`), a policy, `set` keys, a size,
a seed and a mode. Each run has a stable key (a readable prefix and a hash
of its fields), and its results live in OUT/runs/KEY/:

  stats.json   the simulator's statistics (`smcosim run --json`, or
               `smcosim diag --json`)
  log.txt      what the simulator printed
  run.json     the run, the simulator build it ran on, ok or failed, why

A run's folder is written under a temporary name and renamed into place,
so it is there completely or not at all. A run whose run.json says ok for
the same simulator build (the hash of the binaries and the benchmarks' PTX)
is not run again: an interrupted sweep resumes where it stopped, and a
rebuilt simulator reruns everything.

Every `make results-*` target is a sweep on this engine (the results
scripts import it), and users write their own as JSON:

  {"defaults": {"preset": "fermi-gtx480", "size": "small"},
   "grid": {"bench": ["atax", "bicg"], "policy": ["gto", "oaws-dyn"]},
   "runs": [{"bench": "spmv", "set": ["l1d.mshr_entries=64"]}]}

usage:
  scripts/sweep.py run SPEC.json --out DIR [--executor local|slurm] [-j N]
                   [--partition P] [--time T] [--mem M] [--runs-per-task K]
                   [--sbatch-arg ARG]... [--wait]
  scripts/sweep.py status DIR
  scripts/sweep.py collect DIR [--csv FILE] [--json FILE]
  scripts/sweep.py task DIR TASKS.json INDEX     (what a Slurm array task runs)
"""
import argparse
import concurrent.futures
import csv
import glob
import hashlib
import io
import itertools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SELF = os.path.abspath(__file__)

# The fields of a run, with their defaults. "preset" may name several
# presets / config files, comma-separated (smcosim run --config X,Y).
FIELDS = {"bench": None, "program": None, "args": [], "diag": False, "preset": "kepler-k20x",
          "sched": "c", "policy": None, "set": [], "size": "default", "seed": None,
          "mode": "timing", "quick": False}
KINDS = ("bench", "program", "diag")
SCHEDS = re.compile(r"^(c|rtl|lockstep|offload(:[A-Za-z0-9_-]+)?)$")
MODES = ("timing", "functional")
# The columns of the collected table (collect()).
COLUMNS = ("key", "kind", "name", "preset", "sched", "policy", "size", "set", "seed", "mode",
           "status", "launches", "cycles", "warp_insts", "thread_insts", "ipc")


class SpecError(Exception):
    """A sweep spec or run that cannot run; the message names the entry."""


def clean_env():
    """The environment of a run: this one without SMCOSIM_* (a run is
    exactly its fields, whatever the caller's shell had set)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("SMCOSIM_")}


# ---- runs and their keys --------------------------------------------------


def normalize(run, where):
    """The run with every field present and checked for type; `where` names
    the spec entry in messages ("runs[3]", "grid")."""
    if not isinstance(run, dict):
        raise SpecError("%s: a run is a JSON object, not %r" % (where, run))
    unknown = sorted(set(run) - set(FIELDS))
    if unknown:
        raise SpecError("%s: unknown field %s (fields: %s)" % (where, ", ".join(unknown),
                                                               ", ".join(FIELDS)))
    r = {k: run.get(k, v) for k, v in FIELDS.items()}
    kinds = [k for k in KINDS if r[k]]
    if len(kinds) != 1:
        raise SpecError("%s: a run names exactly one of bench, program, diag (got %s)"
                        % (where, ", ".join(kinds) or "none"))
    for k in ("bench", "program", "preset", "policy", "mode", "sched"):
        if r[k] is not None and not isinstance(r[k], str):
            raise SpecError("%s: %s must be a string, not %r" % (where, k, r[k]))
    for k in ("set", "args"):
        if isinstance(r[k], str):
            r[k] = [r[k]]
        if not isinstance(r[k], list) or not all(isinstance(s, str) for s in r[k]):
            raise SpecError("%s: %s must be a list of strings, not %r" % (where, k, r[k]))
    for s in r["set"]:
        if "=" not in s:
            raise SpecError("%s: set entry '%s' is not key=value" % (where, s))
    if r["seed"] is not None and (not isinstance(r["seed"], int) or r["seed"] < 0):
        raise SpecError("%s: seed must be a non-negative integer, not %r" % (where, r["seed"]))
    if r["bench"] and not isinstance(r["size"], str):
        raise SpecError("%s: size must be a string, not %r" % (where, r["size"]))
    if not SCHEDS.match(r["sched"]):
        raise SpecError("%s: unknown sched '%s' (c, rtl, lockstep, offload[:T])" % (where, r["sched"]))
    if r["mode"] not in MODES:
        raise SpecError("%s: unknown mode '%s' (%s)" % (where, r["mode"], ", ".join(MODES)))
    if r["program"]:
        r["program"] = os.path.abspath(r["program"])
    if not r["bench"]:
        r["size"] = None        # only the benchmarks have sizes
    r["diag"] = bool(r["diag"])
    r["quick"] = bool(r["quick"])
    r["set"] = list(r["set"])
    return r


def kind_of(run):
    return next(k for k in KINDS if run[k])


def name_of(run):
    k = kind_of(run)
    return {"bench": run["bench"], "program": os.path.basename(run["program"] or ""),
            "diag": "diag"}[k]


def file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def run_key(run):
    """Stable key of a normalised run: what it is, readable, and 10 hex
    digits of the SHA-256 of its canonical JSON (every field counts) and,
    for a program, of the program file (a rebuilt program is a new run)."""
    canon = json.dumps(run, sort_keys=True, separators=(",", ":"))
    if run["program"] and os.path.isfile(run["program"]):
        canon += file_hash(run["program"])
    h = hashlib.sha256(canon.encode()).hexdigest()[:10]
    parts = [name_of(run), run["preset"], run["policy"] or "", run["size"] if kind_of(run) == "bench" else ""]
    slug = re.sub(r"[^A-Za-z0-9_.+-]+", "_", "-".join(p for p in parts if p))
    return "%s-%s" % (slug[:80], h)


def expand_spec(spec, where):
    """The runs of a spec object: "runs" (a list) and "grid" (every
    combination of its list-valued fields), each on top of "defaults"."""
    if not isinstance(spec, dict):
        raise SpecError("%s: a sweep spec is a JSON object with runs, grid, defaults" % where)
    unknown = sorted(set(spec) - {"defaults", "runs", "grid", "name"})
    if unknown:
        raise SpecError("%s: unknown top-level field %s (defaults, runs, grid, name)"
                        % (where, ", ".join(unknown)))
    defaults = spec.get("defaults", {})
    if not isinstance(defaults, dict):
        raise SpecError("%s: defaults must be an object" % where)
    out = []
    grid = spec.get("grid")
    if grid is not None:
        if not isinstance(grid, dict) or not grid:
            raise SpecError("%s: grid must be a non-empty object of field: [values]" % where)
        names = list(grid)
        for n in names:
            if not isinstance(grid[n], list) or not grid[n]:
                raise SpecError("%s: grid.%s must be a non-empty list" % (where, n))
        for combo in itertools.product(*(range(len(grid[n])) for n in names)):
            r = dict(defaults)
            r.update({n: grid[n][i] for n, i in zip(names, combo)})
            loc = "%s: grid(%s)" % (where, ", ".join("%s[%d]=%s" % (n, i, json.dumps(grid[n][i]))
                                                    for n, i in zip(names, combo)))
            out.append((normalize(r, loc), loc))
    runs = spec.get("runs", [])
    if not isinstance(runs, list):
        raise SpecError("%s: runs must be a list" % where)
    for i, run in enumerate(runs):
        r = dict(defaults)
        if isinstance(run, dict):
            r.update(run)
        else:
            r = run
        loc = "%s: runs[%d]" % (where, i)
        out.append((normalize(r, loc), loc))
    if not out:
        raise SpecError("%s: the sweep has no runs" % where)
    return out


# ---- checking a sweep before anything runs -------------------------------


def binaries(build):
    return os.path.join(build, "bin", "smcosim"), os.path.join(build, "bin", "smcosim-bench")


def check_runs(located, build):
    """Every reason the runs cannot run, each naming its spec entry: an
    unknown benchmark, preset, key, policy, size, or a missing program.
    Asks the simulator itself (so the answer is this build's)."""
    smc, bench = binaries(build)
    for b in (smc, bench):
        if not os.access(b, os.X_OK):
            return ["simulator not built: %s (run make)" % b]
    errs = []
    p = subprocess.run([bench, "--names"], env=clean_env(), capture_output=True, text=True)
    names = set(p.stdout.split())
    h = subprocess.run([bench, "--help"], env=clean_env(), capture_output=True, text=True)
    m = re.search(r"--size ([a-z|]+)", h.stdout + h.stderr)
    sizes = set(m.group(1).split("|")) if m else {"small", "default", "large"}
    config_ok, policy_ok = {}, {}

    def config(preset, sets):
        k = (preset, tuple(sets))
        if k not in config_ok:
            cmd = [smc, "config", "--config", preset] + [a for s in sets for a in ("--set", s)]
            q = subprocess.run(cmd, env=clean_env(), capture_output=True, text=True)
            config_ok[k] = "" if q.returncode == 0 else (q.stderr.strip().splitlines() or ["exit %d" % q.returncode])[-1]
        return config_ok[k]

    def policy(preset, pol):
        k = (preset, pol)
        if k not in policy_ok:
            q = subprocess.run([smc, "run", "--config", preset, "--policy", pol, "--bench",
                                "vectoradd", "--size", "small"],
                               env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
            lines = [l for l in q.stdout.splitlines() if "policy" in l]
            policy_ok[k] = "" if q.returncode == 0 else (lines or q.stdout.splitlines()[-1:] or ["?"])[0].strip()
        return policy_ok[k]

    for run, loc in located:
        kind = kind_of(run)
        if kind == "bench" and run["bench"] not in names:
            errs.append("%s: unknown benchmark '%s' (smcosim-bench --names lists them)" % (loc, run["bench"]))
            continue
        if kind == "bench" and run["size"] not in sizes:
            errs.append("%s: unknown size '%s' (%s)" % (loc, run["size"], "|".join(sorted(sizes))))
        if kind == "program" and not os.access(run["program"], os.X_OK):
            errs.append("%s: program '%s' is not an executable file" % (loc, run["program"]))
        why = config(run["preset"], [])
        if why:
            errs.append("%s: preset '%s': %s" % (loc, run["preset"], why))
            continue
        why = config(run["preset"], run["set"])
        if why:
            errs.append("%s: set %s: %s" % (loc, " ".join(run["set"]), why))
        if run["policy"] and kind != "diag":
            why = policy(run["preset"], run["policy"])
            if why:
                errs.append("%s: policy '%s': %s" % (loc, run["policy"], why))
    return errs


def build_id(build):
    """Hash of what decides a run's result besides its fields: the
    simulator's binaries and libraries and the benchmarks' PTX (read at
    run time from bench/ptx)."""
    h = hashlib.sha256()
    files = list(binaries(build)) + sorted(glob.glob(os.path.join(build, "lib", "*.so*")))
    files += sorted(glob.glob(os.path.join(ROOT, "bench", "ptx", "*.ptx")))
    for f in files:
        if os.path.isfile(f):
            h.update(os.path.relpath(f, ROOT if f.startswith(ROOT) else build).encode())
            h.update(file_hash(f).encode())
    return h.hexdigest()[:16]


# ---- one run ---------------------------------------------------------------


def write_atomic(path, text):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def command(run, build, stats):
    """The simulator command line of a run, writing its statistics to stats."""
    smc, _ = binaries(build)
    if run["diag"]:
        cmd = [smc, "diag", "--config", run["preset"], "--json", stats]
        if run["quick"]:
            cmd.append("--quick")
        if run["policy"]:
            cmd += ["--policy", run["policy"]]
        return cmd
    cmd = [smc, "run", "--config", run["preset"], "--sched", run["sched"], "--json", stats]
    if run["policy"]:
        cmd += ["--policy", run["policy"]]
    for s in run["set"]:
        cmd += ["--set", s]
    if run["mode"] == "functional":
        cmd.append("--functional")
    if run["bench"]:
        cmd += ["--bench", run["bench"], "--size", run["size"]]
        if run["seed"] is not None:
            cmd += ["--seed", str(run["seed"])]
    else:
        if run["seed"] is not None:
            cmd += ["--seed", str(run["seed"])]
        cmd += ["--", run["program"]] + run["args"]
    return cmd


def verdict(run, rc, log, stats):
    """None when the run succeeded, else why not."""
    if rc != 0:
        return "exit status %d" % rc
    if run["bench"] and ("%s: PASS" % run["bench"]) not in log:
        return "no '%s: PASS' line" % run["bench"]
    if not os.path.isfile(stats):
        return "no statistics written"
    try:
        with open(stats) as f:
            st = json.load(f)
    except ValueError as e:
        return "statistics are not JSON (%s)" % e
    if run["diag"]:
        return None
    launches = st.get("launches") if isinstance(st, dict) else None
    if not isinstance(launches, list):
        return "statistics have no launches list"
    for l in launches:
        if not isinstance(l, dict) or l.get("status") != "SMC_OK":
            return "launch %s ended %s" % (l.get("kernel"), l.get("status")) \
                if isinstance(l, dict) else "a launch record is not an object"
    return None


def record_of(out, key):
    try:
        with open(os.path.join(out, "runs", key, "run.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def is_done(out, key, bid):
    r = record_of(out, key)
    return bool(r) and r.get("status") == "ok" and r.get("build_id") == bid


def execute_one(run, key, out, build, bid):
    """Runs one run into OUT/runs/KEY (atomically); returns its record.
    This is the only place a sweep starts a simulation, for every executor."""
    runs = os.path.join(out, "runs")
    tmp = os.path.join(runs, ".tmp.%s.%s.%d" % (key, socket.gethostname(), os.getpid()))
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    stats = os.path.join(tmp, "stats.json")
    cmd = command(run, build, stats)
    t0 = time.time()
    with open(os.path.join(tmp, "log.txt"), "w") as logf:
        logf.write("$ %s\n" % " ".join(cmd))
        logf.flush()
        p = subprocess.run(cmd, env=clean_env(), stdout=logf, stderr=subprocess.STDOUT,
                           cwd=ROOT)
    with open(os.path.join(tmp, "log.txt")) as f:
        log = f.read()
    why = verdict(run, p.returncode, log, stats)
    rec = {"key": key, "run": run, "build_id": bid, "status": "failed" if why else "ok",
           "why": why or "", "exit": p.returncode, "wall_s": round(time.time() - t0, 3),
           "host": socket.gethostname()}
    write_atomic(os.path.join(tmp, "run.json"), json.dumps(rec, indent=1, sort_keys=True) + "\n")
    final = os.path.join(runs, key)
    if os.path.exists(final):
        old = os.path.join(runs, ".old.%s.%d" % (key, os.getpid()))
        os.rename(final, old)
        os.rename(tmp, final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(tmp, final)
    return rec


# ---- a sweep -------------------------------------------------------------------


def fmt_secs(s):
    s = int(round(s))
    return "%dh%02dm%02ds" % (s // 3600, s % 3600 // 60, s % 60) if s >= 3600 else \
        "%dm%02ds" % (s // 60, s % 60)


class Sweep:
    """The runs of a sweep and their results folder. Results scripts add
    runs (add / stats in planning mode), then execute() once, then read
    each run's statistics (stats)."""

    def __init__(self, out, build, name="sweep"):
        self.out = os.path.abspath(out)
        self.build = os.path.abspath(build)
        self.name = name
        self.runs = {}          # key -> run, in the order added
        self.where = {}         # key -> spec location, for messages
        self.planning = False
        self._bid = None

    @property
    def bid(self):
        if self._bid is None:
            self._bid = build_id(self.build)
        return self._bid

    def add(self, run, where=None):
        r = normalize(run, where or "run")
        k = run_key(r)
        if k not in self.runs:
            self.runs[k] = r
            self.where[k] = where or "%s run %d (%s)" % (self.name, len(self.runs), k)
        return k

    def add_spec(self, spec, where):
        for r, loc in expand_spec(spec, where):
            self.add(r, loc)

    def stats(self, run):
        """The statistics of a run: in planning mode the run is added and an
        empty stand-in ({"launches": []}) comes back; otherwise the run
        must have been executed."""
        k = self.add(run)
        if self.planning:
            return {"launches": []}
        path = os.path.join(self.out, "runs", k, "stats.json")
        with open(path) as f:
            return json.load(f)

    def log(self, run):
        """What the simulator printed for an executed run."""
        with open(os.path.join(self.out, "runs", self.add(run), "log.txt")) as f:
            return f.read()

    def check(self):
        """Exits, before anything runs, when some run cannot run."""
        errs = check_runs([(r, self.where[k]) for k, r in self.runs.items()], self.build)
        if errs:
            sys.exit("%s: the sweep cannot run:\n  " % self.name + "\n  ".join(errs))

    def write_plan(self):
        os.makedirs(os.path.join(self.out, "runs"), exist_ok=True)
        plan = {"build": self.build, "build_id": self.bid,
                "runs": [{"key": k, "run": r} for k, r in self.runs.items()]}
        write_atomic(os.path.join(self.out, "sweep.json"), json.dumps(plan, indent=1) + "\n")

    def todo(self):
        return [k for k in self.runs if not is_done(self.out, k, self.bid)]

    def execute(self, executor="local", jobs=None, slurm=None, wait=True):
        """Runs every run not already done for this build; prints progress,
        the wall time, and the failures with their logs. Returns True when
        every run is done and ok (False: failures, or submitted without
        waiting); exits on an interrupt, saying how to resume."""
        self.check()
        self.write_plan()
        todo = self.todo()
        n, resumed = len(self.runs), len(self.runs) - len(todo)
        t0 = time.time()
        print("%s: %d runs, %d already done, %d to run (%s executor), results in %s"
              % (self.name, n, resumed, len(todo), executor, self.out), flush=True)
        if todo:
            if executor == "local":
                self._local(todo, jobs or os.cpu_count() or 1, t0)
            elif executor == "slurm":
                if not self._slurm(todo, slurm or {}, wait, t0):
                    return False
            else:
                sys.exit("%s: unknown executor '%s' (local, slurm)" % (self.name, executor))
        if todo and build_id(self.build) != self.bid:
            sys.exit("%s: the simulator in %s was rebuilt while the sweep ran, so its runs "
                     "mix two builds; run the same command again (every run reruns)"
                     % (self.name, self.build))
        failed = [k for k in todo if (record_of(self.out, k) or {}).get("status") != "ok"]
        print("%s: %d runs done (%d resumed), %d failed, wall %s"
              % (self.name, n - len(failed), resumed, len(failed), fmt_secs(time.time() - t0)),
              flush=True)
        if failed:
            self.report_failures(failed)
            return False
        return True

    def report_failures(self, keys):
        print("%s: %d failed runs:" % (self.name, len(keys)))
        for k in keys:
            rec = record_of(self.out, k)
            log = os.path.join(self.out, "runs", k, "log.txt")
            if rec is None:
                print("  %s (%s): never finished (a Slurm task's output is in %s)"
                      % (k, self.where.get(k, ""), os.path.join(self.out, "slurm")))
                continue
            print("  %s: %s; log %s" % (k, rec.get("why"), log))
            try:
                with open(log) as f:
                    tail = f.read().splitlines()[-6:]
                print("    | " + "\n    | ".join(tail))
            except OSError:
                pass

    def _progress(self, done, failed, total, t0):
        el = time.time() - t0
        eta = "" if not done else ", ETA %s" % fmt_secs(el / done * (total - done))
        print("%s: %d/%d run, %d failed, %s elapsed%s" % (self.name, done, total, failed,
                                                         fmt_secs(el), eta), flush=True)

    def _local(self, todo, jobs, t0):
        for stale in glob.glob(os.path.join(self.out, "runs", ".tmp.*")) + \
                glob.glob(os.path.join(self.out, "runs", ".old.*")):
            shutil.rmtree(stale, ignore_errors=True)
        done = failed = 0
        last = 0.0
        ex = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs))
        try:
            futs = [ex.submit(execute_one, self.runs[k], k, self.out, self.build, self.bid)
                    for k in todo]
            for f in concurrent.futures.as_completed(futs):
                rec = f.result()
                done += 1
                failed += rec["status"] != "ok"
                if time.time() - last >= 5 or done == len(todo):
                    last = time.time()
                    self._progress(done, failed, len(todo), t0)
        except KeyboardInterrupt:
            ex.shutdown(wait=False, cancel_futures=True)
            sys.exit("\n%s: interrupted after %d of %d runs; run the same command again to resume"
                     % (self.name, done, len(todo)))
        ex.shutdown()

    def _slurm(self, todo, opts, wait, t0):
        sbatch = shutil.which("sbatch")
        if not sbatch:
            sys.exit("%s: the slurm executor needs sbatch on PATH (Slurm's client; "
                     "Debian package slurm-client or slurm-wlm)" % self.name)
        per = opts.get("runs_per_task") or max(1, -(-len(todo) // 1000))
        tasks = [todo[i:i + per] for i in range(0, len(todo), per)]
        sdir = os.path.join(self.out, "slurm")
        os.makedirs(sdir, exist_ok=True)
        # a run to do has no record of this build: drop an old failed or
        # stale one, so that a record means this job wrote it
        for k in todo:
            shutil.rmtree(os.path.join(self.out, "runs", k), ignore_errors=True)
        stamp = time.strftime("%Y%m%d-%H%M%S") + "-%d" % os.getpid()
        tfile = os.path.join(sdir, "tasks-%s.json" % stamp)
        write_atomic(tfile, json.dumps({"build": self.build, "build_id": self.bid,
                                        "tasks": tasks}, indent=1) + "\n")
        script = os.path.join(sdir, "job-%s.sh" % stamp)
        write_atomic(script, "#!/bin/sh\n# one task of an smcosim sweep (scripts/sweep.py)\n"
                     "exec %s %s task %s %s \"$SLURM_ARRAY_TASK_ID\"\n"
                     % (sys.executable, SELF, self.out, tfile))
        os.chmod(script, 0o755)
        cmd = [sbatch, "--parsable", "--array=0-%d" % (len(tasks) - 1), "--job-name",
               "smcosim-" + self.name, "--output", os.path.join(sdir, "%A_%a.out"),
               "--chdir", ROOT, "--ntasks=1", "--cpus-per-task=1"]
        for opt, flag in (("partition", "--partition"), ("time", "--time"), ("mem", "--mem")):
            if opts.get(opt):
                cmd += [flag, str(opts[opt])]
        cmd += list(opts.get("sbatch_args") or [])
        cmd.append(script)
        p = subprocess.run(cmd, capture_output=True, text=True)
        jobid = p.stdout.strip().split(";")[0]
        if p.returncode != 0 or not jobid:
            sys.exit("%s: sbatch failed (exit %d):\n%s" % (self.name, p.returncode,
                                                          (p.stderr or p.stdout).strip()))
        print("%s: submitted Slurm job %s: %d array tasks, %d runs per task (%s)"
              % (self.name, jobid, len(tasks), per, " ".join(cmd)), flush=True)
        if not wait:
            print("%s: not waiting; `scripts/sweep.py status %s` shows progress, "
                  "`scripts/sweep.py collect %s` collects the table when the job ends"
                  % (self.name, self.out, self.out))
            return False
        # Wait until every run has its record or the job has left the queue
        # (a task that died before writing one shows as "never finished").
        try:
            last, polls = -1, 0
            while True:
                done = sum(1 for k in todo if record_of(self.out, k))
                if done != last:
                    failed = sum(1 for k in todo
                                 if (record_of(self.out, k) or {}).get("status") == "failed")
                    self._progress(done, failed, len(todo), t0)
                    last = done
                if done == len(todo) or (polls % 5 == 4 and not self._queued(jobid)):
                    break
                polls += 1
                time.sleep(1)
        except KeyboardInterrupt:
            subprocess.run(["scancel", jobid])
            sys.exit("\n%s: interrupted; cancelled job %s; run the same command again to resume"
                     % (self.name, jobid))
        return True

    @staticmethod
    def _queued(jobid):
        """Whether any task of the job is still pending, running or ending."""
        q = subprocess.run(["squeue", "-h", "-j", jobid, "-t", "PD,R,CG,CF,S,RQ,RS,RH,SE,ST"],
                           capture_output=True, text=True)
        return q.returncode != 0 or bool(q.stdout.strip())

    # ---- the collected table ----

    def rows(self):
        out = []
        for k, r in self.runs.items():
            rec = record_of(self.out, k)
            row = {"key": k, "kind": kind_of(r), "name": name_of(r), "preset": r["preset"],
                   "sched": r["sched"], "policy": r["policy"] or "", "size": r["size"] or "",
                   "set": ";".join(r["set"]), "seed": "" if r["seed"] is None else r["seed"],
                   "mode": r["mode"], "status": "missing", "launches": "", "cycles": "",
                   "warp_insts": "", "thread_insts": "", "ipc": ""}
            if rec:
                row["status"] = rec["status"] if rec.get("build_id") == self.bid else "stale"
            if row["status"] == "ok" and not r["diag"]:
                with open(os.path.join(self.out, "runs", k, "stats.json")) as f:
                    ls = json.load(f).get("launches", [])
                row["launches"] = len(ls)
                for c in ("cycles", "warp_insts", "thread_insts"):
                    row[c] = sum(l.get(c, 0) for l in ls)
                row["ipc"] = "%.6f" % (row["warp_insts"] / row["cycles"]) if row["cycles"] else ""
            out.append(row)
        return out

    def collect(self, csv_path=None, json_path=None):
        """Writes the sweep's table (one row per run, in the sweep's order)
        as CSV and JSON, each file complete or not at all."""
        rows = self.rows()
        csv_path = csv_path or os.path.join(self.out, "table.csv")
        json_path = json_path or os.path.join(self.out, "table.json")
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        write_atomic(csv_path, buf.getvalue())
        write_atomic(json_path, json.dumps(rows, indent=1) + "\n")
        return rows, csv_path, json_path


def load_plan(out):
    """The Sweep last planned in OUT (its sweep.json)."""
    try:
        with open(os.path.join(out, "sweep.json")) as f:
            plan = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("sweep: %s has no readable sweep.json (%s): not a sweep folder" % (out, e))
    s = Sweep(out, plan["build"])
    for e in plan["runs"]:
        s.runs[e["key"]] = e["run"]
        s.where[e["key"]] = e["key"]
    return s


# ---- the options every sweep command shares (results scripts too) ---------


def add_executor_args(ap):
    g = ap.add_argument_group("executor")
    g.add_argument("--executor", choices=("local", "slurm"), default="local",
                   help="local processes (default) or a Slurm job array")
    g.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="local: runs at a time (default: the number of CPUs)")
    g.add_argument("--partition", help="slurm: partition (sbatch --partition)")
    g.add_argument("--time", help="slurm: time limit per array task (sbatch --time)")
    g.add_argument("--mem", help="slurm: memory per array task (sbatch --mem)")
    g.add_argument("--runs-per-task", type=int, default=0,
                   help="slurm: runs per array task (default: 1, more when over 1000 tasks)")
    g.add_argument("--sbatch-arg", action="append", default=[],
                   help="slurm: one more sbatch argument, passed through (repeatable)")


def executor_opts(a):
    return {"executor": a.executor, "jobs": a.jobs,
            "slurm": {"partition": a.partition, "time": a.time, "mem": a.mem,
                      "runs_per_task": a.runs_per_task, "sbatch_args": a.sbatch_arg}}


def run_planned(sw, a):
    """Executes a results script's planned sweep with its command line's
    executor options (waiting for Slurm); exits when a run failed."""
    o = executor_opts(a)
    if not sw.execute(o["executor"], o["jobs"], o["slurm"], wait=True):
        sys.exit("%s: some runs failed (listed above); fix and run the same command again "
                 "(finished runs are kept)" % sw.name)
    sw.collect()


def run_tables(sw, a, tables):
    """A results script's two walks: tables() once in planning mode to list
    its runs (sw.stats returns stand-ins), the runs as one sweep (parallel,
    resuming, the command line's executor), then tables() again on the
    results, whose value comes back."""
    sw.planning = True
    tables()
    sw.planning = False
    run_planned(sw, a)
    return tables()


# ---- command line -----------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run a sweep spec (resuming)")
    r.add_argument("spec")
    r.add_argument("--out", required=True)
    r.add_argument("--build", default=os.path.join(ROOT, "build"))
    r.add_argument("--wait", action="store_true", help="slurm: wait for the job, then collect")
    add_executor_args(r)
    s = sub.add_parser("status", help="runs done, failed and missing")
    s.add_argument("out")
    c = sub.add_parser("collect", help="the table of a sweep, CSV and JSON")
    c.add_argument("out")
    c.add_argument("--csv")
    c.add_argument("--json")
    t = sub.add_parser("task", help="(internal) one Slurm array task")
    t.add_argument("out")
    t.add_argument("tasks")
    t.add_argument("index", type=int)
    a = ap.parse_args(argv)

    if a.cmd == "run":
        try:
            with open(a.spec) as f:
                spec = json.load(f)
        except OSError as e:
            sys.exit("sweep: cannot read %s: %s" % (a.spec, e.strerror))
        except ValueError as e:
            sys.exit("sweep: %s is not JSON: %s" % (a.spec, e))
        sw = Sweep(a.out, a.build, "sweep")
        try:
            sw.add_spec(spec, a.spec)
        except SpecError as e:
            sys.exit("sweep: %s" % e)
        o = executor_opts(a)
        wait = a.executor == "local" or a.wait
        ok = sw.execute(o["executor"], o["jobs"], o["slurm"], wait=wait)
        if not wait:
            return 0
        rows, cp, jp = sw.collect()
        print("sweep: table of %d runs: %s, %s" % (len(rows), cp, jp))
        return 0 if ok else 1
    if a.cmd == "status":
        sw = load_plan(a.out)
        rows = sw.rows()
        by = {}
        for row in rows:
            by[row["status"]] = by.get(row["status"], 0) + 1
        print("sweep %s: %d runs: %s" % (a.out, len(rows), ", ".join(
            "%d %s" % (v, k) for k, v in sorted(by.items()))))
        return 0 if by.get("ok", 0) == len(rows) else 1
    if a.cmd == "collect":
        sw = load_plan(a.out)
        rows, cp, jp = sw.collect(a.csv, a.json)
        bad = [row for row in rows if row["status"] != "ok"]
        print("sweep: table of %d runs (%d not ok): %s, %s" % (len(rows), len(bad), cp, jp))
        if bad:
            sw.report_failures([row["key"] for row in bad])
        return 1 if bad else 0
    if a.cmd == "task":
        with open(a.tasks) as f:
            tasks = json.load(f)
        sw = load_plan(a.out)
        if build_id(tasks["build"]) != tasks["build_id"]:
            sys.exit("sweep task: the simulator in %s changed since the sweep was submitted; "
                     "submit it again" % tasks["build"])
        bad = 0
        for k in tasks["tasks"][a.index]:
            if is_done(a.out, k, tasks["build_id"]):
                continue
            rec = execute_one(sw.runs[k], k, a.out, tasks["build"], tasks["build_id"])
            print("%s: %s%s" % (k, rec["status"], (" (%s)" % rec["why"]) if rec["why"] else ""),
                  flush=True)
            bad += rec["status"] != "ok"
        return 1 if bad else 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
