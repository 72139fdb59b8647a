// sched_rr_pick -- combinational round-robin pick.
//
// Picks the first set bit of req_i after position last_i (wrapping), and
// also reports the lowest set bit (used by GTO's "oldest" choice). Written
// with vector operations (x & -x isolates the lowest set bit) and a binary
// encoder built from constant masks, rather than a search loop.
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
  logic [N-1:0] above, hi_req, hi_one, lo_one;

  assign above   = ({N{1'b1}} << last_i) << 1;
  assign hi_req  = req_i & above;
  assign hi_one  = hi_req & (~hi_req + 1'b1);
  assign lo_one  = req_i & (~req_i + 1'b1);
  assign valid_o = (req_i != '0);

  for (genvar b = 0; b < IdxW; b++) begin : g_enc
    // mask: the positions whose index has bit b set
    logic [N-1:0] mask;
    for (genvar i = 0; i < N; i++) begin : g_bit
      assign mask[i] = ((i >> b) & 1) != 0;
    end
    assign rr_idx_o[b]  = (hi_req != '0) ? |(hi_one & mask) : |(lo_one & mask);
    assign low_idx_o[b] = |(lo_one & mask);
  end
endmodule
