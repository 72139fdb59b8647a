// sched_counters -- per-scheduler cycle accounting.
//
// One 32-bit wrapping counter per reason code (see sched_qualify):
//   0 issued, 1 no valid instruction, 2 scoreboard, 3 long-latency
//   dependence, 4 unit busy, 5 barrier, 6 warp limit, 7 occluded (OAWS).
// Each cycle exactly one of them counts.
module sched_counters (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [2:0]      reason_i,
  // (not traced: the same bits are the core's counters_o, and every counter
  // is traced on its own as g_cnt[r].count_q, which changes for one counter
  // per cycle instead of re-emitting all 224 bits)
  // verilator tracing_off
  output logic [8*32-1:0] count_o
  // verilator tracing_on
);
  for (genvar r = 0; r < 8; r++) begin : g_cnt
    logic [31:0] count_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        count_q <= '0;
      end else if (reason_i == 3'(r)) begin
        count_q <= count_q + 32'd1;
      end
    end
    assign count_o[r*32 +: 32] = count_q;
  end
  // (every 3-bit code has its counter: exactly one counts each cycle)
endmodule
