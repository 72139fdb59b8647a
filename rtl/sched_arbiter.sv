// sched_arbiter -- the issue choice of one warp scheduler.
//
// ready_i holds the qualified warps of this scheduler, by local index
// (local index i = global warp id / NumSchedulers). The policy input selects:
//   0 LRR        loose round-robin: first ready warp after the last issued
//   1 GTO        greedy-then-oldest: the last issued warp while it is ready,
//                else the oldest ready warp (oldest = lowest warp id; the
//                timing model assigns warp slots in launch order)
//   2 TWO_LEVEL  round-robin like LRR among the warps of the active pool
//                (the pool gating is done in ready_i by the core)
// last_q (the last issued local warp) is the single piece of state; it
// resets to N-1 so that LRR starts at warp 0.
module sched_arbiter #(
  parameter int N    = 16,
  parameter int IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [1:0]      policy_i,
  input  logic [N-1:0]    ready_i,
  output logic            grant_valid_o,
  output logic [IdxW-1:0] grant_idx_o
);
  localparam logic [1:0] PolicyGto = 2'd1;

`ifdef SCHED_MUTANTS
  // Test-only planted bugs (docs/testing.md, "Detection power"): only the
  // one Verilated variant built with +define+SCHED_MUTANTS has them; the
  // bug is chosen per model instance with +sched_mutant=N (vsched_shim.cpp).
  int unsigned mutant;
  initial begin
    if (!$value$plusargs("sched_mutant=%d", mutant)) mutant = 0;
  end
`endif

  logic [IdxW-1:0] last_q;
  logic [IdxW-1:0] rr_idx, low_idx;

  sched_rr_pick #(.N(N), .IdxW(IdxW)) u_pick (
    .req_i    (ready_i),
    .last_i   (last_q),
    .valid_o  (grant_valid_o),
    .rr_idx_o (rr_idx),
    .low_idx_o(low_idx)
  );

  always_comb begin
    if (policy_i == PolicyGto) begin
      grant_idx_o = ready_i[last_q] ? last_q : low_idx;
    end else begin
      grant_idx_o = rr_idx;
    end
`ifdef SCHED_MUTANTS
    if (mutant == 2 && policy_i == PolicyGto && !ready_i[last_q]) begin
      for (int i = 0; i < N; i++) begin   // GTO's tie-break flipped: the youngest
        if (ready_i[i]) grant_idx_o = IdxW'(i);
      end
    end
`endif
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= IdxW'(N - 1);
    end else if (grant_valid_o) begin
      last_q <= grant_idx_o;
    end
  end

  // Assertions (docs/rtl.md, "Assertions"): Verilated with --assert for the
  // tests and the RTL back end; left out of synthesis.
`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      assert (grant_valid_o == (ready_i != '0));     // a grant whenever a warp is ready
      assert (!grant_valid_o || ready_i[grant_idx_o]);  // ... and only to a ready warp
    end
  end
`endif
endmodule
