// sched_oaws -- OAWS occlusion prevention (docs/oaws.md; seed 001, Wang et
// al., "OAWS: Memory Occlusion Aware Warp Scheduling", PACT'16).
//
// The qualification extension of §4.1.2 (Fig. 6): of the warps whose head is
// an LD/ST instruction, those that would violate Eq. 1
//     eff(w) + Miss_inflight > Avail_mshr
// are "occluded" and may not issue this cycle; the prioritization (the
// arbiter) then sees only the occlusion-free warps.
//
// eff(w), the effective predicted misses of warp w's head:
//   mode 1 (static, §4.2):  the stored prediction pred_miss (the timing model
//                           computed ceil(active lanes x SMR) at decode)
//   mode 2 (dynamic, §4.3.2): 0 for a locality warp (rank < OCW), else
//                           pred_miss + rank when the load is predicted
//                           divergent (pred_div), pred_miss otherwise; rank =
//                           GTO_gprio = alive warps of the SM with a lower id
// saturated at cap_i (the L1D's MSHR count, so that a warp is never held
// while every MSHR is free: Eq. 1 cannot get better). Mode 0: nothing is
// occluded and every eff is 0.
//
// Registers (all levels are registered, like unit_avail): mode, Avail_mshr,
// cap, and Miss_inflight (OCW is sched_oaws_ocw's register), which adds the eff of every granted LD/ST head
// and subtracts retire_i (the eff of instructions that left the LD/ST unit),
// saturating at 0 and 127.
//
// Per-warp vectors are in the core's slot order (slot s*Wps + l is local
// warp l of scheduler s, i.e. warp l*NumSchedulers + s). head_pm_i is
// bit-sliced: bit b of every warp at [b*NumWarps +: NumWarps], bits 0..5
// pred_miss, bit 6 pred_div.
module sched_oaws #(
  parameter int NumWarps      = 64,
  parameter int NumSchedulers = 4
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [1:0]                   mode_i,
  input  logic [6:0]                   mshr_avail_i,
  input  logic [6:0]                   ocw_i,        // the OCW register (sched_oaws_ocw)
  input  logic [6:0]                   cap_i,
  input  logic [6:0]                   retire_i,
  input  logic [NumWarps-1:0]          alive_i,      // registered alive (slot order)
  input  logic [NumWarps-1:0]          ldst_i,       // head is an LD/ST instruction
  input  logic [7*NumWarps-1:0]        head_pm_i,
  input  logic [NumSchedulers-1:0]     grant_valid_i,
  input  logic [NumSchedulers*6-1:0]   grant_slot_i,
  output logic [NumWarps-1:0]          occlude_o,    // slot order
  output logic [NumSchedulers*7-1:0]   eff_o,        // eff of each grant (0 if none)
  output logic [6:0]                   miss_inflight_o
);
  localparam int Wps = NumWarps / NumSchedulers;

  logic [1:0] mode_q;
  logic [6:0] mshr_avail_q, cap_q, inflight_q;

  // eff of every warp (slot order); only computed while OAWS is on
  logic [7*NumWarps-1:0] eff;
  always_comb begin
    // verilator tracing_off
    logic [6:0] rank, e;
    logic [7:0] sum;
    int unsigned slot;
    // verilator tracing_on
    eff       = '0;
    occlude_o = '0;
    rank      = '0;
    e         = '0;
    sum       = '0;
    slot      = 0;
    if (mode_q != 2'd0) begin
      // in warp order, so that rank counts the alive warps with a lower id
      for (int w = 0; w < NumWarps; w++) begin
        slot = 32'((w % NumSchedulers) * Wps + w / NumSchedulers);
        e    = {1'b0, head_pm_i[5*NumWarps + slot], head_pm_i[4*NumWarps + slot],
                head_pm_i[3*NumWarps + slot], head_pm_i[2*NumWarps + slot],
                head_pm_i[1*NumWarps + slot], head_pm_i[slot]};
        if (mode_q == 2'd2) begin
          if (rank < ocw_i)                       e = '0;
          else if (head_pm_i[6*NumWarps + slot])  e = e + rank;
        end
        if (e > cap_q) e = cap_q;
        if (!ldst_i[slot]) e = '0;
        eff[slot*7 +: 7] = e;
        sum = {1'b0, e} + {1'b0, inflight_q};
        occlude_o[slot] = ldst_i[slot] && (sum > {1'b0, mshr_avail_q});
        rank = rank + {6'd0, alive_i[slot]};
      end
    end
  end

  for (genvar s = 0; s < NumSchedulers; s++) begin : g_eff
    assign eff_o[s*7 +: 7] = grant_valid_i[s] ? eff[32'(grant_slot_i[s*6 +: 6])*7 +: 7] : 7'd0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q       <= '0;
      mshr_avail_q <= '0;
      cap_q        <= '0;
      inflight_q   <= '0;
    end else begin
      // verilator tracing_off
      logic signed [10:0] v;
      // verilator tracing_on
      v = 11'(inflight_q) - 11'(retire_i);
      for (int s = 0; s < NumSchedulers; s++) v = v + 11'(eff_o[s*7 +: 7]);
      if (v < 0)             inflight_q <= '0;
      else if (v > 11'sd127) inflight_q <= 7'd127;
      else                   inflight_q <= 7'(v);
      mode_q       <= mode_i;
      mshr_avail_q <= mshr_avail_i;
      cap_q        <= cap_i;
    end
  end
  assign miss_inflight_o = inflight_q;
endmodule
