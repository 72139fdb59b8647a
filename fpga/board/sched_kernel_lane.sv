// sched_kernel_lane -- one lane of the board kernel: one rtl/sched_core.sv
// whose ports are flattened into an input and an output token
// (docs/offload.md, "Board kernel"), behind its own clock gate and reset.
// The gate is how a lane "holds its state" (cosim/offload/
// offload_transport.h) without touching the core's RTL: the core sees a
// rising edge only in the cycle its lane-cycle record says STEP.
//
// The token layout is cosim/offload/offload_token.h's: the core's ports in
// declaration order, the first port in the low bits, each port exactly as
// the RTL lays it out. The wiring below is generated from the port list
// (cosim/sched_ports.def) by `make sched-ports-gen`, and
// tests/sched/ports-check.sh fails when it is stale, so a port added to the
// core and the table reaches the kernel without hand edits.
module sched_kernel_lane #(
  parameter int NumWarps      = 64,
  parameter int NumSchedulers = 4,
  parameter int RegIdWidth    = 8,
  parameter int IbufDepth     = 2,
  parameter int SbEntries     = 6,
  parameter int WbPorts       = 4,
  parameter int RcuDepth      = 8,
  parameter int RenEntries    = 8,
  // token widths (sched_kernel.sv computes them with the same generated sums)
  parameter int unsigned InBits  = 1,
  parameter int unsigned OutBits = 1
) (
  input  logic               clk_i,       // kernel clock
  input  logic               rst_ni,      // asynchronous, active low: resets the core
  input  logic               step_i,      // the core sees this cycle's rising edge
  input  logic [InBits-1:0]  in_token_i,  // the core's inputs for that edge
  output logic [OutBits-1:0] out_token_o  // the core's outputs (Moore)
);
  logic core_clk;
  logic core_rst_n;
  logic step_q;

  // The clock gate: step_i comes from rising-edge registers, so it is
  // stable by the falling edge, where it is taken; the gated clock then
  // only ever has whole high phases. A falling-edge flop rather than the
  // usual latch because the area flow's CMOS transistor count has a cost
  // for flops but none for latches (scripts/area/area_flow.py); a vendor
  // flow would map the gate to a clock buffer with enable (Xilinx BUFGCE,
  // Intel ALTCLKCTRL).
  always_ff @(negedge clk_i) begin
    step_q <= step_i;
  end

  assign core_clk = clk_i & step_q;

  assign core_rst_n = rst_ni;

  // BEGIN generated:board-lane (cosim/sched_ports.def; make sched-ports-gen)
  logic [(2)-1:0] policy_i;
  logic [(7)-1:0] warp_limit_i;
  logic [(7)-1:0] pool_size_i;
  logic [NumSchedulers * (4)-1:0] unit_avail_i;
  logic [(NumWarps)-1:0] barrier_i;
  logic [(NumWarps)-1:0] launch_i;
  logic [(NumWarps)-1:0] finish_i;
  logic [NumSchedulers * (1)-1:0] push_valid_i;
  logic [NumSchedulers * (6)-1:0] push_warp_i;
  logic [NumSchedulers * (32)-1:0] push_pc_i;
  logic [NumSchedulers * (2)-1:0] push_op_i;
  logic [NumSchedulers * (1)-1:0] push_dst_valid_i;
  logic [NumSchedulers * (RegIdWidth)-1:0] push_dst_i;
  logic [NumSchedulers * (3)-1:0] push_src_valid_i;
  logic [NumSchedulers * 3 * (RegIdWidth)-1:0] push_src_i;
  logic [NumSchedulers * (1)-1:0] push_pred_i;
  logic [NumSchedulers * (1)-1:0] push_long_i;
  logic [NumSchedulers * (24)-1:0] push_hint_i;
  logic [NumSchedulers * (6)-1:0] push_pred_miss_i;
  logic [NumSchedulers * (1)-1:0] push_pred_div_i;
  logic [NumSchedulers * (2)-1:0] push_rcu_i;
  logic [WbPorts * (1)-1:0] wb_valid_i;
  logic [WbPorts * (6)-1:0] wb_warp_i;
  logic [WbPorts * (RegIdWidth)-1:0] wb_reg_i;
  logic [(2)-1:0] haws_i;
  logic [NumSchedulers * (1)-1:0] hbr_valid_i;
  logic [NumSchedulers * (6)-1:0] hbr_warp_i;
  logic [NumSchedulers * (1)-1:0] hbr_taken_i;
  logic [NumSchedulers * (1)-1:0] hbr_uniform_i;
  logic [(2)-1:0] oaws_i;
  logic [(7)-1:0] mshr_avail_i;
  logic [(7)-1:0] oaws_cap_i;
  logic [(7)-1:0] ldst_retire_i;
  logic [(2)-1:0] ocw_event_i;
  logic [(1)-1:0] ocw_half_i;
  logic [(7)-1:0] ocw_min_i;
  logic [(7)-1:0] ocw_max_i;
  logic [(8)-1:0] cnt_max_i;
  logic [(8)-1:0] cnt_init_i;
  logic [(2)-1:0] peer_i;
  logic [(10)-1:0] ccws_base_i;
  logic [(12)-1:0] ccws_bump_i;
  logic [(1)-1:0] vta_valid_i;
  logic [(6)-1:0] vta_warp_i;
  logic [(1)-1:0] mascar_sat_i;
  logic [(1)-1:0] group_prio_i;
  logic [NumWarps * (6)-1:0] launch_group_i;
  logic [NumSchedulers * (1)-1:0] issue_valid_o;
  logic [NumSchedulers * (6)-1:0] issue_warp_o;
  logic [NumSchedulers * (32)-1:0] issue_pc_o;
  logic [NumSchedulers * (2)-1:0] issue_op_o;
  logic [NumSchedulers * (1)-1:0] issue_dst_valid_o;
  logic [NumSchedulers * (RegIdWidth)-1:0] issue_dst_o;
  logic [NumSchedulers * (1)-1:0] issue_pred_o;
  logic [NumSchedulers * (1)-1:0] issue_long_o;
  logic [NumSchedulers * (24)-1:0] issue_hint_o;
  logic [NumSchedulers * (6)-1:0] issue_pred_miss_o;
  logic [NumSchedulers * (1)-1:0] issue_pred_div_o;
  logic [NumSchedulers * (7)-1:0] issue_eff_miss_o;
  logic [NumSchedulers * (1)-1:0] issue_hinted_o;
  logic [NumSchedulers * (1)-1:0] issue_copy_o;
  logic [NumSchedulers * (3)-1:0] stall_reason_o;
  logic [NumSchedulers * (1)-1:0] fetch_valid_o;
  logic [NumSchedulers * (6)-1:0] fetch_warp_o;
  logic [NumSchedulers * (1)-1:0] fetch_pc_valid_o;
  logic [NumSchedulers * (32)-1:0] fetch_pc_o;
  logic [NumSchedulers * (2)-1:0] fetch_rcu_kind_o;
  logic [NumSchedulers * (32)-1:0] fetch_rcu_pc_o;
  logic [NumSchedulers * (RegIdWidth)-1:0] fetch_rcu_ren_o;
  logic [NumSchedulers * (RegIdWidth)-1:0] fetch_rcu_dst_o;
  logic [(NumWarps)-1:0] long_pending_o;
  logic [(NumWarps)-1:0] haws_mode_o;
  logic [(NumWarps)-1:0] rcu_busy_o;
  logic [(7)-1:0] miss_inflight_o;
  logic [(7)-1:0] ocw_o;
  logic [(8)-1:0] ocw_cnt_o;
  logic [(NumWarps)-1:0] ccws_hold_o;
  logic [(7)-1:0] mascar_owner_o;
  logic [NumSchedulers * 8 * (32)-1:0] counters_o;
  assign {
    launch_group_i,
    group_prio_i,
    mascar_sat_i,
    vta_warp_i,
    vta_valid_i,
    ccws_bump_i,
    ccws_base_i,
    peer_i,
    cnt_init_i,
    cnt_max_i,
    ocw_max_i,
    ocw_min_i,
    ocw_half_i,
    ocw_event_i,
    ldst_retire_i,
    oaws_cap_i,
    mshr_avail_i,
    oaws_i,
    hbr_uniform_i,
    hbr_taken_i,
    hbr_warp_i,
    hbr_valid_i,
    haws_i,
    wb_reg_i,
    wb_warp_i,
    wb_valid_i,
    push_rcu_i,
    push_pred_div_i,
    push_pred_miss_i,
    push_hint_i,
    push_long_i,
    push_pred_i,
    push_src_i,
    push_src_valid_i,
    push_dst_i,
    push_dst_valid_i,
    push_op_i,
    push_pc_i,
    push_warp_i,
    push_valid_i,
    finish_i,
    launch_i,
    barrier_i,
    unit_avail_i,
    pool_size_i,
    warp_limit_i,
    policy_i
  } = in_token_i;
  assign out_token_o = {
    counters_o,
    mascar_owner_o,
    ccws_hold_o,
    ocw_cnt_o,
    ocw_o,
    miss_inflight_o,
    rcu_busy_o,
    haws_mode_o,
    long_pending_o,
    fetch_rcu_dst_o,
    fetch_rcu_ren_o,
    fetch_rcu_pc_o,
    fetch_rcu_kind_o,
    fetch_pc_o,
    fetch_pc_valid_o,
    fetch_warp_o,
    fetch_valid_o,
    stall_reason_o,
    issue_copy_o,
    issue_hinted_o,
    issue_eff_miss_o,
    issue_pred_div_o,
    issue_pred_miss_o,
    issue_hint_o,
    issue_long_o,
    issue_pred_o,
    issue_dst_o,
    issue_dst_valid_o,
    issue_op_o,
    issue_pc_o,
    issue_warp_o,
    issue_valid_o
  };
  sched_core #(
    .NumWarps(NumWarps), .NumSchedulers(NumSchedulers), .RegIdWidth(RegIdWidth),
    .IbufDepth(IbufDepth), .SbEntries(SbEntries), .WbPorts(WbPorts),
    .RcuDepth(RcuDepth), .RenEntries(RenEntries)
  ) u_core (
    .clk_i(core_clk),
    .rst_ni(core_rst_n),
    .policy_i(policy_i),
    .warp_limit_i(warp_limit_i),
    .pool_size_i(pool_size_i),
    .unit_avail_i(unit_avail_i),
    .barrier_i(barrier_i),
    .launch_i(launch_i),
    .finish_i(finish_i),
    .push_valid_i(push_valid_i),
    .push_warp_i(push_warp_i),
    .push_pc_i(push_pc_i),
    .push_op_i(push_op_i),
    .push_dst_valid_i(push_dst_valid_i),
    .push_dst_i(push_dst_i),
    .push_src_valid_i(push_src_valid_i),
    .push_src_i(push_src_i),
    .push_pred_i(push_pred_i),
    .push_long_i(push_long_i),
    .push_hint_i(push_hint_i),
    .push_pred_miss_i(push_pred_miss_i),
    .push_pred_div_i(push_pred_div_i),
    .push_rcu_i(push_rcu_i),
    .wb_valid_i(wb_valid_i),
    .wb_warp_i(wb_warp_i),
    .wb_reg_i(wb_reg_i),
    .haws_i(haws_i),
    .hbr_valid_i(hbr_valid_i),
    .hbr_warp_i(hbr_warp_i),
    .hbr_taken_i(hbr_taken_i),
    .hbr_uniform_i(hbr_uniform_i),
    .oaws_i(oaws_i),
    .mshr_avail_i(mshr_avail_i),
    .oaws_cap_i(oaws_cap_i),
    .ldst_retire_i(ldst_retire_i),
    .ocw_event_i(ocw_event_i),
    .ocw_half_i(ocw_half_i),
    .ocw_min_i(ocw_min_i),
    .ocw_max_i(ocw_max_i),
    .cnt_max_i(cnt_max_i),
    .cnt_init_i(cnt_init_i),
    .peer_i(peer_i),
    .ccws_base_i(ccws_base_i),
    .ccws_bump_i(ccws_bump_i),
    .vta_valid_i(vta_valid_i),
    .vta_warp_i(vta_warp_i),
    .mascar_sat_i(mascar_sat_i),
    .group_prio_i(group_prio_i),
    .launch_group_i(launch_group_i),
    .issue_valid_o(issue_valid_o),
    .issue_warp_o(issue_warp_o),
    .issue_pc_o(issue_pc_o),
    .issue_op_o(issue_op_o),
    .issue_dst_valid_o(issue_dst_valid_o),
    .issue_dst_o(issue_dst_o),
    .issue_pred_o(issue_pred_o),
    .issue_long_o(issue_long_o),
    .issue_hint_o(issue_hint_o),
    .issue_pred_miss_o(issue_pred_miss_o),
    .issue_pred_div_o(issue_pred_div_o),
    .issue_eff_miss_o(issue_eff_miss_o),
    .issue_hinted_o(issue_hinted_o),
    .issue_copy_o(issue_copy_o),
    .stall_reason_o(stall_reason_o),
    .fetch_valid_o(fetch_valid_o),
    .fetch_warp_o(fetch_warp_o),
    .fetch_pc_valid_o(fetch_pc_valid_o),
    .fetch_pc_o(fetch_pc_o),
    .fetch_rcu_kind_o(fetch_rcu_kind_o),
    .fetch_rcu_pc_o(fetch_rcu_pc_o),
    .fetch_rcu_ren_o(fetch_rcu_ren_o),
    .fetch_rcu_dst_o(fetch_rcu_dst_o),
    .long_pending_o(long_pending_o),
    .haws_mode_o(haws_mode_o),
    .rcu_busy_o(rcu_busy_o),
    .miss_inflight_o(miss_inflight_o),
    .ocw_o(ocw_o),
    .ocw_cnt_o(ocw_cnt_o),
    .ccws_hold_o(ccws_hold_o),
    .mascar_owner_o(mascar_owner_o),
    .counters_o(counters_o)
  );
  // END generated:board-lane
endmodule
