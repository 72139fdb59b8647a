// sched_rcu_bank -- the Result Collection Units of one scheduler's warps
// (HAWS, seed 000 §5.3.3 Fig. 5.6, §5.3.4 Fig. 5.8; docs/haws.md, "Scheduler
// core"). sched_rcu holds one bank per scheduler, each with one port
// (Ports = 1) and the scheduler's warps numbered 0..NumWarps-1; the logic
// below also serves several ports over one set of warps.
//
// Per warp a FIFO of Depth entries, each {offset 9, dst R, renamed R, ready,
// control, valid} (28 bits for R = 8, as in the thesis):
//   - a chain member allocates the tail entry when it issues (alloc port p,
//     one per scheduler): its offset from the stall point, its original
//     destination and the register it wrote (0 and 0 without one), control
//     = it is a branch;
//   - ready is set by a writeback of the register it wrote;
//   - the return pass meets the entries in order (head pointer): a push at
//     the head advances it (adv port p); a skip frees the entry at once, a
//     copy or re-exec when it issues (free port p, by index);
//   - clear_i (launch, finish) empties the RCU, init_i (entry into hint mode,
//     the RCU is empty then) rewinds both pointers.
// The head entry is read only where there is one (the Verilated model
// then skips the memories while no RCU holds anything).
// Outputs: busy (a valid entry), has_head (an entry the return pass has not
// met), and per port the head entry of two warps (the fetch request's and
// the push's). Warps are numbered as the core orders them (slot order).
module sched_rcu_bank #(
  parameter int NumWarps = 16,
  parameter int Ports    = 1,
  parameter int Depth    = 8,   // 0: no RCU (nothing is ever allocated)
  parameter int RegW     = 8,
  parameter int WbPorts  = 4
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic [NumWarps-1:0]         clear_i,
  input  logic [NumWarps-1:0]         init_i,
  // allocation at a chain member's issue
  input  logic [Ports-1:0]            alloc_valid_i,
  input  logic [Ports*6-1:0]          alloc_slot_i,
  input  logic [Ports*9-1:0]          alloc_off_i,
  input  logic [Ports*RegW-1:0]       alloc_dst_i,
  input  logic [Ports*RegW-1:0]       alloc_ren_i,
  input  logic [Ports-1:0]            alloc_ctrl_i,
  // a copy or re-exec issues: its entry is freed
  input  logic [Ports-1:0]            free_valid_i,
  input  logic [Ports*6-1:0]          free_slot_i,
  input  logic [Ports*3-1:0]          free_idx_i,
  // a return-pass push at the head: advance; a skip also frees the head
  input  logic [Ports-1:0]            adv_valid_i,
  input  logic [Ports-1:0]            adv_skip_i,
  input  logic [Ports*6-1:0]          adv_slot_i,
  // writebacks
  input  logic [WbPorts-1:0]          wb_valid_i,
  input  logic [WbPorts*6-1:0]        wb_slot_i,
  input  logic [WbPorts*RegW-1:0]     wb_reg_i,
  output logic [NumWarps-1:0]         busy_o,
  output logic [NumWarps-1:0]         has_head_o,
  // per port: the head entry of rd_slot_i (a) and rd2_slot_i (b)
  input  logic [Ports*6-1:0]          rd_slot_i,
  output logic [Ports*2-1:0]          rd_kind_o,   // 1 skip, 2 copy, 3 re-exec (0: no head)
  output logic [Ports*9-1:0]          rd_off_o,
  output logic [Ports*RegW-1:0]       rd_ren_o,
  output logic [Ports*RegW-1:0]       rd_dst_o,
  input  logic [Ports*6-1:0]          rd2_slot_i,
  output logic [Ports*3-1:0]          rd2_idx_o,   // the head's index
  output logic [Ports*RegW-1:0]       rd2_ren_o,
  output logic [Ports*RegW-1:0]       rd2_dst_o
);
  localparam int N    = NumWarps;
  localparam int D    = (Depth > 0) ? Depth : 1;
  localparam int PW   = $clog2(D + 1);          // pointers 0..Depth
  localparam int WIdW = (N > 1) ? $clog2(N) : 1;
  localparam int IW   = (N * D > 1) ? $clog2(N * D) : 1;   // entry index

