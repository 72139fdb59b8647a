// sched_core -- the scheduling logic of one SM (top of rtl/).
//
// The interface contract is docs/sched-interface.md; in short:
//   * every input is sampled at the rising clock edge that ends a cycle;
//   * every output is a function of registers only (Moore), so the C side
//     reads the outputs of cycle t, decides the inputs of cycle t and then
//     clocks the edge;
//   * level inputs that steer issue (policy, limits, unit availability,
//     barrier waits) are registered too: a value given in cycle t governs
//     the issue decision of cycle t+1.
//
// Warps are split among the schedulers by id: warp w belongs to scheduler
// w % NumSchedulers with local index w / NumSchedulers. Each scheduler has
// its own push port (pushes only into its own warps), issues at most one
// instruction per cycle and requests at most one buffer refill per cycle.
//
// Instruction payload in the buffers (LSB first), InstrW = 60 + 4*RegIdWidth:
//   pc[32] op[2] dst_valid[1] dst[R] src_valid[3] src[3R] pred[1] long[1]
//   hint[16] pred_miss[4]
// hint (HAWS, a later issue) and pred_miss (OAWS, a later issue) are stored
// and handed out with the issue grant but do not yet steer anything.
//
// The port list below is also cosim/sched_ports.def (one line per port);
// tests/sched/ports-check.sh fails when the two disagree. Adding a port:
// docs/sched-interface.md, "Adding a port".

// Stall-reason codes (stall_reason_o, the counter index in counters_o),
// generated from cosim/sched_reasons.def by `make sched-ports-gen`; edit the
// table, not these lines (tests/sched/ports-check.sh checks they are current).
// BEGIN generated:rtl-reasons
`define SCHED_REASON_ISSUE      3'd0  // issue
`define SCHED_REASON_NO_INSTR   3'd1  // no_instr
`define SCHED_REASON_SCOREBOARD 3'd2  // scoreboard
`define SCHED_REASON_LONG_DEP   3'd3  // long_dep
`define SCHED_REASON_UNIT_BUSY  3'd4  // unit_busy
`define SCHED_REASON_BARRIER    3'd5  // barrier
`define SCHED_REASON_WARP_LIMIT 3'd6  // warp_limit
`define SCHED_NUM_REASONS 7
// END generated:rtl-reasons

