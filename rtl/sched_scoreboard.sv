// sched_scoreboard -- pending-write tracking for one warp.
//
// Entries slots, each {valid, register id, long-latency flag}, as in a
// hardware scoreboard (not a per-register bit vector). An issued instruction
// with a destination allocates the lowest free slot; a writeback event for
// (this warp, reg) releases the slot holding reg (only slots valid at the
// start of the cycle are looked at). The head instruction of the warp is
// checked against all valid slots:
//   hazard_o       some source (RAW) or the destination (WAW) is pending
//   hazard_long_o  ... and at least one matching slot is long-latency
//   full_o         no free slot (an instruction with a destination stalls)
//   long_pending_o any long-latency write pending (the HAWS trigger)
// Writebacks for registers that are not pending are ignored. clear_i (warp
// launch) empties the scoreboard and wins over an allocation. The writeback
// inputs steer only the clocked process (see sched_ibuffer for why).
module sched_scoreboard #(
  parameter int Entries = 6,
  parameter int RegW    = 8,
  parameter int WbPorts = 4
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                clear_i,
  // allocation on issue
  input  logic                alloc_i,
  input  logic [RegW-1:0]     alloc_reg_i,
  input  logic                alloc_long_i,
  // writebacks already filtered to this warp
  input  logic [WbPorts-1:0]      wb_valid_i,
  input  logic [WbPorts*RegW-1:0] wb_reg_i,
  // the head instruction to check
  input  logic                chk_dst_valid_i,
  input  logic [RegW-1:0]     chk_dst_i,
  input  logic [2:0]          chk_src_valid_i,
  input  logic [3*RegW-1:0]   chk_src_i,
  output logic                hazard_o,
  output logic                hazard_long_o,
  output logic                full_o,
  output logic                long_pending_o
);
  logic [Entries-1:0]      valid_q;
  logic [Entries-1:0]      long_q;
  logic [Entries*RegW-1:0] reg_q;
  logic [Entries-1:0]      match_m;
  logic [Entries-1:0]      alloc_m;   // one-hot: the lowest free slot

  // Which slots the head depends on, and which slot an allocation takes.
  always_comb begin
    logic found;
    found   = 1'b0;
    match_m = '0;
    alloc_m = '0;
    for (int e = 0; e < Entries; e++) begin
      if (chk_dst_valid_i && chk_dst_i == reg_q[e*RegW +: RegW]) match_m[e] = valid_q[e];
      for (int s = 0; s < 3; s++) begin
        if (chk_src_valid_i[s] && chk_src_i[s*RegW +: RegW] == reg_q[e*RegW +: RegW]) begin
          match_m[e] = valid_q[e];
        end
      end
      if (!found && !valid_q[e]) begin
        found      = 1'b1;
        alloc_m[e] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else if (clear_i) begin
      valid_q <= '0;
    end else begin
      for (int e = 0; e < Entries; e++) begin
        if (alloc_i && alloc_m[e]) begin
          valid_q[e] <= 1'b1;
        end else begin
          for (int p = 0; p < WbPorts; p++) begin
            if (wb_valid_i[p] && wb_reg_i[p*RegW +: RegW] == reg_q[e*RegW +: RegW]) begin
              valid_q[e] <= 1'b0;
            end
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    for (int e = 0; e < Entries; e++) begin
      if (alloc_i && alloc_m[e]) begin
        long_q[e]              <= alloc_long_i;
        reg_q[e*RegW +: RegW]  <= alloc_reg_i;
      end
    end
  end

  assign hazard_o       = |match_m;
  assign hazard_long_o  = |(match_m & long_q);
  assign full_o         = &valid_q;
  assign long_pending_o = |(valid_q & long_q);
endmodule