`ifdef SCHED_MUTANTS
  // Test-only planted bugs (docs/testing.md, "Detection power"): only the
  // one Verilated variant built with +define+SCHED_MUTANTS has them; the
  // bug is chosen per model instance with +sched_mutant=N (vsched_shim.cpp).
  int unsigned mutant;
  initial begin
    if (!$value$plusargs("sched_mutant=%d", mutant)) mutant = 0;
  end
`endif

  // the entries: word w*D + i
  logic [8:0]      off_q   [N*D];
  logic [RegW-1:0] dst_q   [N*D];
  logic [RegW-1:0] ren_q   [N*D];
  logic            ctrl_q  [N*D];
  logic            ready_q [N*D];
  logic [D-1:0]    valid_q [N];
  logic [PW-1:0]   head_q  [N];
  logic [PW-1:0]   tail_q  [N];
  logic [N-1:0]    busy_q, has_head_q;

  assign busy_o     = busy_q;
  assign has_head_o = has_head_q;

  function automatic logic [1:0] kind_of(input logic ctrl, input logic [RegW-1:0] ren,
                                         input logic [RegW-1:0] dst);
    kind_of = ctrl ? 2'd3 : (ren != dst) ? 2'd2 : 2'd1;
  endfunction

  for (genvar p = 0; p < Ports; p++) begin : g_rd
    logic [WIdW-1:0] a, b;
    logic [IW-1:0]   ia, ib;
    assign a  = WIdW'(rd_slot_i[p*6 +: 6]);
    assign b  = WIdW'(rd2_slot_i[p*6 +: 6]);
    assign ia = IW'(32'(a) * D + 32'(head_q[a]) % D);
    assign ib = IW'(32'(b) * D + 32'(head_q[b]) % D);
    // (read only for a warp with a head: the Verilated model skips the
    // memories otherwise)
    always_comb begin
      rd_kind_o[p*2 +: 2]       = 2'd0;
      rd_off_o[p*9 +: 9]        = 9'd0;
      rd_ren_o[p*RegW +: RegW]  = '0;
      rd_dst_o[p*RegW +: RegW]  = '0;
      rd2_idx_o[p*3 +: 3]       = 3'd0;
      rd2_ren_o[p*RegW +: RegW] = '0;
      rd2_dst_o[p*RegW +: RegW] = '0;
      if (has_head_q != '0) begin
        if (has_head_q[a]) begin
          rd_kind_o[p*2 +: 2]      = kind_of(ctrl_q[ia], ren_q[ia], dst_q[ia]);
          rd_off_o[p*9 +: 9]       = off_q[ia];
          rd_ren_o[p*RegW +: RegW] = ren_q[ia];
          rd_dst_o[p*RegW +: RegW] = dst_q[ia];
        end
        if (has_head_q[b]) begin
          rd2_idx_o[p*3 +: 3]       = 3'(head_q[b]);
          rd2_ren_o[p*RegW +: RegW] = ren_q[ib];
          rd2_dst_o[p*RegW +: RegW] = dst_q[ib];
        end
      end
    end
  end

  // pointers, valid bits and the two vectors
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q     <= '0;
      has_head_q <= '0;
      for (int w = 0; w < N; w++) begin
        valid_q[w] <= '0;
        head_q[w]  <= '0;
        tail_q[w]  <= '0;
      end
    end else begin
      // verilator tracing_off
      logic [N-1:0]  touched, busy_n, hh_n;
      logic [D-1:0]  v;
      logic [PW-1:0] hd, tl;
      logic [WIdW-1:0] w;
      // verilator tracing_on
      touched = '0;
      busy_n  = busy_q;
      hh_n    = has_head_q;
      // (only at an event: the Verilated model skips the block otherwise)
      if (Depth > 0 && (alloc_valid_i != '0 || free_valid_i != '0 || adv_valid_i != '0 ||
                        init_i != '0 || (clear_i & (busy_q | has_head_q)) != '0)) begin
        for (int p = 0; p < Ports; p++) begin
          // issue: allocate the tail (hint mode) or free a copy's/re-exec's entry
          w = WIdW'(alloc_slot_i[p*6 +: 6]);
          if (alloc_valid_i[p]) begin
            tl = tail_q[w];
            v  = valid_q[w] | (D'(1) << tl);
            valid_q[w] <= v;
            tail_q[w]  <= tl + 1'b1;
            busy_n[w]  = 1'b1;
            hh_n[w]    = 1'b1;
          end
          w = WIdW'(free_slot_i[p*6 +: 6]);
          if (free_valid_i[p]) begin
            v = valid_q[w] & ~(D'(1) << free_idx_i[p*3 +: 3]);
            // a skip of the same warp at this edge frees the head too
            if (adv_valid_i[p] && adv_skip_i[p] && adv_slot_i[p*6 +: 6] == free_slot_i[p*6 +: 6])
              v = v & ~(D'(1) << head_q[w]);
            valid_q[w] <= v;
            busy_n[w]  = v != '0;
          end
          // push at the head: advance; a skip frees the entry
          w = WIdW'(adv_slot_i[p*6 +: 6]);
          if (adv_valid_i[p]) begin
            hd = head_q[w] + 1'b1;
`ifdef SCHED_MUTANTS
            if (mutant == 7 && adv_skip_i[p]) hd = head_q[w];   // a skip does not advance
`endif
            head_q[w] <= hd;
            hh_n[w]    = tail_q[w] > hd;
            if (adv_skip_i[p] &&
                !(free_valid_i[p] && adv_slot_i[p*6 +: 6] == free_slot_i[p*6 +: 6])) begin
              v = valid_q[w] & ~(D'(1) << head_q[w]);
              valid_q[w] <= v;
              busy_n[w]  = v != '0;
            end
          end
        end
        // entry rewinds the pointers (the RCU is empty then); launch and
        // finish need only drop valid entries and the head: the pointers
        // are rewound at the next entry anyway
        touched = init_i | (clear_i & (busy_q | has_head_q));
        if (touched != '0) begin
          for (int i = 0; i < N; i++) begin
            if (touched[i]) begin
              head_q[i]  <= '0;
              tail_q[i]  <= '0;
              valid_q[i] <= '0;
            end
          end
        end
      end
      busy_q     <= busy_n & ~clear_i;
      has_head_q <= hh_n & ~touched & ~clear_i;
    end
  end

  // entry fields (no reset: read only below the tail)
  always_ff @(posedge clk_i) begin
    // verilator tracing_off
    logic [IW-1:0] i;
    // verilator tracing_on
    if (Depth > 0 && alloc_valid_i != '0) begin
      for (int p = 0; p < Ports; p++) begin
        i = IW'(32'(WIdW'(alloc_slot_i[p*6 +: 6])) * D + 32'(tail_q[WIdW'(alloc_slot_i[p*6 +: 6])]) % D);
        if (alloc_valid_i[p]) begin
          off_q[i]   <= alloc_off_i[p*9 +: 9];
          dst_q[i]   <= alloc_dst_i[p*RegW +: RegW];
          ren_q[i]   <= alloc_ren_i[p*RegW +: RegW];
          ctrl_q[i]  <= alloc_ctrl_i[p];
          ready_q[i] <= 1'b0;
        end
      end
    end
    // ready: a writeback of the register an entry wrote
    if (Depth > 0 && busy_q != '0) begin
      for (int k = 0; k < WbPorts; k++) begin
        if (wb_valid_i[k] && busy_q[WIdW'(wb_slot_i[k*6 +: 6])]) begin
          for (int d = 0; d < D; d++) begin
            i = IW'(32'(WIdW'(wb_slot_i[k*6 +: 6])) * D + d);
            if (valid_q[WIdW'(wb_slot_i[k*6 +: 6])][d] && ren_q[i] == wb_reg_i[k*RegW +: RegW])
              ready_q[i] <= 1'b1;
          end
        end
      end
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      for (int p = 0; p < Ports; p++) begin
        // never more than Depth entries: an allocation finds the tail free
        assert (!alloc_valid_i[p] || 32'(tail_q[WIdW'(alloc_slot_i[p*6 +: 6])]) + 32'd1 <= Depth);
        // FIFO order: the return pass advances only over an allocated entry,
        // and frees only valid entries it has passed
        assert (!adv_valid_i[p] || has_head_q[WIdW'(adv_slot_i[p*6 +: 6])]);
        assert (!free_valid_i[p] ||
                ((valid_q[WIdW'(free_slot_i[p*6 +: 6])] >> free_idx_i[p*3 +: 3]) & D'(1)) != '0);
        assert (!free_valid_i[p] ||
                32'(free_idx_i[p*3 +: 3]) < 32'(head_q[WIdW'(free_slot_i[p*6 +: 6])]));
      end
      for (int w = 0; w < N; w++) begin
        assert (head_q[w] <= tail_q[w]);
      end
    end
  end
`endif
endmodule
