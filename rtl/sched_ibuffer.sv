// sched_ibuffer -- the instruction buffer of one warp.
//
// A small FIFO of decoded instructions (Depth entries of Width bits each),
// filled by pushes from the C side and drained by issue, kept as a ring of
// slots with a read pointer and a count. A push into a full buffer (count ==
// Depth at the start of the cycle) is dropped; the interface contract makes
// it illegal. clear_i (warp launch or finish) empties the buffer and wins
// over a push.
//
// The inputs steer only the clocked processes (no combinational path from
// push_i to an output), which keeps the Verilated model fast: Verilator
// re-evaluates input-driven combinational logic on every eval call.
module sched_ibuffer #(
  parameter int Depth = 2,
  parameter int Width = 92
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clear_i,
  input  logic             push_i,
  input  logic [Width-1:0] push_data_i,
  input  logic             pop_i,
  output logic             head_valid_o,
  output logic [Width-1:0] head_o,
  output logic             has_space_o
);
  localparam int CntW = $clog2(Depth + 1);
  localparam int PtrW = (Depth > 1) ? $clog2(Depth) : 1;

  logic [Width-1:0] slot_q [Depth];
  logic [PtrW-1:0]  rd_q;
  logic [CntW-1:0]  count_q;
  logic             pop_ok;
  logic [PtrW-1:0]  wr_idx;

  assign head_valid_o = (count_q != '0);
  assign has_space_o  = ({1'b0, count_q} < (CntW + 1)'(Depth));
  assign pop_ok       = pop_i && head_valid_o;

  // The write slot: read pointer + count, modulo Depth.
  always_comb begin
    logic [CntW:0] sum;
    sum = {1'b0, count_q} + (CntW + 1)'(rd_q);
    if (sum >= (CntW + 1)'(Depth)) sum = sum - (CntW + 1)'(Depth);
    wr_idx = PtrW'(sum);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q    <= '0;
      count_q <= '0;
    end else if (clear_i) begin
      rd_q    <= '0;
      count_q <= '0;
    end else begin
      if (pop_ok) rd_q <= (rd_q == PtrW'(Depth - 1)) ? '0 : rd_q + 1'b1;
      if (push_i && has_space_o && !pop_ok)      count_q <= count_q + 1'b1;
      else if (!(push_i && has_space_o) && pop_ok) count_q <= count_q - 1'b1;
    end
  end

  // The payload needs no reset: only slots below count_q are looked at.
  always_ff @(posedge clk_i) begin
    if (push_i && has_space_o && !clear_i) slot_q[wr_idx] <= push_data_i;
  end

  assign head_o = slot_q[rd_q];
endmodule
