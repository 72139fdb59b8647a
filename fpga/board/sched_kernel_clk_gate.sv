// sched_kernel_clk_gate -- a glitch-free clock gate: the enable is taken
// into a flop on the falling clock edge, so it only changes while the clock
// is low and the gated clock only ever has whole high phases. One per lane
// of the board kernel (sched_kernel.sv): a lane's core sees a rising edge
// only in the cycle its lane-cycle record says STEP, which is how a lane
// "holds its state" (cosim/offload/offload_transport.h) without touching
// the core's RTL.
//
// A falling-edge flop rather than the usual latch: the area flow's CMOS
// transistor count has a cost for flops but none for latches
// (scripts/area/area_flow.py). On an FPGA a vendor flow would map the gate
// to a clock buffer with enable (Xilinx BUFGCE, Intel ALTCLKCTRL).
module sched_kernel_clk_gate (
  input  logic clk_i,
  input  logic en_i,    // from rising-edge registers: stable by the falling edge
  output logic clk_o
);
  logic en_q;

  always_ff @(negedge clk_i) begin
    en_q <= en_i;
  end

  assign clk_o = clk_i & en_q;
endmodule
