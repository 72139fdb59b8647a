// sched_oaws_ocw -- OAWS's OCW logic (docs/oaws.md; seed 001 §4.3.1, Fig. 7).
//
// Estimates the SM's OCW (the warps that can be fully cached) from whether
// each divergent load was fully cached in the L1D. One event per edge:
//   1 fully cached:     CNT up (saturating at cnt_max); at cnt_max, if
//                       OCW < ocw_max, OCW up and CNT = 0;
//   2 partially cached: CNT down by 1, or with half_i by max(1, CNT/2)
//                       (an associativity-sensitive load), stopping at 0; at
//                       0, if OCW > ocw_min, OCW down and CNT = cnt_max;
//   3 load:             CNT = cnt_init, OCW = ocw_min (each kernel launch).
// The bounds are sampled at the event's edge. The paper keeps this beside
// the L1D, in the coalescing unit; here it sits in the core next to the
// qualification that reads OCW (the timing model reports the events). The C
// twin is sched_oaws_ocw_step() in cosim/sched_if.h.
module sched_oaws_ocw (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic [1:0] event_i,
  input  logic       half_i,
  input  logic [6:0] ocw_min_i,
  input  logic [6:0] ocw_max_i,
  input  logic [7:0] cnt_max_i,
  input  logic [7:0] cnt_init_i,
  output logic [6:0] ocw_o,
  output logic [7:0] cnt_o
);
  logic [6:0] ocw_q, ocw_d;
  logic [7:0] cnt_q, cnt_d;

  always_comb begin
    // verilator tracing_off
    logic [7:0] c, d;
    // verilator tracing_on
    ocw_d = ocw_q;
    cnt_d = cnt_q;
    c     = cnt_q;
    d     = 8'd1;
    unique case (event_i)
      2'd1: begin
        if (c < cnt_max_i) c = c + 8'd1;
        if (c == cnt_max_i && ocw_q < ocw_max_i) begin
          ocw_d = ocw_q + 7'd1;
          c     = '0;
        end
        cnt_d = c;
      end
      2'd2: begin
        if (half_i && (c >> 1) != 8'd0) d = c >> 1;
        c = (c > d) ? c - d : 8'd0;
        if (c == 8'd0 && ocw_q > ocw_min_i) begin
          ocw_d = ocw_q - 7'd1;
          c     = cnt_max_i;
        end
        cnt_d = c;
      end
      2'd3: begin
        cnt_d = cnt_init_i;
        ocw_d = ocw_min_i;
      end
      default: ;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ocw_q <= '0;
      cnt_q <= '0;
    end else begin
      ocw_q <= ocw_d;
      cnt_q <= cnt_d;
    end
  end
  assign ocw_o = ocw_q;
  assign cnt_o = cnt_q;
endmodule
