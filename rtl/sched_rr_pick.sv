// sched_rr_pick -- combinational round-robin pick.
//
// Picks the first set bit of req_i after position last_i (wrapping), and
// also reports the lowest set bit (used by GTO's "oldest" choice).
module sched_rr_pick #(
  parameter int N    = 16,
  parameter int IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic [N-1:0]    req_i,
  input  logic [IdxW-1:0] last_i,
  output logic            valid_o,
  output logic [IdxW-1:0] rr_idx_o,
  output logic [IdxW-1:0] low_idx_o
);
  always_comb begin
    logic hi_found, lo_found;
    logic [IdxW-1:0] hi_idx, lo_idx;
    hi_found = 1'b0;
    lo_found = 1'b0;
    hi_idx   = '0;
    lo_idx   = '0;
    for (int i = 0; i < N; i++) begin
      if (req_i[i] && !lo_found) begin
        lo_found = 1'b1;
        lo_idx   = IdxW'(i);
      end
      if (req_i[i] && !hi_found && IdxW'(i) > last_i) begin
        hi_found = 1'b1;
        hi_idx   = IdxW'(i);
      end
    end
    valid_o   = lo_found;
    rr_idx_o  = hi_found ? hi_idx : lo_idx;
    low_idx_o = lo_idx;
  end
endmodule
