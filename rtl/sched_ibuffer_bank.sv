// sched_ibuffer_bank -- the instruction buffers of one scheduler's warps.
// sched_ibuffer holds one bank per scheduler, each with one port (Ports = 1)
// and the scheduler's warps numbered 0..NumWarps-1; the logic below also
// serves several ports over one set of warps.
//
// Every warp has a ring of Depth decoded instructions (read pointer and
// count). Warps are numbered 0..NumWarps-1 as the core orders them (its slot
// order, see sched_core); port p (one per scheduler) pushes into and pops
// from the warps the core routes to it, at most one warp per port and
// cycle, and two ports never address the same warp. A push into a full
// buffer is dropped, and a push and a pop of the same warp in one cycle both
// happen (the push sees the buffer as it was: a full buffer drops it).
// clear_i (warp launch or finish) empties a buffer and wins over a push or
// pop of that warp.
//
// Dependency bits: every buffered instruction keeps one bit per scoreboard
// slot of its warp, "this instruction reads or writes that slot's
// register". They are computed at the push against the slots' register ids
// (sb_reg_i; a slot allocated in the same cycle counts with its new
// register) and updated for all of a warp's entries when one of its slots
// is allocated (a pop with a destination, alloc_slot_i). A slot's register
// changes only on allocation, so the bits of a buffered instruction always
// equal the compare of its registers with every slot's register id, and the
// scoreboard's hazard check of the heads is an AND of vectors.
//
// Storage layout, chosen for a cheap Verilated model and identical in bits
// to one ring per warp: the per-warp state that the qualification reads
// every cycle (count, read pointer, dependency bits, the op class and the
// destination-valid bit of every entry) is kept bit-sliced, one
// NumWarps-bit vector per bit, so the head of every warp is a few vector
// operations; the rest of the payload is one memory of NumWarps x Depth
// words, read only for the popped heads and at the events. All input-driven
// logic sits inside the clocked processes, so nothing but the registers
// feeds an output.
module sched_ibuffer_bank #(
  parameter int NumWarps = 16,
  parameter int Ports    = 1,    // push and pop ports
  parameter int Depth    = 2,
  parameter int Width    = 92,
  parameter int Entries  = 6,    // scoreboard slots per warp
  parameter int RegW     = 8,
  // where the fields sit in an instruction; op[2] and dst_valid must be the
  // three bits OffOp .. OffOp+2 (the payload layout of sched_core)
  parameter int OffOp   = 32,
  parameter int OffDst  = 35,
  parameter int OffSrcV = 43,
  parameter int OffSrc  = 46,
  // two payload bits also kept bit-sliced, so every warp's head shows them
  // (HAWS: the head is a copy; the head carries an entry hint)
  parameter int OffFlag0 = 60,
  parameter int OffFlag1 = 61,
  // OAWS: PmW payload bits from OffPm also kept bit-sliced (the stored
  // prediction, which the qualification reads for every warp's head)
  parameter int OffPm    = 62,
  parameter int PmW      = 7
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic [NumWarps-1:0]              clear_i,
  input  logic [Ports-1:0]                 push_valid_i,
  input  logic [Ports*6-1:0]               push_warp_i,
  input  logic [Ports*Width-1:0]           push_data_i,
  input  logic [Ports-1:0]                 pop_valid_i,
  input  logic [Ports*6-1:0]               pop_warp_i,
  // the scoreboard slot each pop's destination takes (one-hot; used when
  // the popped head has a destination), and the register ids of the
  // scoreboard slots of each push's warp (slot e at [(p*Entries + e)*RegW])
  input  logic [Ports*Entries-1:0]         alloc_slot_i,
  input  logic [Ports*Entries*RegW-1:0]    push_sb_reg_i,
  // per warp, as vectors
  output logic [NumWarps-1:0]              head_valid_o,
  output logic [NumWarps-1:0]              has_space_o,
  output logic [NumWarps-1:0]              head_dst_valid_o,
  output logic [2*NumWarps-1:0]            head_op_o,    // op bit b at [b*NumWarps +: NumWarps]
  output logic [Entries*NumWarps-1:0]      head_dep_o,   // slot e at [e*NumWarps +: NumWarps]
  output logic [2*NumWarps-1:0]            head_flag_o,  // flag b at [b*NumWarps +: NumWarps]
  output logic [PmW*NumWarps-1:0]          head_pm_o,    // OAWS bit b at [b*NumWarps +: NumWarps]
  // per port: the head instruction of pop_warp_i, and of rd_warp_i (a
  // second read port: HAWS entry latches the head's pc and hint)
  output logic [Ports*Width-1:0]           pop_data_o,
  input  logic [Ports-1:0]                 rd_en_i,      // (0: rd_data_o is 0)
  input  logic [Ports*6-1:0]               rd_warp_i,
  output logic [Ports*Width-1:0]           rd_data_o
);
  localparam int N     = NumWarps;
  localparam int WIdW  = (N > 1) ? $clog2(N) : 1;   // warp index within the vectors
  localparam int CntW  = $clog2(Depth + 1);
  localparam int PtrW  = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int BitW  = (Depth * N > 1) ? $clog2(Depth * N) : 1;  // index into a per-entry vector
  localparam int RestW = Width - 3;   // payload without op and dst_valid
  // register fields within a rest word
  localparam int RDst  = OffDst - 3;
  localparam int RSrcV = OffSrcV - 3;
  localparam int RSrc  = OffSrc - 3;

  // bit-sliced per-warp state: bit w of each N-bit slice is warp w
  logic [CntW*N-1:0]          cnt_q;    // count bit k at [k*N +: N]
  logic [PtrW*N-1:0]          rd_q;     // read pointer bit k
  logic [Depth*N-1:0]         op0_q, op1_q, dstv_q;   // entry d at [d*N +: N]
  logic [Depth*N-1:0]         fl0_q, fl1_q;           // the two flag bits, entry d
  logic [PmW*Depth*N-1:0]     pm_q;     // OAWS bit b, entry d at [(b*Depth + d)*N +: N]
  logic [Depth*Entries*N-1:0] dep_q;    // entry d, slot e at [(d*Entries + e)*N +: N]
  // the rest of the payload, word w*Depth + d
  logic [RestW-1:0]           rest_q [N*Depth];

  // ---- heads of all warps, from the registers ----
  logic [Depth*N-1:0] rd_sel;   // warps whose read pointer is d, at [d*N +: N]
  always_comb begin
    for (int d = 0; d < Depth; d++) begin
      rd_sel[d*N +: N] = '1;
      if (Depth > 1) begin
        for (int k = 0; k < PtrW; k++) begin
          rd_sel[d*N +: N] = rd_sel[d*N +: N] &
                             ((((d >> k) & 1) != 0) ? rd_q[k*N +: N] : ~rd_q[k*N +: N]);
        end
      end
    end
  end

  always_comb begin
    // verilator tracing_off
    logic [N-1:0] full;
    // verilator tracing_on
    head_valid_o = '0;
    full         = '1;
    for (int k = 0; k < CntW; k++) begin
      head_valid_o = head_valid_o | cnt_q[k*N +: N];
      full         = full & ((((Depth >> k) & 1) != 0) ? cnt_q[k*N +: N] : ~cnt_q[k*N +: N]);
    end
    has_space_o = ~full;
  end

  always_comb begin
    head_dst_valid_o = '0;
    head_op_o        = '0;
    head_dep_o       = '0;
    head_flag_o      = '0;
    head_pm_o        = '0;
    for (int d = 0; d < Depth; d++) begin
      for (int b = 0; b < PmW; b++) begin
        head_pm_o[b*N +: N] = head_pm_o[b*N +: N] | (pm_q[(b*Depth + d)*N +: N] & rd_sel[d*N +: N]);
      end
      head_dst_valid_o  = head_dst_valid_o | (dstv_q[d*N +: N] & rd_sel[d*N +: N]);
      head_flag_o[0 +: N] = head_flag_o[0 +: N] | (fl0_q[d*N +: N] & rd_sel[d*N +: N]);
      head_flag_o[N +: N] = head_flag_o[N +: N] | (fl1_q[d*N +: N] & rd_sel[d*N +: N]);
      head_op_o[0 +: N] = head_op_o[0 +: N] | (op0_q[d*N +: N] & rd_sel[d*N +: N]);
      head_op_o[N +: N] = head_op_o[N +: N] | (op1_q[d*N +: N] & rd_sel[d*N +: N]);
      for (int e = 0; e < Entries; e++) begin
        head_dep_o[e*N +: N] = head_dep_o[e*N +: N] |
                               (dep_q[(d*Entries + e)*N +: N] & rd_sel[d*N +: N]);
      end
    end
  end

  // ---- per port: the warps addressed, their count and pointers ----
  logic [Ports-1:0]      push_ok, pop_ok, same;
  logic [Ports*WIdW-1:0] pw, gw;           // push warp, pop warp
  logic [Ports*CntW-1:0] pcnt, gcnt;
  logic [Ports*PtrW-1:0] grd, wr;          // pop read pointer, push write entry
  for (genvar p = 0; p < Ports; p++) begin : g_port
    logic [PtrW-1:0] prd;
    logic [CntW:0]   sum;
    assign pw[p*WIdW +: WIdW] = WIdW'(push_warp_i[p*6 +: 6]);
    assign gw[p*WIdW +: WIdW] = WIdW'(pop_warp_i[p*6 +: 6]);
    for (genvar k = 0; k < CntW; k++) begin : g_cnt
      assign pcnt[p*CntW + k] = cnt_q[k*N + 32'(pw[p*WIdW +: WIdW])];
      assign gcnt[p*CntW + k] = cnt_q[k*N + 32'(gw[p*WIdW +: WIdW])];
    end
    for (genvar k = 0; k < PtrW; k++) begin : g_rd
      assign prd[k]          = rd_q[k*N + 32'(pw[p*WIdW +: WIdW])];
      assign grd[p*PtrW + k] = rd_q[k*N + 32'(gw[p*WIdW +: WIdW])];
    end
    // the entry a push writes: read pointer + count, modulo Depth
    always_comb begin
      sum = {1'b0, pcnt[p*CntW +: CntW]} + (CntW + 1)'(prd);
      if (sum >= (CntW + 1)'(Depth)) sum = sum - (CntW + 1)'(Depth);
      wr[p*PtrW +: PtrW] = PtrW'(sum);
    end
    // a push needs space and is dropped when the warp is cleared
    assign push_ok[p] = push_valid_i[p] && !clear_i[pw[p*WIdW +: WIdW]] &&
                        (pcnt[p*CntW +: CntW] != CntW'(Depth));
    assign pop_ok[p]  = pop_valid_i[p] && (gcnt[p*CntW +: CntW] != '0);
    assign same[p]    = (pw[p*WIdW +: WIdW] == gw[p*WIdW +: WIdW]);
  end

  // Does instruction i (full payload) read or write register r?
  function automatic logic uses_reg(input logic [Width-1:0] i, input logic [RegW-1:0] r);
    uses_reg = (i[OffOp + 2]   && i[OffDst +: RegW]          == r) ||
               (i[OffSrcV]     && i[OffSrc +: RegW]          == r) ||
               (i[OffSrcV + 1] && i[OffSrc + RegW +: RegW]   == r) ||
               (i[OffSrcV + 2] && i[OffSrc + 2*RegW +: RegW] == r);
  endfunction
  // ... the same for a buffered entry: its rest word and dst_valid bit
  function automatic logic rest_uses_reg(input logic [RestW-1:0] x, input logic dst_valid,
                                         input logic [RegW-1:0] r);
    rest_uses_reg = (dst_valid   && x[RDst +: RegW]          == r) ||
                    (x[RSrcV]     && x[RSrc +: RegW]          == r) ||
                    (x[RSrcV + 1] && x[RSrc + RegW +: RegW]   == r) ||
                    (x[RSrcV + 2] && x[RSrc + 2*RegW +: RegW] == r);
  endfunction

  // ---- the heads the ports pop (the issue payload) ----
  for (genvar p = 0; p < Ports; p++) begin : g_pop_data
    logic [RestW-1:0] x;
    logic [BitW-1:0]  b;   // bit of the head entry within a per-entry vector
    assign b = BitW'(32'(grd[p*PtrW +: PtrW]) * N + 32'(gw[p*WIdW +: WIdW]));
    assign x = rest_q[32'(gw[p*WIdW +: WIdW]) * Depth + 32'(grd[p*PtrW +: PtrW])];
    assign pop_data_o[p*Width +: Width] =
        {x[RestW-1:OffOp], dstv_q[b], op1_q[b], op0_q[b], x[OffOp-1:0]};
  end
  for (genvar p = 0; p < Ports; p++) begin : g_rd_data
    logic [WIdW-1:0]  rw;
    logic [PtrW-1:0]  rp;
    logic [RestW-1:0] x;
    logic [BitW-1:0]  b;
    assign rw = WIdW'(rd_warp_i[p*6 +: 6]);
    for (genvar k = 0; k < PtrW; k++) begin : g_rp
      assign rp[k] = rd_q[k*N + 32'(rw)];
    end
    assign b = BitW'(32'(rp) * N + 32'(rw));
    assign x = rest_q[32'(rw) * Depth + 32'(rp)];
    always_comb begin
      rd_data_o[p*Width +: Width] = '0;
      if (rd_en_i[p]) rd_data_o[p*Width +: Width] =
          {x[RestW-1:OffOp], dstv_q[b], op1_q[b], op0_q[b], x[OffOp-1:0]};
    end
  end

  // Every update below is written with one-hot warp masks and constant
  // slices (no variable-index writes): the Verilated model then does a few
  // word operations per event, and synthesis sees plain write decoders.

  // ---- count and read pointer ----
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
      rd_q  <= '0;
    end else begin
      // verilator tracing_off
      logic [CntW*N-1:0] cnt_n;
      logic [PtrW*N-1:0] rd_n;
      logic [CntW-1:0]   c;
      logic [PtrW-1:0]   r;
      logic [N-1:0]      gm, pm;   // one-hot: the pop warp, the push warp
      // verilator tracing_on
      cnt_n = cnt_q;
      rd_n  = rd_q;
      for (int p = 0; p < Ports; p++) begin
        gm = N'(1) << gw[p*WIdW +: WIdW];
        pm = N'(1) << pw[p*WIdW +: WIdW];
        if (pop_ok[p]) begin
          r = (grd[p*PtrW +: PtrW] == PtrW'(Depth - 1)) ? '0 : grd[p*PtrW +: PtrW] + 1'b1;
          for (int k = 0; k < PtrW; k++) begin
            rd_n[k*N +: N] = r[k] ? (rd_n[k*N +: N] | gm) : (rd_n[k*N +: N] & ~gm);
          end
          if (!(push_ok[p] && same[p])) begin
            c = gcnt[p*CntW +: CntW] - 1'b1;
            for (int k = 0; k < CntW; k++) begin
              cnt_n[k*N +: N] = c[k] ? (cnt_n[k*N +: N] | gm) : (cnt_n[k*N +: N] & ~gm);
            end
          end
        end
        if (push_ok[p] && !(pop_ok[p] && same[p])) begin
          c = pcnt[p*CntW +: CntW] + 1'b1;
          for (int k = 0; k < CntW; k++) begin
            cnt_n[k*N +: N] = c[k] ? (cnt_n[k*N +: N] | pm) : (cnt_n[k*N +: N] & ~pm);
          end
        end
      end
      cnt_q <= cnt_n & ~{CntW{clear_i}};
      rd_q  <= rd_n & ~{PtrW{clear_i}};
    end
  end

  // ---- payload and dependency bits ----
  // They need no reset: only entries below the count are looked at, and a
  // slot's dependency bit is rewritten when the slot is allocated (before
  // that the scoreboard's valid bit masks it).
  always_ff @(posedge clk_i) begin
    // verilator tracing_off
    logic [Depth*Entries*N-1:0] dep_n;
    logic [Depth*N-1:0]         op0_n, op1_n, dstv_n, fl0_n, fl1_n;
    logic [PmW*Depth*N-1:0]     pm_n;
    logic [Width-1:0]           head, data;
    logic [RegW-1:0]            areg;
    logic [Entries-1:0]         aslot, dep;
    logic [N-1:0]               gm, pm;
    logic                       alloc, u;
    int unsigned                g, w;
    // verilator tracing_on
    dep_n  = dep_q;
    op0_n  = op0_q;
    op1_n  = op1_q;
    dstv_n = dstv_q;
    fl0_n  = fl0_q;
    fl1_n  = fl1_q;
    pm_n   = pm_q;
    for (int p = 0; p < Ports; p++) begin
      g     = 32'(gw[p*WIdW +: WIdW]);
      w     = 32'(pw[p*WIdW +: WIdW]);
      gm    = N'(1) << gw[p*WIdW +: WIdW];
      pm    = N'(1) << pw[p*WIdW +: WIdW];
      head  = pop_data_o[p*Width +: Width];
      areg  = head[OffDst +: RegW];
      aslot = alloc_slot_i[p*Entries +: Entries];
      alloc = pop_valid_i[p] && head[OffOp + 2];
      // an allocation rewrites the slot's bit of every entry of the warp
      if (alloc) begin
        for (int d = 0; d < Depth; d++) begin
          u = rest_uses_reg(rest_q[g * Depth + d], dstv_q[d*N + g], areg);
          for (int e = 0; e < Entries; e++) begin
            if (aslot[e]) begin
              dep_n[(d*Entries + e)*N +: N] = u ? (dep_n[(d*Entries + e)*N +: N] | gm)
                                                : (dep_n[(d*Entries + e)*N +: N] & ~gm);
            end
          end
        end
      end
      if (push_ok[p]) begin
        data = push_data_i[p*Width +: Width];
        for (int e = 0; e < Entries; e++) begin
          dep[e] = uses_reg(data, (alloc && same[p] && aslot[e])
                                  ? areg : push_sb_reg_i[(p*Entries + e)*RegW +: RegW]);
        end
        for (int d = 0; d < Depth; d++) begin
          if (wr[p*PtrW +: PtrW] == PtrW'(d)) begin
            for (int e = 0; e < Entries; e++) begin
              dep_n[(d*Entries + e)*N +: N] = dep[e] ? (dep_n[(d*Entries + e)*N +: N] | pm)
                                                     : (dep_n[(d*Entries + e)*N +: N] & ~pm);
            end
            op0_n[d*N +: N]  = data[OffOp]     ? (op0_n[d*N +: N] | pm)  : (op0_n[d*N +: N] & ~pm);
            op1_n[d*N +: N]  = data[OffOp + 1] ? (op1_n[d*N +: N] | pm)  : (op1_n[d*N +: N] & ~pm);
            dstv_n[d*N +: N] = data[OffOp + 2] ? (dstv_n[d*N +: N] | pm) : (dstv_n[d*N +: N] & ~pm);
            fl0_n[d*N +: N]  = data[OffFlag0]  ? (fl0_n[d*N +: N] | pm)  : (fl0_n[d*N +: N] & ~pm);
            fl1_n[d*N +: N]  = data[OffFlag1]  ? (fl1_n[d*N +: N] | pm)  : (fl1_n[d*N +: N] & ~pm);
            for (int b = 0; b < PmW; b++) begin
              pm_n[(b*Depth + d)*N +: N] = data[OffPm + b] ? (pm_n[(b*Depth + d)*N +: N] | pm)
                                                           : (pm_n[(b*Depth + d)*N +: N] & ~pm);
            end
          end
        end
        rest_q[w * Depth + 32'(wr[p*PtrW +: PtrW])] <= {data[Width-1:OffOp+3], data[OffOp-1:0]};
      end
    end
    dep_q  <= dep_n;
    op0_q  <= op0_n;
    op1_q  <= op1_n;
    dstv_q <= dstv_n;
    fl0_q  <= fl0_n;
    fl1_q  <= fl1_n;
    pm_q   <= pm_n;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      for (int p = 0; p < Ports; p++) begin
        assert (!pop_valid_i[p] || pop_ok[p]);        // no issue from an empty buffer
        for (int q = p + 1; q < Ports; q++) begin
          // ports address different warps
          assert (!(pop_valid_i[p] && pop_valid_i[q] && gw[p*WIdW +: WIdW] == gw[q*WIdW +: WIdW]));
          assert (!(push_valid_i[p] && push_valid_i[q] && pw[p*WIdW +: WIdW] == pw[q*WIdW +: WIdW]));
        end
      end
    end
  end
`endif
endmodule
