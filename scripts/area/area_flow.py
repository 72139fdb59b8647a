#!/usr/bin/env python3
"""Area, storage and timing of the scheduling hardware (`make area`).

Synthesizes every RTL block (one module per `<dir>/*.sv`, file name = module
name) on its own and the whole core (the top module, flattened with all its
sub-blocks), once per named parameter set, and writes one table per set as
Markdown and CSV, plus a report that places the blocks beside the seed papers'
figures.  See docs/area.md for the method, the cell areas and the formulas.

    area_flow.py --rtl-dir rtl --top sched_core --out build/area \
                 fpga/param-sets/kepler-k20x.conf fpga/param-sets/fermi-gtx480.conf

A parameter set is a text file of `Name = integer` lines (`#` starts a
comment).  `Name` is an RTL parameter; a block gets only the parameters it
declares, the others keep their RTL default.  Keys of the form `flow.<opt>`
are options of this flow, not RTL parameters:

    flow.nextpnr = hx8k      also place and route each block on an iCE40 HX8K
                             with nextpnr-ice40 and report its Fmax

Yosys runs one after the other (the machine is shared).  Any Yosys or nextpnr
failure stops the flow with the tool's own message and a non-zero exit; the
tables of the requested sets are removed first and only written, each through
a temporary file and a rename, once every run has succeeded, so a failed run
never leaves a partial table.
"""

import argparse
import csv
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
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

def run_tool(argv, log_path, what):
    """Run a tool with its log in log_path; on failure raise FlowError with
    the tool's own error lines (or the tail of its log)."""
    with open(log_path, "w", encoding="utf-8") as log:
        proc = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT)
    if proc.returncode == 0:
        return
    with open(log_path, encoding="utf-8", errors="replace") as log:
        text = log.read().splitlines()
    errors = [l for l in text if "ERROR" in l]
    shown = errors if errors else text[-15:]
    raise FlowError(f"{what} failed (exit {proc.returncode}); log: {log_path}\n"
                    + "\n".join("  " + l for l in shown))


def yosys(script_text, work, stem, what):
    script = os.path.join(work, stem + ".ys")
    with open(script, "w", encoding="utf-8") as f:
        f.write(script_text)
    run_tool(["yosys", "-q", "-l", os.path.join(work, stem + ".log"), script],
             os.path.join(work, stem + ".out"), what)


def read_verilog_cmd(files):
    return "read_verilog -sv " + " ".join(files)


def check_path(path):
    """Yosys scripts split arguments at white space: refuse such paths."""
    if re.search(r"\s", path):
        raise FlowError(f"'{path}': paths with white space are not supported")
    return path


def discover_blocks(rtl_dir, top, work):
    """Return ([block names, top last], {block: [declared parameters]}).

    Every <rtl_dir>/*.sv is one block whose module has the file's name; Yosys
    itself lists the parameters each module declares."""
    files = sorted(os.path.join(rtl_dir, f) for f in os.listdir(rtl_dir)
                   if f.endswith(".sv"))
    if not files:
        raise FlowError(f"{rtl_dir}: no *.sv RTL files to synthesize")
    names = [os.path.splitext(os.path.basename(f))[0] for f in files]
    if top not in names:
        raise FlowError(f"{rtl_dir}: top module '{top}' has no file {top}.sv")
    listing = os.path.join(work, "modules.txt")
    yosys(f"{read_verilog_cmd(files)}\ntee -q -o {listing} ls\n"
          f"tee -q -a {listing} chparam -list\n",
          work, "discover", f"Yosys reading {rtl_dir}/*.sv")
    modules, params, current = set(), {}, None
    section = None
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
    for f, n in zip(files, names):
        if n not in modules:
            raise FlowError(f"{f}: declares no module named '{n}' "
                            "(each rtl/*.sv holds one module named like the file)")
    blocks = [n for n in names if n != top] + [top]
    return files, blocks, {b: params.get(b, []) for b in blocks}


