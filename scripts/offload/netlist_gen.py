#!/usr/bin/env python3
"""netlist_gen.py -- the scheduler core as a netlist *program file* (.snl)
for the offload "netlist" transport (docs/offload.md, "Netlist transport").

  netlist_gen.py hash RTL...
      sha256 of the RTL sources (the staleness key; see rtl_hash below)

  netlist_gen.py gen --set W_S_R_D_E_P_RCU_REN --ports-tool TOOL --out FILE.snl
                     [--json FILE.json] [--yosys yosys] RTL...
      Yosys 0.23: read_verilog -sv (one file at a time, in the order given,
      rtl/module.mk's), chparam the eight Verilog parameters, hierarchy -top
      sched_core, synth per module, flatten, write_json; then lower, levelize and write
      the program. --json keeps the Yosys netlist there (and reuses it while
      its .stamp names the same RTL hash, set, Yosys and flow). --netlist FILE reads
      a Yosys JSON netlist as given instead of running Yosys (for tests of
      the generator's checks; the header still names this RTL and Yosys).

The token layout (which netlist pin is which token bit) comes from TOOL
(build/cosim/offload/offload_ports, which expands cosim/sched_ports.def), so
no port is named here except through that table.

Program file, little-endian 32-bit words (snl.h reads it):

  header   magic "SNL1", version, the eight parameters, sha256 of the RTL
           (64 hex chars), the Yosys version (64 chars, NUL-padded), then
           in_bits, out_bits, n_slots, n_ff, n_ops, n_s_ops, op_base,
           depth, n_in_used
  ops      n_ops x 4 words: (code << 24 | a), b, c, d; op i writes slot
           op_base + i. Ops [0, n_s_ops) depend on state only ("S" section),
           the rest on the input token too ("I" section). Each section is
           in level order.
  ffs      n_ff x 4 words: d slot, enable slot, async reset (0 none, 1 to 0,
           2 to 1), 0. Flip-flop i holds slot 3 + i.
  in_map   in_bits words: input token bit i -> slot (2: not read)
  out_map  out_bits words: output token bit j -> slot

Slots: 0 constant 0, 1 constant 1 (also rst_ni, which is high at every
edge), 2 scratch (unread input bits land there), 3.. the flip-flops, then the
input bits the logic reads, then the ops' results.
Deterministic: the same RTL, parameters and Yosys give the same bytes.
"""
import argparse
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

FORMAT_VERSION = 1
PARAM_NAMES = ["NumWarps", "NumSchedulers", "RegIdWidth", "IbufDepth", "SbEntries",
               "WbPorts", "RcuDepth", "RenEntries"]

# op codes (cosim/offload/snl.h and netlist.cl use the same numbers)
OP = {"BUF": 0, "NOT": 1, "AND": 2, "NAND": 3, "OR": 4, "NOR": 5, "XOR": 6, "XNOR": 7,
      "ANDNOT": 8, "ORNOT": 9, "MUX": 10, "NMUX": 11, "AOI3": 12, "OAI3": 13,
      "AOI4": 14, "OAI4": 15}
# Yosys internal gate -> (op, input pins in operand order a, b, c, d)
GATES = {
    "$_BUF_": ("BUF", "A"), "$_NOT_": ("NOT", "A"),
    "$_AND_": ("AND", "AB"), "$_NAND_": ("NAND", "AB"), "$_OR_": ("OR", "AB"),
    "$_NOR_": ("NOR", "AB"), "$_XOR_": ("XOR", "AB"), "$_XNOR_": ("XNOR", "AB"),
    "$_ANDNOT_": ("ANDNOT", "AB"), "$_ORNOT_": ("ORNOT", "AB"),
    "$_MUX_": ("MUX", "ABS"), "$_NMUX_": ("NMUX", "ABS"),
    "$_AOI3_": ("AOI3", "ABC"), "$_OAI3_": ("OAI3", "ABC"),
    "$_AOI4_": ("AOI4", "ABCD"), "$_OAI4_": ("OAI4", "ABCD"),
}
MAX_SLOTS = 1 << 24   # a operand shares its word with the op code


