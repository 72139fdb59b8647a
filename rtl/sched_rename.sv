// sched_rename -- the HAWS renaming tables of all warps of an SM (seed 000
// §5.3.3, §5.3.6: 8 entries x 16 bits; docs/haws.md, "Scheduler core").
//
// Per warp up to Entries pairs {original register, renamed register} and a
// count; the tables and their logic are in sched_rename_bank (see there for
// the lookup and the update). This module splits them into one bank per
// scheduler, as the hardware would be built: scheduler s owns the warps in
// slots [s*Wps +: Wps] (sched_core, "Slot order") and port p, scheduler p's
// push port, looks up and updates only the warp it pushes into, one of its
// own. (The slot may name another scheduler's warp only while the port does
// not push; its lookup is then unused, and here it reads warp 0 of the
// port's own bank.) So each bank is a renaming table with one port over Wps
// warps, and the area flow synthesizes one bank once and counts it Ports
// times (docs/area.md).
module sched_rename #(
  parameter int NumWarps = 64,
  parameter int Ports    = 4,
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
  localparam int Wps = NumWarps / Ports;   // warps per scheduler (bank)

  for (genvar s = 0; s < Ports; s++) begin : g_bank
    logic [6:0] d;      // the slot's distance from the bank's first (a slot
                        // below it wraps to 65 or more)
    logic [5:0] slot;   // the port's warp inside the bank (0: not in it)
    assign d    = {1'b0, slot_i[s*6 +: 6]} - 7'(s * Wps);
    assign slot = (d < 7'(Wps)) ? d[5:0] : 6'd0;

    sched_rename_bank #(.NumWarps(Wps), .Ports(1), .Entries(Entries), .RegW(RegW)) u_bank (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .clear_i    (clear_i[s*Wps +: Wps]),
      .slot_i     (slot),
      .src_i      (src_i[s*3*RegW +: 3*RegW]),
      .src_o      (src_o[s*3*RegW +: 3*RegW]),
      .upd_valid_i(upd_valid_i[s]),
      .upd_orig_i (upd_orig_i[s*RegW +: RegW]),
      .upd_new_i  (upd_new_i[s*RegW +: RegW]),
      .full_o     (full_o[s])
    );
  end

`ifndef SYNTHESIS
  // an update names a warp of the port's own scheduler
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      for (int p = 0; p < Ports; p++) begin
        assert (!upd_valid_i[p] || 32'(slot_i[p*6 +: 6]) / Wps == p);
      end
    end
  end
`endif
endmodule
