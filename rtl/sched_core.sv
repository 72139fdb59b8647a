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
// Instruction payload in the buffers (LSB first), InstrW = 78 + 5*RegIdWidth:
//   pc[32] op[2] dst_valid[1] dst[R] src_valid[3] src[3R] pred[1]
//   hint[24] pred_miss[6] pred_div[1] long[1]
//   hinted[1] copy[1] rcu_free[1] rcu_idx[3] orig_dst[R] entry_ok[1]  (HAWS)
// OAWS (docs/oaws.md): pred_miss and pred_div, the stored prediction, are
// kept bit-sliced per warp by the buffer too; sched_oaws applies Eq. 1 to
// the LD/ST heads and the qualification holds the occluded ones; `long`
// follows them, so the same bit-sliced group gives the peers (sched_ccws,
// sched_mascar; docs/oaws.md, "Peers") each head's load flag. HAWS (docs/haws.md, "Scheduler
// core"): a chain member pushed in hint mode is `hinted`, reads its sources
// through the renaming table and, when renamed, has dst = the renamed
// register and orig_dst = the original; a return-pass copy is built here
// (dst = the RCU head's dst, src[0] = its renamed register, `copy`); a copy
// or re-exec frees RCU entry rcu_idx when it issues (`rcu_free`); entry_ok:
// the hint is an entry hint (format 1, offset != 0).
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
`define SCHED_REASON_OCCLUDED   3'd7  // occluded
`define SCHED_NUM_REASONS 8
// END generated:rtl-reasons

