// sched_ibuffer -- the instruction buffer of one warp.
//
// A small FIFO of decoded instructions (Depth entries of Width bits each),
// filled by pushes from the C side and drained by issue, kept as a ring of
// slots with a read pointer and a count. A push into a full buffer (count ==
// Depth at the start of the cycle) is dropped; the interface contract makes
// it illegal. clear_i (warp launch or finish) empties the buffer and wins
// over a push.
//
// Dependency bits: next to each instruction the buffer keeps dep_q, one bit
// per scoreboard slot, "this instruction reads or writes the register that
// slot holds" (the slot's valid bit is not included). They are computed when
// the instruction enters the buffer, against the slots' register ids (or the
// register being allocated at the same edge), and the bit of a slot is
// recomputed for every buffered instruction when that slot is allocated.
// A slot's register id changes only on allocation, so dep_q always equals the
// compare of the instruction's registers with every slot's register id, and
// the scoreboard's hazard check of the head is an AND of two small vectors
// instead of Entries x 4 register compares per warp per cycle.
//
// The inputs steer only the clocked processes (no combinational path from
// push_i to an output), which keeps the Verilated model fast: Verilator
// re-evaluates input-driven combinational logic on every eval call.
module sched_ibuffer #(
  parameter int Depth   = 2,
  parameter int Width   = 92,
  parameter int Entries = 6,   // scoreboard slots per warp
  parameter int RegW    = 8,
  // where the register fields sit in an instruction
  parameter int OffDstV = 34,
  parameter int OffDst  = 35,
  parameter int OffSrcV = 43,
  parameter int OffSrc  = 46
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    clear_i,
  input  logic                    push_i,
  input  logic [Width-1:0]        push_data_i,
  input  logic                    pop_i,
  // scoreboard slots: register ids, and the allocation of this edge
  input  logic [Entries*RegW-1:0] sb_reg_i,
  input  logic                    alloc_i,
  input  logic [Entries-1:0]      alloc_slot_i,   // one-hot
  input  logic [RegW-1:0]         alloc_reg_i,
  output logic                    head_valid_o,
  output logic [Width-1:0]        head_o,
  output logic [Entries-1:0]      head_dep_o,
  output logic                    has_space_o
);
  localparam int CntW = $clog2(Depth + 1);
  localparam int PtrW = (Depth > 1) ? $clog2(Depth) : 1;

  logic [Width-1:0]   slot_q [Depth];
  logic [Entries-1:0] dep_q  [Depth];
  logic [PtrW-1:0]    rd_q;
  logic [CntW-1:0]    count_q;
  logic               pop_ok;
  logic [PtrW-1:0]    wr_idx;

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

  // Does instruction i read or write register r?
  function automatic logic uses_reg(input logic [Width-1:0] i, input logic [RegW-1:0] r);
    uses_reg = (i[OffDstV]     && i[OffDst +: RegW]          == r) ||
               (i[OffSrcV]     && i[OffSrc +: RegW]          == r) ||
               (i[OffSrcV + 1] && i[OffSrc + RegW +: RegW]   == r) ||
               (i[OffSrcV + 2] && i[OffSrc + 2*RegW +: RegW] == r);
  endfunction

  // The payload and dependency bits need no reset: only slots below count_q
  // are looked at, and a scoreboard slot's bit is rewritten when it is
  // allocated (before that its valid bit masks it).
  always_ff @(posedge clk_i) begin
    if (alloc_i) begin
      for (int d = 0; d < Depth; d++) begin
        dep_q[d] <= (dep_q[d] & ~alloc_slot_i) |
                    (uses_reg(slot_q[d], alloc_reg_i) ? alloc_slot_i : '0);
      end
    end
    if (push_i && has_space_o && !clear_i) begin
      logic [Entries-1:0] dep;
      for (int e = 0; e < Entries; e++) begin
        dep[e] = uses_reg(push_data_i, (alloc_i && alloc_slot_i[e])
                          ? alloc_reg_i : sb_reg_i[e*RegW +: RegW]);
      end
      slot_q[wr_idx] <= push_data_i;
      dep_q[wr_idx]  <= dep;
    end
  end

  assign head_o     = slot_q[rd_q];
  assign head_dep_o = dep_q[rd_q];
endmodule
