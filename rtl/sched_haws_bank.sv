// sched_haws_bank -- HAWS hint-mode state of one scheduler's warps: entry,
// the chain cursor, exit, the re-entry block (docs/haws.md, "Scheduler
// core"; seed 000 §5.3.3-§5.3.4; ../shared/design/haws-locality.md C.4.4).
// sched_haws holds one bank per scheduler, each with one port (Ports = 1)
// and the scheduler's warps numbered 0..NumWarps-1; the logic below also
// serves several schedulers over one set of warps.
//
// Warps are numbered as the core orders them (its slot order, see
// sched_core); port p is scheduler p, whose warps are the slots
// [p*Wps +: Wps]. Per warp:
//   mode      in hint mode (haws_mode_o)
//   stall_pc  pc of the stall point, latched at entry, kept for the return
//             pass (the RCU's offsets are relative to it)
//   stall_dep the stall point's long-latency scoreboard slots still pending
//             (bit-sliced, slot e at [e*N +: N])
//   cursor    offset of the next chain member from stall_pc (9-bit signed,
//             0 = end of chain); fetch_pc = stall_pc + cursor
//   wait      a conditional member branch waits for its outcome (hbr)
//   br_taken, br_fall   that branch's offsets
//   fetched   members pushed in this episode (at most RcuDepth)
//   chain_end cursor = 0 or RcuDepth members fetched
//   reentry   the chain was exhausted: no new entry until the stall point
//             issues in normal mode
//
// At the edge ending a cycle, per scheduler, the lowest candidate warp
// (cand_i: alive, not at a barrier, head with an entry hint, RCU empty;
// here also: not in hint mode, not blocked from re-entry, a long-latency
// dependence of its head still pending after this edge's writebacks, for
// haws_i = 2 its scheduler not issuing) enters: its head's pc and hint
// offset come through the buffers' read port (ent_slot_o -> ent_*_i).
// A warp in hint mode leaves when its stall_dep becomes empty (a) or,
// otherwise, its chain has ended with nothing left in its buffer (b); (b)
// sets the re-entry block. enter_o and exit_o are this edge's decisions:
// the core empties those warps' buffers and drops their pushes.
module sched_haws_bank #(
  parameter int NumWarps  = 16,
  parameter int Ports     = 1,
  parameter int SbEntries = 6,
  parameter int RcuDepth  = 8
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [NumWarps-1:0]           clear_i,      // launch or finish: all off
  input  logic [1:0]                    haws_i,
  // entry
  input  logic [NumWarps-1:0]           cand_i,
  input  logic [Ports-1:0]              granted_i,    // scheduler p issues this cycle
  input  logic [NumWarps-1:0]           head_valid_i,
  input  logic [SbEntries*NumWarps-1:0] head_dep_i,   // from the buffers
  input  logic [SbEntries*NumWarps-1:0] long_slots_i, // from the scoreboard
  input  logic [SbEntries*NumWarps-1:0] release_i,
  output logic [Ports-1:0]              ent_valid_o,  // per port: a warp enters ...
  output logic [Ports*6-1:0]            ent_slot_o,   // ... at this slot
  input  logic [Ports*32-1:0]           ent_pc_i,     // ... its head's pc
  input  logic [Ports*9-1:0]            ent_off_i,    // ... its head's hint offset
  // issues (for the re-entry block)
  input  logic [Ports-1:0]              iss_valid_i,
  input  logic [Ports*6-1:0]            iss_slot_i,
  input  logic [Ports*32-1:0]           iss_pc_i,
  input  logic [Ports-1:0]              iss_hinted_i,
  // hint-mode branch outcomes
  input  logic [Ports-1:0]              hbr_valid_i,
  input  logic [Ports*6-1:0]            hbr_slot_i,
  input  logic [Ports-1:0]              hbr_taken_i,
  input  logic [Ports-1:0]              hbr_uniform_i,
  // chain pushes (accepted, warp in hint mode, not dropped)
  input  logic [Ports-1:0]              chain_valid_i,
  input  logic [Ports*6-1:0]            chain_slot_i,
  input  logic [Ports*24-1:0]           chain_hint_i,
  input  logic [Ports-1:0]              chain_end_i,  // the renaming table is full: end here
  // state
  output logic [NumWarps-1:0]           mode_o,
  output logic [NumWarps-1:0]           chain_ok_o,   // in hint mode, may chain-fetch
  output logic [NumWarps-1:0]           enter_o,
  output logic [NumWarps-1:0]           exit_o,
  // per port reads: stall_pc and cursor of warp rd_slot_i
  input  logic [Ports*6-1:0]            rd_slot_i,
  output logic [Ports*32-1:0]           rd_stall_pc_o,
  output logic [Ports*9-1:0]            rd_cursor_o,
  input  logic [Ports*6-1:0]            rd2_slot_i,
  output logic [Ports*32-1:0]           rd2_stall_pc_o
);
  localparam int N    = NumWarps;
  localparam int E    = SbEntries;
  localparam int Wps  = NumWarps / Ports;
  localparam int WIdW = (N > 1) ? $clog2(N) : 1;
  localparam int FetW = $clog2(RcuDepth + 2);

