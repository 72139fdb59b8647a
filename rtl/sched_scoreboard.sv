// sched_scoreboard -- pending-write tracking for all warps of an SM.
//
// Warps are numbered 0..NumWarps-1 as the core orders them (its slot order,
// see sched_core); writeback warp ids at or beyond NumWarps are ignored.
// Every warp has Entries slots {valid, register id, long-latency flag}; the
// slots and their logic are in sched_scoreboard_bank (see there for the
// allocation, the release and the checks). This module splits them into one
// bank per scheduler, as the hardware would be built: alloc port p is
// scheduler p's, whose warps are the slots [p*Wps +: Wps] (sched_core,
// "Slot order"); it allocates for the warp it grants and reads the slots of
// the warp it pushes into, both its own. (The push port's warp may be
// another scheduler's only while it does not push; its read-out is then
// unused, and here it reads warp 0 of its own bank.) Writebacks, of any
// warp, go to the bank that holds it. So each bank is a scoreboard with one
// allocation port over Wps warps, and the area flow synthesizes one bank
// once and counts it AllocPorts times (docs/area.md). The per-warp vectors
// are split among the banks and gathered from them: bit w is warp w.
module sched_scoreboard #(
  parameter int NumWarps   = 64,
  parameter int Entries    = 6,
  parameter int RegW       = 8,
  parameter int WbPorts    = 4,
  parameter int AllocPorts = 4
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic [NumWarps-1:0]              clear_i,
  // allocation on issue, one port per scheduler (ports address different warps)
  input  logic [AllocPorts-1:0]            alloc_valid_i,
  input  logic [AllocPorts*6-1:0]          alloc_warp_i,
  input  logic [AllocPorts*RegW-1:0]       alloc_reg_i,
  input  logic [AllocPorts-1:0]            alloc_long_i,
  // register writebacks
  input  logic [WbPorts-1:0]               wb_valid_i,
  input  logic [WbPorts*6-1:0]             wb_warp_i,
  input  logic [WbPorts*RegW-1:0]          wb_reg_i,
  // every warp's head instruction: slot e at [e*NumWarps +: NumWarps]
  input  logic [Entries*NumWarps-1:0]      head_dep_i,
  // read port per alloc port's scheduler: the register ids of warp
  // rd_warp_i[p]'s slots (slot e at [(p*Entries + e)*RegW +: RegW])
  input  logic [AllocPorts*6-1:0]          rd_warp_i,
  output logic [AllocPorts*Entries*RegW-1:0] rd_reg_o,
  output logic [AllocPorts*Entries-1:0]    alloc_slot_o,   // one-hot, per alloc port
  output logic [NumWarps-1:0]              hazard_o,
  output logic [NumWarps-1:0]              hazard_long_o,
  output logic [NumWarps-1:0]              full_o,
  output logic [NumWarps-1:0]              long_pending_o,
  // HAWS: the valid long-latency slots, and the slots this cycle's
  // writebacks release (slot e at [e*NumWarps +: NumWarps]; computed only
  // with release_en_i, else 0)
  input  logic                             release_en_i,
  output logic [Entries*NumWarps-1:0]      long_slots_o,
  output logic [Entries*NumWarps-1:0]      release_o
);
  localparam int N   = NumWarps;
  localparam int Wps = NumWarps / AllocPorts;   // warps per scheduler (bank)

  // a warp's distance from warp `base` (a warp below base wraps to 65 or
  // more, so the warp is in the bank starting at base iff this is below Wps)
  function automatic logic [6:0] from_base(input logic [5:0] warp, input logic [6:0] base);
    from_base = {1'b0, warp} - base;
  endfunction
  // a warp's index inside the bank starting at `base` (0 when not in it)
  function automatic logic [5:0] local_warp(input logic [5:0] warp, input logic [6:0] base);
    logic [6:0] d;
    d = from_base(warp, base);
    local_warp = (d < 7'(Wps)) ? d[5:0] : 6'd0;
  endfunction

  for (genvar s = 0; s < AllocPorts; s++) begin : g_bank
    logic [WbPorts-1:0]       wb_valid;
    logic [WbPorts*6-1:0]     wb_warp;
    logic [Entries*Wps-1:0]   head_dep, long_slots, rel;
    for (genvar k = 0; k < WbPorts; k++) begin : g_wb
      assign wb_valid[k] = wb_valid_i[k] && from_base(wb_warp_i[k*6 +: 6], 7'(s * Wps)) < 7'(Wps);
      assign wb_warp[k*6 +: 6] = local_warp(wb_warp_i[k*6 +: 6], 7'(s * Wps));
    end
    for (genvar e = 0; e < Entries; e++) begin : g_slice
      assign head_dep[e*Wps +: Wps]            = head_dep_i[e*N + s*Wps +: Wps];
      assign long_slots_o[e*N + s*Wps +: Wps]  = long_slots[e*Wps +: Wps];
      assign release_o[e*N + s*Wps +: Wps]     = rel[e*Wps +: Wps];
    end

    sched_scoreboard_bank #(.NumWarps(Wps), .Entries(Entries), .RegW(RegW), .WbPorts(WbPorts),
                            .AllocPorts(1)) u_bank (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .clear_i       (clear_i[s*Wps +: Wps]),
      .alloc_valid_i (alloc_valid_i[s]),
      .alloc_warp_i  (local_warp(alloc_warp_i[s*6 +: 6], 7'(s * Wps))),
      .alloc_reg_i   (alloc_reg_i[s*RegW +: RegW]),
      .alloc_long_i  (alloc_long_i[s]),
      .wb_valid_i    (wb_valid),
      .wb_warp_i     (wb_warp),
      .wb_reg_i      (wb_reg_i),
      .head_dep_i    (head_dep),
      .rd_warp_i     (local_warp(rd_warp_i[s*6 +: 6], 7'(s * Wps))),
      .rd_reg_o      (rd_reg_o[s*Entries*RegW +: Entries*RegW]),
      .alloc_slot_o  (alloc_slot_o[s*Entries +: Entries]),
      .hazard_o      (hazard_o[s*Wps +: Wps]),
      .hazard_long_o (hazard_long_o[s*Wps +: Wps]),
      .full_o        (full_o[s*Wps +: Wps]),
      .long_pending_o(long_pending_o[s*Wps +: Wps]),
      .release_en_i  (release_en_i),
      .long_slots_o  (long_slots),
      .release_o     (rel)
    );
  end

`ifndef SYNTHESIS
  // every allocation names a warp of the port's own scheduler
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      for (int p = 0; p < AllocPorts; p++) begin
        assert (!alloc_valid_i[p] || 32'(alloc_warp_i[p*6 +: 6]) / Wps == p);
      end
    end
  end
`endif
endmodule
