// sched_qualify -- readiness and stall reason of one warp.
//
// The checks, in this order; the first that fails names the reason:
//   not alive (not launched, or finished) -> ignored (reason 0, not ready)
//   no valid instruction at the buffer head -> 1 NoInstr
//   waiting at a barrier                    -> 5 Barrier
//   outside the warp limit (SWL) or, under
//   two-level, not in the active pool        -> 6 WarpLimit
//   RAW/WAW on a long-latency pending write  -> 3 LongDep
//   RAW/WAW on a short pending write, or a
//   destination while the scoreboard is full -> 2 Scoreboard
//   functional unit not available            -> 4 UnitBusy
//   otherwise ready (reason 0).
module sched_qualify (
  input  logic       alive_i,
  input  logic       head_valid_i,
  input  logic       barrier_i,
  input  logic       limit_ok_i,
  input  logic       hazard_i,
  input  logic       hazard_long_i,
  input  logic       need_entry_full_i,
  input  logic       unit_ok_i,
  output logic       ready_o,
  output logic [2:0] reason_o
);
  always_comb begin
    ready_o = 1'b0;
    if (!alive_i)                            reason_o = 3'd0;
    else if (!head_valid_i)                  reason_o = 3'd1;
    else if (barrier_i)                      reason_o = 3'd5;
    else if (!limit_ok_i)                    reason_o = 3'd6;
    else if (hazard_long_i)                  reason_o = 3'd3;
    else if (hazard_i || need_entry_full_i)  reason_o = 3'd2;
    else if (!unit_ok_i)                     reason_o = 3'd4;
    else begin
      reason_o = 3'd0;
      ready_o  = 1'b1;
    end
  end
endmodule
