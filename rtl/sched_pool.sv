// sched_pool -- the active pool of the two-level policy, one scheduler.
//
// Narasiman et al. (MICRO'11), as summarised in the Gong thesis (sec. 2):
// only warps of the active pool may issue; a warp whose head instruction
// waits on a long-latency write leaves the active pool (as do finished
// warps, and warps waiting at a barrier: long_wait_i covers both waits, see
// sched_core), and a free place is refilled from the pending pool with the
// oldest (lowest-id) alive warp that is not itself waiting, at most one per
// cycle. pool_size_i is the pool capacity; the pool is
// kept up to date whatever the policy, so switching policy is seamless.
module sched_pool #(
  parameter int N = 16
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [6:0]   pool_size_i,
  input  logic [N-1:0] alive_i,
  input  logic [N-1:0] long_wait_i,
  output logic [N-1:0] in_active_o
);
  logic [N-1:0] active_q, active_d;

  logic [N-1:0] stay, cand, promote;
  logic [7:0]   count;

  assign stay    = active_q & alive_i & ~long_wait_i;
  assign cand    = ~active_q & alive_i & ~long_wait_i;
  assign promote = (count < {1'b0, pool_size_i}) ? (cand & (~cand + 1'b1)) : '0;
  assign active_d = stay | promote;

  assign count   = 8'($countones(stay));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= '0;
    end else begin
      active_q <= active_d;
    end
  end

  assign in_active_o = active_q;
endmodule
