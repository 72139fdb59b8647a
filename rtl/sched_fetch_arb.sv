// sched_fetch_arb -- which warp of one scheduler gets its buffer refilled.
//
// Round-robin over the warps that are alive, have buffer space and do not
// wait at a barrier (sched_core computes space_i), starting
// after the warp requested last. The request is a Moore output; the pointer
// advances whenever a request is made, whether or not the push follows.
module sched_fetch_arb #(
  parameter int N    = 16,
  parameter int IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    space_i,
  output logic            req_valid_o,
  output logic [IdxW-1:0] req_idx_o
);
  logic [IdxW-1:0] last_q;
  logic [IdxW-1:0] low_idx_unused;

  sched_rr_pick #(.N(N), .IdxW(IdxW)) u_pick (
    .req_i    (space_i),
    .last_i   (last_q),
    .valid_o  (req_valid_o),
    .rr_idx_o (req_idx_o),
    .low_idx_o(low_idx_unused)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= IdxW'(N - 1);
    end else if (req_valid_o) begin
      last_q <= req_idx_o;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      assert (!req_valid_o || space_i[req_idx_o]);   // a request only for a warp with space
    end
  end
`endif
endmodule
