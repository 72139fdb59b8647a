#!/usr/bin/env python3
"""Area, storage and timing of the scheduling hardware (`make area`).

Measures every RTL block (one module per `<dir>/*.sv`, file name = module
name) with the parameters the core instantiates it with, and the whole core
(the top module with all its sub-blocks), once per named parameter set, and
writes one table per set as Markdown and CSV, plus a report that places the
blocks beside the seed papers' figures.  See docs/area.md for the method, the
cell areas, the formulas and where the time goes.

    area_flow.py --rtl-dir rtl --top sched_core --out build/area \
                 fpga/param-sets/kepler-k20x.conf fpga/param-sets/fermi-gtx480.conf

A parameter set is a text file of `Name = integer` lines (`#` starts a
comment).  `Name` is an RTL parameter; a block gets only the parameters it
declares, the others keep their RTL default.  Keys of the form `flow.<opt>`
are options of this flow, not RTL parameters:

    flow.nextpnr = hx8k      also place and route the whole core on an iCE40
                             HX8K with nextpnr-ice40 and report its Fmax

How it runs (docs/area.md, "How the flow runs"): every distinct block
(module and parameter values) is synthesized once, on its own, with its
sub-blocks as black boxes; a block's figures are its own plus those of its
sub-blocks times their instance count, and its logic depth is measured on the
flattened composition of the netlists.  The Yosys runs are independent jobs
run in parallel (`-j`, default: the number of CPUs) and cached under
`<out>/cache` (`--cache`), keyed by everything that determines their result:
the RTL files of the block and of every block below it, the parameter values,
the Yosys/nextpnr versions, the Liberty file and this script itself.  Results
do not depend on the cache: `--no-cache` gives byte-identical tables.

Any Yosys or nextpnr failure stops the flow with the tool's own message and a
non-zero exit; the tables of the requested sets are removed first and only
written, each through a temporary file and a rename, once every run has
succeeded, so a failed run never leaves a partial table.
"""

import argparse
import collections
import concurrent.futures
import csv
import decimal
import hashlib
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_LIBERTY = os.path.join(REPO, "fpga", "nangate45-area.lib")

# Flow options a parameter set may carry (`flow.<name> = value`).
FLOW_OPTIONS = {"nextpnr": ("hx8k",)}

# iCE40 HX8K: 7680 logic cells (one LUT4 + one DFF each).
HX8K_LOGIC_CELLS = 7680

# Feature sizes the 45 nm area is scaled to: area scales with (node / 45)^2.
SCALED_NODES_NM = (40, 28)


class FlowError(Exception):
    """A user-facing error: printed as `area: <message>`, exit status 1."""
# --------------------------------------------------------------------------
# Parameter sets
# --------------------------------------------------------------------------

IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def parse_param_set(path):
    """Return (name, params, options) from a parameter-set file.

    params keeps the file's order.  Every malformed line is an error naming
    the file and the line."""
    name = os.path.splitext(os.path.basename(path))[0]
    params, options = {}, {}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise FlowError(f"{path}: cannot read parameter set: {e.strerror}")
    for lineno, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{path}:{lineno}"
        if "=" not in line:
            raise FlowError(f"{where}: expected 'Name = value', got '{raw.strip()}'")
        key, value = (s.strip() for s in line.split("=", 1))
        if key.startswith("flow."):
            opt = key[len("flow."):]
            if opt not in FLOW_OPTIONS:
                raise FlowError(f"{where}: unknown flow option '{key}' "
                                f"(known: {', '.join('flow.' + o for o in FLOW_OPTIONS)})")
            if value not in FLOW_OPTIONS[opt]:
                raise FlowError(f"{where}: '{key}' must be one of "
                                f"{', '.join(FLOW_OPTIONS[opt])}, got '{value}'")
            options[opt] = value
            continue
        if not IDENT.match(key):
            raise FlowError(f"{where}: '{key}' is not a parameter name")
        if key in params:
            raise FlowError(f"{where}: parameter '{key}' set twice")
        if not re.match(r"^-?[0-9]+$", value):
            raise FlowError(f"{where}: value of '{key}' must be an integer, got '{value}'")
        params[key] = int(value)
    return name, params, options


# --------------------------------------------------------------------------
# Running Yosys and nextpnr
# --------------------------------------------------------------------------

# CPU seconds (user + system) of the tools run by the current thread's job:
# the machine is shared, so the flow reports CPU time beside the jobs' wall
# time (docs/area.md, "Where the time goes").
_job_cpu = threading.local()