module sched_core #(
  parameter int NumWarps      = 64,
  parameter int NumSchedulers = 4,
  parameter int RegIdWidth    = 8,
  parameter int IbufDepth     = 2,
  parameter int SbEntries     = 6,
  parameter int WbPorts       = 4,
  parameter int RcuDepth      = 8,   // HAWS: RCU entries per warp (0 = no HAWS hardware)
  parameter int RenEntries    = 8,   // HAWS: renaming-table entries per warp
  // Mechanisms a variant may leave out (docs/rtl.md, "Variants"): 0 removes
  // the logic, its outputs read 0 and its inputs must be 0 (sched_params.omit)
  parameter int EnOaws        = 1,     // OAWS: Eq. 1, Miss_inflight, the OCW logic
  parameter int EnPeers       = 1,     // CCWS and MASCAR
  parameter int EnGrouped     = 1     // the grouped policy
) (
  input  logic clk_i,
  input  logic rst_ni,

  // run-time configuration and per-cycle levels (registered)
  input  logic [1:0]                 policy_i,      // 0 LRR, 1 GTO, 2 two-level, 3 grouped
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
  input  logic [NumSchedulers*24-1:0]         push_hint_i,
  input  logic [NumSchedulers*6-1:0]          push_pred_miss_i,
  input  logic [NumSchedulers-1:0]            push_pred_div_i,
  input  logic [NumSchedulers*2-1:0]          push_rcu_i,     // HAWS return pass kind

  // register writebacks
  input  logic [WbPorts-1:0]                  wb_valid_i,
  input  logic [WbPorts*6-1:0]                wb_warp_i,
  input  logic [WbPorts*RegIdWidth-1:0]       wb_reg_i,

  // HAWS: mode (not registered) and hint-mode branch outcomes
  input  logic [1:0]                          haws_i,
  input  logic [NumSchedulers-1:0]            hbr_valid_i,
  input  logic [NumSchedulers*6-1:0]          hbr_warp_i,
  input  logic [NumSchedulers-1:0]            hbr_taken_i,
  input  logic [NumSchedulers-1:0]            hbr_uniform_i,

  // OAWS (registered levels; ldst_retire_i is an event)
  input  logic [1:0]                          oaws_i,         // 0 off, 1 static, 2 dynamic
  input  logic [6:0]                          mshr_avail_i,   // Avail_mshr
  input  logic [6:0]                          oaws_cap_i,     // eff saturates here
  input  logic [6:0]                          ldst_retire_i,  // eff of retired LD/ST insts
  input  logic [1:0]                          ocw_event_i,    // OCW logic: 1 fully, 2 partially
  input  logic                                ocw_half_i,     //   cached, 3 load; delta CNT/2
  input  logic [6:0]                          ocw_min_i,      //   bounds and initial values,
  input  logic [6:0]                          ocw_max_i,      //   sampled at the event's edge
  input  logic [7:0]                          cnt_max_i,
  input  logic [7:0]                          cnt_init_i,
  // peers of OAWS (docs/oaws.md, "Peers"): 1 CCWS, 2 MASCAR (registered
  // levels; the VTA hit is an event)
  input  logic [1:0]                          peer_i,
  input  logic [9:0]                          ccws_base_i,    // CCWS base score
  input  logic [11:0]                         ccws_bump_i,    // score added by a VTA hit
  input  logic                                vta_valid_i,    // a VTA hit (CCWS) ...
  input  logic [5:0]                          vta_warp_i,     // ... of this warp
  input  logic                                mascar_sat_i,   // memory subsystem saturated
  // grouped policy (3): OWL priority (registered level); group id of each
  // launched warp, sampled with launch_i (docs/sched-interface.md, "Grouped")
  input  logic                                group_prio_i,
  input  logic [NumWarps*6-1:0]               launch_group_i,

  // issue grants, one per scheduler (fields are zero when not valid)
  output logic [NumSchedulers-1:0]            issue_valid_o,
  output logic [NumSchedulers*6-1:0]          issue_warp_o,
  output logic [NumSchedulers*32-1:0]         issue_pc_o,
  output logic [NumSchedulers*2-1:0]          issue_op_o,
  output logic [NumSchedulers-1:0]            issue_dst_valid_o,
  output logic [NumSchedulers*RegIdWidth-1:0] issue_dst_o,
  output logic [NumSchedulers-1:0]            issue_pred_o,
  output logic [NumSchedulers-1:0]            issue_long_o,
  output logic [NumSchedulers*24-1:0]         issue_hint_o,
  output logic [NumSchedulers*6-1:0]          issue_pred_miss_o,
  output logic [NumSchedulers-1:0]            issue_pred_div_o,
  output logic [NumSchedulers*7-1:0]          issue_eff_miss_o, // OAWS: eff used by Eq. 1
  output logic [NumSchedulers-1:0]            issue_hinted_o,  // HAWS chain member
  output logic [NumSchedulers-1:0]            issue_copy_o,    // HAWS return-pass copy
  output logic [NumSchedulers*3-1:0]          stall_reason_o, // 0 when issuing

  // buffer refill requests, one per scheduler
  output logic [NumSchedulers-1:0]            fetch_valid_o,
  output logic [NumSchedulers*6-1:0]          fetch_warp_o,
  // HAWS: chain fetch pc, RCU head of the requested warp
  output logic [NumSchedulers-1:0]            fetch_pc_valid_o,
  output logic [NumSchedulers*32-1:0]         fetch_pc_o,
  output logic [NumSchedulers*2-1:0]          fetch_rcu_kind_o,
  output logic [NumSchedulers*32-1:0]         fetch_rcu_pc_o,
  output logic [NumSchedulers*RegIdWidth-1:0] fetch_rcu_ren_o,
  output logic [NumSchedulers*RegIdWidth-1:0] fetch_rcu_dst_o,

  // per warp: a long-latency write is pending (HAWS trigger)
  output logic [NumWarps-1:0]                 long_pending_o,
  // HAWS: per warp, hint mode and RCU busy
  output logic [NumWarps-1:0]                 haws_mode_o,
  output logic [NumWarps-1:0]                 rcu_busy_o,

  // OAWS: the Miss_inflight register
  output logic [6:0]                          miss_inflight_o,
  output logic [6:0]                          ocw_o,
  output logic [7:0]                          ocw_cnt_o,
  // peers: warps CCWS holds from loads; MASCAR's owner {valid, warp}
  output logic [NumWarps-1:0]                 ccws_hold_o,
  output logic [6:0]                          mascar_owner_o,

  // per scheduler, 8 counters of 32 bits (see sched_counters)
  output logic [NumSchedulers*8*32-1:0]       counters_o
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
  localparam int OffHint     = 39 + 4 * R;
  localparam int OffPredMiss = 63 + 4 * R;   // pred_miss[6], then pred_div, long
  localparam int OffPredDiv  = 69 + 4 * R;
  localparam int OffLong     = 70 + 4 * R;
  localparam int OffHinted   = 71 + 4 * R;
  localparam int OffCopy     = 72 + 4 * R;
  localparam int OffRcuFree  = 73 + 4 * R;
  localparam int OffRcuIdx   = 74 + 4 * R;
  localparam int OffOrigDst  = 77 + 4 * R;
  localparam int OffEntOk    = 77 + 5 * R;
  localparam int InstrW      = 78 + 5 * R;

  localparam logic [1:0] PolicyTwoLevel = 2'd2;
  localparam logic [1:0] PolicyGrouped  = 2'd3;

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
  logic                       group_prio_q;
  // grouped policy: each warp's group id (6 bits, slot order), written at launch
  logic [NumWarps*6-1:0]      group_q;

  if (EnGrouped != 0) begin : g_group_ids
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        group_prio_q <= 1'b0;
        group_q      <= '0;
      end else begin
        group_prio_q <= group_prio_i;
        if (launch_i != '0) begin
          for (int w = 0; w < NumWarps; w++) begin
            if (launch_i[w]) group_q[32'(slot_of(6'(w))) * 6 +: 6] <= launch_group_i[w*6 +: 6];
          end
        end
      end
    end
  end else begin : g_no_group_ids
    assign group_prio_q = 1'b0;
    assign group_q      = '0;
    logic unused_group;
    assign unused_group = ^{group_prio_i, launch_group_i, group_prio_q, group_q};
  end

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
  logic [NumWarps-1:0]          r_scoreboard, r_unit_busy, r_occluded;
  // OAWS
  // stored prediction and long, bit-sliced: bits 0..6 for OAWS, 7 for
  // CCWS; one unused slice in a variant without either
  localparam int PmW = (EnOaws != 0 || EnPeers != 0) ? 8 : 1;
  logic [PmW*NumWarps-1:0]      head_pm;
  logic [NumWarps-1:0]          ccws_block;     // CCWS holds these heads (global/local loads)
  logic                         unused_pm;      // the slices a variant does not read
  assign unused_pm = ^head_pm;
  // peers (docs/oaws.md, "Peers")
  logic [NumWarps-1:0]          ldst_head, ccws_hold, mascar_hold, ready_m;
  logic [NumWarps-1:0]          occlude;        // Eq. 1 violated (LD/ST heads)
  logic [NumSchedulers*7-1:0]   grant_eff;
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
  logic [SbEntries*NumWarps-1:0]   sb_long_slots, sb_release;
  logic [NumSchedulers*6-1:0]      fetch_slot;      // the fetch request's warp (slot)
  logic [NumSchedulers-1:0]        fetch_chain, fetch_rcu;
  logic [NumSchedulers*32-1:0]     haws_rd_pc;      // its stall pc ...
  logic [NumSchedulers*9-1:0]      haws_rd_cursor;  // ... cursor ...
  logic [NumSchedulers*2-1:0]      rcu_rd_kind;     // ... and RCU head
  logic [NumSchedulers*9-1:0]      rcu_rd_off;
  logic [NumSchedulers*R-1:0]      rcu_rd_ren, rcu_rd_dst;
  logic [NumSchedulers*3-1:0]      rcu_free_idx;
  logic [NumSchedulers*R-1:0]      ren_new;

  // HAWS wires (slot order; see the HAWS section below)
  logic [NumWarps-1:0]             haws_mode, chain_ok, haws_enter, haws_exit, haws_drop;
  logic [NumWarps-1:0]             rcu_busy, rcu_has_head;
  logic [2*NumWarps-1:0]           head_flag;       // 0: head is a copy, 1: entry hint
  logic [NumSchedulers*3*R-1:0]    ren_src;         // the pushes' sources through the table
  logic [NumSchedulers-1:0]        ren_full;
  logic [NumSchedulers*3-1:0]      rcu_push_idx;    // the pushed warp's RCU head
  logic [NumSchedulers*R-1:0]      rcu_push_ren, rcu_push_dst;
  logic [NumSchedulers-1:0]        chain_push, ren_upd, rcu_adv, rcu_skip, buf_push;
  logic [NumSchedulers*6-1:0]      ent_slot;
  logic [NumSchedulers-1:0]        ent_valid;
  logic [NumSchedulers*InstrW-1:0] ent_head;

  for (genvar s = 0; s < NumSchedulers; s++) begin : g_push_data
    logic [23:0]     hint;
    logic [1:0]      rcu;
    logic            pmode, rename, copy, rfree, space;
    logic [R-1:0]    odst;
    assign hint   = push_hint_i[s*24 +: 24];
    assign rcu    = push_rcu_i[s*2 +: 2];
    assign pmode  = haws_mode[32'(push_slot[s*6 +: 6])];
    assign space  = has_space[32'(push_slot[s*6 +: 6])];
    // chain member: renamed when its format-1 hint says so and it writes
    assign rename = pmode && !hint[23] && hint[9] && push_dst_valid_i[s];
    // return pass (normal mode): copy, or a copy/re-exec freeing its entry at issue
    assign copy   = !pmode && rcu == 2'd2;
    assign rfree  = !pmode && rcu[1];
    assign odst   = (pmode && push_dst_valid_i[s]) ? push_dst_i[s*R +: R] : '0;
    assign push_data[s*InstrW +: InstrW] =
        {(!hint[23] && hint[8:0] != 9'd0), odst,
         rfree ? rcu_push_idx[s*3 +: 3] : 3'd0, rfree, copy, pmode,
         push_long_i[s] && !copy, push_pred_div_i[s], push_pred_miss_i[s*6 +: 6], hint,
         push_pred_i[s],
         copy  ? {{(2*R){1'b0}}, rcu_push_ren[s*R +: R]}
         : pmode ? ren_src[s*3*R +: 3*R] : push_src_i[s*3*R +: 3*R],
         copy ? 3'b001 : push_src_valid_i[s*3 +: 3],
         copy ? rcu_push_dst[s*R +: R] : rename ? hint[10 +: R] : push_dst_i[s*R +: R],
         push_dst_valid_i[s] || copy,
         push_op_i[s*2 +: 2], push_pc_i[s*32 +: 32]};
    // port s pushes only into the warps of scheduler s (others are dropped)
    assign push_valid[s] = push_valid_i[s] && (32'(push_warp_i[s*6 +: 6]) < NumWarps) &&
                           (32'(push_warp_i[s*6 +: 6]) % NumSchedulers == s);
    assign push_slot[s*6 +: 6] = slot_of(push_warp_i[s*6 +: 6]);
    // HAWS: a push for a warp entering or leaving hint mode at this edge is
    // dropped; one into a full buffer has no HAWS effect either; a skip
    // leaves no buffer entry
    assign chain_push[s] = push_valid[s] && space && pmode && !haws_drop[32'(push_slot[s*6 +: 6])];
    assign ren_upd[s]    = chain_push[s] && rename;
    assign rcu_adv[s]    = push_valid[s] && space && !pmode && rcu != 2'd0 &&
                           !haws_drop[32'(push_slot[s*6 +: 6])];
    assign rcu_skip[s]   = rcu == 2'd1;
    assign buf_push[s]   = push_valid[s] && !haws_drop[32'(push_slot[s*6 +: 6])] &&
                           !(!pmode && rcu == 2'd1);
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
                  .OffDst(OffDst), .OffSrcV(OffSrcV), .OffSrc(OffSrc),
                  .OffFlag0(OffCopy), .OffFlag1(OffEntOk), .OffPm(OffPredMiss),
                  .PmW(PmW)) u_ibuf (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .clear_i         (clear_s | haws_drop),
    .push_valid_i    (buf_push),
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
    .head_flag_o     (head_flag),
    .head_pm_o       (head_pm),
    .pop_data_o      (grant_head),
    .rd_en_i         (ent_valid),
    .rd_warp_i       (ent_slot),
    .rd_data_o       (ent_head)
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
    .long_pending_o(long_pending),
    .release_en_i  (haws_mode != '0 || haws_i != 2'd0),
    .long_slots_o  (sb_long_slots),
    .release_o     (sb_release)
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
                     ( op1 &  op0 & unit_warps[3*NumWarps +: NumWarps]) |
                     head_flag[0 +: NumWarps];   // a HAWS copy needs no unit
  // a LD/ST head that is not a HAWS copy; a peer's hold counts as a warp
  // limit: CCWS holds global/local loads (long), MASCAR any LD/ST head
  assign ldst_head = op1 & ~op0 & ~head_flag[0 +: NumWarps];
  assign limit_ok  = swl_ok & ((policy_q != PolicyTwoLevel) ? '1 : in_active) &
                     ~ccws_block & ~mascar_hold;
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

  // OAWS: Eq. 1 on the LD/ST heads (a HAWS copy needs no unit and is none)
  if (EnOaws != 0) begin : g_oaws
    sched_oaws #(.NumWarps(NumWarps), .NumSchedulers(NumSchedulers)) u_oaws (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .mode_i         (oaws_i),
      .mshr_avail_i   (mshr_avail_i),
      .ocw_i          (ocw_o),
      .cap_i          (oaws_cap_i),
      .retire_i       (ldst_retire_i),
      .alive_i        (alive_q),
      .ldst_i         (ldst_head),
      .head_pm_i      (head_pm[0 +: 7*NumWarps]),
      .grant_valid_i  (grant_valid),
      .grant_slot_i   (grant_slot),
      .occlude_o      (occlude),
      .eff_o          (grant_eff),
      .miss_inflight_o(miss_inflight_o)
    );

    sched_oaws_ocw u_ocw (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .event_i   (ocw_event_i),
      .half_i    (ocw_half_i),
      .ocw_min_i (ocw_min_i),
      .ocw_max_i (ocw_max_i),
      .cnt_max_i (cnt_max_i),
      .cnt_init_i(cnt_init_i),
      .ocw_o     (ocw_o),
      .cnt_o     (ocw_cnt_o)
    );
  end else begin : g_no_oaws
    assign occlude         = '0;
    assign grant_eff       = '0;
    assign miss_inflight_o = '0;
    assign ocw_o           = '0;
    assign ocw_cnt_o       = '0;
    logic unused_oaws;
    assign unused_oaws = ^{oaws_i, mshr_avail_i, oaws_cap_i, ldst_retire_i, ocw_event_i, ocw_half_i,
                           ocw_min_i, ocw_max_i, cnt_max_i, cnt_init_i};
  end

  // peers: CCWS's scores and MASCAR's modes (docs/oaws.md, "Peers")
  if (EnPeers != 0) begin : g_peers
    logic vta_valid;
    assign vta_valid = vta_valid_i && (32'(vta_warp_i) < NumWarps);
    sched_ccws #(.NumWarps(NumWarps), .NumSchedulers(NumSchedulers)) u_ccws (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .mode_i     (peer_i),
      .base_i     (ccws_base_i),
      .bump_i     (ccws_bump_i),
      .vta_valid_i(vta_valid),
      .vta_slot_i (slot_of(vta_warp_i)),
      .clear_i    (clear_s),
      .alive_i    (alive_q),
      .hold_o     (ccws_hold)
    );
    assign ccws_block = ccws_hold & ldst_head & head_pm[7*NumWarps +: NumWarps];
    always_comb begin
      ccws_hold_o = '0;
      if (ccws_hold != '0) ccws_hold_o = to_warps(ccws_hold);
    end

    sched_mascar #(.NumWarps(NumWarps), .NumSchedulers(NumSchedulers)) u_mascar (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .mode_i     (peer_i),
      .sat_i      (mascar_sat_i),
      .alive_i    (alive_q),
      .long_wait_i(head_valid & hazard_long),
      .ldst_i     (ldst_head),
      .ready_i    (ready),
      .hold_o     (mascar_hold),
      .ready_o    (ready_m),
      .owner_o    (mascar_owner_o)
    );
  end else begin : g_no_peers
    assign ccws_hold      = '0;
    assign ccws_hold_o    = '0;
    assign mascar_hold    = '0;
    assign ready_m        = ready;
    assign mascar_owner_o = '0;
    assign ccws_block     = '0;
    logic unused_peers;
    assign unused_peers = ^{peer_i, ccws_base_i, ccws_bump_i, vta_valid_i, vta_warp_i, mascar_sat_i,
                            ccws_hold, ldst_head};
  end

  sched_qualify #(.N(NumWarps)) u_qual (
    .alive_i          (alive_q),
    .head_valid_i     (qual_head_valid),
    .barrier_i        (barrier_q),
    .limit_ok_i       (limit_ok),
    .hazard_i         (hazard),
    .hazard_long_i    (hazard_long),
    .need_entry_full_i(need_full),
    .unit_ok_i        (unit_ok),
    .occlude_i        (occlude),
    .ready_o          (ready),
    .no_instr_o       (r_no_instr),
    .barrier_o        (r_barrier),
    .warp_limit_o     (r_warp_limit),
    .long_dep_o       (r_long_dep),
    .scoreboard_o     (r_scoreboard),
    .unit_busy_o      (r_unit_busy),
    .occluded_o       (r_occluded)
  );

  for (genvar s = 0; s < NumSchedulers; s++) begin : g_sched
    logic [Wps-1:0]   ready_l, space_l, alive_l, long_wait_l, active_l, ready_g;
    logic [LIdxW-1:0] gidx, fidx;
    logic             fvalid;
    logic [InstrW-1:0] issued;
    logic [2:0]       sreason;

    // this scheduler's warps are the slots [s*Wps +: Wps]
    assign ready_l     = ready_m[s*Wps +: Wps];   // MASCAR's order narrows it
    // a warp in hint mode asks only for its next chain member; a warp
    // waiting at a barrier asks for nothing (the front end cannot supply
    // the instruction after the barrier before it is released, and a
    // request for it would take the fetch slot of a warp that can issue)
    assign space_l     = alive_q[s*Wps +: Wps] & has_space[s*Wps +: Wps] & ~barrier_q[s*Wps +: Wps] &
                         (~haws_mode[s*Wps +: Wps] | chain_ok[s*Wps +: Wps]);
    assign alive_l     = alive_q[s*Wps +: Wps];
    // leave the two-level pool: the head waits on a long-latency write, or
    // the warp waits at a barrier (docs/sched-interface.md, "Two-level")
    assign long_wait_l = (head_valid[s*Wps +: Wps] & hazard_long[s*Wps +: Wps]) |
                         barrier_q[s*Wps +: Wps];
    assign in_active[s*Wps +: Wps] = active_l;

    // grouped policy: the ready warps of the chosen group only
    if (EnGrouped != 0) begin : g_group
      sched_group #(.N(Wps)) u_group (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .en_i   (policy_q == PolicyGrouped),
        .prio_i (group_prio_q),
        .ready_i(ready_l),
        .alive_i(alive_l),
        .group_i(group_q[s*Wps*6 +: Wps*6]),
        .ready_o(ready_g)
      );
    end else begin : g_no_group
      assign ready_g = ready_l;
    end

    sched_arbiter #(.N(Wps), .IdxW(LIdxW)) u_arb (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .policy_i     (policy_q),
      .ready_i      (ready_g),
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
    assign fetch_slot[s*6 +: 6]   = 6'(s * Wps + 32'(fidx));
    // HAWS: a chain fetch names its pc; in normal mode the RCU head shows
    assign fetch_chain[s]         = fvalid && haws_mode[32'(fetch_slot[s*6 +: 6])];
    assign fetch_rcu[s]           = fvalid && !haws_mode[32'(fetch_slot[s*6 +: 6])] &&
                                    rcu_rd_kind[s*2 +: 2] != 2'd0;
    assign fetch_pc_valid_o[s]    = fetch_chain[s];
    assign fetch_pc_o[s*32 +: 32] = fetch_chain[s]
        ? haws_rd_pc[s*32 +: 32] + {{23{haws_rd_cursor[s*9 + 8]}}, haws_rd_cursor[s*9 +: 9]} : '0;
    assign fetch_rcu_kind_o[s*2 +: 2]   = fetch_rcu[s] ? rcu_rd_kind[s*2 +: 2] : 2'd0;
    assign fetch_rcu_pc_o[s*32 +: 32]   = fetch_rcu[s]
        ? haws_rd_pc[s*32 +: 32] + {{23{rcu_rd_off[s*9 + 8]}}, rcu_rd_off[s*9 +: 9]} : '0;
    assign fetch_rcu_ren_o[s*R +: R]    = fetch_rcu[s] ? rcu_rd_ren[s*R +: R] : '0;
    assign fetch_rcu_dst_o[s*R +: R]    = fetch_rcu[s] ? rcu_rd_dst[s*R +: R] : '0;

    // issued instruction and the reason for not issuing
    assign issued = grant_valid[s] ? grant_head[s*InstrW +: InstrW] : '0;
    // The scheduler's reason: the first of occluded (OAWS), unit busy,
    // scoreboard, long-latency dependence, warp limit, barrier among its warps.
    always_comb begin
      if (grant_valid[s])                          sreason = `SCHED_REASON_ISSUE;
      else if (r_occluded[s*Wps +: Wps]   != '0)  sreason = `SCHED_REASON_OCCLUDED;
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
    assign issue_hint_o[s*24 +: 24]      = issued[OffHint +: 24];
    assign issue_pred_miss_o[s*6 +: 6]   = issued[OffPredMiss +: 6];
    assign issue_pred_div_o[s]           = issued[OffPredDiv];
    assign issue_eff_miss_o[s*7 +: 7]    = grant_eff[s*7 +: 7];
    assign issue_hinted_o[s]             = issued[OffHinted];
    assign issue_copy_o[s]               = issued[OffCopy];
    assign stall_reason_o[s*3 +: 3]      = sreason;

    sched_counters u_cnt (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .reason_i(sreason),
      .count_o (counters_o[s*8*32 +: 8*32])
    );
  end

  // ---- HAWS: hint mode, RCU, renaming table (docs/haws.md, "Scheduler core") ----
  logic [NumSchedulers-1:0]        rcu_alloc, rcu_free;
  logic [NumSchedulers*9-1:0]      rcu_alloc_off;
  logic [NumSchedulers*R-1:0]      rcu_alloc_dst, rcu_alloc_ren;
  logic [NumSchedulers-1:0]        rcu_alloc_ctrl;
  logic [NumSchedulers*32-1:0]     ent_pc, iss_pc, haws_iss_pc;
  logic [NumSchedulers*9-1:0]      ent_off;
  logic [NumSchedulers-1:0]        iss_hinted;
  logic [NumSchedulers*6-1:0]      hbr_slot;
  logic [NumSchedulers-1:0]        hbr_valid;
  for (genvar s = 0; s < NumSchedulers; s++) begin : g_haws
    logic [InstrW-1:0] g;
    logic [8:0]        off;
    assign g = grant_head[s*InstrW +: InstrW];
    assign ent_pc[s*32 +: 32] = ent_head[s*InstrW + OffPc +: 32];
    assign ent_off[s*9 +: 9]  = ent_head[s*InstrW + OffHint +: 9];
    assign iss_pc[s*32 +: 32] = g[OffPc +: 32];
    assign iss_hinted[s]      = g[OffHinted];
    // a chain member takes the tail of its RCU at issue: offset from the
    // stall point, original and written destination, a branch or not
    assign off = 9'(g[OffPc +: 32] - haws_iss_pc[s*32 +: 32]);
    assign rcu_alloc[s]          = grant_valid[s] && g[OffHinted];
    assign rcu_alloc_off[s*9 +: 9] = off;
    assign rcu_alloc_dst[s*R +: R] = g[OffDstV] ? g[OffOrigDst +: R] : '0;
    assign rcu_alloc_ren[s*R +: R] = g[OffDstV] ? g[OffDst +: R] : '0;
    assign rcu_alloc_ctrl[s]     = g[OffHint + 23];
    assign rcu_free[s]           = grant_valid[s] && g[OffRcuFree];
    assign rcu_free_idx[s*3 +: 3] = g[OffRcuIdx +: 3];
    assign ren_new[s*R +: R]     = push_hint_i[s*24 + 10 +: R];
    // branch outcomes for warps of this scheduler only
    assign hbr_valid[s] = hbr_valid_i[s] && (32'(hbr_warp_i[s*6 +: 6]) < NumWarps) &&
                          (32'(hbr_warp_i[s*6 +: 6]) % NumSchedulers == s);
    assign hbr_slot[s*6 +: 6] = slot_of(hbr_warp_i[s*6 +: 6]);
  end
  assign haws_drop = haws_enter | haws_exit;

  // RcuDepth 0: no HAWS hardware (hint mode is never entered, the RCU never
  // allocates); the variant then has none of its logic either
  if (RcuDepth > 0) begin : g_haws_hw
    sched_haws #(.NumWarps(NumWarps), .Ports(NumSchedulers), .SbEntries(SbEntries),
                 .RcuDepth(RcuDepth)) u_haws (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .clear_i       (clear_s),
      .haws_i        (haws_i),
      .cand_i        (alive_q & ~barrier_q & head_flag[NumWarps +: NumWarps] & ~rcu_busy),
      .granted_i     (grant_valid),
      .head_valid_i  (head_valid),
      .head_dep_i    (head_dep),
      .long_slots_i  (sb_long_slots),
      .release_i     (sb_release),
      .ent_valid_o   (ent_valid),
      .ent_slot_o    (ent_slot),
      .ent_pc_i      (ent_pc),
      .ent_off_i     (ent_off),
      .iss_valid_i   (grant_valid),
      .iss_slot_i    (grant_slot),
      .iss_pc_i      (iss_pc),
      .iss_hinted_i  (iss_hinted),
      .hbr_valid_i   (hbr_valid),
      .hbr_slot_i    (hbr_slot),
      .hbr_taken_i   (hbr_taken_i),
      .hbr_uniform_i (hbr_uniform_i),
      .chain_valid_i (chain_push),
      .chain_slot_i  (push_slot),
      .chain_hint_i  (push_hint_i),
      .chain_end_i   (ren_full),
      .mode_o        (haws_mode),
      .chain_ok_o    (chain_ok),
      .enter_o       (haws_enter),
      .exit_o        (haws_exit),
      .rd_slot_i     (fetch_slot),
      .rd_stall_pc_o (haws_rd_pc),
      .rd_cursor_o   (haws_rd_cursor),
      .rd2_slot_i    (grant_slot),
      .rd2_stall_pc_o(haws_iss_pc)
    );

    sched_rcu #(.NumWarps(NumWarps), .Ports(NumSchedulers), .Depth(RcuDepth), .RegW(R),
                .WbPorts(WbPorts)) u_rcu (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .clear_i      (clear_s),
      .init_i       (haws_enter),
      .alloc_valid_i(rcu_alloc),
      .alloc_slot_i (grant_slot),
      .alloc_off_i  (rcu_alloc_off),
      .alloc_dst_i  (rcu_alloc_dst),
      .alloc_ren_i  (rcu_alloc_ren),
      .alloc_ctrl_i (rcu_alloc_ctrl),
      .free_valid_i (rcu_free),
      .free_slot_i  (grant_slot),
      .free_idx_i   (rcu_free_idx),
      .adv_valid_i  (rcu_adv),
      .adv_skip_i   (rcu_skip),
      .adv_slot_i   (push_slot),
      .wb_valid_i   (wb_valid),
      .wb_slot_i    (wb_slot),
      .wb_reg_i     (wb_reg_i),
      .busy_o       (rcu_busy),
      .has_head_o   (rcu_has_head),
      .rd_slot_i    (fetch_slot),
      .rd_kind_o    (rcu_rd_kind),
      .rd_off_o     (rcu_rd_off),
      .rd_ren_o     (rcu_rd_ren),
      .rd_dst_o     (rcu_rd_dst),
      .rd2_slot_i   (push_slot),
      .rd2_idx_o    (rcu_push_idx),
      .rd2_ren_o    (rcu_push_ren),
      .rd2_dst_o    (rcu_push_dst)
    );

    sched_rename #(.NumWarps(NumWarps), .Ports(NumSchedulers), .Entries(RenEntries),
                   .RegW(R)) u_rename (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .clear_i    (haws_enter),
      .slot_i     (push_slot),
      .src_i      (push_src_i),
      .src_o      (ren_src),
      .upd_valid_i(ren_upd),
      .upd_orig_i (push_dst_i),
      .upd_new_i  (ren_new),
      .full_o     (ren_full)
    );
  end else begin : g_no_haws_hw
    assign haws_mode      = '0;
    assign chain_ok       = '0;
    assign haws_enter     = '0;
    assign haws_exit      = '0;
    assign ent_valid      = '0;
    assign ent_slot       = '0;
    assign haws_rd_pc     = '0;
    assign haws_rd_cursor = '0;
    assign haws_iss_pc    = '0;
    assign rcu_busy       = '0;
    assign rcu_has_head   = '0;
    assign rcu_rd_kind    = '0;
    assign rcu_rd_off     = '0;
    assign rcu_rd_ren     = '0;
    assign rcu_rd_dst     = '0;
    assign rcu_push_idx   = '0;
    assign rcu_push_ren   = '0;
    assign rcu_push_dst   = '0;
    assign ren_src        = push_src_i;
    assign ren_full       = '0;
    logic unused_haws;
    assign unused_haws = ^{haws_i, hbr_valid, hbr_slot, hbr_taken_i, hbr_uniform_i, rcu_alloc,
                           rcu_alloc_off, rcu_alloc_dst, rcu_alloc_ren, rcu_alloc_ctrl, rcu_free,
                           rcu_free_idx, rcu_adv, rcu_skip, ren_upd, ren_new, chain_push, ent_pc,
                           ent_off, ent_head, iss_pc, iss_hinted, sb_long_slots, sb_release,
                           head_flag[NumWarps +: NumWarps], fetch_slot, ren_full};
  end

  always_comb begin
    haws_mode_o = '0;
    rcu_busy_o  = '0;
    if (haws_mode != '0) haws_mode_o = to_warps(haws_mode);
    if (rcu_busy != '0)  rcu_busy_o  = to_warps(rcu_busy);
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
        // HAWS: the RCU head shown for a fetch exists; a chain fetch only in
        // hint mode, an RCU head only in normal mode
        assert (!fetch_rcu[s] || rcu_has_head[32'(fetch_slot[s*6 +: 6])]);
        assert (!(fetch_chain[s] && fetch_rcu[s]));
      end
    end
  end
`endif
endmodule
