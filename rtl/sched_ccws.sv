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
// local loads when the scores stacked ahead of it sum to less than the
// cutoff (so the warp of the highest score always may). A warp that may not
// is held: hold_o, which the qualification counts as a warp limit.
//
// The stack is evaluated one warp per scheduler per edge (docs/oaws.md,
// decision P11): lane s compares the warp in slot s*Wps + scan_q with every
// alive warp and sums the scores (excess + base, one adder per warp shared
// by the lanes) of those ahead of it; the warp is held when that sum
// reaches the cutoff n_alive x base (one multiplier, shared). (A lane
// computing (n_alive - n_ahead) x base instead, the same number, put a
// multiplier into every lane's cone: ABC's cmos mapping of the block then
// did not finish in 10 minutes.)
// The verdict is registered in hold_q, so a warp's hold follows its score
// within Wps edges (+1): NumSchedulers comparators and adders per warp
// instead of NumWarps (the whole stack every cycle was NumWarps^2 of each,
// see docs/area.md). Launch/finish clear the warp's hold with its score.
//
// Registers: ex(w) (12 bits, saturating at 4095) and hold(w) per warp, the
// scan index, mode and base. Per-warp vectors are in the core's slot order
// (slot s*Wps + l is warp l*NumSchedulers + s). With mode_q != 1 nothing is
// held (the scores still follow the events).
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

  localparam int ScanW = (Wps > 1) ? $clog2(Wps) : 1;

  logic [1:0]             mode_q;
  logic [9:0]             base_q;
  logic [12*NumWarps-1:0] ex_q, ex_d;       // score - base, slot order
  logic [NumWarps-1:0]    hold_q, hold_d;   // registered verdicts, slot order
  logic [ScanW-1:0]       scan_q, scan_d;   // the slot within each scheduler

  assign hold_o = (mode_q == 2'd1) ? (hold_q & alive_i) : '0;
  assign scan_d = (32'(scan_q) == Wps - 1) ? '0 : scan_q + ScanW'(1);

  // The evaluation lanes: lane s judges warp w = scan_q * NumSchedulers + s.
  always_comb begin
    // verilator tracing_off
    logic [18:0] sum_sc;                  // <= 64 x (4095 + 1023)
    logic [16:0] cutoff;
    logic [6:0]  n_alive;
    logic [11:0] ew, ev;
    logic [6:0]  w, vid;
    logic        aw, held, ahead;
    int unsigned sv;
    // verilator tracing_on
    hold_d  = hold_q;
    n_alive = '0;
    for (int v = 0; v < NumWarps; v++) n_alive = n_alive + {6'd0, alive_i[v]};
    cutoff  = {10'd0, n_alive} * {7'd0, base_q};
    for (int s = 0; s < NumSchedulers; s++) begin
      ew = '0;
      aw = 1'b0;
      for (int l = 0; l < Wps; l++)
        if (32'(scan_q) == l) begin
          ew = ex_q[(s*Wps + l)*12 +: 12];
          aw = alive_i[s*Wps + l];
        end
      w       = 7'(32'(scan_q) * NumSchedulers + s);
      sum_sc  = '0;
      for (int v = 0; v < NumWarps; v++) begin
        sv = 32'((v % NumSchedulers) * Wps + v / NumSchedulers);
        ev = ex_q[sv*12 +: 12];
        // ahead: higher excess, or equal and a lower id; {ex, ~id} orders
        // both at once (and a warp is never ahead of itself)
        // (the id in a variable of its own: Yosys 0.23 does not keep a size
        // cast's width inside a concatenation)
        vid     = 7'(v);
        ahead   = alive_i[sv] && ({ev, ~vid} > {ew, ~w});
        sum_sc  = sum_sc + (({7'd0, ev} + {9'd0, base_q}) & {19{ahead}});
      end
      held = (mode_q == 2'd1) && (ex_q != '0) && aw && (sum_sc >= {2'd0, cutoff});
      for (int l = 0; l < Wps; l++)
        if (32'(scan_q) == l) hold_d[s*Wps + l] = held;
    end
    if (mode_q != 2'd1) hold_d = '0;
    hold_d = hold_d & ~clear_i;
  end

  // The scores' next state: every ex decays by one toward 0; the hit warp's
  // decayed ex plus the bump (one adder, saturating at 4095); clear wins.
  always_comb begin
    // verilator tracing_off
    logic [11:0] e, e_hit;
    logic [12:0] e_sum;
    // verilator tracing_on
    e_hit = '0;
    for (int s = 0; s < NumWarps; s++)
      if (32'(vta_slot_i) == s) e_hit = ex_q[s*12 +: 12];
    if (e_hit != '0) e_hit = e_hit - 12'd1;
    e_sum = {1'b0, e_hit} + {1'b0, bump_i};
    e_hit = e_sum[12] ? 12'd4095 : e_sum[11:0];
    for (int s = 0; s < NumWarps; s++) begin
      e = ex_q[s*12 +: 12];
      if (e != '0) e = e - 12'd1;
      if (vta_valid_i && 32'(vta_slot_i) == s) e = e_hit;
      if (clear_i[s]) e = '0;
      ex_d[s*12 +: 12] = e;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q <= '0;
      base_q <= '0;
      ex_q   <= '0;
      hold_q <= '0;
      scan_q <= '0;
    end else begin
      mode_q <= mode_i;
      base_q <= base_i;
      hold_q <= hold_d;
      scan_q <= scan_d;
      ex_q   <= ex_d;
    end
  end
endmodule