`ifdef SCHED_MUTANTS
  // Test-only planted bugs (docs/testing.md, "Detection power"): only the
  // one Verilated variant built with +define+SCHED_MUTANTS has them; the
  // bug is chosen per model instance with +sched_mutant=N (vsched_shim.cpp).
  int unsigned mutant;
  initial begin
    if (!$value$plusargs("sched_mutant=%d", mutant)) mutant = 0;
  end
`endif

  logic [N-1:0]   mode_q, wait_q, end_q, reentry_q;
  logic [E*N-1:0] dep_q;
  logic [31:0]    stall_pc_q [N];
  logic [8:0]     cursor_q   [N];
  logic [8:0]     br_taken_q [N];
  logic [8:0]     br_fall_q  [N];
  logic [FetW-1:0] fetched_q [N];

  assign mode_o     = mode_q;
  assign chain_ok_o = mode_q & ~wait_q & ~end_q;

  // ---- this edge's decisions ----
  logic [N-1:0] dep_left, dep_now, exit_a, exit_b, ok;
  // (each part only when it can matter: without HAWS activity the Verilated
  // model skips the loops)
  always_comb begin
    dep_left = '0;      // stall_dep after this edge's releases is not empty
    dep_now  = '0;      // the head's long dependences after the releases
    exit_a   = '0;
    exit_b   = '0;
    if (mode_q != '0) begin
      for (int e = 0; e < E; e++) dep_left = dep_left | (dep_q[e*N +: N] & ~release_i[e*N +: N]);
      exit_a = mode_q & ~dep_left;
      exit_b = mode_q & dep_left & ~wait_q & end_q & ~head_valid_i;
    end
    ok = '0;
    if (haws_i != 2'd0 && RcuDepth != 0 && (cand_i & head_valid_i & ~mode_q & ~reentry_q) != '0) begin
      for (int e = 0; e < E; e++)
        dep_now = dep_now | (head_dep_i[e*N +: N] & long_slots_i[e*N +: N] & ~release_i[e*N +: N]);
      ok = cand_i & head_valid_i & ~mode_q & ~reentry_q & dep_now;
      if (haws_i == 2'd2) begin
        for (int p = 0; p < Ports; p++) begin
          if (granted_i[p]) ok[p*Wps +: Wps] = '0;
        end
      end
    end
  end
  assign exit_o = exit_a | exit_b;
  assign ent_valid_o = ent_valid;

  // per port: the lowest candidate of the scheduler enters
  logic [Ports-1:0] ent_valid;
  for (genvar p = 0; p < Ports; p++) begin : g_ent
    logic [Wps-1:0] c;
    logic [5:0]     idx;
    assign c = ok[p*Wps +: Wps];
    always_comb begin
      idx = '0;
      if (c != '0) begin
        for (int i = Wps - 1; i >= 0; i--) begin
          if (c[i]) idx = 6'(i);
        end
      end
    end
    assign ent_valid[p] = c != '0;
    assign ent_slot_o[p*6 +: 6] = 6'(p * Wps + 32'(idx));
  end
  always_comb begin
    enter_o = '0;
    if (ent_valid != '0) begin
      for (int p = 0; p < Ports; p++) begin
        if (ent_valid[p]) enter_o = enter_o | (N'(1) << ent_slot_o[p*6 +: 6]);
      end
    end
  end

  for (genvar p = 0; p < Ports; p++) begin : g_rd
    assign rd_stall_pc_o[p*32 +: 32] = stall_pc_q[WIdW'(rd_slot_i[p*6 +: 6])];
    assign rd_cursor_o[p*9 +: 9]     = cursor_q[WIdW'(rd_slot_i[p*6 +: 6])];
    assign rd2_stall_pc_o[p*32 +: 32] = stall_pc_q[WIdW'(rd2_slot_i[p*6 +: 6])];
  end

  // ---- the edge ----
  // vectors: mode, re-entry block, stall_dep
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q    <= '0;
      reentry_q <= '0;
      dep_q     <= '0;
    end else begin
      // verilator tracing_off
      logic [N-1:0] lift;
      logic [N-1:0] m;
      // verilator tracing_on
      lift = '0;   // re-entry blocks lifted: the stall point issues in normal mode
      if (reentry_q != '0) for (int p = 0; p < Ports; p++) begin
        m = N'(1) << iss_slot_i[p*6 +: 6];
        if (iss_valid_i[p] && !iss_hinted_i[p] &&
            iss_pc_i[p*32 +: 32] == stall_pc_q[WIdW'(iss_slot_i[p*6 +: 6])]) lift = lift | m;
      end
      mode_q    <= (mode_q | enter_o) & ~exit_o & ~clear_i;
      reentry_q <= ((reentry_q & ~lift) | exit_b) & ~clear_i;
      if (mode_q != '0 || enter_o != '0) begin
        for (int e = 0; e < E; e++) begin
          dep_q[e*N +: N] <= (dep_q[e*N +: N] & ~enter_o |
                              head_dep_i[e*N +: N] & long_slots_i[e*N +: N] & enter_o) &
                             ~release_i[e*N +: N]
`ifdef SCHED_MUTANTS
                             // the entry latches slots this edge releases
                             | ((mutant == 8) ? (head_dep_i[e*N +: N] & long_slots_i[e*N +: N] &
                                                 enter_o) : '0)
`endif
                             ;
        end
      end
    end
  end

  // per warp: cursor, branch wait, fetched count, chain end. No reset:
  // they are looked at only in hint mode, and entry sets them all.
  always_ff @(posedge clk_i) begin
    begin
      // verilator tracing_off
      logic [N-1:0]    wait_n, end_n, m;
      logic [8:0]      cur;
      logic [FetW-1:0] f;
      logic [WIdW-1:0] w;
      // verilator tracing_on
      wait_n = wait_q;
      end_n  = end_q;
      // (only at an event: the Verilated model skips the block otherwise)
      if (hbr_valid_i != '0 || chain_valid_i != '0 || ent_valid != '0 ||
          ((wait_q | end_q) & clear_i) != '0) begin
      // branch outcomes (a warp waiting for one has no chain push)
      for (int p = 0; p < Ports; p++) begin
        w = WIdW'(hbr_slot_i[p*6 +: 6]);
        m = N'(1) << hbr_slot_i[p*6 +: 6];
        if (hbr_valid_i[p] && (mode_q & ~exit_o & wait_q & m) != '0) begin
          cur = !hbr_uniform_i[p] ? 9'd0 : hbr_taken_i[p] ? br_taken_q[w] : br_fall_q[w];
          cursor_q[w] <= cur;
          wait_n = wait_n & ~m;
          end_n  = (cur == 9'd0 || 32'(fetched_q[w]) + 32'd1 > RcuDepth) ? (end_n | m) : (end_n & ~m);
        end
      end
      // chain pushes: the cursor from the member's hint (C.9 #6: format 2's
      // field A is the taken side; offsets keep 9 bits, haws_hint.h)
      for (int p = 0; p < Ports; p++) begin
        w = WIdW'(chain_slot_i[p*6 +: 6]);
        m = N'(1) << chain_slot_i[p*6 +: 6];
        if (chain_valid_i[p]) begin
          f = fetched_q[w] + 1'b1;
          fetched_q[w] <= f;
          cur = chain_hint_i[p*24 +: 9];                    // format 1: the offset
          if (chain_hint_i[p*24 + 23]) begin                // format 2: a branch
            cur = chain_hint_i[p*24 + 1 +: 9];
            br_taken_q[w] <= chain_hint_i[p*24 + 1 +: 9];
            br_fall_q[w]  <= chain_hint_i[p*24 + 12 +: 9];
            if (!chain_hint_i[p*24]) begin                  // conditional
              cur = 9'd0;
              wait_n = wait_n | m;
            end
          end else if (chain_end_i[p]) begin
            cur = 9'd0;
          end
          cursor_q[w] <= cur;
          end_n = (cur == 9'd0 || 32'(f) + 32'd1 > RcuDepth) ? (end_n | m) : (end_n & ~m);
        end
      end
      // entries
      for (int p = 0; p < Ports; p++) begin
        w = WIdW'(ent_slot_o[p*6 +: 6]);
        m = N'(1) << ent_slot_o[p*6 +: 6];
        if (ent_valid[p]) begin
          stall_pc_q[w] <= ent_pc_i[p*32 +: 32];
          cursor_q[w]   <= ent_off_i[p*9 +: 9];
          fetched_q[w]  <= '0;
          wait_n = wait_n & ~m;
          end_n  = end_n & ~m;   // offset != 0, RcuDepth >= 1
        end
      end
      wait_q <= wait_n & ~clear_i;
      end_q  <= end_n & ~clear_i;
      end
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      // an entry only outside hint mode: stall_pc stays put during an episode
      assert ((enter_o & mode_q) == '0);
      // enter and exit never meet; a waiting branch only in hint mode
      assert ((enter_o & exit_o) == '0);
      for (int p = 0; p < Ports; p++) begin
        // a chain push only for a warp that may chain-fetch, and never
        // beyond RcuDepth members in an episode
        assert (!chain_valid_i[p] || chain_ok_o[32'(WIdW'(chain_slot_i[p*6 +: 6]))]);
        assert (!chain_valid_i[p] ||
                32'(fetched_q[32'(WIdW'(chain_slot_i[p*6 +: 6]))]) + 32'd1 <= RcuDepth);
      end
    end
  end
`endif
endmodule
