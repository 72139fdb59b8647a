#!/usr/bin/env bash
# --fst: run a benchmark on the RTL back end with a waveform, read it back
# with fst2vcd (gtkwave package) and check that the documented signals are
# there — the RTL's and the C side's, on one time axis — and that they change.
#   tests/timing/fst-check.sh BUILD_DIR
set -u
b=$1
command -v fst2vcd > /dev/null || { echo "FAIL: fst2vcd is not installed (scripts/install-deps.sh installs gtkwave)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
"$b/bin/smcosim" run --sched rtl --fst "$tmp/w.fst" --fst-window 10:500 \
    --bench vectoradd --size small > "$tmp/out" 2>&1
check "run passes" "grep -q 'vectoradd: PASS' '$tmp/out'"
check "waveform written" "[ -s '$tmp/w.fst' ] && [ -s '$tmp/w.fst.gtkw' ]"
check "no intermediate files left" "[ ! -e '$tmp/w.fst.rtl' ] && [ ! -e '$tmp/w.fst.tmp' ]"
fst2vcd "$tmp/w.fst" > "$tmp/w.vcd" 2> /dev/null
check "fst2vcd reads it" "[ -s '$tmp/w.vcd' ]"
# declarations: C side
for v in cycle resident_ctas mshr_in_use mem_outstanding ldst_ready issue_valid issue_warp \
         issue_pc stall_reason state pc ibuf_count ibuf0_pc ibuf1_pc sb_pending inflight; do
  check "C-side signal $v" "grep -q '\$var .* $v \(\[[0-9:]*\] \)\?\$end' '$tmp/w.vcd'"
done
for sc in cmodel sm0 sched0 sched3 warp00 warp63; do
  check "scope $sc" "grep -q '\$scope module $sc \$end' '$tmp/w.vcd'"
done
# declarations: RTL (scheduler core ports)
check "RTL scope sched_core" "grep -q '\$scope module sched_core \$end' '$tmp/w.vcd'"
for v in clk_i issue_valid_o issue_warp_o stall_reason_o fetch_warp_o push_valid_i wb_valid_i; do
  check "RTL signal $v" "grep -q '\$var .* $v ' '$tmp/w.vcd'"
done
# one time axis, 1 ns per cycle (unit 100 ps): cycle 10 at 100, the last
# rising edge (ending cycle 499) at 4995; both sides change
check "timescale 100 ps" "grep -A1 'timescale' '$tmp/w.vcd' | grep -q '100ps'"
first=$(grep -m1 '^#' "$tmp/w.vcd" | tr -d '#'); last=$(grep '^#' "$tmp/w.vcd" | tail -1 | tr -d '#')
check "time axis starts at cycle 10 (t=$first)" "[ '$first' = 100 ]"
check "time axis ends at cycle 499.5 (t=$last)" "[ '$last' = 4995 ]"
n=$(grep -c '^#' "$tmp/w.vcd")
check "value changes at many times ($n)" "[ '$n' -gt 900 ]"
check "gtkw names the file and groups" "grep -q 'dumpfile' '$tmp/w.fst.gtkw' && grep -q '^-scheduler 3\$' '$tmp/w.fst.gtkw' && grep -q '^-C side: warp63\$' '$tmp/w.fst.gtkw' && grep -q 'RTL scheduler core outputs' '$tmp/w.fst.gtkw'"
# readable in GTKWave: per-scheduler fields of the packed ports (bit 0 of
# issue_valid_o[3:0] is GTKWave's (3)), enum names through filter files, the
# view on the window's first cycles
g=$tmp/w.fst.gtkw
check "gtkw: scheduler 0's issue_valid is bit 0 of the port" "grep -q '^#{s0 issue_valid} (3)[a-z_.]*issue_valid_o\[3:0\]\$' '$g'"
check "gtkw: scheduler 3's issue_warp is bits 23..18" "grep -q '^#{s3 issue_warp} (0)[a-z_.]*issue_warp_o\[23:0\] .* (5)[a-z_.]*issue_warp_o\[23:0\]\$' '$g'"
check "gtkw: stall reasons by name" "grep -A2 '^\^1 .*w.fst.gtkw.stall_reason\$' '$g' | grep -q '^#{s2 stall_reason}' && grep -qx '4 unit_busy' '$g.stall_reason' && grep -qx '6 warp_limit' '$g.stall_reason'"
check "gtkw: op classes by name" "grep -q '^\^1 .*w.fst.gtkw.op_class\$' '$g' && grep -qx '2 ldst' '$g.op_class'"
check "gtkw: warp states by name" "grep -A2 '^\^1 .*w.fst.gtkw.warp_state\$' '$g' | grep -q 'cmodel.warp..\.state' && grep -qx '2 barrier' '$g.warp_state'"
check "gtkw: C side beside the core's fields" "grep -q '^+{C stall_reason} cmodel.sched1.stall_reason\[2:0\]\$' '$g'"
check "gtkw: opens at cycle 10, about 24 pixels per cycle" "grep -qx '\[timestart\] 100' '$g' && grep -qx '\*-12.000000 -1' '$g'"
# errors are clear
# the C back end: its ports (the traced C model, any parameter set) and the C side
"$b/bin/smcosim" run --sched c --config fermi-gtx480 --fst "$tmp/c.fst" --fst-window 10:500 \
    --bench vectoradd --size small > "$tmp/cout" 2>&1
check "--sched c: run passes" "grep -q 'vectoradd: PASS' '$tmp/cout'"
fst2vcd "$tmp/c.fst" > "$tmp/c.vcd" 2> /dev/null
check "--sched c: fst2vcd reads it" "[ -s '$tmp/c.vcd' ]"
for v in clk_i issue_valid_o stall_reason_o push_valid_i stall_reason issue_warp; do
  check "--sched c: signal $v" "grep -q '\$var .* $v ' '$tmp/c.vcd'"
done
check "--sched c: scopes sm0, sched1 (2 schedulers), warp47 (48 warps)" \
  "grep -q '\$scope module sched1 \$end' '$tmp/c.vcd' && grep -q '\$scope module warp47 \$end' '$tmp/c.vcd' && ! grep -q '\$scope module sched2 \$end' '$tmp/c.vcd'"
check "--sched c: save file names the C model" "grep -q 'C model scheduler core outputs' '$tmp/c.fst.gtkw'"
# OAWS: the DLC's scope (rtl/macu_dlc.sv's count_o and the fills the LD/ST
# unit gives it), absent without OAWS; atax_kernel1 has four divergent load
# pcs (its unrolled a[i*n+j] loads, as tests/oaws/oaws-suite.sh checks), so
# the table grows to four entries; the C DLC (--sched c) shows the same
check "no dlc scope without OAWS" "! grep -q '\$scope module dlc \$end' '$tmp/w.vcd'"
# dlc_values VCD NAME: the values NAME takes in the dlc scope, in order
dlc_values() {
  python3 - "$1" "$2" <<'PY'
import sys
ids, scope, out = {}, [], []
for line in open(sys.argv[1]):
    t = line.split()
    if t[:2] == ["$scope", "module"]:
        scope.append(t[2])
    elif t[:1] == ["$upscope"]:
        scope.pop()
    elif t[:1] == ["$var"] and scope[-1:] == ["dlc"] and t[4] == sys.argv[2]:
        ids[t[3]] = 1
    elif len(t) == 2 and t[1] in ids and t[0][:1] == "b":
        out.append(str(int(t[0][1:], 2)))
print(" ".join(out))
PY
}
for be in rtl c; do
  "$b/bin/smcosim" run --sched $be --policy oaws-dyn --fst "$tmp/o$be.fst" --fst-window 0:3000 \
      --bench atax --size small > "$tmp/o$be.out" 2>&1
  check "oaws-dyn --sched $be: run passes" "grep -q 'atax: PASS' '$tmp/o$be.out'"
  fst2vcd "$tmp/o$be.fst" > "$tmp/o$be.vcd" 2> /dev/null
  for v in entries fills last_fill_pc last_fill_acc last_fill_sets; do
    check "oaws-dyn --sched $be: dlc signal $v" "grep -q '\$var .* $v \(\[[0-9:]*\] \)\?\$end' '$tmp/o$be.vcd'"
  done
  check "oaws-dyn --sched $be: gtkw group 'C side: dlc'" "grep -qx -- '-C side: dlc' '$tmp/o$be.fst.gtkw'"
  dlc_values "$tmp/o$be.vcd" entries > "$tmp/o$be.entries"
  dlc_values "$tmp/o$be.vcd" fills > "$tmp/o$be.fills"
  check "oaws-dyn --sched $be: entries 0 to 4 ($(cat "$tmp/o$be.entries"))" \
    "[ \"\$(cat '$tmp/o$be.entries')\" = '0 1 2 3 4' ]"
  check "oaws-dyn --sched $be: fills counted up ($(wc -w < "$tmp/o$be.fills") values)" \
    "[ \$(wc -w < '$tmp/o$be.fills') -gt 4 ]"
done
check "oaws-dyn: the C DLC's fills and entries are the RTL's" \
  "cmp -s '$tmp/ortl.fills' '$tmp/oc.fills' && cmp -s '$tmp/ortl.entries' '$tmp/oc.entries'"
"$b/bin/smcosim" run --sched rtl --fst "$tmp/x.fst" --fst-window 9:3 --bench vectoradd --size small > "$tmp/err" 2>&1
check "bad window is refused" "grep -q 'fst-window' '$tmp/err'"
exit $fail
