// sched_mascar -- MASCAR's memory-saturation scheduling (docs/oaws.md,
// "Peers: MASCAR"; the OAWS paper's peer, seed 001 §5 and Table 3; MASCAR
// itself: Sethia et al., HPCA'15).
//
// Two modes, chosen by sat_i (registered): the memory subsystem is
// saturated (the timing model: at most one free L1D MSHR, or at most one
// free slot in the L1's queue to the interconnect).
//   saturated:   only the owner warp may issue memory (LD/ST) instructions;
//                the others' LD/ST heads are held (hold_o, counted as a warp
//                limit); among a scheduler's ready warps the owner goes first.
//   unsaturated: among a scheduler's ready warps those with an LD/ST head go
//                first (memory before compute).
// Within the set kept, the scheduler's own policy (GTO) chooses.
//
// The owner (owner_q, valid bit + warp id) is kept while it is alive and its
// head does not wait on a long-latency write; otherwise, at the edge, it
// passes to the first such warp after it in id order (wrapping; from warp 0
// when there is no owner). Only while mode_i = 2; otherwise no owner.
//
// Per-warp vectors are in the core's slot order (slot s*Wps + l is warp
// l*NumSchedulers + s); owner_o is a warp id.
module sched_mascar #(
  parameter int NumWarps      = 64,
  parameter int NumSchedulers = 4
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [1:0]           mode_i,        // peer_i: 2 = MASCAR
  input  logic                 sat_i,         // memory subsystem saturated (level)
  input  logic [NumWarps-1:0]  alive_i,       // registered alive
  input  logic [NumWarps-1:0]  long_wait_i,   // head waits on a long-latency write
  input  logic [NumWarps-1:0]  ldst_i,        // head is an LD/ST instruction
  input  logic [NumWarps-1:0]  ready_i,       // after the qualification
  output logic [NumWarps-1:0]  hold_o,        // LD/ST head of a non-owner, saturated
  output logic [NumWarps-1:0]  ready_o,       // ready_i narrowed per scheduler
  output logic [6:0]           owner_o        // {valid, warp id}
);
  localparam int Wps = NumWarps / NumSchedulers;

  logic [1:0] mode_q;
  logic       sat_q;
  logic       owner_v_q, owner_v_d;
  logic [5:0] owner_q, owner_d;

  // one-hot owner in slot order (or 0): compared with every warp id, then
  // placed by the constant warp -> slot map
  logic [NumWarps-1:0] own;
  always_comb begin
    own = '0;
    for (int w = 0; w < NumWarps; w++)
      if (mode_q == 2'd2 && owner_v_q && owner_q == 6'(w))
        own[(w % NumSchedulers) * Wps + w / NumSchedulers] = 1'b1;
  end

  assign hold_o = (mode_q == 2'd2 && sat_q) ? (ldst_i & ~own) : '0;

  for (genvar s = 0; s < NumSchedulers; s++) begin : g_narrow
    logic [Wps-1:0] r, m, o;
    assign r = ready_i[s*Wps +: Wps];
    assign m = r & ldst_i[s*Wps +: Wps];
    assign o = r & own[s*Wps +: Wps];
    always_comb begin
      if (mode_q != 2'd2)  ready_o[s*Wps +: Wps] = r;
      else if (sat_q)      ready_o[s*Wps +: Wps] = (o != '0) ? o : r;
      else                 ready_o[s*Wps +: Wps] = (m != '0) ? m : r;
    end
  end

  // the owner at the next edge: kept while it is a candidate, else the
  // first candidate after it in warp-id order, wrapping (from 0 without an
  // owner): the candidates at or after the start first, then all of them,
  // each through a priority encoder (no index arithmetic on the start)
  always_comb begin
    // verilator tracing_off
    logic [NumWarps-1:0] cand, cand_w, upper, pick;
    logic [6:0]          start;
    logic                found;
    // verilator tracing_on
    cand      = alive_i & ~long_wait_i;
    owner_v_d = 1'b0;
    owner_d   = '0;
    for (int w = 0; w < NumWarps; w++)      // slot order -> warp order
      cand_w[w] = cand[(w % NumSchedulers) * Wps + w / NumSchedulers];
    start = owner_v_q ? {1'b0, owner_q} + 7'd1 : 7'd0;
    if (32'(start) >= NumWarps) start = '0;
    for (int w = 0; w < NumWarps; w++) upper[w] = cand_w[w] && (7'(w) >= start);
    pick  = (upper != '0) ? upper : cand_w;
    found = 1'b0;
    if (mode_q == 2'd2) begin
      if ((own & cand) != '0) begin
        owner_v_d = 1'b1;
        owner_d   = owner_q;
      end else begin
        for (int w = 0; w < NumWarps; w++)
          if (!found && pick[w]) begin
            found     = 1'b1;
            owner_v_d = 1'b1;
            owner_d   = 6'(w);
          end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q    <= '0;
      sat_q     <= 1'b0;
      owner_v_q <= 1'b0;
      owner_q   <= '0;
    end else begin
      mode_q    <= mode_i;
      sat_q     <= sat_i;
      owner_v_q <= owner_v_d;
      owner_q   <= owner_d;
    end
  end
  assign owner_o = {owner_v_q, owner_q};
endmodule