def die(msg):
    sys.stderr.write(f"netlist_gen.py: {msg}\n")
    sys.exit(1)


def rtl_hash(files):
    """sha256 over each file's path (as given) and contents, in order."""
    h = hashlib.sha256()
    for f in files:
        with open(f, "rb") as fh:
            data = fh.read()
        h.update(f.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def parse_set(name):
    parts = name.split("_")
    if len(parts) != 8 or not all(p.isdigit() for p in parts):
        die(f"--set '{name}': expected W_S_R_D_E_P_RCU_REN (eight numbers, "
            f"{', '.join(PARAM_NAMES)})")
    return [int(p) for p in parts]


def port_layout(tool, params):
    """(clock names, {name: (dir, lsb, width)}, in_bits, out_bits) from TOOL."""
    r = subprocess.run([tool] + [str(v) for v in params], capture_output=True, text=True)
    if r.returncode != 0:
        die(f"{tool}: {r.stderr.strip()}")
    clocks, ports, bits = [], {}, None
    for line in r.stdout.splitlines():
        f = line.split()
        if f[0] == "clock":
            clocks.append(f[1])
        elif f[0] in ("in", "out"):
            ports[f[1]] = (f[0], int(f[2]), int(f[3]))
        elif f[0] == "bits":
            bits = (int(f[1]), int(f[2]))
    if len(clocks) != 2 or bits is None:
        die(f"{tool}: expected two clock lines and a bits line")
    return clocks, ports, bits[0], bits[1]


def yosys_version(yosys):
    r = subprocess.run([yosys, "-V"], capture_output=True, text=True)
    if r.returncode != 0:
        die(f"{yosys} -V failed: {r.stderr.strip()}")
    return r.stdout.strip()


# Named in the kept netlist's stamp: a change of the Yosys script below
# must not reuse a netlist made by the old one.
SYNTH_FLOW = "hier-synth-noshare-flatten-1"


def run_yosys(yosys, rtl, params, json_path):
    script = [f"read_verilog -sv {f}" for f in rtl]
    sets = " ".join(f"-set {n} {v}" for n, v in zip(PARAM_NAMES, params))
    script += [f"chparam {sets} sched_core",
               "hierarchy -check -top sched_core",
               "rename -top sched_core",       # hierarchy names it $paramod\...
               # per module, then flattened: each scheduler's banks are one
               # module, mapped once instead of once per copy inside one
               # flat ABC run; without `share`, whose SAT-based resource
               # sharing took > 19 GB on the Kepler core (the flat run did
               # not finish in 20 CPU-min; docs/offload.md). The netlist is
               # checked against Verilator either way (test_offload_netlist).
               "synth -noshare -top sched_core",
               "flatten",
               "opt_clean",
               f"write_json {json_path}"]
    with tempfile.NamedTemporaryFile("w", suffix=".ys", delete=False) as fh:
        fh.write("\n".join(script) + "\n")
        ys = fh.name
    try:
        r = subprocess.run([yosys, "-q", "-s", ys], capture_output=True, text=True)
    finally:
        os.unlink(ys)
    if r.returncode != 0:
        die(f"yosys failed:\n{r.stdout}{r.stderr}")


# flip-flop types: $_DFF_C_, $_DFF_CRV_, $_DFFE_CE_, $_DFFE_CRVE_, $_SDFF_CRV_,
# $_SDFFE_CRVE_, $_SDFFCE_CRVE_ (C clock, R reset polarity, V reset value,
# E enable polarity)
FF_RE = re.compile(r"^\$_(DFF|DFFE|SDFF|SDFFE|SDFFCE)_([NP01]+)_$")
FF_SHAPES = {("DFF", 1), ("DFF", 3), ("DFFE", 2), ("DFFE", 4), ("SDFF", 3), ("SDFFE", 4),
             ("SDFFCE", 4)}


def parse_ff(cell_name, ctype):
    m = FF_RE.match(ctype)
    if not m or (m.group(1), len(m.group(2))) not in FF_SHAPES:
        return None
    kind, f = m.group(1), m.group(2)
    ff = {"clk": f[0], "arst": None, "srst": None, "rval": None, "en": None}
    if kind == "DFF" and len(f) == 3:
        ff["arst"], ff["rval"] = f[1], int(f[2])
    elif kind == "DFFE":
        ff["en"] = f[-1]
        if len(f) == 4:
            ff["arst"], ff["rval"] = f[1], int(f[2])
    elif kind.startswith("SDFF"):
        ff["srst"], ff["rval"] = f[1], int(f[2])
        if len(f) == 4:
            ff["en"] = f[3]
        ff["srst_over_en"] = kind == "SDFFE"
    return ff


def build(netlist, clocks, ports, in_bits, out_bits):
    """Lower, levelize and lay out the program. Returns a dict of arrays."""
    mods = netlist.get("modules", {})
    if "sched_core" not in mods:
        die("the Yosys netlist has no module sched_core")
    mod = mods["sched_core"]
    clk_name, rst_name = clocks
    yports = mod["ports"]

    # net -> what drives it: ("in", token bit) / ("const", 0|1) / ("ff", i) / ("op", j)
    driver = {}

    def net_of(bit):
        if bit in ("0", "x", "z"):
            return ("const", 0)
        if bit == "1":
            return ("const", 1)
        return bit

    for name, (d, lsb, width) in ports.items():
        if width == 0:
            continue
        if name not in yports:
            die(f"port {name} of sched_ports.def is not a port of the netlist")
        yp = yports[name]
        want = "input" if d == "in" else "output"
        if yp["direction"] != want or len(yp["bits"]) != width:
            die(f"port {name}: the netlist has {yp['direction']} [{len(yp['bits'])}], the "
                f"table {want} [{width}]")
        if d == "in":
            for b, bit in enumerate(yp["bits"]):
                if isinstance(bit, int):
                    driver[bit] = ("in", lsb + b)
    for name, yp in sorted(yports.items()):
        if name not in ports and name not in clocks:
            die(f"netlist port {name} is not in sched_ports.def")
    clk_bits = yports[clk_name]["bits"]
    rst_bits = yports[rst_name]["bits"]
    driver[rst_bits[0]] = ("const", 1)     # high at every edge (reset is per lane)
    driver[clk_bits[0]] = ("const", 0)

    ffs, ops = [], []          # ops: [op name, [operand nets...], output net or None]

    for cname, cell in mod["cells"].items():
        ctype, conn = cell["type"], cell["connections"]
        if ctype in GATES:
            opn, pins = GATES[ctype]
            y = conn["Y"][0]
            driver[y] = ("op", len(ops))
            ops.append([opn, [net_of(conn[p][0]) for p in pins], y])
            continue
        ff = parse_ff(cname, ctype)
        if ff is None:
            die(f"cell {cname}: type {ctype} is not supported (gates, $_DFF*/$_SDFF* only)")
        if ff["clk"] != "P" or conn["C"][0] != clk_bits[0]:
            die(f"cell {cname} ({ctype}): not clocked by the rising edge of {clk_name}")
        if ff["arst"] is not None and (ff["arst"] != "N" or conn["R"][0] != rst_bits[0]):
            die(f"cell {cname} ({ctype}): its asynchronous reset is not {rst_name} active low")
        q = conn["Q"][0]
        driver[q] = ("ff", len(ffs))
        ff["name"], ff["D"] = cname, net_of(conn["D"][0])
        ff["E"] = net_of(conn["E"][0]) if ff["en"] else None
        ff["R"] = net_of(conn["R"][0]) if ff["srst"] else None
        ffs.append(ff)

    def new_op(opn, args):
        ops.append([opn, args, None])
        return ("op", len(ops) - 1)

    def src(n):
        if isinstance(n, tuple):
            return n
        if n not in driver:
            die(f"net {n} has no driver in the netlist")
        return driver[n]

    # Lower the flip-flops to (d, enable, async reset): enable polarity ->
    # NOT; synchronous reset -> AND-NOT/OR into d (and into the enable when it
    # overrides it, $_SDFFE_). A d or enable that is another flip-flop's output
    # gets a BUF so that updating flip-flops in place reads the old value.
    for ff in ffs:
        d = src(ff["D"])
        en = ("const", 1) if ff["en"] is None else src(ff["E"])
        if ff["en"] == "N":
            en = new_op("NOT", [en])
        if ff["srst"] is not None:
            s = src(ff["R"])
            if ff["srst"] == "N":
                s = new_op("NOT", [s])
            d = new_op("ANDNOT", [d, s]) if ff["rval"] == 0 else new_op("OR", [d, s])
            if ff["srst_over_en"] and ff["en"] is not None:
                en = new_op("OR", [en, s])
        if d[0] == "ff":
            d = new_op("BUF", [d])
        if en[0] == "ff":
            en = new_op("BUF", [en])
        ff["d"], ff["e"] = d, en
        ff["rkind"] = 0 if ff["arst"] is None else 1 + ff["rval"]
    for op in ops:
        op[1] = [src(a) for a in op[1]]

    # output token bit -> source
    outs = [("const", 0)] * out_bits
    for name, (d, lsb, width) in ports.items():
        if d == "out" and width:
            for b, bit in enumerate(yports[name]["bits"]):
                outs[lsb + b] = src(net_of(bit))

    # Liveness: only what the outputs see, through the flip-flops.
    live_op, live_ff = [False] * len(ops), [False] * len(ffs)
    stack = list(outs)
    while stack:
        s = stack.pop()
        if s[0] == "op" and not live_op[s[1]]:
            live_op[s[1]] = True
            stack.extend(ops[s[1]][1])
        elif s[0] == "ff" and not live_ff[s[1]]:
            live_ff[s[1]] = True
            stack += [ffs[s[1]]["d"], ffs[s[1]]["e"]]

    # Levels and sections (iterative DFS in op order: deterministic).
    level, dep_in = [None] * len(ops), [False] * len(ops)
    visiting = [False] * len(ops)
    for root in range(len(ops)):
        if not live_op[root] or level[root] is not None:
            continue
        stack = [(root, False)]
        while stack:
            i, done = stack.pop()
            if level[i] is not None:
                continue
            if not done and visiting[i]:
                # popped above its own (i, True): pushed by a descendant
                die(f"combinational loop through the {ops[i][0]} driving net {ops[i][2]}")
            visiting[i] = True
            args = [a for a in ops[i][1] if a[0] == "op"]
            if not done:
                stack.append((i, True))
                stack.extend((a[1], False) for a in args if level[a[1]] is None)
                continue
            level[i] = 1 + max((level[a[1]] for a in args), default=0)
            dep_in[i] = any(a[0] == "in" for a in ops[i][1]) or any(dep_in[a[1]] for a in args)

    # Slot layout.
    ff_ids = [i for i in range(len(ffs)) if live_ff[i]]
    ff_slot = {f: 3 + n for n, f in enumerate(ff_ids)}
    in_used = sorted({a[1] for i, op in enumerate(ops) if live_op[i] for a in op[1]
                      if a[0] == "in"} |
                     {s[1] for s in outs if s[0] == "in"} |
                     {x[1] for f in ff_ids for x in (ffs[f]["d"], ffs[f]["e"]) if x[0] == "in"})
    in_slot = {b: 3 + len(ff_ids) + n for n, b in enumerate(in_used)}
    op_base = 3 + len(ff_ids) + len(in_used)
    order_s = sorted((level[i], i) for i in range(len(ops)) if live_op[i] and not dep_in[i])
    order_i = sorted((level[i], i) for i in range(len(ops)) if live_op[i] and dep_in[i])
    order = [i for _, i in order_s] + [i for _, i in order_i]
    op_slot = {i: op_base + n for n, i in enumerate(order)}
    n_slots = op_base + len(order)
    if n_slots >= MAX_SLOTS:
        die(f"{n_slots} slots: more than the format's {MAX_SLOTS}")

    def slot(s):
        kind, v = s
        return {"const": lambda: v, "ff": lambda: ff_slot[v], "in": lambda: in_slot[v],
                "op": lambda: op_slot[v]}[kind]()

    words_ops = []
    for i in order:
        opn, args, _ = ops[i]
        a = [slot(x) for x in args] + [0] * (4 - len(args))
        words_ops += [OP[opn] << 24 | a[0], a[1], a[2], a[3]]
    words_ff = []
    for f in ff_ids:
        words_ff += [slot(ffs[f]["d"]), slot(ffs[f]["e"]), ffs[f]["rkind"], 0]
    in_map = [in_slot.get(b, 2) for b in range(in_bits)]
    out_map = []
    for j, s in enumerate(outs):
        if s[0] == "in" or (s[0] == "op" and dep_in[s[1]]):
            port = next(f"{n}[{j - lsb}]" for n, (d, lsb, w) in ports.items()
                        if d == "out" and lsb <= j < lsb + w)
            die(f"output {port} (output token bit {j}) depends combinationally on the input "
                "token; the transport needs outputs that are a function of the state (Moore)")
        out_map.append(slot(s))
    depth = max([level[i] for i in order], default=0)
    return {"n_slots": n_slots, "n_ff": len(ff_ids), "n_ops": len(order),
            "n_s_ops": len(order_s), "op_base": op_base, "depth": depth,
            "n_in_used": len(in_used), "ops": words_ops, "ffs": words_ff,
            "in_map": in_map, "out_map": out_map}


def write_snl(path, params, sha, yver, in_bits, out_bits, prog):
    hdr = b"SNL1" + struct.pack("<9I", FORMAT_VERSION, *params)
    hdr += sha.encode().ljust(64, b"\0")[:64]
    hdr += yver.encode()[:63].ljust(64, b"\0")
    hdr += struct.pack("<9I", in_bits, out_bits, prog["n_slots"], prog["n_ff"], prog["n_ops"],
                       prog["n_s_ops"], prog["op_base"], prog["depth"], prog["n_in_used"])
    body = b"".join(struct.pack(f"<{len(a)}I", *a)
                    for a in (prog["ops"], prog["ffs"], prog["in_map"], prog["out_map"]))
    tmp = path + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(hdr + body)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    h = sub.add_parser("hash")
    h.add_argument("rtl", nargs="+")
    g = sub.add_parser("gen")
    g.add_argument("--set", required=True)
    g.add_argument("--ports-tool", required=True)
    g.add_argument("--out", required=True)
    g.add_argument("--json")
    g.add_argument("--yosys", default="yosys")
    g.add_argument("--netlist")
    g.add_argument("rtl", nargs="+")
    a = ap.parse_args()
    for f in a.rtl:
        if not os.path.isfile(f):
            die(f"{f}: no such RTL file")
    sha = rtl_hash(a.rtl)
    if a.cmd == "hash":
        print(sha)
        return
    params = parse_set(a.set)
    clocks, ports, in_bits, out_bits = port_layout(a.ports_tool, params)
    yver = yosys_version(a.yosys)
    stamp = f"{sha} {a.set} {yver} {SYNTH_FLOW}"
    json_path, tmpdir = a.json, None
    if json_path is None:
        tmpdir = tempfile.TemporaryDirectory()
        json_path = os.path.join(tmpdir.name, "net.json")
    # Reuse a kept netlist only when its stamp (RTL hash, set, Yosys, flow) matches.
    stamp_path = json_path + ".stamp"
    fresh = (a.json and os.path.exists(json_path) and os.path.exists(stamp_path)
             and open(stamp_path).read().strip() == stamp)
    if a.netlist:
        json_path = a.netlist
    elif not fresh:
        run_yosys(a.yosys, a.rtl, params, json_path)
        if a.json:
            with open(stamp_path, "w") as fh:
                fh.write(stamp + "\n")
    with open(json_path) as fh:
        netlist = json.load(fh)
    prog = build(netlist, clocks, ports, in_bits, out_bits)
    write_snl(a.out, params, sha, yver, in_bits, out_bits, prog)
    sys.stderr.write(f"netlist_gen.py: {a.out}: {prog['n_ops']} ops ({prog['n_s_ops']} on state "
                     f"only), {prog['n_ff']} flip-flops, {prog['n_slots']} slots, depth "
                     f"{prog['depth']}\n")


if __name__ == "__main__":
    main()
