// sched_scoreboard -- pending-write tracking for one warp.
//
// Entries slots, each {valid, register id, long-latency flag}, as in a
// hardware scoreboard (not a per-register bit vector). An issued instruction
// with a destination allocates the lowest free slot; a writeback event for
// (this warp, reg) releases the slot holding reg (only slots valid at the
// start of the cycle are looked at). The head instruction of the warp is
// checked against all valid slots; which slots hold one of its registers
// comes precomputed from the instruction buffer (chk_dep_i, see
// sched_ibuffer), which gets the slots' register ids (reg_o) and the slot
// each allocation takes (alloc_slot_o) for that:
//   hazard_o       some source (RAW) or the destination (WAW) is pending
//   hazard_long_o  ... and at least one matching slot is long-latency
//   full_o         no free slot (an instruction with a destination stalls)
//   long_pending_o any long-latency write pending (the HAWS trigger)
// Writebacks for registers that are not pending are ignored. clear_i (warp
// launch) empties the scoreboard and wins over an allocation.
//
// The valid bits and long flags are one vector each, updated with vector
// operations; the register ids are one register per slot. The writeback
// compare sits inside the clocked process behind a test that a writeback
// addresses this warp at all, so the Verilated model skips it otherwise.
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
  // the head instruction to check: bit e = it reads or writes slot e's register
  input  logic [Entries-1:0]  chk_dep_i,
  output logic [Entries*RegW-1:0] reg_o,
  output logic [Entries-1:0]  alloc_slot_o,
  output logic                hazard_o,
  output logic                hazard_long_o,
  output logic                full_o,
  output logic                long_pending_o
);
  logic [Entries-1:0] valid_q;
  logic [Entries-1:0] long_q;
  logic [Entries-1:0] alloc_m;   // one-hot: the lowest free slot
  logic [Entries-1:0] match_m;
  logic [RegW-1:0]    reg_q [Entries];

  assign alloc_m      = ~valid_q & (valid_q + 1'b1);
  assign alloc_slot_o = alloc_m;
  assign match_m      = chk_dep_i & valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else if (clear_i) begin
      valid_q <= '0;
    end else begin
      logic [Entries-1:0] release_m;
      release_m = '0;
      if (wb_valid_i != '0) begin
        for (int e = 0; e < Entries; e++) begin
          for (int p = 0; p < WbPorts; p++) begin
            if (wb_valid_i[p] && wb_reg_i[p*RegW +: RegW] == reg_q[e]) release_m[e] = 1'b1;
          end
        end
      end
      // the allocated slot was free, so a release never meets an allocation
      valid_q <= (valid_q & ~release_m) | (alloc_i ? alloc_m : '0);
    end
  end

  always_ff @(posedge clk_i) begin
    if (alloc_i) begin
      long_q <= (long_q & ~alloc_m) | (alloc_long_i ? alloc_m : '0);
      for (int e = 0; e < Entries; e++) begin
        if (alloc_m[e]) reg_q[e] <= alloc_reg_i;
      end
    end
  end

  for (genvar e = 0; e < Entries; e++) begin : g_reg
    assign reg_o[e*RegW +: RegW] = reg_q[e];
  end

  assign hazard_o       = |match_m;
  assign hazard_long_o  = |(match_m & long_q);
  assign full_o         = &valid_q;
  assign long_pending_o = |(valid_q & long_q);
endmodule
