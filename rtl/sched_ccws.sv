// sched_ccws -- CCWS's lost-locality scoring and load throttling
// (docs/oaws.md, "Peers: CCWS"; the OAWS paper's peer, seed 001 §5 and
// Table 3; CCWS itself: Rogers et al., MICRO'12).
//
// Each warp has a lost-locality score (LLS) = base + ex(w). The victim tag
// array (VTA) sits beside the L1D in the memory model; a VTA hit of warp w
// (the L1D missed on a line that w itself lost) is reported at an edge by
// vta_valid_i / vta_warp_i and raises ex(w) by bump_i (K_THROTTLE x base in
// the timing model, Table 3: 8 x 100). Every edge every ex decays by one
// toward 0 (the score toward base). Launch or finish of a warp sets ex = 0.
//
// The cutoff is (alive warps) x base. Warps are stacked in order of
// descending score (ties: lower warp id first); a warp may issue global/
// local loads when the scores stacked below it sum to less than the cutoff
// (so the warp of the highest score always may). A warp that may not is
// held: hold_o, which the qualification counts as a warp limit.
//
// Registers: ex(w) (12 bits, saturating at 4095) per warp, mode and base.
// Per-warp vectors are in the core's slot order (slot s*Wps + l is warp
// l*NumSchedulers + s). With mode_i != 1 nothing is held (the scores still
// follow the events).
module sched_ccws #(
  parameter int NumWarps      = 64,
  parameter int NumSchedulers = 4
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [1:0]           mode_i,        // peer_i: 1 = CCWS
  input  logic [9:0]           base_i,        // base score (registered level)
  input  logic [11:0]          bump_i,        // score added by a VTA hit (at its edge)
  input  logic                 vta_valid_i,   // event: a VTA hit ...
  input  logic [5:0]           vta_slot_i,    // ... of this warp (slot)
  input  logic [NumWarps-1:0]  clear_i,       // launch or finish (slot order)
  input  logic [NumWarps-1:0]  alive_i,       // registered alive (slot order)
  output logic [NumWarps-1:0]  hold_o         // may not issue loads (slot order)
);
  localparam int Wps = NumWarps / NumSchedulers;

  logic [1:0]             mode_q;
  logic [9:0]             base_q;
  logic [12*NumWarps-1:0] ex_q;             // score - base, slot order

  // The stack: warp w is held when the alive warps ahead of it (higher
  // score, or equal score and lower id) sum to at least the cutoff. Only
  // computed while CCWS is on and some score is above base.
  always_comb begin
    // verilator tracing_off
    logic [19:0] ahead, cutoff;
    logic [6:0]  n_alive;
    logic [11:0] ew, ev;
    int unsigned sw, sv;
    // verilator tracing_on
    hold_o  = '0;
    ahead   = '0;
    cutoff  = '0;
    n_alive = '0;
    ew      = '0;
    ev      = '0;
    sw      = 0;
    sv      = 0;
    if (mode_q == 2'd1 && ex_q != '0) begin
      for (int w = 0; w < NumWarps; w++) n_alive = n_alive + {6'd0, alive_i[w]};
      cutoff = 20'(n_alive) * 20'(base_q);
      for (int w = 0; w < NumWarps; w++) begin
        sw    = 32'((w % NumSchedulers) * Wps + w / NumSchedulers);
        ew    = ex_q[sw*12 +: 12];
        ahead = '0;
        for (int v = 0; v < NumWarps; v++) begin
          sv = 32'((v % NumSchedulers) * Wps + v / NumSchedulers);
          ev = ex_q[sv*12 +: 12];
          if (v != w && alive_i[sv] && (ev > ew || (ev == ew && v < w)))
            ahead = ahead + 20'(ev) + 20'(base_q);
        end
        hold_o[sw] = alive_i[sw] && (ahead >= cutoff);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q <= '0;
      base_q <= '0;
      ex_q   <= '0;
    end else begin
      mode_q <= mode_i;
      base_q <= base_i;
      if (ex_q != '0 || vta_valid_i || clear_i != '0) begin
        for (int s = 0; s < NumWarps; s++) begin
          // verilator tracing_off
          logic [12:0] e;
          // verilator tracing_on
          e = {1'b0, ex_q[s*12 +: 12]};
          if (e != '0) e = e - 13'd1;
          if (vta_valid_i && 32'(vta_slot_i) == s) e = e + {1'b0, bump_i};
          if (e > 13'd4095) e = 13'd4095;
          if (clear_i[s]) e = '0;
          ex_q[s*12 +: 12] <= e[11:0];
        end
      end
    end
  end
endmodule
