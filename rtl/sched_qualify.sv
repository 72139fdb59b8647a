// sched_qualify -- readiness and stall reasons of all warps, as vectors.
//
// Bit w of every port is warp w. The checks, in this order; the first that
// fails names the warp's reason (one bit set in at most one *_o mask):
//   not alive (not launched, or finished) -> ignored (in no mask, not ready)
//   no valid instruction at the buffer head -> no_instr_o   (1 NoInstr)
//   waiting at a barrier                    -> barrier_o    (5 Barrier)
//   outside the warp limit (SWL) or, under
//   two-level, not in the active pool        -> warp_limit_o (6 WarpLimit)
//   RAW/WAW on a long-latency pending write  -> long_dep_o   (3 LongDep)
//   RAW/WAW on a short pending write, or a
//   destination while the scoreboard is full -> scoreboard_o (2 Scoreboard)
//   functional unit not available            -> unit_busy_o  (4 UnitBusy)
//   OAWS: an LD/ST head predicted to occlude
//   the MSHRs (Eq. 1, sched_oaws)            -> occluded_o   (7 Occluded)
//   otherwise ready_o.
// Written over whole vectors rather than once per warp: the Verilated model
// then does a handful of word operations instead of 64 small priority chains.
module sched_qualify #(
  parameter int N = 64
) (
  input  logic [N-1:0] alive_i,
  input  logic [N-1:0] head_valid_i,
  input  logic [N-1:0] barrier_i,
  input  logic [N-1:0] limit_ok_i,
  input  logic [N-1:0] hazard_i,
  input  logic [N-1:0] hazard_long_i,
  input  logic [N-1:0] need_entry_full_i,
  input  logic [N-1:0] unit_ok_i,
  input  logic [N-1:0] occlude_i,
  output logic [N-1:0] ready_o,
  output logic [N-1:0] no_instr_o,
  output logic [N-1:0] barrier_o,
  output logic [N-1:0] warp_limit_o,
  output logic [N-1:0] long_dep_o,
  output logic [N-1:0] scoreboard_o,
  output logic [N-1:0] unit_busy_o,
  output logic [N-1:0] occluded_o
);
  logic [N-1:0] has_instr, past_barrier, past_limit, past_long, past_sb;

  assign has_instr    = alive_i & head_valid_i;
  assign past_barrier = has_instr & ~barrier_i;
  assign past_limit   = past_barrier & limit_ok_i;
  assign past_long    = past_limit & ~hazard_long_i;
  assign past_sb      = past_long & ~(hazard_i | need_entry_full_i);

  assign no_instr_o   = alive_i & ~head_valid_i;
  assign barrier_o    = has_instr & barrier_i;
  assign warp_limit_o = past_barrier & ~limit_ok_i;
  assign long_dep_o   = past_limit & hazard_long_i;
  assign scoreboard_o = past_long & (hazard_i | need_entry_full_i);
  assign unit_busy_o  = past_sb & ~unit_ok_i;
  assign occluded_o   = past_sb & unit_ok_i & occlude_i;
  assign ready_o      = past_sb & unit_ok_i & ~occlude_i;
endmodule
