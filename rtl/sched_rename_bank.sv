// sched_rename_bank -- the HAWS renaming tables of one scheduler's warps
// (seed 000 §5.3.3, §5.3.6: 8 entries x 16 bits; docs/haws.md, "Scheduler
// core"). sched_rename holds one bank per scheduler, each with one port
// (Ports = 1) and the scheduler's warps numbered 0..NumWarps-1; the logic
// below also serves several ports over one set of warps.
//
// Per warp up to Entries pairs {original register, renamed register}, each
// original at most once, filled in order (a count). Per port (one per
// scheduler), for the warp a chain member is pushed into:
//   - its three sources are looked up: a source equal to an original reads
//     the renamed register instead (src_o);
//   - if it renames (upd_valid_i), the pair dst -> new is written: over the
//     pair of that original, else appended; when the table is full the pair
//     is not kept and full_o tells the core to end the chain there.
// The lookup sees the table before this edge's update (an instruction reads
// its sources before it writes). clear_i (entry into hint mode: the table is
// read only in hint mode, so launch and finish need not clear it) empties a
// warp's table. Warps are numbered in the core's slot order.
module sched_rename_bank #(
  parameter int NumWarps = 16,
  parameter int Ports    = 1,
  parameter int Entries  = 8,   // 0: no table (a renamed member ends its chain)
  parameter int RegW     = 8
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [NumWarps-1:0]       clear_i,
  input  logic [Ports*6-1:0]        slot_i,       // the pushed warp, per port
  input  logic [Ports*3*RegW-1:0]   src_i,
  output logic [Ports*3*RegW-1:0]   src_o,
  input  logic [Ports-1:0]          upd_valid_i,
  input  logic [Ports*RegW-1:0]     upd_orig_i,
  input  logic [Ports*RegW-1:0]     upd_new_i,
  output logic [Ports-1:0]          full_o        // upd_orig_i has no pair and no room
);
  localparam int N    = NumWarps;
  localparam int T    = (Entries > 0) ? Entries : 1;
  localparam int CW   = $clog2(T + 2);   // one more: the assertion can see an overflow
  localparam int WIdW = (N > 1) ? $clog2(N) : 1;

  logic [RegW-1:0] orig_q [N*T];
  logic [RegW-1:0] new_q  [N*T];
  logic [CW-1:0]   cnt_q  [N];

  logic [Ports-1:0] hit;   // per port: upd_orig_i has a pair

  for (genvar p = 0; p < Ports; p++) begin : g_port
    logic [WIdW-1:0] w;
    assign w = WIdW'(slot_i[p*6 +: 6]);
    for (genvar k = 0; k < 3; k++) begin : g_src
      always_comb begin
        src_o[(p*3 + k)*RegW +: RegW] = src_i[(p*3 + k)*RegW +: RegW];
        if (cnt_q[w] != '0) for (int i = 0; i < T; i++) begin
          if (Entries > 0 && i < 32'(cnt_q[w]) &&
              orig_q[32'(w) * T + i] == src_i[(p*3 + k)*RegW +: RegW])
            src_o[(p*3 + k)*RegW +: RegW] = new_q[32'(w) * T + i];
        end
      end
    end
    always_comb begin
      hit[p] = 1'b0;
      if (cnt_q[w] != '0) for (int i = 0; i < T; i++) begin
        if (Entries > 0 && i < 32'(cnt_q[w]) && orig_q[32'(w) * T + i] == upd_orig_i[p*RegW +: RegW])
          hit[p] = 1'b1;
      end
    end
    assign full_o[p] = !hit[p] && 32'(cnt_q[w]) + 32'd1 > Entries;
  end

  // the count (reset: every table empty)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int w = 0; w < N; w++) cnt_q[w] <= '0;
    end else if (upd_valid_i != '0 || clear_i != '0) begin
      for (int p = 0; p < Ports; p++) begin
        if (upd_valid_i[p] && !hit[p] && !full_o[p]) begin
          cnt_q[WIdW'(slot_i[p*6 +: 6])] <= cnt_q[WIdW'(slot_i[p*6 +: 6])] + 1'b1;
        end
      end
      if (clear_i != '0) begin
        for (int i = 0; i < N; i++) begin
          if (clear_i[i]) cnt_q[i] <= '0;
        end
      end
    end
  end

  // the pairs (no reset: read only below the count)
  always_ff @(posedge clk_i) begin
    // verilator tracing_off
    int unsigned w;
    // verilator tracing_on
    if (upd_valid_i != '0) for (int p = 0; p < Ports; p++) begin
      w = 32'(WIdW'(slot_i[p*6 +: 6]));
      if (Entries > 0 && upd_valid_i[p]) begin
        for (int i = 0; i < T; i++) begin
          if (i < 32'(cnt_q[w]) && orig_q[w * T + i] == upd_orig_i[p*RegW +: RegW])
            new_q[w * T + i] <= upd_new_i[p*RegW +: RegW];
        end
        if (!hit[p] && !full_o[p]) begin
          orig_q[w * T + 32'(cnt_q[w]) % T] <= upd_orig_i[p*RegW +: RegW];
          new_q[w * T + 32'(cnt_q[w]) % T]  <= upd_new_i[p*RegW +: RegW];
        end
      end
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      for (int w = 0; w < N; w++) begin
        assert (32'(cnt_q[w]) <= Entries);   // never more pairs than entries
      end
    end
  end
`endif
endmodule
