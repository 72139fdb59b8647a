// sched_ibuffer -- the instruction buffer of one warp.
//
// A small FIFO of decoded instructions (Depth entries of Width bits each),
// filled by pushes from the C side and drained by issue. Entry 0 is always
// the head: a pop shifts the entries down by one, a push writes the first free
// slot after the pop. A push into a full buffer (count == Depth at the start
// of the cycle) is dropped; the interface contract makes it illegal.
// clear_i (warp launch or finish) empties the buffer and wins over a push.
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

  logic [Depth*Width-1:0] data_q, data_d;
  logic [CntW-1:0]        count_q, count_d;

  always_comb begin
    data_d  = data_q;
    count_d = count_q;
    if (pop_i && count_q != '0) begin
      data_d  = data_q >> Width;
      count_d = count_q - 1'b1;
    end
    if (push_i && ({1'b0, count_q} < (CntW + 1)'(Depth))) begin
      for (int i = 0; i < Depth; i++) begin
        if (count_d == CntW'(i)) data_d[i*Width +: Width] = push_data_i;
      end
      count_d = count_d + 1'b1;
    end
    if (clear_i) count_d = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else begin
      count_q <= count_d;
    end
  end

  // The payload needs no reset: it is only looked at below count_q.
  always_ff @(posedge clk_i) begin
    data_q <= data_d;
  end

  assign head_valid_o = (count_q != '0);
  assign head_o       = data_q[Width-1:0];
  assign has_space_o  = ({1'b0, count_q} < (CntW + 1)'(Depth));
endmodule