def run_tool(argv, out_path, what, cwd=None):
    """Run a tool with its stdout/stderr in out_path; on failure raise
    FlowError with the tool's own error lines (or the tail of its output).
    The tool's CPU time is added to the running job's."""
    with open(out_path, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    _job_cpu.seconds = getattr(_job_cpu, "seconds", 0.0) + usage.ru_utime + usage.ru_stime
    if proc.returncode == 0:
        return
    with open(out_path, encoding="utf-8", errors="replace") as out:
        text = out.read().splitlines()
    errors = [l for l in text if "ERROR" in l]
    shown = errors if errors else text[-15:]
    raise FlowError(f"{what} failed (exit {proc.returncode}); output: {out_path}\n"
                    + "\n".join("  " + l for l in shown))


def yosys(script_text, d, stem, what, cwd):
    """Run a Yosys script in directory cwd (the RTL directory: files are read
    by their base names, so no path reaches the netlists and the results do
    not depend on where the RTL lives).  The full log (hundreds of MB for the
    large blocks) is deleted after a successful run; its per-pass time summary
    (`yosys -d`) is kept in <stem>.time."""
    script = os.path.join(d, stem + ".ys")
    with open(script, "w", encoding="utf-8") as f:
        f.write(script_text)
    log = os.path.join(d, stem + ".log")
    run_tool(["yosys", "-q", "-d", "-l", log, script], os.path.join(d, stem + ".out"),
             what, cwd=cwd)
    summary = []
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if summary or line.startswith("Time spent:"):
                summary.append(line)
    with open(os.path.join(d, stem + ".time"), "w", encoding="utf-8") as f:
        f.writelines(summary[:25])
    os.unlink(log)


# Yosys's SAT-based resource sharing (`share`) is left out of every synthesis
# script: on the blocks that hold all warps' state its activation-pattern
# analysis does not finish in reasonable time (sched_rcu at 64 warps: more than
# 20 minutes in `share` alone, docs/area.md "Where the time goes").  `synth`
# has -noshare; synth_xilinx and synth_ice40 do not, so their coarse step is
# spelled out here as Yosys 0.23 runs it, without `share`.

#
# `synth` and `synth_xilinx` start alike: proc and the same generic
# optimisations (synth's `coarse` up to its first opt_clean after peepopt is
# synth_xilinx's `prepare` up to the same opt_clean; `tribuf -logic` and
# `deminout`, which synth_xilinx adds after proc, change nothing in RTL
# without tri-states or inout ports, as ours is).  The `generic` job runs
# that shared prefix once and writes its netlist (write_coarse_split); the `xilinx`
# job starts from it and runs only what is Xilinx's own.  COARSE_PREFIX +
# COARSE_TAIL is Yosys 0.23's `synth -noshare` coarse step, spelled out.
COARSE_PREFIX = ["proc", "opt_expr", "opt_clean", "check", "opt -nodffe -nosdff", "fsm",
                 "opt", "wreduce", "peepopt", "opt_clean"]
COARSE_TAIL = ["alumacc", "opt", "memory -nomap", "opt_clean"]


def write_coarse_split(path):
    """Write the netlist at the split point without disturbing the run:
    write_rtlil sorts the design it writes, and a different cell order
    gives ABC a different start (other gate and LUT counts), so the copy is
    written and the design itself continues untouched."""
    return ["design -push-copy", f"write_rtlil {path}", "design -pop"]


def synth_xilinx_script(top, coarse_il, memories):
    """synth_xilinx from the shared coarse prefix (COARSE_PREFIX) on: the
    rest of its `prepare` step, `map_dsp`, its `coarse` step without share,
    and the mapping.  `memories`: whether the netlist has memory cells;
    without any, `map_memory` (memory_libmap and the LUTRAM and block-RAM
    techmaps, which parse their map files, about 1 s per run) has nothing to
    do and is skipped.  The final `check` step (hierarchy -check, stat,
    check: messages only) is left out."""
    opts = f"-top {top} -noiopad -noclkbuf"   # out of context: a block is not a chip
    return [  # synth_xilinx's `begin` reads cells_sim.v with -specify and
              # cells_xtra.v (further primitives, as black boxes): a netlist
              # of ours uses only cells of cells_sim.v, and one that needed
              # another would fail at `hierarchy -check`
            "read_verilog -lib -specify +/xilinx/cells_sim.v",
            f"read_rtlil {coarse_il}", f"hierarchy -check -top {top}",
            "tribuf -logic", "deminout", "pmux2shiftx", "clean",
            f"synth_xilinx {opts} -run map_dsp:coarse",
            "techmap -map +/cmp2lut.v -map +/cmp2lcu.v -D LUT_WIDTH=6"] + COARSE_TAIL + [
            f"synth_xilinx {opts} -run {'map_memory' if memories else 'map_ffram'}:check",
            "blackbox =A:whitebox"]


def synth_ice40_script(top):
    return [f"synth_ice40 -top {top} -run begin:coarse",
            "opt_expr", "opt_clean", "check", "opt -nodffe -nosdff", "fsm", "opt", "wreduce",
            "peepopt", "opt_clean", "techmap -map +/cmp2lut.v -D LUT_WIDTH=4", "opt_expr",
            "opt_clean", "memory_dff", "wreduce t:$mul", "alumacc", "opt", "memory -nomap",
            "opt_clean", f"synth_ice40 -top {top} -run map_ram:"]


def tool_version(argv):
    try:
        proc = subprocess.run(argv, capture_output=True, text=True)
    except OSError:
        return None
    text = (proc.stdout + proc.stderr).strip().splitlines()
    return text[0] if text else None


def check_path(path):
    """Yosys scripts split arguments at white space: refuse such paths."""
    if re.search(r"\s", path):
        raise FlowError(f"'{path}': paths with white space are not supported")
    return path


def load_stat_json(path):
    """Modules of a `stat -json` file.  Yosys 0.23 leaves a trailing comma in
    the (empty) design summary when no module is marked top: drop it."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return json.loads(re.sub(r",\s*}\s*$", "}", text))["modules"]
    except (ValueError, KeyError) as e:
        raise FlowError(f"{path}: unreadable Yosys statistics ({e})")


def stats_of(stats, key, path):
    mod = stats.get(key) or stats.get("\\" + key)
    if mod is None:
        raise FlowError(f"{path}: no statistics for module '{key}'")
    return {"cells": mod.get("num_cells_by_type", {}),
            "memory_bits": int(mod.get("num_memory_bits", 0)),
            "transistors": mod.get("estimated_num_transistors")}


def count(cells, pattern):
    return sum(n for t, n in cells.items() if re.match(pattern, t))


# Yosys internal single-bit flip-flops and latches: $_DFF_*, $_DFFE_*,
# $_SDFF*_, $_ALDFF*_, $_DFFSR*_, $_DLATCH*_ ...
GENERIC_FF = re.compile(r"\$_(S?DFF|ALDFF|DLATCH|SR_)")


def is_generic_ff(cell_type):
    return GENERIC_FF.match(cell_type) is not None


def transistors(stats, key, path):
    value = str(stats["transistors"])
    if not re.match(r"^\d+$", value):
        # A cell type without a CMOS cost survived the mapping: the count
        # would be a lower bound, which the table must not pass off as exact.
        raise FlowError(f"{path}: transistor count of '{key}' is not exact ({value}): "
                        "a cell type has no CMOS cost")
    return int(value)


def param_value(bits):
    """A parameter value from write_json: a binary string, or text."""
    if isinstance(bits, str) and re.match(r"^[01]+$", bits):
        return int(bits, 2)
    return bits


# --------------------------------------------------------------------------
# Jobs and the result cache
# --------------------------------------------------------------------------

def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def digest(obj):
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode("utf-8")).hexdigest()


# Every cached result depends on this script: any edit to it is a new key.
FLOW_HASH = sha256_file(os.path.abspath(__file__))


class Job:
    """One tool run.  Its key is a hash of everything that determines its
    result (`key_parts`, plus the kind and this script's hash); `deps` are
    jobs whose results it reads.  `build(job, d)` runs the tool in the empty
    directory d and returns the job's result (JSON); files it leaves in d
    stay with the result (netlists that later jobs read)."""

    def __init__(self, kind, label, key_parts, build, deps=(), cost=1.0, in_process=False):
        self.kind, self.label, self.build = kind, label, build
        self.deps, self.cost = list(deps), cost
        # runs in this Python process (no tool): one such job at a time, as
        # two would take turns at Python's global lock
        self.in_process = in_process
        self.key = digest([FLOW_HASH, kind, key_parts])
        self.dir = None
        self.result = None
        self.cached = False
        self.seconds = 0.0
        self.cpu = 0.0

    def __repr__(self):
        return f"{self.kind} {self.label}"


class Runner:
    """Runs jobs in dependency order on `workers` threads (each waits on one
    tool process).  With a cache directory, a job whose key has a stored
    result is not run, and a job that succeeds is stored (moved in with one
    rename, so an interrupted run never leaves half a result)."""

    def __init__(self, work, cache_dir, workers):
        self.work, self.cache_dir, self.workers = work, cache_dir, workers
        self.ran, self.hits = [], 0
        self.lock = threading.Lock()

    def _cached_dir(self, job):
        return os.path.join(self.cache_dir, job.key[:2], job.key)

    def _lookup(self, job):
        if not self.cache_dir:
            return False
        d = self._cached_dir(job)
        try:
            with open(os.path.join(d, "result.json"), encoding="utf-8") as f:
                job.result = json.load(f)
        except (OSError, ValueError):
            return False
        job.dir, job.cached = d, True
        return True

    def _execute(self, job):
        d = os.path.join(self.work, "run", f"{job.kind}-{job.key[:16]}")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        t0 = time.monotonic()
        _job_cpu.seconds = 0.0
        own0 = time.thread_time()
        result = job.build(job, d)
        job.seconds = time.monotonic() - t0
        # the tools' CPU time and this thread's (netlists read in Python)
        job.cpu = _job_cpu.seconds + time.thread_time() - own0
        with open(os.path.join(d, "result.json"), "w", encoding="utf-8") as f:
            json.dump(result, f, sort_keys=True)
        job.result, job.dir = result, d
        if self.cache_dir:
            final = self._cached_dir(job)
            os.makedirs(os.path.dirname(final), exist_ok=True)
            try:
                os.rename(d, final)
                job.dir = final
            except OSError:
                # stored meanwhile by another run: the same key, the same result
                if os.path.isfile(os.path.join(final, "result.json")):
                    shutil.rmtree(d, ignore_errors=True)
                    job.dir = final
                else:
                    raise

    def run(self, jobs):
        """Run `jobs` (and nothing else: their deps must be in the list or
        done).  Ready jobs start by cost, largest first."""
        pending = [j for j in dict.fromkeys(jobs) if j.result is None]
        done = {j for j in jobs if j.result is not None}
        running, error = {}, None
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.workers) as ex:
            while True:
                progressed = True
                while progressed and error is None:
                    progressed = False
                    ready = sorted((j for j in pending if all(d in done for d in j.deps)),
                                   key=lambda j: (-j.cost, j.kind, j.label))
                    for j in ready:
                        if self._lookup(j):
                            pending.remove(j)
                            done.add(j)
                            self.hits += 1
                            progressed = True
                        elif len(running) < self.workers and not (
                                j.in_process and any(r.in_process for r in running.values())):
                            pending.remove(j)
                            running[ex.submit(self._execute, j)] = j
                if not running:
                    break
                finished, _ = concurrent.futures.wait(
                    running, return_when=concurrent.futures.FIRST_COMPLETED)
                for f in finished:
                    j = running.pop(f)
                    try:
                        f.result()
                    except FlowError as e:
                        error = error or e
                        continue
                    except Exception as e:  # a bug or an OS error: still name the job
                        error = error or FlowError(f"{j}: {type(e).__name__}: {e}")
                        continue
                    done.add(j)
                    self.ran.append(j)
                    print(f"area: ran {j.kind} {j.label} ({j.seconds:.1f} s, "
                          f"{j.cpu:.1f} s CPU)",
                          file=sys.stderr, flush=True)
        if error is not None:
            raise error
        if pending:
            raise FlowError("internal: jobs left with unmet dependencies: "
                            + ", ".join(map(str, pending)))


# --------------------------------------------------------------------------
# The RTL: blocks, their parameters and what each instantiates
# --------------------------------------------------------------------------

def strip_comments(text):
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def instantiated(text, names):
    """Module names of `names` that the Verilog text instantiates: a name
    followed by `#(` or by an instance name and `(` (comments ignored, every
    generate branch counted)."""
    found = set()
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*(?:#\s*\(|[A-Za-z_]\w*\s*(?:\[[^\]]*\]\s*)*\()",
                         strip_comments(text)):
        if m.group(1) in names:
            found.add(m.group(1))
    return found


class Rtl:
    """The RTL directory: files, their hashes, each block's declared
    parameters (asked of Yosys, cached) and the blocks each one needs."""

    def __init__(self, rtl_dir, top, runner, yosys_version):
        self.dir, self.top = rtl_dir, top
        names = sorted(os.path.splitext(f)[0] for f in os.listdir(rtl_dir) if f.endswith(".sv"))
        if not names:
            raise FlowError(f"{rtl_dir}: no *.sv RTL files to synthesize")
        if top not in names:
            raise FlowError(f"{rtl_dir}: top module '{top}' has no file {top}.sv")
        self.names = names
        self.hash = {n: sha256_file(os.path.join(rtl_dir, n + ".sv")) for n in names}
        files = [n + ".sv" for n in names]

        def build(job, d):
            listing = os.path.join(d, "modules.txt")
            yosys(f"read_verilog -sv {' '.join(files)}\ntee -q -o {listing} ls\n"
                  f"tee -q -a {listing} chparam -list\n",
                  d, "discover", f"Yosys reading {rtl_dir}/*.sv", cwd=rtl_dir)
            modules, params, current, section = set(), {}, None, None
            with open(listing, encoding="utf-8") as f:
                for line in f:
                    s = line.rstrip()
                    if re.match(r"^\d+ modules:$", s.strip()):
                        section = "ls"
                        continue
                    if section == "ls" and s.startswith("  ") and s.strip():
                        modules.add(s.strip().lstrip("\\"))
                        continue
                    m = re.match(r"^(\S+):$", s)
                    if m:
                        section, current = "params", m.group(1).lstrip("\\")
                        params.setdefault(current, [])
                    elif section == "params" and s.startswith("  ") and s.strip():
                        params[current].append(s.strip().lstrip("\\"))
            return {"modules": sorted(modules), "params": params}

        job = Job("discover", os.path.basename(os.path.normpath(rtl_dir)),
                  [self.hash, yosys_version], build)
        runner.run([job])
        modules = set(job.result["modules"])
        for n in names:
            if n not in modules:
                raise FlowError(f"{os.path.join(rtl_dir, n + '.sv')}: declares no module named "
                                f"'{n}' (each rtl/*.sv holds one module named like the file)")
        self.declared = {n: job.result["params"].get(n, []) for n in names}
        self.uses = {}
        for n in names:
            with open(os.path.join(rtl_dir, n + ".sv"), encoding="utf-8") as f:
                self.uses[n] = sorted(instantiated(f.read(), set(names)) - {n})

    def closure(self, block):
        """The block and every block below it (the files Yosys must read)."""
        seen, todo = set(), [block]
        while todo:
            b = todo.pop()
            if b not in seen:
                seen.add(b)
                todo += self.uses[b]
        return sorted(seen)

    def source_key(self, block):
        """What a block's synthesis reads: its file and those below it."""
        return {b: self.hash[b] for b in self.closure(block)}

    def load_script(self, block, params):
        files = " ".join(b + ".sv" for b in self.closure(block))
        script = [f"read_verilog -sv {files}"]
        sets = " ".join(f"-set {k} {v}" for k, v in params.items())
        if sets:
            script.append(f"chparam {sets} {block}")
        script += [f"hierarchy -check -top {block}", f"rename -top {block}"]
        return script

# --------------------------------------------------------------------------
# Estimated SRAM / register-file macro area (docs/area.md, "Macro estimate")
# --------------------------------------------------------------------------
#
# Our storage is flip-flops.  The seed papers' areas come from CACTI, i.e.
# SRAM arrays.  For the storage arrays that a macro could hold (each bank read
# and written through one or two ports per cycle, not read for every warp
# every cycle) the tables add an estimate of the area of such a macro, from a
# published 45 nm bit cell, CACTI's rule for how a cell grows with its ports,
# and a stated peripheral model built from the same Nangate45 cells as the
# rest of the table.  It is an estimate (docs/area.md lists the assumptions);
# the flip-flop figures stay in the table.

# 6T SRAM cell of Intel's 45 nm process: 0.346 um^2 (Intel, January 2006;
# K. Mistry et al., IEDM 2007).
SRAM_6T_45NM_UM2 = 0.346
# CACTI (HewlettPackard/cacti, tech_params/45nm.dat: SRAM cell 146 F^2, aspect
# ratio 1.46, i.e. 10 F x 14.6 F; mat.cc: every port beyond the first widens
# the cell by two local wire pitches in each direction; local wire pitch
# 2.5 F).
CACTI_CELL_W_F, CACTI_CELL_H_F, CACTI_WIRE_PITCH_F = 10.0, 14.6, 2.5
# Peripheral model, per port (Nangate45 X1 areas, fpga/nangate45-area.lib):
# a row decoder slice and wordline driver per row (AND2 + BUF), a column
# circuit per column (sense amplifier and precharge, or write driver: counted
# as one DFF_X1, the size of a latch), and per port an address register
# (one DFF_X1 per address bit) plus 16 NAND2 of timing and control.
NANGATE_UM2 = {"AND2_X1": 1.064, "BUF_X1": 0.798, "DFF_X1": 4.522, "NAND2_X1": 0.798}
MACRO_ROW_UM2 = NANGATE_UM2["AND2_X1"] + NANGATE_UM2["BUF_X1"]
MACRO_COL_UM2 = NANGATE_UM2["DFF_X1"]
MACRO_CTRL_GATES = 16


def clog2(n):
    return (n - 1).bit_length() if n > 1 else 0


def macro_cell_um2(ports):
    """Area of one bit cell with `ports` ports (1: the 6T cell)."""
    grow = 2 * CACTI_WIRE_PITCH_F * (ports - 1)
    return (SRAM_6T_45NM_UM2 * (CACTI_CELL_W_F + grow) * (CACTI_CELL_H_F + grow)
            / (CACTI_CELL_W_F * CACTI_CELL_H_F))


def macro_area_um2(rows, cols, read_ports, write_ports):
    """Estimated area of one macro of rows x cols bits (45 nm)."""
    p = read_ports + write_ports
    periphery = p * (rows * MACRO_ROW_UM2 + cols * MACRO_COL_UM2
                     + clog2(rows) * NANGATE_UM2["DFF_X1"]
                     + MACRO_CTRL_GATES * NANGATE_UM2["NAND2_X1"])
    return rows * cols * macro_cell_um2(p) + periphery


# The arrays a macro could hold, by block: the Yosys memories (RTL array
# names) that make up one macro row, how many memory words one row holds,
# the banks (one per scheduler port: each scheduler reads and writes only its
# own warps), and each bank's read and write ports per cycle.  Every other
# storage bit stays flip-flops: it is read for all warps every cycle (the
# buffers' bit-sliced heads and dependency bits, valid bits, pointers and
# counts), cleared for many warps at once, or read through more than two
# ports (the scoreboard's register ids: a push and every writeback port; the
# HAWS stall pc: chain fetch, issue and return pass).  docs/area.md explains
# each choice.
MACRO_ARRAYS = {
    # payload of the buffered instructions, one row per warp (its Depth
    # entries): read by the pop (and the dependency update of the popped
    # warp, same row) and by HAWS entry; written by the push; one bank per
    # scheduler (sched_ibuffer holds Ports of them)
    "sched_ibuffer_bank": {"mems": ("rest_q",), "row_words": lambda p: p["Depth"],
                      "banks": lambda p: p["Ports"], "read": 2, "write": 1},
    # RCU entries {offset, dst, renamed, control(, ready)}, one row per entry:
    # read by the return pass (fetch request's and push's warp), written at
    # allocation; one bank per scheduler (sched_rcu holds Ports of them)
    "sched_rcu_bank": {"mems": ("off_q", "dst_q", "ren_q", "ctrl_q", "ready_q"),
                  "row_words": lambda p: 1,
                  "banks": lambda p: p["Ports"], "read": 2, "write": 1},
    # renaming pairs, one row per warp (its Entries pairs, compared outside
    # the array): read for the pushed warp, one pair written; one bank per
    # scheduler (sched_rename holds Ports of them)
    "sched_rename_bank": {"mems": ("orig_q", "new_q"), "row_words": lambda p: p["Entries"],
                     "banks": lambda p: p["Ports"], "read": 1, "write": 1},
}


def macro_estimate(block, params, mems):
    """(bits, estimated area um^2) of the block's own macro-able arrays, from
    the memories Yosys found (name, width, words) after coarse synthesis (so
    an array synthesis removes, like the RCU's unread ready bits, is not
    counted)."""
    spec = MACRO_ARRAYS.get(block)
    if not spec:
        return 0, 0.0
    found = [(w, n) for name, w, n in mems if name in spec["mems"]]
    if not found:
        return 0, 0.0
    bits = sum(w * n for w, n in found)
    per_row = spec["row_words"](params)
    words = max(n for _, n in found)
    rows = -(-words // per_row)
    cols = sum(w for w, _ in found) * per_row
    banks = max(min(spec["banks"](params), rows), 1)
    bank_rows = -(-rows // banks)
    return bits, banks * macro_area_um2(bank_rows, cols, spec["read"], spec["write"])


# --------------------------------------------------------------------------
# Units: a block with its parameter values, synthesized once
# --------------------------------------------------------------------------

class Unit:
    """One distinct block (module and all its parameter values).  `kids`:
    (name Yosys gives the sub-block, unit, instances) per sub-block kind."""

    def __init__(self, block, params, chparams, ncells):
        self.block, self.params, self.chparams = block, params, chparams
        self.ncells = ncells
        self.kids = []
        self.ports = None
        self.jobs = {}
        self.label = f"{block}[{' '.join(f'{k}={v}' for k, v in params.items())}]"

    def subtree(self):
        """This unit and every unit below it, each once."""
        seen = {}
        def walk(u):
            if id(u) not in seen:
                seen[id(u)] = u
                for _, k, _ in u.kids:
                    walk(k)
        walk(self)
        return list(seen.values())


class Design:
    """All units of all parameter sets, and their jobs."""

    def __init__(self, rtl, runner, liberty, versions):
        self.rtl, self.runner, self.liberty = rtl, runner, liberty
        self.versions = versions
        self.liberty_hash = sha256_file(liberty)
        self.units = {}
        self.libraries = {}                        # kind -> its library_job


    def elaborate(self, roots):
        """The trees of units below each (root, params) of `roots`: Yosys
        elaborates each (`hierarchy`; the elaborations run in parallel) and
        lists each derived module's parameters and sub-blocks.  Returns the
        root units."""
        jobs = [self.elaborate_job(root, params) for root, params in roots]
        self.runner.run(jobs)
        return [self.units_of(job, root) for job, (root, _) in zip(jobs, roots)]

    def elaborate_job(self, root, params):
        rtl = self.rtl

        def build(job, d):
            # The instances and parameters are known once `hierarchy` has
            # derived the modules; `proc` (about half of this job's time on
            # the presets' cores, all of it repeated by the blocks' own
            # `generic` jobs) is not needed for them: the processes are
            # deleted (write_json does not take them) after their size is
            # noted for the job ordering.
            hier, procs = os.path.join(d, "hier.json"), os.path.join(d, "procs.txt")
            script = rtl.load_script(root, params) + [
                f"tee -q -o {procs} dump -m p:*", "delete p:*", f"write_json {hier}"]
            yosys("\n".join(script) + "\n", d, "elaborate",
                  f"Yosys elaboration of '{root}'", cwd=rtl.dir)
            with open(hier, encoding="utf-8") as f:
                mods = json.load(f)["modules"]
            os.unlink(hier)
            proc_lines, current = {}, None
            with open(procs, encoding="utf-8") as f:
                for line in f:
                    if line.startswith("module "):
                        current = line.split()[1].lstrip("\\")
                    elif current is not None:
                        proc_lines[current] = proc_lines.get(current, 0) + 1
            os.unlink(procs)
            out = {}
            for key, mod in mods.items():
                src = mod.get("attributes", {}).get("src", "")
                block = os.path.splitext(os.path.basename(src.split(":")[0]))[0] or key
                kids = {}
                for cell in mod.get("cells", {}).values():
                    if cell["type"] in mods:
                        kids[cell["type"]] = kids.get(cell["type"], 0) + 1
                # size for the job ordering: cells plus lines of processes
                size = len(mod.get("cells", {})) + proc_lines.get(key, 0)
                out[key] = {"block": block, "kids": kids, "ncells": size,
                            "params": {k: param_value(v) for k, v in
                                       sorted((mod.get("parameter_default_values") or {}).items())}}
                if key == root:
                    out[key]["ports"] = [[n, q["direction"], len(q["bits"])]
                                         for n, q in mod["ports"].items()]
            return {"modules": out}

        return Job("elaborate", f"{root}[{' '.join(f'{k}={v}' for k, v in params.items())}]",
                   [rtl.source_key(root), root, params, self.versions["yosys"]], build)

    def units_of(self, job, root):
        """The root unit of an elaboration job's result."""
        rtl = self.rtl
        mods = job.result["modules"]
        if root not in mods:
            raise FlowError(f"elaboration of '{root}' lists no module '{root}'")
        by_name = {}
        for key, m in mods.items():
            if m["block"] not in rtl.declared:
                raise FlowError(f"module '{key}' comes from no file of {rtl.dir}")
            uid = digest([m["block"], m["params"]])
            if uid not in self.units:
                chp = {k: v for k, v in m["params"].items() if k in rtl.declared[m["block"]]}
                self.units[uid] = Unit(m["block"], m["params"], chp, m["ncells"])
            by_name[key] = self.units[uid]
        for key, m in mods.items():
            u = by_name[key]
            if not u.kids and m["kids"]:
                u.kids = [(n, by_name[n], c) for n, c in sorted(m["kids"].items())]
        top = by_name[root]
        top.ports = mods[root].get("ports")
        return top

    # ---- the jobs of one unit --------------------------------------------

    def jobs_of(self, u):
        if u.jobs:
            return u.jobs
        rtl, src = self.rtl, self.rtl.source_key(u.block)
        ident = [src, u.block, u.chparams, self.versions["yosys"]]
        bbs = [n for n, _, _ in u.kids]
        load = rtl.load_script(u.block, u.chparams) + [f"blackbox {n}" for n in bbs]
        drop_kids = [f"delete t:{n}" for n in bbs] + ["delete =A:blackbox"]

        def generic(job, d):
            mems, coarse, il = (os.path.join(d, f) for f in ("mems.txt", "coarse.il",
                                                             "generic.il"))
            # `synth -noshare -run begin:fine` with the netlist written at
            # the split for the xilinx job; the final `check` step (messages
            # only) is left out
            yosys("\n".join(load + [f"synth -top {u.block} -noshare -run begin:coarse"]
                            + COARSE_PREFIX + write_coarse_split(coarse) + COARSE_TAIL + [
                # the memories (RTL arrays) before they become flip-flops
                f"tee -q -o {mems} dump t:$mem_v2",
                f"synth -top {u.block} -noshare -run fine:check",
                f"write_rtlil {il}"]) + "\n",
                d, "generic", f"Yosys synthesis of {u.label}", cwd=rtl.dir)
            return {"mems": parse_mems(mems)}

        def cmos(job, d):
            gen = job.deps[0]
            stat, blif = os.path.join(d, "cmos.json"), os.path.join(d, "cmos.blif")
            # the gate netlist as BLIF, the sub-blocks as .subckt instances:
            # for the logic depth and for the blocks above (compose_cmos)
            script = [f"read_rtlil {os.path.join(gen.dir, 'generic.il')}",
                      "async2sync", "dffunmap", "abc -g cmos2", "opt_clean",
                      "delete =A:blackbox", f"write_blif -icells -conn {blif}"]
            script += [f"delete t:{n}" for n in bbs] + [f"tee -q -o {stat} stat -json -tech cmos"]
            yosys("\n".join(script) + "\n", d, "cmos", f"Yosys gate mapping of {u.label}",
                  cwd=rtl.dir)
            r = cmos_figures(stat, u.block)
            if not bbs:
                r["depth"] = compose_cmos(blif, {}, u.block)["depth"]
            return r

        lib_nangate = self.library_job("nangate")

        def nangate(job, d):
            gen, lib = job.deps[0], lib_nangate.result
            stat, blif = os.path.join(d, "nangate.txt"), os.path.join(d, "nangate.blif")
            yosys("\n".join([f"read_rtlil {os.path.join(gen.dir, 'generic.il')}",
                             "dffunmap", f"dfflibmap -liberty {self.liberty}",
                             f"abc -liberty {self.liberty}", "opt_clean",
                             "delete =A:blackbox", f"write_blif -conn {blif}"]
                            + drop_kids + [f"tee -q -o {stat} stat -liberty {self.liberty}"])
                  + "\n", d, "nangate", f"Yosys Nangate45 mapping of {u.label}", cwd=rtl.dir)
            return nangate_figures(stat, u.block, lib)

        def xilinx(job, d):
            stat, blif = os.path.join(d, "xilinx.json"), os.path.join(d, "xilinx.blif")
            coarse = os.path.join(job.deps[0].dir, "coarse.il")
            with open(coarse, encoding="utf-8") as f:
                memories = any(re.match(r"\s*cell \$mem", line) for line in f)
            # out of context (no I/O or clock buffers): a block is not a chip
            yosys("\n".join(synth_xilinx_script(u.block, coarse, memories) + [
                                    "delete =A:blackbox", f"write_blif -conn {blif}"]
                            + drop_kids + [f"tee -q -o {stat} stat -json"]) + "\n",
                  d, "xilinx", f"Yosys synth_xilinx of {u.label}", cwd=rtl.dir)
            return xilinx_figures(stat, u.block)

        # cost: the elaborated cell count; `generic` counts with the three
        # jobs it unlocks, so the longest chains start first
        size = max(u.ncells, 1)
        j = {}
        j["generic"] = Job("generic", u.label, ident, generic, cost=size * 3)
        j["cmos"] = Job("cmos", u.label, [j["generic"].key], cmos, [j["generic"]], size / 2)
        j["nangate"] = Job("nangate", u.label, [j["generic"].key, self.liberty_hash],
                           nangate, [j["generic"], lib_nangate], size / 2)
        # xilinx starts from generic's coarse netlist (synth_xilinx_script)
        j["xilinx"] = Job("xilinx", u.label, [j["generic"].key], xilinx, [j["generic"]],
                          cost=size)
        u.jobs = j
        if u.kids:
            for kind in ("cmos", "nangate", "xilinx"):
                j["whole-" + kind] = self.compose_job(u, kind)
        return j

    def compose_job(self, u, kind):
        """A block with sub-blocks as a whole: its `kind` netlist and those
        below it, flattened, with what no longer drives anything removed
        (`opt_clean`: e.g. a sub-block's register whose output the block
        does not read), then measured as one module, in Python (kept_cells
        and compose_cmos, compose_nangate, compose_xilinx)."""
        refs, order = {}, []          # name Yosys gives a sub-block -> its unit
        def walk(v):
            for n, k, _ in v.kids:
                if n not in refs:
                    refs[n] = k
                    order.append(n)
                    walk(k)
        walk(u)
        net = {id(v): self.jobs_of(v)[kind] for v in u.subtree()}
        deps = list(dict.fromkeys(net.values()))
        lib = None if kind == "cmos" else self.library_job(kind)
        if lib:
            deps.append(lib)

        def build(job, d):
            # flatten, remove what drives nothing and measure, in Python from
            # the blocks' BLIF netlists (kept_cells; Yosys's read_rtlil,
            # flatten and opt_clean took most of the flow's longest jobs)
            top = os.path.join(net[id(u)].dir, kind + ".blif")
            kids = {blif_name(n): os.path.join(net[id(refs[n])].dir, kind + ".blif")
                    for n in order}
            if kind == "cmos":
                return compose_cmos(top, kids, u.block)
            compose = {"nangate": compose_nangate, "xilinx": compose_xilinx}[kind]
            return compose(top, kids, u.block, lib.result)

        key = [[n, refs[n].label] for n in order] + [j.key for j in deps]
        return Job("whole-" + kind, u.label, key, build, deps,
                   cost=sum(v.ncells for v in u.subtree()) / 20, in_process=True)

    def library_job(self, kind):
        """The cells a `kind` netlist is made of: each cell type's output
        ports (Yosys reads the cell library and writes its interfaces), and
        for nangate each cell's Liberty area."""
        if kind in self.libraries:
            return self.libraries[kind]
        read = {"nangate": f"read_liberty -lib {self.liberty}",
                "xilinx": "read_verilog -lib +/xilinx/cells_sim.v\nblackbox =A:whitebox"}[kind]

        def build(job, d):
            ports = os.path.join(d, "cells.json")
            yosys(f"{read}\nwrite_json {ports}\n", d, "library",
                  f"Yosys reading the {kind} cell library", cwd=self.rtl.dir)
            with open(ports, encoding="utf-8") as f:
                mods = json.load(f)["modules"]
            os.unlink(ports)
            r = {"outputs": {t: sorted(n for n, q in m["ports"].items()
                                       if q["direction"] != "input")
                             for t, m in mods.items()}}
            if kind == "nangate":
                r["areas"] = liberty_areas(self.liberty)
            return r

        key = [kind, self.versions["yosys"]] + ([self.liberty_hash] if kind == "nangate" else [])
        self.libraries[kind] = Job("library", kind, key, build, cost=10 ** 9)
        return self.libraries[kind]

    def fmax_job(self, u):
        """Fmax of the whole block on an iCE40 HX8K (the block wrapped in shift
        chains, synth_ice40 of the whole hierarchy, nextpnr-ice40 seed 1)."""
        rtl = self.rtl

        def build(job, d):
            return fmax_block(rtl, u, d)

        return Job("ice40", u.label, [rtl.source_key(u.block), u.block, u.chparams, u.ports,
                                      self.versions["yosys"], self.versions["nextpnr"]],
                   build, cost=u.ncells * 3)


def cmos_figures(stat, module):
    """Storage bits (every flip-flop is a $_DFF_P_ here), gates and
    transistors of a `stat -json -tech cmos`."""
    c = stats_of(load_stat_json(stat), module, stat)
    # the whole-block figures are counted with CMOS_TRANSISTORS: it must
    # agree with Yosys on every block
    if sum(CMOS_TRANSISTORS.get(t, -10 ** 9) * n for t, n in c["cells"].items()) \
            != transistors(c, module, stat):
        raise FlowError(f"{stat}: CMOS_TRANSISTORS does not count {module}'s cells "
                        f"({', '.join(sorted(c['cells']))}) as Yosys does")
    return {"storage_bits": sum(n for t, n in c["cells"].items() if is_generic_ff(t))
            + c["memory_bits"],
            "gates": sum(n for t, n in c["cells"].items() if not is_generic_ff(t)),
            "transistors": transistors(c, module, stat)}


def nangate_figures(stat, module, library):
    """The chip area of a `stat -liberty`, checked against the cells it
    lists times their areas as the flow reads them from the Liberty file
    (liberty_areas; the whole blocks are summed that way)."""
    with open(stat, encoding="utf-8") as f:
        text = f.read()
    unmapped = sorted({l.split()[0] for l in text.splitlines()
                       if re.match(r"^\s+\$_\S+\s+\d+$", l)})
    if unmapped:
        raise FlowError(f"{stat}: cells left unmapped to the Liberty library: "
                        f"{', '.join(unmapped)}")
    m = re.search(r"Chip area for (?:top )?module '\\?" + re.escape(module)
                  + r"':\s+([0-9.]+)", text)
    if not m:
        raise FlowError(f"{stat}: no chip area for module '{module}'")
    area = float(m.group(1))
    counts = {t: int(n) for t, n in re.findall(r"^\s+(\S+)\s+(\d+)$", text, flags=re.M)
              if t in library["areas"]}
    ours = liberty_area(counts, library, stat)
    if abs(ours - area) > 1e-6 * area + 1e-3:
        raise FlowError(f"{stat}: the cells' Liberty areas as the flow reads them add up to "
                        f"{ours:.6f}, not Yosys's {area:.6f}")
    return {"area45_um2": area}


def xilinx_figures(stat, module):
    return xilinx_counts(stats_of(load_stat_json(stat), module, stat)["cells"])


def xilinx_counts(x):
    """LUT, LUTRAM, FF, CARRY and block-RAM counts of {cell type: count}."""
    return {"lut": count(x, r"^LUT[1-6]$"), "lutram": count(x, r"^RAM\d+[MSX]"),
            "ff": count(x, r"^FD[A-Z]*$"), "carry": count(x, r"^CARRY"),
            "bram": sum(n * (0.5 if "18" in t else 1.0) for t, n in x.items()
                        if t.startswith("RAMB"))}


def parse_mems(path):
    """[name, width, words] of each $mem_v2 cell in a `dump`."""
    mems = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for cell in re.split(r"\n\s*cell ", text)[1:]:
        if not cell.startswith("$mem_v2"):
            continue
        p = dict(re.findall(r"parameter \\(\w+) (\S+)", cell))
        name = re.sub(r'^"\\\\|"$', "", p.get("MEMID", '""'))
        mems.append([name, int(p["WIDTH"]), int(p["SIZE"])])
    return sorted(mems)


# Transistors per cell of the NAND2/NOR2/INV netlist, as Yosys 0.23's `stat
# -tech cmos` counts them (kernel/cost.h; a flip-flop 16).  compose_cmos
# counts with it; cmos_figures checks it against Yosys's own count of every
# block.
CMOS_TRANSISTORS = {"$_NOT_": 2, "$_NAND_": 4, "$_NOR_": 4, "$_BUF_": 1,
                    "$_DFF_P_": 16, "$_DFF_N_": 16}


_netlist_cache, _netlist_lock = {}, threading.Lock()


def blif_name(name):
    """A module name as write_blif writes it (`#=<>` become `?`)."""
    return re.sub(r"[#=<>]", "?", name)


class Netlist:
    """A one-model BLIF netlist that Yosys wrote (`write_blif -conn`),
    ready to be flattened: its nets numbered 0..nets-1 (one number per
    name), `ports` {port bit name: net}, `outputs` the output port nets,
    `conns` the nets `.conn` joins, `cells` its library cells as (type,
    output nets, input nets) and `subs` its sub-blocks as (type, [(pin,
    net)])."""

    __slots__ = ("model", "nets", "ports", "outputs", "conns", "cells", "subs")


def read_netlist(path, is_block, outputs_of):
    """The Netlist of a BLIF file.  `is_block(type)`: whether a .subckt is a
    sub-block (else a library cell); `outputs_of(type, path)`: a cell
    type's output ports (a pin `CO[2]` is bit 2 of port `CO`).  A block's
    netlist is read once per run however many blocks above it use it (the
    cache directories never change)."""
    with _netlist_lock:
        if path in _netlist_cache:
            return _netlist_cache[path]
    ids, port_of = {}, {}

    def nid(name):
        n = ids.get(name)
        if n is None:
            n = ids[name] = len(ids)
        return n
    nl = Netlist()
    nl.model, inputs, outputs, nl.conns, nl.cells, nl.subs = None, [], [], [], [], []
    with open(path, encoding="utf-8") as f:
        text = f.read().replace("\\\n", " ")
    for line in text.split("\n"):
        if line.startswith(".subckt") or line.startswith(".gate"):
            parts = line.split()
            typ, pins = parts[1], [p.split("=", 1) for p in parts[2:]]
            if is_block(typ):
                nl.subs.append((typ, [(p, nid(v)) for p, v in pins]))
                continue
            outs, ys, xs = outputs_of(typ, path), [], []
            for p, v in pins:
                port = port_of.get(p)
                if port is None:
                    port = port_of[p] = re.sub(r"\[\d+\]$", "", p)
                (ys if port in outs else xs).append(nid(v))
            nl.cells.append((typ, ys, xs))
        elif line.startswith(".conn"):
            _, a, b = line.split()
            nl.conns.append((nid(a), nid(b)))
        elif line.startswith(".inputs"):
            inputs += line.split()[1:]
        elif line.startswith(".outputs"):
            outputs += line.split()[1:]
        elif line.startswith(".model"):
            if nl.model is not None:
                raise FlowError(f"{path}: more than one model")
            nl.model = line.split()[1]
    nl.ports = {name: nid(name) for name in inputs + outputs}
    nl.outputs = [ids[o] for o in outputs]
    nl.nets = len(ids)
    with _netlist_lock:
        _netlist_cache[path] = nl
    return nl


def kept_cells(top_blif, kid_blifs, module, outputs_of, nets=True):
    """The cells of a block as a whole, from the gate netlists (BLIF) of it
    and its sub-blocks: the netlists flattened (a .subckt named in
    `kid_blifs` is replaced by that netlist), then what Yosys `opt_clean`
    removes after `flatten` removed: every cell none of whose outputs
    reaches an output port of the block, through cells that are kept.
    `outputs_of(type, path)`: the output ports of a cell type.  Returns the
    kept cells as (type, output nets, input nets), each net a number,
    connected nets one number (only the types with nets=False).  Done
    here, not in Yosys, because Yosys's flatten and opt_clean over the whole
    core took the flow's longest jobs (docs/area.md, "Where the time goes");
    the figures are Yosys's (checked on both presets)."""
    parent = []

    def find(n):
        root = n
        while parent[root] != root:
            root = parent[root]
        while parent[n] != root:
            parent[n], n = root, parent[n]
        return root

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra

    cells = []                                     # (cell of a Netlist, its first net)

    def is_block(typ):
        return typ in kid_blifs

    def instantiate(path, binding):
        nl = read_netlist(path, is_block, outputs_of)
        base = len(parent)
        parent.extend(range(base, base + nl.nets))
        for pin, n in binding:
            local = nl.ports.get(pin)
            if local is not None:
                union(base + local, n)
        for a, b in nl.conns:
            union(base + a, base + b)
        for typ, pins in nl.subs:
            instantiate(kid_blifs[typ], [(p, base + v) for p, v in pins])
        cells.extend((c, base) for c in nl.cells)
        return nl.model, [base + o for o in nl.outputs]

    model, outs = instantiate(top_blif, [])
    if model != module:
        raise FlowError(f"{top_blif}: no netlist of module '{module}'")
    driver = {}
    for i, ((_, ys, _), base) in enumerate(cells):
        for y in ys:
            driver[find(base + y)] = i
    # opt_clean: keep what an output port needs, through kept cells
    kept = bytearray(len(cells))
    todo, seen = [find(o) for o in outs], set()
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        i = driver.get(n)
        if i is not None and not kept[i]:
            kept[i] = 1
            (_, _, xs), base = cells[i]
            todo.extend(find(base + x) for x in xs)
    if not nets:
        return [c[0] for i, (c, _) in enumerate(cells) if kept[i]]
    return [(typ, [find(base + y) for y in ys], [find(base + x) for x in xs])
            for i, ((typ, ys, xs), base) in enumerate(cells) if kept[i]]


def compose_cmos(top_blif, kid_blifs, module):
    """Figures of a block as a whole from the NAND2/NOR2/INV netlists of it
    and its sub-blocks (kept_cells), counted as `stat -tech cmos` counts
    (storage bits, gates, transistors), and the logic depth: the most gates
    on a path from an input port or a flip-flop output to an output port or
    a flip-flop input (Yosys `ltp -noff`'s "length")."""
    def outputs_of(typ, path):
        if typ not in CMOS_TRANSISTORS:
            raise FlowError(f"{path}: cell type {typ} has no CMOS transistor count")
        return ("Q",) if is_generic_ff(typ) else ("Y",)

    storage = gates = trans = 0
    gates_of = {}                                  # kept gate: output -> inputs
    for typ, ys, xs in kept_cells(top_blif, kid_blifs, module, outputs_of):
        trans += CMOS_TRANSISTORS[typ]
        if is_generic_ff(typ):
            storage += 1
        else:
            gates += 1
            gates_of[ys[0]] = xs
    return {"storage_bits": storage, "gates": gates, "transistors": trans,
            "depth": logic_depth(gates_of, top_blif)}


def compose_nangate(top_blif, kid_blifs, module, library):
    """The 45 nm area of a block as a whole from the Nangate45 netlists of it
    and its sub-blocks (kept_cells): the sum of its kept cells' Liberty
    areas, as Yosys `stat -liberty` sums them (`library`: a cell_library
    result with the areas)."""
    counts = collections.Counter(kept_cells(top_blif, kid_blifs, module,
                                    library_outputs(library), nets=False))
    return {"area45_um2": liberty_area(counts, library, top_blif)}


def compose_xilinx(top_blif, kid_blifs, module, library):
    """The 7-series cell counts of a block as a whole from the synth_xilinx
    netlists of it and its sub-blocks (kept_cells)."""
    return xilinx_counts(collections.Counter(kept_cells(top_blif, kid_blifs, module,
                                                library_outputs(library), nets=False)))


def library_outputs(library):
    outputs = {t: frozenset(p) for t, p in library["outputs"].items()}

    def outputs_of(typ, path):
        o = outputs.get(typ)
        if o is None:
            raise FlowError(f"{path}: cell type {typ} is not in the cell library")
        return o
    return outputs_of


def liberty_area(counts, library, what):
    """Sum of count x area per cell type, exact in decimal (every Liberty
    area is a decimal number), as a float."""
    total = decimal.Decimal(0)
    for typ, n in counts.items():
        a = library["areas"].get(typ)
        if a is None:
            raise FlowError(f"{what}: cell type {typ} has no area in the Liberty file")
        total += decimal.Decimal(a) * n
    return float(total)


def liberty_areas(path):
    """{cell: area as written} of a Liberty file: the first `area : X;` in
    each `cell (NAME) { ... }` group at the group's own level.  Checked
    against Yosys's `stat -liberty` on every block (the nangate job)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    areas, stack = {}, []                          # stack: the open groups' cell names
    for t in re.finditer(r"\bcell\s*\(\s*\"?([^\s\")]+)\"?\s*\)\s*\{|\{|\}|"
                         r"\barea\s*:\s*\"?([0-9.eE+-]+)\"?\s*;", text):
        if t.group(1):
            stack.append(t.group(1))
        elif t.group(0) == "{":
            stack.append(None)
        elif t.group(0) == "}":
            if stack:
                stack.pop()
        elif stack and stack[-1] is not None:
            areas.setdefault(stack[-1], t.group(2))
    return areas


def logic_depth(gates_of, path):
    """Most gates on a path through `gates_of` (output net -> input nets;
    flip-flops are not in it, so they cut paths)."""
    depth, state = {}, {}                          # state: 1 on the stack, 2 done
    for start in gates_of:
        if start in depth:
            continue
        stack = [start]
        while stack:
            n = stack[-1]
            if n in depth:
                stack.pop()
                continue
            ins = gates_of.get(n)
            if ins is None:
                depth[n] = 0
                stack.pop()
                continue
            todo = [i for i in ins if i not in depth]
            if todo and state.get(n) != 1:
                state[n] = 1
                for i in todo:
                    if state.get(i) == 1:
                        raise FlowError(f"{path}: combinational loop")
                stack.extend(todo)
                continue
            if todo:
                raise FlowError(f"{path}: combinational loop")
            depth[n] = 1 + max((depth[i] for i in ins), default=0)
            state[n] = 2
            stack.pop()
    return max(depth.values(), default=0)


# --------------------------------------------------------------------------
# Fmax on an iCE40 HX8K
# --------------------------------------------------------------------------

CLOCK_NAMES = ("clk", "clk_i", "clock", "i_clk")


def fmax_wrapper(block, ports):
    """Verilog for a wrapper with three pins (clk, sin, load, sout): every
    input of the block comes from a flip-flop of a shift chain and every
    output is captured in a flip-flop of a loadable shift chain, so the
    paths nextpnr times are the block's own register-to-register paths
    (plus one 2:1 mux in front of each output capture)."""
    clock = next((n for n, d, w in ports if d == "input" and w == 1
                  and n in CLOCK_NAMES), None)
    ins = [(n, w) for n, d, w in ports if d == "input" and n != clock]
    outs = [(n, w) for n, d, w in ports if d == "output"]
    if any(d == "inout" for _, d, _ in ports):
        raise FlowError(f"block '{block}': inout ports are not supported by the Fmax wrapper")
    in_w = sum(w for _, w in ins)
    out_w = sum(w for _, w in outs)
    v = ["module area_fmax_wrap(input clk, input sin, input load, output sout);"]
    conns = []
    if clock:
        conns.append(f".{clock}(clk)")
    if in_w:
        v.append(f"  reg [{in_w - 1}:0] in_q;")
        shift = "sin" if in_w == 1 else f"{{in_q[{in_w - 2}:0], sin}}"
        v.append(f"  always @(posedge clk) in_q <= {shift};")
        lo = 0
        for n, w in ins:
            conns.append(f".{n}(in_q[{lo + w - 1}:{lo}])")
            lo += w
    if out_w:
        v.append(f"  wire [{out_w - 1}:0] out_w;")
        v.append(f"  reg [{out_w - 1}:0] out_q;")
        shift = "1'b0" if out_w == 1 else f"{{out_q[{out_w - 2}:0], 1'b0}}"
        v.append(f"  always @(posedge clk) out_q <= load ? out_w : {shift};")
        v.append(f"  assign sout = out_q[{out_w - 1}];")
        lo = 0
        for n, w in outs:
            conns.append(f".{n}(out_w[{lo + w - 1}:{lo}])")
            lo += w
    else:
        v.append("  assign sout = 1'b0;")
    v.append(f"  {block} dut ({', '.join(conns)});")
    v.append("endmodule")
    return "\n".join(v) + "\n"


def fmax_block(rtl, u, d):
    """Return {fmax_mhz or None, note} for the whole block on an iCE40 HX8K."""
    wrap = os.path.join(d, "wrap.v")
    with open(wrap, "w", encoding="utf-8") as f:
        f.write(fmax_wrapper(u.block, [tuple(p) for p in u.ports]))
    netlist = os.path.join(d, "wrap.json")
    stat = os.path.join(d, "ice40.json")
    script = rtl.load_script(u.block, u.chparams) + [
        f"read_verilog {wrap}",
        "hierarchy -check -top area_fmax_wrap",
        *synth_ice40_script("area_fmax_wrap"),
        f"tee -q -o {stat} stat -json",
        f"write_json {netlist}"]
    yosys("\n".join(script) + "\n", d, "synth_ice40", f"Yosys synth_ice40 of {u.label}",
          cwd=rtl.dir)
    cells = stats_of(load_stat_json(stat), "area_fmax_wrap", stat)["cells"]
    luts = cells.get("SB_LUT4", 0)
    ffs = sum(n for t, n in cells.items() if t.startswith("SB_DFF"))
    if max(luts, ffs) > HX8K_LOGIC_CELLS:
        os.unlink(netlist)
        return {"fmax_mhz": None,
                "note": f"does not fit HX8K ({luts} LUT4, {ffs} DFF > {HX8K_LOGIC_CELLS})"}
    log = os.path.join(d, "nextpnr.log")
    try:
        run_tool(["nextpnr-ice40", "--hx8k", "--package", "ct256", "--json", netlist,
                  "--seed", "1", "--freq", "1", "--log", log],
                 os.path.join(d, "nextpnr.out"), f"nextpnr-ice40 for {u.label}")
    except FlowError:
        # Running out of logic cells is a result (the set is too large for the
        # part), not a failure of the flow; anything else is a failure.
        with open(log, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if re.search(r"Failed to expand region|Unable to place cell|"
                     r"but the device only has|Failed to find a legal placement", text):
            return {"fmax_mhz": None,
                    "note": f"does not fit HX8K ({luts} LUT4, {ffs} DFF incl. wrapper)"}
        raise
    with open(log, encoding="utf-8", errors="replace") as f:
        found = re.findall(r"Max frequency for clock\s+'[^']*':\s+([0-9.]+) MHz", f.read())
    os.unlink(netlist)
    if not found:
        return {"fmax_mhz": None, "note": "no clocked path"}
    return {"fmax_mhz": float(found[-1]), "note": f"{luts} LUT4, {ffs} DFF incl. wrapper"}
# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------

COLUMNS = [
    ("block", "block"),
    ("params", "parameters"),
    ("instances", "instances in core"),
    ("storage_bits", "storage bits"),
    ("storage_total", "storage bits x instances"),
    ("lut", "LUT"),
    ("lutram", "LUTRAM"),
    ("ff", "FF"),
    ("bram", "BRAM36"),
    ("carry", "CARRY4"),
    ("gates", "gates (NAND2/NOR2/INV)"),
    ("transistors", "transistors"),
    ("area45_um2", "area 45nm um2"),
    ("area40_um2", "area 40nm um2"),
    ("area28_um2", "area 28nm um2"),
    ("macro_bits", "SRAM-able bits"),
    ("macro_area45_um2", "est. SRAM macro area 45nm um2"),
    ("depth", "logic depth (gate levels)"),
    ("fmax_mhz", "Fmax iCE40 HX8K MHz"),
]


def fmt(key, value):
    if value is None:
        return "n/a"
    if key == "params":
        return " ".join(f"{k}={v}" for k, v in value.items()) or "-"
    if key == "instances":
        return "standalone" if value == 0 else str(value)
    if key.startswith("area") or key.startswith("macro_area") or key == "fmax_mhz":
        return f"{value:.1f}"
    if key == "bram":
        return f"{value:g}"
    return str(value)


def label(row, top):
    return f"{row['block']} (whole core)" if row["block"] == top else row["block"]


def render_csv(rows, top):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([k for k, _ in COLUMNS] + ["fmax_note"])
    for r in rows:
        w.writerow([label(r, top) if k == "block" else fmt(k, r.get(k))
                    for k, _ in COLUMNS] + [r.get("fmax_note", "")])
    return out.getvalue()


def render_md(set_name, params, options, rows, top, liberty):
    lines = [f"### Parameter set `{set_name}`", ""]
    lines.append("Set: " + ", ".join(f"{k}={v}" for k, v in params.items())
                 + f". The core gets those it declares; every block below it is measured with "
                 "the parameters the core instantiates it with.")
    lines.append("")
    lines.append("| " + " | ".join(h for _, h in COLUMNS) + " |")
    lines.append("|" + "|".join("---" if k in ("block", "params") else "---:"
                                for k, _ in COLUMNS) + "|")
    for r in rows:
        lines.append("| " + " | ".join(label(r, top) if k == "block" else fmt(k, r.get(k))
                                       for k, _ in COLUMNS) + " |")
    lines.append("")
    lines.append("- Each row is one block on its own with everything below it (per instance); "
                 "`instances in core` says how many the whole core holds (`standalone`: a block "
                 "of the RTL directory the core does not instantiate, measured with the set's "
                 "parameters it declares).")
    lines.append("- storage bits: flip-flop (and memory) bits after Yosys `synth`.")
    lines.append("- Each block is synthesized on its own with its sub-blocks as black boxes; "
                 "a row adds its sub-blocks' figures times their count (the logic depth is "
                 "measured on the flattened netlists).")
    lines.append("- LUT/LUTRAM/FF/BRAM36/CARRY4: Yosys `synth_xilinx` (7-series); "
                 "a RAMB18 counts as 0.5 BRAM36.")
    lines.append("- gates/transistors: `abc -g cmos2` after turning every flip-flop into a plain "
                 "DFF (enables and resets become gates); `stat -tech cmos` (NAND2/NOR2 4, INV 2, "
                 "DFF 16 transistors). Gates exclude the flip-flops.")
    lines.append(f"- area: Nangate45 X1 cells (`{os.path.relpath(liberty, REPO)}`), cell area "
                 "only (no wiring, clock tree or up-sizing); 40/28 nm = 45 nm x (node/45)^2.")
    lines.append("- SRAM-able bits / est. SRAM macro area (an estimate, not synthesized): the "
                 "bits of the block's arrays that an SRAM or register-file macro could hold "
                 "(one or two ports per bank and cycle; docs/area.md, \"Macro estimate\") and "
                 "the area such macros would take at 45 nm: Intel's 0.346 um^2 6T cell grown "
                 "per port as in CACTI, plus a row, column and control periphery of Nangate45 "
                 "cells. The flip-flop figures of the same bits are in the columns before.")
    lines.append("- logic depth: longest path between flip-flops and ports of the NAND2/NOR2/INV "
                 "netlist in gate levels (as Yosys `ltp -noff` counts them, computed by the flow "
                 "from the netlist written as BLIF): a critical-path proxy, not a delay.")
    if options.get("nextpnr"):
        lines.append("- Fmax (whole core only): nextpnr-ice40 --hx8k (seed 1) on the core wrapped "
                     "so that all its inputs come from and all its outputs go to flip-flops of "
                     "shift chains.")
        notes = [f"{label(r, top)}: {r['fmax_note']}" for r in rows if r.get("fmax_note")]
        if notes:
            lines.append("  " + "; ".join(notes) + ".")
    else:
        lines.append("- Fmax: not placed and routed for this set (it does not fit an iCE40 "
                     "HX8K); see the logic depth.")
    return "\n".join(lines) + "\n"


def write_atomic(path, text):
    d = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# --------------------------------------------------------------------------
# Seed-paper comparison
# --------------------------------------------------------------------------

# Storage figures from the seed papers, in bits per SM.
HAWS_BITS = {  # 000_75a95a3898aad3a8.txt section 5.3.6 (40 warps/SM)
    "RCU (8 entries x 28 bits per warp)": 8960,
    "SIMT-stack copy (8 x 128 bits per warp)": 40960,
    "renaming tables (scalar + vector)": 10240,
}
OAWS_BITS = {  # 001_dc78f05b9c22e534.txt section 4.4 (48 warps/SM, 32 MSHRs)
    "per-instruction predicted misses (48 warps x 2 x 5 bits)": 480,
    "DLC table (32 entries x 9 bytes)": 2304,
    "registers Avail_mshr, Miss_inflight (5+5), Div, FCL, Sets (1+8+32)": 51,
}
# Module-name fragments that identify HAWS / OAWS blocks once they exist.
HAWS_PATTERN = re.compile(r"haws|rcu|renam|simt", re.I)
OAWS_PATTERN = re.compile(r"oaws|dlc|ocw|occlu|miss_?pred", re.I)


# The thesis's HAWS area: 0.045 mm^2/SM by CACTI for its 60,160 bits
# (000_75a95a3898aad3a8.txt section 5.3.6).
HAWS_CACTI_MM2 = 0.045


def like_with_like_um2(r):
    """Storage area of a row as the papers count it (arrays, no logic): the
    SRAM-able bits as estimated macros, every other storage bit as one
    DFF_X1 (the flip-flop alone, without its enable or the logic around
    it).  An estimate."""
    return r["macro_area45_um2"] + (r["storage_bits"] - r["macro_bits"]) * NANGATE_UM2["DFF_X1"]


def seed_rows(rows, top, pattern):
    """The rows of a set that do the job of a seed-paper structure (block
    name matches `pattern`), each counted once: a matching block inside
    another matching block (sched_rcu_bank in sched_rcu) is already in its
    parent's figures."""
    hits = [r for r in rows if r["block"] != top and pattern.search(r["block"])]
    inside = {b for r in hits for b in r.get("sub_blocks", ())}
    return [r for r in hits if r["block"] not in inside]


def render_seed_section(results, top):
    lines = ["## Beside the seed papers", ""]
    lines.append("The seed papers give storage (bits per SM) and, for HAWS, a CACTI area. "
                 "They are placed here beside the blocks of ours that do the same job.")
    lines.append("")
    lines.append("For scale, our whole core (baseline scheduling logic, flip-flop storage):")
    lines.append("")
    for set_name, rows in results:
        for r in rows:
            if r["block"] == top:
                lines.append(f"- `{set_name}`: {r['storage_bits']} storage bits "
                             f"({r['storage_bits'] / 8 / 1024:.2f} KiB), "
                             f"{r['area45_um2'] / 1e6:.3f} mm^2 at 45 nm, "
                             f"{r['area28_um2'] / 1e6:.3f} mm^2 at 28 nm (cell area), "
                             f"{r['area45_um2'] / max(r['storage_bits'], 1):.1f} um^2 "
                             "per storage bit including logic.")
    lines.append("")
    for title, figures, pattern, total_note in (
            ("HAWS (`000_75a95a3898aad3a8.txt` section 5.3.6)", HAWS_BITS, HAWS_PATTERN,
             "7.34 KB/SM stated; the three parts sum to 60,160 bits = 7.34 KiB; "
             "0.045 mm^2/SM by CACTI, technology not stated: 0.748 um^2 per bit"),
            ("OAWS (`001_dc78f05b9c22e534.txt` section 4.4)", OAWS_BITS, OAWS_PATTERN,
             "348 bytes/SM (480 + 2304 bits) plus five registers (51 bits)")):
        lines.append(f"### {title}")
        lines.append("")
        lines.append("| paper structure | paper bits/SM |")
        lines.append("|---|---:|")
        for k, v in figures.items():
            lines.append(f"| {k} | {v} |")
        lines.append(f"| total | {sum(figures.values())} ({total_note}) |")
        lines.append("")
        ours = []
        for set_name, rows in results:
            tot = {"bits": 0, "ff": 0.0, "macro_bits": 0, "lwl": 0.0}
            for r in seed_rows(rows, top, pattern):
                n = max(r["instances"], 1)
                lwl = like_with_like_um2(r) * n
                ours.append(f"| {set_name} | {r['block']} | {fmt('instances', r['instances'])} "
                            f"| {r['storage_bits'] * n} | {r['area45_um2'] * n:.1f} "
                            f"| {r['macro_bits'] * n} | {r['macro_area45_um2'] * n:.1f} "
                            f"| {lwl:.1f} | {lwl / max(r['storage_bits'] * n, 1):.2f} |")
                tot["bits"] += r["storage_bits"] * n
                tot["ff"] += r["area45_um2"] * n
                tot["macro_bits"] += r["macro_bits"] * n
                tot["lwl"] += lwl
            if tot["bits"]:
                ours.append(f"| {set_name} | **all** | | {tot['bits']} | {tot['ff']:.1f} "
                            f"| {tot['macro_bits']} | | {tot['lwl']:.1f} "
                            f"| {tot['lwl'] / tot['bits']:.2f} |")
        if ours:
            lines.append("Ours: the flip-flop figure (synthesized, logic included) and, to "
                         "compare like with like, the storage as the papers count it: the "
                         "SRAM-able arrays as estimated macros plus one DFF_X1 per other "
                         "storage bit, no logic (an estimate; docs/area.md, \"Macro estimate\").")
            lines.append("")
            lines.append("| our set | our block | instances | storage bits (all instances) "
                         "| flip-flop area 45nm um2 (all instances, with logic) "
                         "| SRAM-able bits | est. SRAM macro area 45nm um2 "
                         "| est. storage area 45nm um2, macros + DFF | um2 per bit, 45nm |")
            lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
            lines += ours
            if pattern is OAWS_PATTERN:
                # the stored predictions are bit-sliced in the instruction
                # buffer (pred_miss 6 + pred_div 1 per entry), so they are in
                # sched_ibuffer's rows, not in a block of their own
                lines.append("")
                for set_name, rows in results:
                    for r in rows:
                        if r["block"] == "sched_ibuffer":
                            p = r["params"]
                            bits = p["NumWarps"] * p["Depth"] * 7
                            lines.append(
                                f"- `{set_name}`: the per-instruction predictions (pred_miss 6 + "
                                f"pred_div 1 bits per buffer entry) are inside `sched_ibuffer`: "
                                f"{p['NumWarps']} warps x {p['Depth']} entries x 7 = {bits} bits "
                                f"(the paper: 48 x 2 x 5 = 480); our DLC (`macu_dlc`) keeps no "
                                f"#inst but a recency rank and an associativity bit per entry "
                                f"(docs/oaws.md, \"DLC\").")
            if pattern is HAWS_PATTERN:
                lines.append("")
                for set_name, rows in results:
                    hw = seed_rows(rows, top, pattern)
                    bits = sum(r["storage_bits"] * max(r["instances"], 1) for r in hw)
                    lwl = sum(like_with_like_um2(r) * max(r["instances"], 1) for r in hw)
                    ff = sum(r["area45_um2"] * max(r["instances"], 1) for r in hw)
                    if not bits:
                        continue
                    lines.append(
                        f"- `{set_name}`: {bits} bits; flip-flops with logic "
                        f"{ff / 1e6:.4f} mm^2 at 45 nm ({ff / bits:.1f} um^2/bit); as arrays "
                        f"(estimate) {lwl / 1e6:.4f} mm^2 at 45 nm, "
                        f"{lwl * (32 / 45) ** 2 / 1e6:.4f} mm^2 scaled to 32 nm "
                        f"({lwl * (32 / 45) ** 2 / bits:.2f} um^2/bit; CACTI 6's smallest "
                        f"node), {lwl * (28 / 45) ** 2 / 1e6:.4f} mm^2 scaled to 28 nm; "
                        f"the thesis: {HAWS_CACTI_MM2} mm^2 for {sum(HAWS_BITS.values())} "
                        f"bits ({HAWS_CACTI_MM2 * 1e6 / sum(HAWS_BITS.values()):.3f} um^2/bit).")
        else:
            lines.append("Our RTL has no such block yet (no module in the RTL directory matches "
                         f"`{pattern.pattern}`), so there is nothing of ours to place here; "
                         "the blocks appear in the tables above and here without changes to "
                         "the flow once they are added.")
        lines.append("")
    return "\n".join(lines)
# --------------------------------------------------------------------------
# Rows
# --------------------------------------------------------------------------

def unit_row(u, memo):
    """Figures of one instance of the unit with everything below it: a
    block's own netlists, or for a block with sub-blocks the whole
    (flattened) netlists; the macro estimate adds up the arrays."""
    if id(u) in memo:
        return memo[id(u)]
    j = u.jobs
    r = {"block": u.block, "params": u.params}
    for kind in ("cmos", "nangate", "xilinx"):
        r.update(j["whole-" + kind if u.kids else kind].result)
    r["macro_bits"], r["macro_area45_um2"] = macro_estimate(
        u.block, u.params, j["generic"].result["mems"])
    for _, k, n in u.kids:
        kr = unit_row(k, memo)
        r["macro_bits"] += n * kr["macro_bits"]
        r["macro_area45_um2"] += n * kr["macro_area45_um2"]
    for node in SCALED_NODES_NM:
        r[f"area{node}_um2"] = r["area45_um2"] * (node / 45) ** 2
    memo[id(u)] = r
    return r


def instances(top):
    inst = {}
    def walk(u, n):
        inst[id(u)] = inst.get(id(u), 0) + n
        for _, k, m in u.kids:
            walk(k, n * m)
    walk(top, 1)
    return inst


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rtl-dir", default="rtl")
    ap.add_argument("--top", default="sched_core")
    ap.add_argument("--out", default="build/area")
    ap.add_argument("--blocks", help="comma-separated subset of blocks (default: all)")
    ap.add_argument("--liberty", default=DEFAULT_LIBERTY)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="tool runs in parallel (default: the number of CPUs)")
    ap.add_argument("--cache", help="result cache directory (default: <out>/cache)")
    ap.add_argument("--no-cache", action="store_true",
                    help="run every job, read and write no cache")
    ap.add_argument("sets", nargs="+", help="parameter-set files")
    a = ap.parse_args(argv)
    if a.jobs < 1:
        raise FlowError(f"-j {a.jobs}: need at least one job")

    started = time.monotonic()
    if shutil.which("yosys") is None:
        raise FlowError("'yosys' not found on PATH (make deps installs it)")
    parsed = [(p,) + parse_param_set(p) for p in a.sets]
    names = [n for _, n, _, _ in parsed]
    if len(set(names)) != len(names):
        raise FlowError("two parameter sets have the same name: " + ", ".join(names))
    want_pnr = any(opts.get("nextpnr") for _, _, _, opts in parsed)
    if want_pnr and not shutil.which("nextpnr-ice40"):
        raise FlowError("'nextpnr-ice40' not found on PATH (make deps installs it)")
    if not os.path.isdir(a.rtl_dir):
        raise FlowError(f"{a.rtl_dir}: no such RTL directory")
    if not os.path.isfile(a.liberty):
        raise FlowError(f"{a.liberty}: no such Liberty file")
    rtl_dir, liberty = os.path.abspath(a.rtl_dir), os.path.abspath(a.liberty)
    out = os.path.abspath(a.out)
    for path in (rtl_dir, out, liberty):
        check_path(path)
    cache = None if a.no_cache else os.path.abspath(a.cache or os.path.join(out, "cache"))
    if cache:
        check_path(cache)
    os.makedirs(out, exist_ok=True)
    outputs = []
    for _, name, _, _ in parsed:
        outputs += [os.path.join(out, f"{name}.md"), os.path.join(out, f"{name}.csv")]
    outputs.append(os.path.join(out, "report.md"))
    for o in outputs:  # a failed run must not leave an old table looking current
        if os.path.exists(o):
            os.unlink(o)

    work = os.path.join(out, "work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    versions = {"yosys": tool_version(["yosys", "-V"]),
                "nextpnr": tool_version(["nextpnr-ice40", "--version"]) if want_pnr else None}
    runner = Runner(work, cache, a.jobs)
    rtl = Rtl(rtl_dir, a.top, runner, versions["yosys"])
    blocks = [n for n in rtl.names if n != a.top] + [a.top]
    wanted_blocks = set(blocks)
    if a.blocks:
        wanted = [b.strip() for b in a.blocks.split(",") if b.strip()]
        unknown = [b for b in wanted if b not in blocks]
        if unknown:
            raise FlowError(f"--blocks: no such block(s) in {a.rtl_dir}: {', '.join(unknown)}")
        wanted_blocks = set(wanted)
    design = Design(rtl, runner, liberty, versions)

    # 1. elaborate the core of every set (the parameters each block gets),
    #    then the blocks the core does not instantiate, on their own
    plan = []
    for path, name, params, options in parsed:
        unused = [k for k in params if not any(k in rtl.declared[b] for b in blocks)]
        if unused:
            raise FlowError(f"{path}: parameter(s) {', '.join(unused)} declared by no RTL block")
    def own(params, b):
        return {k: v for k, v in params.items() if k in rtl.declared[b]}
    tops = design.elaborate([(a.top, own(params, a.top)) for _, _, params, _ in parsed])
    covered = [{v.block for v in top.subtree()} for top in tops]
    alone = [(i, b) for i in range(len(parsed)) for b in blocks
             if b not in covered[i] and b in wanted_blocks]
    alone_units = design.elaborate([(b, own(parsed[i][2], b)) for i, b in alone])
    for i, (path, name, params, options) in enumerate(parsed):
        top = tops[i]
        inst = instances(top)
        standalone = [u for (k, _), u in zip(alone, alone_units) if k == i]
        rows, seen = [], {id(top)}
        for root in [top] + standalone:
            for v in root.subtree():
                if id(v) not in seen:
                    seen.add(id(v))
                    rows.append(v)
        order = {b: i for i, b in enumerate(blocks)}
        rows = [v for v in rows if v.block in wanted_blocks]
        rows.sort(key=lambda v: (order.get(v.block, len(order)), str(v.params)))
        if a.top in wanted_blocks:
            rows.append(top)
        plan.append((name, params, options, top, inst, rows))

    # 2. every job the rows need, run once for all sets, in parallel
    jobs = []
    for name, params, options, top, inst, rows in plan:
        for v in rows:
            for w in v.subtree():
                jobs += design.jobs_of(w).values()
        if options.get("nextpnr") and a.top in wanted_blocks:
            top.jobs.setdefault("ice40", design.fmax_job(top))
            jobs.append(top.jobs["ice40"])
    jobs = list(dict.fromkeys(jobs))
    # dependencies first
    ordered, placed = [], set()
    def place(j):
        if id(j) not in placed:
            placed.add(id(j))
            for d in j.deps:
                place(d)
            ordered.append(j)
    for j in jobs:
        place(j)
    runner.run(ordered)

    # 3. the tables
    results, texts = [], []
    for name, params, options, top, inst, rows in plan:
        memo = {}
        table = []
        for v in rows:
            r = dict(unit_row(v, memo))
            r["instances"] = inst.get(id(v), 0)
            r["storage_total"] = r["storage_bits"] * max(r["instances"], 1)
            r["fmax_mhz"], r["fmax_note"] = None, ""
            # the blocks below this one (not a column: the seed-paper
            # section counts a block once, not again inside its parent)
            r["sub_blocks"] = sorted({w.block for w in v.subtree() if w is not v})
            if v is top and "ice40" in top.jobs:
                r["fmax_mhz"] = top.jobs["ice40"].result["fmax_mhz"]
                r["fmax_note"] = top.jobs["ice40"].result["note"]
            table.append(r)
        summary = f"area: {name}: {len(table)} rows"
        if a.top in wanted_blocks:
            core = unit_row(top, memo)
            summary += (f", core {core['storage_bits']} storage bits, "
                        f"{core['area45_um2']:.0f} um2 at 45 nm")
        print(summary, file=sys.stderr)
        results.append((name, table))
        texts.append((name, render_md(name, params, options, table, a.top, liberty),
                      render_csv(table, a.top)))

    report = ["# smcosim area, storage and timing (`make area`)", "",
              f"RTL: `{a.rtl_dir}/*.sv`, top `{a.top}`; "
              f"{versions['yosys'].split('(')[0].strip()}; "
              f"{len(blocks)} block(s) x {len(parsed)} set(s).", ""]
    for name, md, csv_text in texts:
        write_atomic(os.path.join(out, f"{name}.md"), md)
        write_atomic(os.path.join(out, f"{name}.csv"), csv_text)
        report.append(md)
    report.append(render_seed_section(results, a.top))
    report_text = "\n".join(report)
    write_atomic(os.path.join(out, "report.md"), report_text)
    print(report_text)
    tool = sum(j.seconds for j in runner.ran)
    cpu = sum(j.cpu for j in runner.ran)
    print(f"area: {len(runner.ran)} tool run(s), {runner.hits} cached; "
          f"{tool:.0f} s of tool time ({cpu:.0f} s CPU) in "
          f"{time.monotonic() - started:.0f} s wall (-j {a.jobs})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except FlowError as e:
        print(f"area: {e}", file=sys.stderr)
        sys.exit(1)