module sched_core #(
  parameter int NumWarps      = 64,
  parameter int NumSchedulers = 4,
  parameter int RegIdWidth    = 8,
  parameter int IbufDepth     = 2,
  parameter int SbEntries     = 6,
  parameter int WbPorts       = 4
) (
  input  logic clk_i,
  input  logic rst_ni,

  // run-time configuration and per-cycle levels (registered)
  input  logic [1:0]                 policy_i,      // 0 LRR, 1 GTO, 2 two-level
  input  logic [6:0]                 warp_limit_i,  // SWL: 0 = no limit
  input  logic [6:0]                 pool_size_i,   // two-level active pool per scheduler
  input  logic [NumSchedulers*4-1:0] unit_avail_i,  // [s*4 + op class]
  input  logic [NumWarps-1:0]        barrier_i,     // warp waits at a barrier

  // warp life-cycle events
  input  logic [NumWarps-1:0]        launch_i,
  input  logic [NumWarps-1:0]        finish_i,

  // instruction pushes, one port per scheduler
  input  logic [NumSchedulers-1:0]            push_valid_i,
  input  logic [NumSchedulers*6-1:0]          push_warp_i,
  input  logic [NumSchedulers*32-1:0]         push_pc_i,
  input  logic [NumSchedulers*2-1:0]          push_op_i,
  input  logic [NumSchedulers-1:0]            push_dst_valid_i,
  input  logic [NumSchedulers*RegIdWidth-1:0] push_dst_i,
  input  logic [NumSchedulers*3-1:0]          push_src_valid_i,
  input  logic [NumSchedulers*3*RegIdWidth-1:0] push_src_i,
  input  logic [NumSchedulers-1:0]            push_pred_i,
  input  logic [NumSchedulers-1:0]            push_long_i,
  input  logic [NumSchedulers*16-1:0]         push_hint_i,
  input  logic [NumSchedulers*4-1:0]          push_pred_miss_i,

  // register writebacks
  input  logic [WbPorts-1:0]                  wb_valid_i,
  input  logic [WbPorts*6-1:0]                wb_warp_i,
  input  logic [WbPorts*RegIdWidth-1:0]       wb_reg_i,

  // issue grants, one per scheduler (fields are zero when not valid)
  output logic [NumSchedulers-1:0]            issue_valid_o,
  output logic [NumSchedulers*6-1:0]          issue_warp_o,
  output logic [NumSchedulers*32-1:0]         issue_pc_o,
  output logic [NumSchedulers*2-1:0]          issue_op_o,
  output logic [NumSchedulers-1:0]            issue_dst_valid_o,
  output logic [NumSchedulers*RegIdWidth-1:0] issue_dst_o,
  output logic [NumSchedulers-1:0]            issue_pred_o,
  output logic [NumSchedulers-1:0]            issue_long_o,
  output logic [NumSchedulers*16-1:0]         issue_hint_o,
  output logic [NumSchedulers*4-1:0]          issue_pred_miss_o,
  output logic [NumSchedulers*3-1:0]          stall_reason_o, // 0 when issuing

  // buffer refill requests, one per scheduler
  output logic [NumSchedulers-1:0]            fetch_valid_o,
  output logic [NumSchedulers*6-1:0]          fetch_warp_o,

  // per warp: a long-latency write is pending (HAWS trigger)
  output logic [NumWarps-1:0]                 long_pending_o,

  // per scheduler, 7 counters of 32 bits (see sched_counters)
  output logic [NumSchedulers*7*32-1:0]       counters_o
);
  localparam int R      = RegIdWidth;
  localparam int Wps    = NumWarps / NumSchedulers;
  localparam int LIdxW  = (Wps > 1) ? $clog2(Wps) : 1;
  // payload field offsets
  localparam int OffPc       = 0;
  localparam int OffOp       = 32;
  localparam int OffDstV     = 34;
  localparam int OffDst      = 35;
  localparam int OffSrcV     = 35 + R;
  localparam int OffSrc      = 38 + R;
  localparam int OffPred     = 38 + 4 * R;
  localparam int OffLong     = 39 + 4 * R;
  localparam int OffHint     = 40 + 4 * R;
  localparam int OffPredMiss = 56 + 4 * R;
  localparam int InstrW      = 60 + 4 * R;

  localparam logic [1:0] PolicyTwoLevel = 2'd2;

