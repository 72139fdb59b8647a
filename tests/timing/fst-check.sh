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
"$b/bin/smcosim" run --sched rtl --fst "$tmp/x.fst" --fst-window 9:3 --bench vectoradd --size small > "$tmp/err" 2>&1
check "bad window is refused" "grep -q 'fst-window' '$tmp/err'"
exit $fail