def load_stat_json(path):
    """Modules of a `stat -json` file.  Yosys 0.23 leaves a trailing comma in
    the (empty) design summary when no module is marked top: drop it."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return json.loads(re.sub(r",\s*}\s*$", "}", text))["modules"]
    except (ValueError, KeyError) as e:
        raise FlowError(f"{path}: unreadable Yosys statistics ({e})")


def param_value(bits):
    """A parameter value from write_json: a binary string, or text."""
    if isinstance(bits, str) and re.match(r"^[01]+$", bits):
        return int(bits, 2)
    return bits


def synth_hierarchy(files, top, chparams, liberty, work):
    """Synthesize `top` with its sub-blocks kept apart, then flatten every
    module in place, so that each module's statistics are those of the block
    on its own with everything below it, under the parameters the design
    actually gives it.  Returns {module key: row} and the instance tree."""
    d = os.path.join(work, top)
    os.makedirs(d, exist_ok=True)
    p = {k: os.path.join(d, k) for k in
         ("hier.json", "generic.json", "cmos.json", "ltp.txt", "nangate.txt", "xilinx.json")}
    # Every module keeps its own statistics after `flatten` once no module is
    # marked top; the flattened top is then the whole core.
    flat = ["setattr -mod -unset top", "flatten", "opt_clean"]
    script = [read_verilog_cmd(files)]
    sets = " ".join(f"-set {k} {v}" for k, v in chparams.items())
    if sets:
        script.append(f"chparam {sets} {top}")
    script += [
        f"hierarchy -check -top {top}",
        f"rename -top {top}",
        "design -save elaborated",
        # Parameters, source file and instances of every derived module.
        "proc", "opt_clean", f"write_json {p['hier.json']}",
        # Storage bits: flip-flop bits of the generic netlist (`synth` maps
        # memories to flip-flops; any memory that survives is counted too).
        "design -load elaborated",
        f"synth -top {top}",
        "design -save generic",
        *flat,
        f"tee -q -o {p['generic.json']} stat -json",
        # Gates and transistors: every flip-flop becomes a plain $_DFF_P_ with
        # its enable, reset and set turned into gates, so that `stat -tech
        # cmos` counts all of them; the logic is NAND2/NOR2/NOT.
        "design -load generic",
        "async2sync", "dffunmap", "abc -g cmos2", "opt_clean",
        *flat,
        f"tee -q -o {p['cmos.json']} stat -json -tech cmos",
        f"tee -q -o {p['ltp.txt']} ltp -noff",
        # 45 nm area: Nangate45 cells from the area-only Liberty subset.
        "design -load generic",
        "dffunmap", f"dfflibmap -liberty {liberty}",
        f"abc -liberty {liberty}", "opt_clean",
        *flat,
        f"tee -q -o {p['nangate.txt']} stat -liberty {liberty}",
        # Xilinx 7-series LUTs, flip-flops, BRAM, carry cells.
        "design -load elaborated",
        f"synth_xilinx -top {top}",
        *flat,
        f"tee -q -o {p['xilinx.json']} stat -json",
    ]
    yosys("\n".join(script) + "\n", d, "synth", f"Yosys synthesis of '{top}'")

    with open(p["hier.json"], encoding="utf-8") as f:
        hier = json.load(f)["modules"]
    generic = load_stat_json(p["generic.json"])
    cmos = load_stat_json(p["cmos.json"])
    xil = load_stat_json(p["xilinx.json"])
    depth = {}
    with open(p["ltp.txt"], encoding="utf-8") as f:
        for m in re.finditer(r"Longest topological path in (.*) \(length=(-?\d+)\)", f.read()):
            depth[m.group(1)] = max(int(m.group(2)), 0)
    area = {}
    with open(p["nangate.txt"], encoding="utf-8") as f:
        text = f.read()
    for m in re.finditer(r"Chip area for (?:top )?module '(.*)':\s+([0-9.]+)", text):
        area[m.group(1).lstrip("\\")] = float(m.group(2))
    unmapped = sorted({l.split()[0] for l in text.splitlines()
                       if re.match(r"^\s+\$_\S+\s+\d+$", l)})
    if unmapped:
        raise FlowError(f"{p['nangate.txt']}: cells left unmapped to the Liberty "
                        f"library: {', '.join(unmapped)}")

    rows, children = {}, {}
    for key, mod in hier.items():
        src = mod.get("attributes", {}).get("src", "")
        block = os.path.splitext(os.path.basename(src.split(":")[0]))[0] or key
        params = {k: param_value(v)
                  for k, v in sorted((mod.get("parameter_default_values") or {}).items())}
        kids = {}
        for cell in mod.get("cells", {}).values():
            if cell["type"] in hier:
                kids[cell["type"]] = kids.get(cell["type"], 0) + 1
        children[key] = kids
        g, c, x = (stats_of(s, key, path) for s, path in
                   ((generic, p["generic.json"]), (cmos, p["cmos.json"]),
                    (xil, p["xilinx.json"])))
        r = {"block": block, "params": params}
        r["storage_bits"] = sum(n for t, n in g["cells"].items() if is_generic_ff(t)) \
            + g["memory_bits"]
        r["lut"] = count(x, r"^LUT[1-6]$")
        r["lutram"] = count(x, r"^RAM\d+[MSX]")
        r["ff"] = count(x, r"^FD[A-Z]*$")
        r["bram"] = sum(n * (0.5 if "18" in t else 1.0) for t, n in x["cells"].items()
                        if t.startswith("RAMB"))
        r["carry"] = count(x, r"^CARRY")
        r["gates"] = sum(n for t, n in c["cells"].items() if not is_generic_ff(t))
        r["transistors"] = transistors(c, key, p["cmos.json"])
        r["depth"] = depth.get(key.lstrip("\\"), depth.get(key))
        r["area45_um2"] = area.get(key.lstrip("\\"))
        if r["area45_um2"] is None:
            raise FlowError(f"{p['nangate.txt']}: no chip area for module '{key}'")
        r["area40_um2"] = r["area45_um2"] * (40 / 45) ** 2
        r["area28_um2"] = r["area45_um2"] * (28 / 45) ** 2
        if key == top:
            r["ports"] = [(n, q["direction"], len(q["bits"])) for n, q in mod["ports"].items()]
        rows[key] = r

    # Instances of every module in the whole design below top.
    inst = {k: 0 for k in hier}
    def walk(key, n):
        inst[key] += n
        for kid, m in children[key].items():
            walk(kid, n * m)
    walk(top, 1)
    for key, r in rows.items():
        r["instances"] = inst[key]
    return rows


def stats_of(stats, key, path):
    mod = stats.get(key) or stats.get("\\" + key)
    if mod is None:
        raise FlowError(f"{path}: no statistics for module '{key}'")
    return {"cells": mod.get("num_cells_by_type", {}),
            "memory_bits": int(mod.get("num_memory_bits", 0)),
            "transistors": mod.get("estimated_num_transistors")}


def count(stats, pattern):
    return sum(n for t, n in stats["cells"].items() if re.match(pattern, t))


def is_generic_ff(cell_type):
    # Yosys internal single-bit flip-flops and latches: $_DFF_*, $_DFFE_*,
    # $_SDFF*_, $_ALDFF*_, $_DFFSR*_, $_DLATCH*_ ...
    return bool(re.match(r"^\$_(S?DFF|ALDFF|DLATCH|SR_)", cell_type))


def transistors(stats, key, path):
    value = str(stats["transistors"])
    if not re.match(r"^\d+$", value):
        # A cell type without a CMOS cost survived the mapping: the count
        # would be a lower bound, which the table must not pass off as exact.
        raise FlowError(f"{path}: transistor count of '{key}' is not exact ({value}): "
                        "a cell type has no CMOS cost")
    return int(value)


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


def fmax_block(files, block, chparams, ports, work):
    """Return (fmax_mhz or None, note) for one block on an iCE40 HX8K."""
    d = os.path.join(work, block, "ice40")
    os.makedirs(d, exist_ok=True)
    wrap = os.path.join(d, "wrap.v")
    with open(wrap, "w", encoding="utf-8") as f:
        f.write(fmax_wrapper(block, ports))
    netlist = os.path.join(d, "wrap.json")
    stat = os.path.join(d, "ice40.json")
    sets = " ".join(f"-set {k} {v}" for k, v in chparams.items())
    script = [read_verilog_cmd(files)]
    if sets:
        script.append(f"chparam {sets} {block}")
    script += [f"hierarchy -check -top {block}", f"rename -top {block}",
               f"read_verilog {wrap}",
               "hierarchy -check -top area_fmax_wrap",
               "synth_ice40 -top area_fmax_wrap",
               f"tee -q -o {stat} stat -json",
               f"write_json {netlist}"]
    yosys("\n".join(script) + "\n", d, "synth_ice40", f"Yosys synth_ice40 of block '{block}'")
    cells = stats_of(load_stat_json(stat), "area_fmax_wrap", stat)["cells"]
    luts = cells.get("SB_LUT4", 0)
    ffs = sum(n for t, n in cells.items() if t.startswith("SB_DFF"))
    if max(luts, ffs) > HX8K_LOGIC_CELLS:
        return None, f"does not fit HX8K ({luts} LUT4, {ffs} DFF > {HX8K_LOGIC_CELLS})"
    log = os.path.join(d, "nextpnr.log")
    try:
        run_tool(["nextpnr-ice40", "--hx8k", "--package", "ct256", "--json", netlist,
                  "--seed", "1", "--freq", "1", "--log", log],
                 os.path.join(d, "nextpnr.out"), f"nextpnr-ice40 for '{block}'")
    except FlowError:
        # Running out of logic cells is a result (the set is too large for the
        # part), not a failure of the flow; anything else is a failure.
        with open(log, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if re.search(r"Failed to expand region|Unable to place cell|"
                     r"but the device only has|Failed to find a legal placement", text):
            return None, f"does not fit HX8K ({luts} LUT4, {ffs} DFF incl. wrapper)"
        raise
    with open(log, encoding="utf-8", errors="replace") as f:
        found = re.findall(r"Max frequency for clock\s+'[^']*':\s+([0-9.]+) MHz", f.read())
    if not found:
        return None, "no clocked path"
    return float(found[-1]), f"{luts} LUT4, {ffs} DFF incl. wrapper"


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
    if key.startswith("area") or key == "fmax_mhz":
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
    lines.append("- LUT/LUTRAM/FF/BRAM36/CARRY4: Yosys `synth_xilinx` (7-series); "
                 "a RAMB18 counts as 0.5 BRAM36.")
    lines.append("- gates/transistors: `abc -g cmos2` after turning every flip-flop into a plain "
                 "DFF (enables and resets become gates); `stat -tech cmos` (NAND2/NOR2 4, INV 2, "
                 "DFF 16 transistors). Gates exclude the flip-flops.")
    lines.append(f"- area: Nangate45 X1 cells (`{os.path.relpath(liberty, REPO)}`), cell area "
                 "only (no wiring, clock tree or up-sizing); 40/28 nm = 45 nm x (node/45)^2.")
    lines.append("- logic depth: longest path between flip-flops and ports of the NAND2/NOR2/INV "
                 "netlist in gate levels (Yosys `ltp -noff`): a critical-path proxy, not a delay.")
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
             "0.045 mm^2/SM by CACTI, technology not stated"),
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
            for r in rows:
                if r["block"] != top and pattern.search(r["block"]):
                    n = max(r["instances"], 1)
                    ours.append(f"| {set_name} | {r['block']} | {fmt('instances', r['instances'])} "
                                f"| {r['storage_bits'] * n} | {r['area45_um2'] * n:.1f} |")
        if ours:
            lines.append("| our set | our block | instances | storage bits (all instances) "
                         "| area 45nm um2 (all instances) |")
            lines.append("|---|---|---:|---:|---:|")
            lines += ours
        else:
            lines.append("Our RTL has no such block yet (no module in the RTL directory matches "
                         f"`{pattern.pattern}`), so there is nothing of ours to place here; "
                         "the blocks appear in the tables above and here without changes to "
                         "the flow once they are added.")
        lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rtl-dir", default="rtl")
    ap.add_argument("--top", default="sched_core")
    ap.add_argument("--out", default="build/area")
    ap.add_argument("--blocks", help="comma-separated subset of blocks (default: all)")
    ap.add_argument("--liberty", default=DEFAULT_LIBERTY)
    ap.add_argument("sets", nargs="+", help="parameter-set files")
    a = ap.parse_args(argv)

    for tool in ("yosys",):
        if shutil.which(tool) is None:
            raise FlowError(f"'{tool}' not found on PATH (make deps installs it)")
    parsed = [(p,) + parse_param_set(p) for p in a.sets]
    if any(opts.get("nextpnr") for _, _, _, opts in parsed) and not shutil.which("nextpnr-ice40"):
        raise FlowError("'nextpnr-ice40' not found on PATH (make deps installs it)")
    if not os.path.isdir(a.rtl_dir):
        raise FlowError(f"{a.rtl_dir}: no such RTL directory")
    if not os.path.isfile(a.liberty):
        raise FlowError(f"{a.liberty}: no such Liberty file")

    for path in (a.rtl_dir, a.out, a.liberty):
        check_path(path)
    os.makedirs(a.out, exist_ok=True)
    outputs = []
    for _, name, _, _ in parsed:
        outputs += [os.path.join(a.out, f"{name}.md"), os.path.join(a.out, f"{name}.csv")]
    outputs.append(os.path.join(a.out, "report.md"))
    for o in outputs:  # a failed run must not leave an old table looking current
        if os.path.exists(o):
            os.unlink(o)

    work = os.path.join(a.out, "work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    files, blocks, declared = discover_blocks(a.rtl_dir, a.top, work)
    wanted_blocks = set(blocks)
    if a.blocks:
        wanted = [b.strip() for b in a.blocks.split(",") if b.strip()]
        unknown = [b for b in wanted if b not in blocks]
        if unknown:
            raise FlowError(f"--blocks: no such block(s) in {a.rtl_dir}: {', '.join(unknown)}")
        wanted_blocks = set(wanted)

    started = time.monotonic()
    results, texts = [], []
    for path, name, params, options in parsed:
        unused = [k for k in params if not any(k in declared[b] for b in declared)]
        if unused:
            raise FlowError(f"{path}: parameter(s) {', '.join(unused)} declared by no RTL block")
        t0 = time.monotonic()
        wd = os.path.join(work, name)
        own = lambda b: {k: v for k, v in params.items() if k in declared[b]}
        found = synth_hierarchy(files, a.top, own(a.top), a.liberty, wd)
        core = found.pop(a.top)
        rows = list(found.values())
        # Blocks of the RTL directory that the core does not instantiate (yet):
        # measured on their own with the set's parameters they declare.
        covered = {r["block"] for r in rows}
        for b in blocks:
            if b == a.top or b in covered or b not in wanted_blocks:
                continue
            extra = synth_hierarchy(files, b, own(b), a.liberty, wd)
            for key, r in extra.items():
                if not any(q["block"] == r["block"] and q["params"] == r["params"] for q in rows):
                    r["instances"] = 0
                    r.pop("ports", None)
                    rows.append(r)
            covered = {r["block"] for r in rows}
        order = {b: i for i, b in enumerate(blocks)}
        rows = [r for r in rows if r["block"] in wanted_blocks]
        rows.sort(key=lambda r: (order.get(r["block"], len(order)), str(r["params"])))
        core["fmax_mhz"], core["fmax_note"] = None, ""
        if options.get("nextpnr"):
            core["fmax_mhz"], core["fmax_note"] = fmax_block(
                files, a.top, own(a.top), core["ports"], wd)
        core.pop("ports", None)
        if a.top in wanted_blocks:
            rows.append(core)
        for r in rows:
            r["storage_total"] = r["storage_bits"] * max(r["instances"], 1)
        print(f"area: {name}: {len(rows)} rows, core {core['storage_bits']} storage bits, "
              f"{core['area45_um2']:.0f} um2 at 45 nm ({time.monotonic() - t0:.1f} s)",
              file=sys.stderr)
        results.append((name, rows))
        texts.append((name, render_md(name, params, options, rows, a.top, a.liberty),
                      render_csv(rows, a.top)))

    elapsed = time.monotonic() - started
    report = ["# smcosim area, storage and timing (`make area`)", "",
              f"RTL: `{a.rtl_dir}/*.sv`, top `{a.top}`; Yosys "
              f"{subprocess.run(['yosys', '-V'], capture_output=True, text=True).stdout.split('(')[0].split()[-1]}"
              f"; {len(blocks)} block(s) x {len(parsed)} set(s) in {elapsed:.0f} s.", ""]
    for name, md, csv_text in texts:
        write_atomic(os.path.join(a.out, f"{name}.md"), md)
        write_atomic(os.path.join(a.out, f"{name}.csv"), csv_text)
        report.append(md)
    report.append(render_seed_section(results, a.top))
    report_text = "\n".join(report)
    write_atomic(os.path.join(a.out, "report.md"), report_text)
    print(report_text)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except FlowError as e:
        print(f"area: {e}", file=sys.stderr)
        sys.exit(1)
