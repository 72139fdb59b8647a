// sched_kernel_clk_gate -- a glitch-free clock gate (an integrated clock
// gating cell): the enable is latched while the clock is low, so the gated
// clock only ever has whole high phases. One per lane of the board kernel
// (sched_kernel.sv): a lane's core sees a rising edge only in the cycle its
// lane-cycle record says STEP, which is how a lane "holds its state"
// (cosim/offload/offload_transport.h) without touching the core's RTL.
//
// On an FPGA this is the pattern vendors map to a clock buffer with enable
// (Xilinx BUFGCE, Intel ALTCLKCTRL); Yosys infers a latch and an AND.
module sched_kernel_clk_gate (
  input  logic clk_i,
  input  logic en_i,
  output logic clk_o
);
  logic en_latched;

  always_latch begin
    if (!clk_i) en_latched = en_i;
  end

  assign clk_o = clk_i & en_latched;
endmodule
