#!/usr/bin/env bash
# The netlist generator refuses what the netlist transport cannot run, with a
# message naming the cause (docs/offload.md, "Generation"): it reads the tiny
# set's Yosys netlist (kept by make as build/offload/4_1_8_2_6_2_2_1.json)
# with one defect planted at a time, through --netlist.
set -u
set_name=4_1_8_2_6_2_2_1
json=build/offload/$set_name.json
tool=build/cosim/offload/offload_ports
[ -f "$json" ] || { echo "FAIL: $json is missing (make check builds it)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0

# plant NAME PYTHON: the netlist with the Python edit applied to module m
plant() {
  python3 - "$json" "$tmp/$1.json" "$2" <<'PY'
import json, sys
src, dst, code = sys.argv[1:]
n = json.load(open(src))
m = n["modules"]["sched_core"]
exec(code)
json.dump(n, open(dst, "w"))
PY
}

# expect NAME TEXT: generating from the planted netlist fails naming TEXT
expect() {
  out=$(python3 scripts/offload/netlist_gen.py gen --set $set_name --ports-tool $tool \
          --netlist "$tmp/$1.json" --out "$tmp/$1.snl" rtl/sched_core.sv 2>&1)
  rc=$?
  if [ $rc -eq 0 ] || ! grep -qF -- "$2" <<<"$out"; then
    echo "FAIL: $1: rc $rc, expected a message with '$2', got: $out"; fails=$((fails + 1))
  else
    echo "ok: $1 -> ${out#netlist_gen.py: }"
  fi
}

# a latch: not a supported cell
plant latch 'c = next(c for c in m["cells"].values() if c["type"] == "$_DFF_P_"); c["type"] = "$_DLATCH_P_"; c["connections"]["E"] = c["connections"].pop("C")'
expect latch 'type $_DLATCH_P_ is not supported'
# a flop on the falling edge
plant negedge 'c = next(c for c in m["cells"].values() if c["type"] == "$_DFF_P_"); c["type"] = "$_DFF_N_"'
expect negedge 'not clocked by the rising edge of clk_i'
# an async reset that is not rst_ni
plant arst 'c = next(c for c in m["cells"].values() if c["type"] == "$_DFF_PN0_"); c["connections"]["R"] = m["ports"]["launch_i"]["bits"][:1]'
expect arst 'asynchronous reset is not rst_ni active low'
# an output wired straight to an input (a Mealy path)
plant mealy 'm["ports"]["issue_valid_o"]["bits"] = m["ports"]["barrier_i"]["bits"][:1]'
expect mealy 'output issue_valid_o[0] (output token bit 0) depends combinationally on the input token'
# a port of the table missing from the netlist
plant noport 'del m["ports"]["ocw_half_i"]'
expect noport 'port ocw_half_i of sched_ports.def is not a port of the netlist'
# a netlist port the table does not know
plant extraport 'm["ports"]["debug_o"] = {"direction": "output", "bits": ["0"]}'
expect extraport 'netlist port debug_o is not in sched_ports.def'
# a combinational loop
plant loop 'c = next(c for c in m["cells"].values() if c["type"] == "$_AND_"); c["connections"]["A"] = c["connections"]["Y"]'
expect loop 'combinational loop'

[ $fails -eq 0 ] || exit 1
echo "netlist-gen-errors: 7 planted defects refused with their cause"
