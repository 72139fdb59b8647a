// sched_haws -- HAWS hint-mode state of all warps of an SM: entry, the
// chain cursor, exit, the re-entry block (docs/haws.md, "Scheduler core";
// seed 000 §5.3.3-§5.3.4; ../shared/design/haws-locality.md C.4.4).
//
// The state and its logic are in sched_haws_bank (see there for what is
// kept per warp and when a warp enters and leaves hint mode). This module
// splits it into one bank per scheduler, as the hardware would be built:
// port p is scheduler p, whose warps are the slots [p*Wps +: Wps]
// (sched_core, "Slot order"), and every per-port input names one of its own
// warps when it acts (its issue, its branch outcome, its chain push, its
// fetch request), so each bank is the same logic with one port over Wps
// warps, and the area flow synthesizes one bank once and counts it Ports
// times (docs/area.md). The per-warp vectors are split among the banks and
// gathered from them: bit w is warp w, as before.
module sched_haws #(
  parameter int NumWarps  = 64,
  parameter int Ports     = 4,
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
  localparam int N   = NumWarps;
  localparam int E   = SbEntries;
  localparam int Wps = NumWarps / Ports;   // warps per scheduler (bank)

  // a slot's index inside the bank starting at `base` (0 when the slot is
  // not in that bank; an acting port's slot always is); a slot below base
  // wraps to 65 or more
  function automatic logic [5:0] local_slot(input logic [5:0] slot, input logic [6:0] base);
    logic [6:0] d;
    d = {1'b0, slot} - base;
    local_slot = (d < 7'(Wps)) ? d[5:0] : 6'd0;
  endfunction

  for (genvar s = 0; s < Ports; s++) begin : g_bank
    logic [E*Wps-1:0] head_dep, long_slots, rel;
    logic [5:0]       ent_slot;
    for (genvar e = 0; e < E; e++) begin : g_slice
      assign head_dep[e*Wps +: Wps]   = head_dep_i[e*N + s*Wps +: Wps];
      assign long_slots[e*Wps +: Wps] = long_slots_i[e*N + s*Wps +: Wps];
      assign rel[e*Wps +: Wps]        = release_i[e*N + s*Wps +: Wps];
    end

    sched_haws_bank #(.NumWarps(Wps), .Ports(1), .SbEntries(E), .RcuDepth(RcuDepth)) u_bank (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .clear_i       (clear_i[s*Wps +: Wps]),
      .haws_i        (haws_i),
      .cand_i        (cand_i[s*Wps +: Wps]),
      .granted_i     (granted_i[s]),
      .head_valid_i  (head_valid_i[s*Wps +: Wps]),
      .head_dep_i    (head_dep),
      .long_slots_i  (long_slots),
      .release_i     (rel),
      .ent_valid_o   (ent_valid_o[s]),
      .ent_slot_o    (ent_slot),
      .ent_pc_i      (ent_pc_i[s*32 +: 32]),
      .ent_off_i     (ent_off_i[s*9 +: 9]),
      .iss_valid_i   (iss_valid_i[s]),
      .iss_slot_i    (local_slot(iss_slot_i[s*6 +: 6], 7'(s * Wps))),
      .iss_pc_i      (iss_pc_i[s*32 +: 32]),
      .iss_hinted_i  (iss_hinted_i[s]),
      .hbr_valid_i   (hbr_valid_i[s]),
      .hbr_slot_i    (local_slot(hbr_slot_i[s*6 +: 6], 7'(s * Wps))),
      .hbr_taken_i   (hbr_taken_i[s]),
      .hbr_uniform_i (hbr_uniform_i[s]),
      .chain_valid_i (chain_valid_i[s]),
      .chain_slot_i  (local_slot(chain_slot_i[s*6 +: 6], 7'(s * Wps))),
      .chain_hint_i  (chain_hint_i[s*24 +: 24]),
      .chain_end_i   (chain_end_i[s]),
      .mode_o        (mode_o[s*Wps +: Wps]),
      .chain_ok_o    (chain_ok_o[s*Wps +: Wps]),
      .enter_o       (enter_o[s*Wps +: Wps]),
      .exit_o        (exit_o[s*Wps +: Wps]),
      .rd_slot_i     (local_slot(rd_slot_i[s*6 +: 6], 7'(s * Wps))),
      .rd_stall_pc_o (rd_stall_pc_o[s*32 +: 32]),
      .rd_cursor_o   (rd_cursor_o[s*9 +: 9]),
      .rd2_slot_i    (local_slot(rd2_slot_i[s*6 +: 6], 7'(s * Wps))),
      .rd2_stall_pc_o(rd2_stall_pc_o[s*32 +: 32])
    );
    assign ent_slot_o[s*6 +: 6] = 6'(s * Wps + 32'(ent_slot));
  end

`ifndef SYNTHESIS
  // every port names its own scheduler's warps when it acts
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      for (int p = 0; p < Ports; p++) begin
        assert (!iss_valid_i[p]   || 32'(iss_slot_i[p*6 +: 6]) / Wps == p);
        assert (!hbr_valid_i[p]   || 32'(hbr_slot_i[p*6 +: 6]) / Wps == p);
        assert (!chain_valid_i[p] || 32'(chain_slot_i[p*6 +: 6]) / Wps == p);
        assert (32'(rd_slot_i[p*6 +: 6]) / Wps == p);
        assert (32'(rd2_slot_i[p*6 +: 6]) / Wps == p);
      end
    end
  end
`endif
endmodule