`ifdef SCHED_MUTANTS
  // Test-only planted bugs (docs/testing.md, "Detection power"): only the
  // one Verilated variant built with +define+SCHED_MUTANTS has them; the
  // bug is chosen per model instance with +sched_mutant=N (vsched_shim.cpp).
  int unsigned mutant;
  initial begin
    if (!$value$plusargs("sched_mutant=%d", mutant)) mutant = 0;
  end
`endif

  // Slot order. Inside the core every per-warp vector is indexed by slot,
  // not by warp id: warp w (scheduler w % NumSchedulers, local index
  // w / NumSchedulers) sits at slot (w % NumSchedulers) * Wps + local index,
  // so the warps of scheduler s are the contiguous slots [s*Wps +: Wps]. In
  // hardware this is only wiring; in the Verilated model it turns every
  // per-scheduler gather of warps into a word slice. The ports keep warp
  // order: the vector inputs and long_pending_o are permuted at the
  // boundary (skipped while all zero), warp ids are converted per port.
  function automatic logic [NumWarps-1:0] to_slots(input logic [NumWarps-1:0] v);
    for (int w = 0; w < NumWarps; w++) to_slots[(w % NumSchedulers) * Wps + w / NumSchedulers] = v[w];
  endfunction
  function automatic logic [NumWarps-1:0] to_warps(input logic [NumWarps-1:0] v);
    for (int w = 0; w < NumWarps; w++) to_warps[w] = v[(w % NumSchedulers) * Wps + w / NumSchedulers];
  endfunction
  function automatic logic [5:0] slot_of(input logic [5:0] w);
    slot_of = 6'((32'(w) % NumSchedulers) * Wps + 32'(w) / NumSchedulers);
  endfunction

  // registered levels (barrier and alive in slot order)
  logic [1:0]                 policy_q;
  logic [6:0]                 warp_limit_q;
  logic [6:0]                 pool_size_q;
  logic [NumSchedulers*4-1:0] unit_avail_q;
  logic [NumWarps-1:0]        barrier_q;
  logic [NumWarps-1:0]        alive_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      policy_q     <= '0;
      warp_limit_q <= '0;
      pool_size_q  <= '0;
      unit_avail_q <= '0;
      barrier_q    <= '0;
      alive_q      <= '0;
    end else begin
      policy_q     <= policy_i;
      warp_limit_q <= warp_limit_i;
      pool_size_q  <= pool_size_i;
      unit_avail_q <= unit_avail_i;
      if (barrier_i != '0 || barrier_q != '0) barrier_q <= to_slots(barrier_i);
      if ((launch_i | finish_i) != '0) begin
        alive_q <= (alive_q & ~to_slots(finish_i)) | to_slots(launch_i);
      end
    end
  end

  // warp launch and finish, in slot order
  logic [NumWarps-1:0] launch_s, clear_s;
  always_comb begin
    launch_s = '0;
    clear_s  = '0;
    if ((launch_i | finish_i) != '0) begin
      launch_s = to_slots(launch_i);
      clear_s  = to_slots(launch_i | finish_i);
    end
  end

  // Static warp limit: a warp may issue when fewer than warp_limit alive
  // warps have a lower id (the first warp_limit alive warps of the SM).
  // Without a limit the prefix count is skipped (the Verilated model then
  // does not walk the warps).
  logic [NumWarps-1:0] swl_ok;
  always_comb begin
    // verilator tracing_off
    logic [6:0]          n_lower;
    logic [NumWarps-1:0] alive_w, ok_w;   // in warp order
    // verilator tracing_on
    swl_ok  = '1;
    n_lower = '0;
    alive_w = '0;
    ok_w    = '1;
    if (warp_limit_q != '0) begin
      alive_w = to_warps(alive_q);
      for (int w = 0; w < NumWarps; w++) begin
        ok_w[w] = (n_lower < warp_limit_q);
`ifdef SCHED_MUTANTS
        if (mutant == 3) ok_w[w] = (n_lower <= warp_limit_q);  // SWL one warp too many
`endif
        n_lower = n_lower + {6'd0, alive_w[w]};
      end
      swl_ok = to_slots(ok_w);
    end
  end

  // per-warp vectors (slot order)
  logic [NumWarps-1:0]          head_valid, head_dst_valid;
  logic [2*NumWarps-1:0]        head_op;
  logic [SbEntries*NumWarps-1:0] head_dep;
  logic [NumWarps-1:0]          has_space;
  logic [NumWarps-1:0]          hazard, hazard_long, sb_full, long_pending;
  logic [NumWarps-1:0]          ready;
  logic [NumWarps-1:0]          limit_ok, unit_ok, need_full;
  // per-warp stall reasons, one mask each (see sched_qualify)
  logic [NumWarps-1:0]          r_no_instr, r_barrier, r_warp_limit, r_long_dep;
  logic [NumWarps-1:0]          r_scoreboard, r_unit_busy;
  logic [NumWarps-1:0]          in_active;

  always_comb begin
    long_pending_o = '0;
    if (long_pending != '0) long_pending_o = to_warps(long_pending);
  end

  // per-scheduler wires
  logic [NumSchedulers-1:0]        grant_valid;
  logic [NumSchedulers*6-1:0]      grant_warp;     // global warp id
  logic [NumSchedulers*6-1:0]      grant_slot;     // its slot
  logic [NumSchedulers*InstrW-1:0] grant_head;     // its buffer head
  logic [NumSchedulers*InstrW-1:0] push_data;
  logic [NumSchedulers-1:0]        push_valid;     // a push into a warp of the port's scheduler
  logic [NumSchedulers*6-1:0]      push_slot;
  logic [WbPorts-1:0]              wb_valid;       // a writeback to an existing warp
  logic [WbPorts*6-1:0]            wb_slot;
  logic [NumSchedulers-1:0]        alloc_valid, alloc_long;
  logic [NumSchedulers*R-1:0]      alloc_reg;
  logic [NumSchedulers*SbEntries-1:0] alloc_slot;
  logic [NumSchedulers*SbEntries*R-1:0] push_sb_reg;

  for (genvar s = 0; s < NumSchedulers; s++) begin : g_push_data
    assign push_data[s*InstrW +: InstrW] =
        {push_pred_miss_i[s*4 +: 4], push_hint_i[s*16 +: 16],
         push_long_i[s], push_pred_i[s],
         push_src_i[s*3*R +: 3*R], push_src_valid_i[s*3 +: 3],
         push_dst_i[s*R +: R], push_dst_valid_i[s],
         push_op_i[s*2 +: 2], push_pc_i[s*32 +: 32]};
    // port s pushes only into the warps of scheduler s (others are dropped)
    assign push_valid[s] = push_valid_i[s] && (32'(push_warp_i[s*6 +: 6]) < NumWarps) &&
                           (32'(push_warp_i[s*6 +: 6]) % NumSchedulers == s);
    assign push_slot[s*6 +: 6] = slot_of(push_warp_i[s*6 +: 6]);
    // an issue with a destination takes a scoreboard slot
    assign alloc_valid[s]          = grant_valid[s] && grant_head[s*InstrW + OffDstV];
    assign alloc_reg[s*R +: R]     = grant_head[s*InstrW + OffDst +: R];
    assign alloc_long[s]           = grant_head[s*InstrW + OffLong];
  end
  for (genvar k = 0; k < WbPorts; k++) begin : g_wb
    // writebacks to warp ids beyond NumWarps are ignored
    assign wb_valid[k]       = wb_valid_i[k] && (32'(wb_warp_i[k*6 +: 6]) < NumWarps)
`ifdef SCHED_MUTANTS
                               // a writeback of the highest register id is lost
                               && !(mutant == 4 && (&wb_reg_i[k*R +: R]))
`endif
                               ;
    assign wb_slot[k*6 +: 6] = slot_of(wb_warp_i[k*6 +: 6]);
  end

  sched_ibuffer #(.NumWarps(NumWarps), .Ports(NumSchedulers), .Depth(IbufDepth),
                  .Width(InstrW), .Entries(SbEntries), .RegW(R), .OffOp(OffOp),
                  .OffDst(OffDst), .OffSrcV(OffSrcV), .OffSrc(OffSrc)) u_ibuf (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .clear_i         (clear_s),
    .push_valid_i    (push_valid),
    .push_warp_i     (push_slot),
    .push_data_i     (push_data),
    .pop_valid_i     (grant_valid),
    .pop_warp_i      (grant_slot),
    .alloc_slot_i    (alloc_slot),
    .push_sb_reg_i   (push_sb_reg),
    .head_valid_o    (head_valid),
    .has_space_o     (has_space),
    .head_dst_valid_o(head_dst_valid),
    .head_op_o       (head_op),
    .head_dep_o      (head_dep),
    .pop_data_o      (grant_head)
  );

  sched_scoreboard #(.NumWarps(NumWarps), .Entries(SbEntries), .RegW(R), .WbPorts(WbPorts),
                     .AllocPorts(NumSchedulers)) u_sb (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .clear_i       (launch_s),
    .alloc_valid_i (alloc_valid),
    .alloc_warp_i  (grant_slot),
    .alloc_reg_i   (alloc_reg),
    .alloc_long_i  (alloc_long),
    .wb_valid_i    (wb_valid),
    .wb_warp_i     (wb_slot),
    .wb_reg_i      (wb_reg_i),
    .head_dep_i    (head_dep),
    .rd_warp_i     (push_slot),
    .rd_reg_o      (push_sb_reg),
    .alloc_slot_o  (alloc_slot),
    .hazard_o      (hazard),
    .hazard_long_o (hazard_long),
    .full_o        (sb_full),
    .long_pending_o(long_pending)
  );

  // per op class the slots whose scheduler has that unit available
  logic [4*NumWarps-1:0] unit_warps;          // op class c at [c*NumWarps +: NumWarps]
  always_comb begin
    for (int c = 0; c < 4; c++) begin
      for (int s = 0; s < NumSchedulers; s++) begin
        unit_warps[c*NumWarps + s*Wps +: Wps] = {Wps{unit_avail_q[s*4 + c]}};
      end
    end
  end
  logic [NumWarps-1:0] op0, op1;
  assign op0 = head_op[0 +: NumWarps];
  assign op1 = head_op[NumWarps +: NumWarps];
  assign unit_ok   = (~op1 & ~op0 & unit_warps[0 +: NumWarps]) |
                     (~op1 &  op0 & unit_warps[NumWarps +: NumWarps]) |
                     ( op1 & ~op0 & unit_warps[2*NumWarps +: NumWarps]) |
                     ( op1 &  op0 & unit_warps[3*NumWarps +: NumWarps]);
  assign limit_ok  = swl_ok & ((policy_q != PolicyTwoLevel) ? '1 : in_active);
  assign need_full = head_dst_valid & sb_full
`ifdef SCHED_MUTANTS
                     & {NumWarps{mutant != 6}}   // a full scoreboard does not stall
`endif
                     ;
  logic [NumWarps-1:0] qual_head_valid;
  assign qual_head_valid = head_valid
`ifdef SCHED_MUTANTS
                           | {NumWarps{mutant == 5}}  // an empty buffer looks like an instruction
`endif
                           ;

  sched_qualify #(.N(NumWarps)) u_qual (
    .alive_i          (alive_q),
    .head_valid_i     (qual_head_valid),
    .barrier_i        (barrier_q),
    .limit_ok_i       (limit_ok),
    .hazard_i         (hazard),
    .hazard_long_i    (hazard_long),
    .need_entry_full_i(need_full),
    .unit_ok_i        (unit_ok),
    .ready_o          (ready),
    .no_instr_o       (r_no_instr),
    .barrier_o        (r_barrier),
    .warp_limit_o     (r_warp_limit),
    .long_dep_o       (r_long_dep),
    .scoreboard_o     (r_scoreboard),
    .unit_busy_o      (r_unit_busy)
  );

  for (genvar s = 0; s < NumSchedulers; s++) begin : g_sched
    logic [Wps-1:0]   ready_l, space_l, alive_l, long_wait_l, active_l;
    logic [LIdxW-1:0] gidx, fidx;
    logic             fvalid;
    logic [InstrW-1:0] issued;
    logic [2:0]       sreason;

    // this scheduler's warps are the slots [s*Wps +: Wps]
    assign ready_l     = ready[s*Wps +: Wps];
    assign space_l     = alive_q[s*Wps +: Wps] & has_space[s*Wps +: Wps];
    assign alive_l     = alive_q[s*Wps +: Wps];
    assign long_wait_l = head_valid[s*Wps +: Wps] & hazard_long[s*Wps +: Wps];
    assign in_active[s*Wps +: Wps] = active_l;

    sched_arbiter #(.N(Wps), .IdxW(LIdxW)) u_arb (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .policy_i     (policy_q),
      .ready_i      (ready_l),
      .grant_valid_o(grant_valid[s]),
      .grant_idx_o  (gidx)
    );
    assign grant_warp[s*6 +: 6] = 6'(32'(gidx) * NumSchedulers + s);
    assign grant_slot[s*6 +: 6] = 6'(s * Wps + 32'(gidx));

    sched_pool #(.N(Wps)) u_pool (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .pool_size_i(pool_size_q),
      .alive_i    (alive_l),
      .long_wait_i(long_wait_l),
      .in_active_o(active_l)
    );

    sched_fetch_arb #(.N(Wps), .IdxW(LIdxW)) u_fetch (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .space_i    (space_l),
      .req_valid_o(fvalid),
      .req_idx_o  (fidx)
    );
    assign fetch_valid_o[s]      = fvalid;
    assign fetch_warp_o[s*6 +: 6] = fvalid ? 6'(32'(fidx) * NumSchedulers + s) : 6'd0;

    // issued instruction and the reason for not issuing
    assign issued = grant_valid[s] ? grant_head[s*InstrW +: InstrW] : '0;
    // The scheduler's reason: the first of unit busy, scoreboard,
    // long-latency dependence, warp limit, barrier among its warps.
    always_comb begin
      if (grant_valid[s])                          sreason = `SCHED_REASON_ISSUE;
      else if (r_unit_busy[s*Wps +: Wps]  != '0)  sreason = `SCHED_REASON_UNIT_BUSY;
      else if (r_scoreboard[s*Wps +: Wps] != '0)  sreason = `SCHED_REASON_SCOREBOARD;
      else if (r_long_dep[s*Wps +: Wps]   != '0)  sreason = `SCHED_REASON_LONG_DEP;
      else if (r_warp_limit[s*Wps +: Wps] != '0)  sreason = `SCHED_REASON_WARP_LIMIT;
      else if (r_barrier[s*Wps +: Wps]    != '0)  sreason = `SCHED_REASON_BARRIER;
      else                                         sreason = `SCHED_REASON_NO_INSTR;
    end

    assign issue_valid_o[s]              = grant_valid[s];
    assign issue_warp_o[s*6 +: 6]        = grant_valid[s] ? grant_warp[s*6 +: 6] : 6'd0;
    assign issue_pc_o[s*32 +: 32]        = issued[OffPc +: 32];
    assign issue_op_o[s*2 +: 2]          = issued[OffOp +: 2];
    assign issue_dst_valid_o[s]          = issued[OffDstV];
    assign issue_dst_o[s*R +: R]         = issued[OffDst +: R];
    assign issue_pred_o[s]               = issued[OffPred];
    assign issue_long_o[s]               = issued[OffLong];
    assign issue_hint_o[s*16 +: 16]      = issued[OffHint +: 16];
    assign issue_pred_miss_o[s*4 +: 4]   = issued[OffPredMiss +: 4];
    assign stall_reason_o[s*3 +: 3]      = sreason;

    sched_counters u_cnt (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .reason_i(sreason),
      .count_o (counters_o[s*7*32 +: 7*32])
    );
  end

  // Assertions of the core's invariants, here and in the blocks (docs/rtl.md,
  // "Assertions"): immediate assertions in clocked processes, a form that
  // both Yosys (read_verilog -sv -formal) and the Verilated build accept,
  // compiled with --assert; left out of synthesis (Yosys defines SYNTHESIS).
`ifndef SYNTHESIS
  logic [NumWarps-1:0] granted;       // the warps granted this cycle, as a vector
  always_comb begin
    granted = '0;
    for (int s = 0; s < NumSchedulers; s++) begin
      if (grant_valid[s]) granted = granted | (NumWarps'(1) << grant_slot[s*6 +: 6]);
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      // one grant per issuing scheduler, each to a different warp of its own,
      // and only to a warp that is alive, has an instruction and is ready
      assert ($countones(granted) == $countones(grant_valid));
      assert ((granted & ~(alive_q & head_valid & ready)) == '0);
      for (int s = 0; s < NumSchedulers; s++) begin
        assert (!grant_valid[s] || (32'(grant_slot[s*6 +: 6]) / Wps == s));
        // an allocation only for a head without hazard: never two pending
        // writes of a warp to one register (WAW waits)
        assert (!alloc_valid[s] || !hazard[32'(grant_slot[s*6 +: 6])]);
      end
    end
  end
`endif
endmodule
