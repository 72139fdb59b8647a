// sched_group -- the active warp group of one scheduler (policy 3, grouped).
//
// Seed 000 (Gong thesis) §6.3.2, Fig. 6.9: warps that share cache lines
// form a group (the timing model gives each warp a 6-bit group id at
// launch, launch_group_i, from the kernel's locality hint); the scheduler
// issues round-robin inside the active group, "once all the warps in the
// current group are stalled, the warp scheduler will switch to another
// group. The switching policy among groups is also round-robin."
//
// This block narrows the ready warps to one group; the arbiter then picks
// round-robin among them (its LRR). With a ready warp in the active group
// (active_q), that group; else the first group id after active_q, wrapping,
// that has a ready warp. prio_i chooses what active_q becomes:
//   0 (thesis)  the group issued from: a switch sticks;
//   1 (OWL)     Jog et al., ASPLOS'13, locality-aware warp scheduling: the
//               active group keeps the priority while it has an alive warp
//               (other groups issue only in cycles where none of its warps
//               is ready); when none is left alive the priority moves to the
//               first group id after it with an alive warp.
// When the policy is not grouped (en_i 0) the mask passes ready_i unchanged
// and active_q holds. Only alive warps are ready, so a dead warp's stale
// group id never matters.
module sched_group #(
  parameter int N = 16
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           en_i,       // policy is grouped (registered level)
  input  logic           prio_i,     // 1: OWL priority (registered level)
  input  logic [N-1:0]   ready_i,
  input  logic [N-1:0]   alive_i,
  input  logic [N*6-1:0] group_i,    // group id of local warp i at [i*6 +: 6]
  output logic [N-1:0]   ready_o     // ready_i narrowed to the chosen group
);
  logic [5:0]  active_q, active_d;
  logic [63:0] rdy_grp, alv_grp;     // bit g: a ready (alive) warp has group g
  logic [N-1:0] in_act, in_sel;
  logic [5:0]  nxt_r, nxt_a, sel;
  logic        any_r, any_a;

  // Each warp's group id decoded to one hot, ORed over the ready (alive)
  // warps (a decoder and an OR tree, not a chain of indexed writes).
  always_comb begin
    // verilator tracing_off
    logic [63:0] onehot;
    // verilator tracing_on
    onehot  = '0;
    rdy_grp = '0;
    alv_grp = '0;
    in_act  = '0;
    // (skipped when the policy is not grouped: the Verilated model then
    // does not walk the warps)
    if (en_i) begin
      for (int i = 0; i < N; i++) begin
        onehot  = 64'(1) << group_i[i*6 +: 6];
        rdy_grp = rdy_grp | (onehot & {64{ready_i[i]}});
        alv_grp = alv_grp | (onehot & {64{alive_i[i]}});
        in_act[i] = ready_i[i] && group_i[i*6 +: 6] == active_q;
      end
    end
  end

  // First set bit of req after position last, wrapping (the same vector
  // form as sched_rr_pick, written here for the 64 group ids so that the
  // picker is not a second parameterisation of that block).
  function automatic logic [5:0] next_after(input logic [63:0] req, input logic [5:0] last);
    logic [63:0] hi, one;
    hi  = req & (({64{1'b1}} << last) << 1);
    one = (hi != '0) ? (hi & (~hi + 64'd1)) : (req & (~req + 64'd1));
    next_after = '0;
    for (int i = 0; i < 64; i++) begin
      if (one[i]) next_after = next_after | 6'(i);
    end
  endfunction

  assign any_r = rdy_grp != '0;
  assign any_a = alv_grp != '0;
  // (skipped, like the decoders above, when the policy is not grouped:
  // nothing reads them then)
  always_comb begin
    nxt_r = '0;
    nxt_a = '0;
    if (en_i) begin
      nxt_r = next_after(rdy_grp, active_q);
      nxt_a = next_after(alv_grp, active_q);
    end
  end

  assign sel = (in_act != '0) ? active_q : nxt_r;

  always_comb begin
    in_sel = '0;
    if (en_i) begin
      for (int i = 0; i < N; i++) in_sel[i] = ready_i[i] && group_i[i*6 +: 6] == sel;
    end
  end
  assign ready_o = en_i ? in_sel : ready_i;

  always_comb begin
    active_d = active_q;
    if (en_i) begin
      if (!prio_i) begin
        if (any_r) active_d = sel;
      end else if (!alv_grp[active_q] && any_a) begin
        active_d = nxt_a;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= '0;
    end else begin
      active_q <= active_d;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      // a grant whenever a warp is ready, and from one group only
      assert ((ready_o != '0) == (ready_i != '0));
      assert ((ready_o & ~ready_i) == '0);
    end
  end
`endif
endmodule
