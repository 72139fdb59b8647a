// sched_rcu -- the Result Collection Units of all warps of an SM (HAWS,
// seed 000 §5.3.3 Fig. 5.6, §5.3.4 Fig. 5.8; docs/haws.md, "Scheduler core").
//
// Per warp a FIFO of Depth entries, each {offset 9, dst R, renamed R, ready,
// control, valid}; the entries and their logic are in sched_rcu_bank (see
// there for what each port does). This module splits the RCUs into one bank
// per scheduler, as the hardware would be built: scheduler s owns the warps
// in slots [s*Wps +: Wps] (sched_core, "Slot order"), and every port p here
// is scheduler p's and names only its own warps -- its allocation, free and
// fetch read by the granted or fetched warp, its advance and push read by
// the pushed warp. (A push port's slot may name another scheduler's warp
// only while that port does not push; its read-out is then unused, and here
// it reads warp 0 of the port's own bank.) Writebacks, of any warp, go to
// the bank that holds it. So each bank is an RCU with one port over Wps
// warps, and the area flow synthesizes one bank once and counts it Ports
// times (docs/area.md).
module sched_rcu #(
  parameter int NumWarps = 64,
  parameter int Ports    = 4,
  parameter int Depth    = 8,   // 0: no RCU (nothing is ever allocated)
  parameter int RegW     = 8,
  parameter int WbPorts  = 4
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic [NumWarps-1:0]         clear_i,
  input  logic [NumWarps-1:0]         init_i,
  // allocation at a chain member's issue
  input  logic [Ports-1:0]            alloc_valid_i,
  input  logic [Ports*6-1:0]          alloc_slot_i,
  input  logic [Ports*9-1:0]          alloc_off_i,
  input  logic [Ports*RegW-1:0]       alloc_dst_i,
  input  logic [Ports*RegW-1:0]       alloc_ren_i,
  input  logic [Ports-1:0]            alloc_ctrl_i,
  // a copy or re-exec issues: its entry is freed
  input  logic [Ports-1:0]            free_valid_i,
  input  logic [Ports*6-1:0]          free_slot_i,
  input  logic [Ports*3-1:0]          free_idx_i,
  // a return-pass push at the head: advance; a skip also frees the head
  input  logic [Ports-1:0]            adv_valid_i,
  input  logic [Ports-1:0]            adv_skip_i,
  input  logic [Ports*6-1:0]          adv_slot_i,
  // writebacks
  input  logic [WbPorts-1:0]          wb_valid_i,
  input  logic [WbPorts*6-1:0]        wb_slot_i,
  input  logic [WbPorts*RegW-1:0]     wb_reg_i,
  output logic [NumWarps-1:0]         busy_o,
  output logic [NumWarps-1:0]         has_head_o,
  // per port: the head entry of rd_slot_i (a) and rd2_slot_i (b)
  input  logic [Ports*6-1:0]          rd_slot_i,
  output logic [Ports*2-1:0]          rd_kind_o,   // 1 skip, 2 copy, 3 re-exec (0: no head)
  output logic [Ports*9-1:0]          rd_off_o,
  output logic [Ports*RegW-1:0]       rd_ren_o,
  output logic [Ports*RegW-1:0]       rd_dst_o,
  input  logic [Ports*6-1:0]          rd2_slot_i,
  output logic [Ports*3-1:0]          rd2_idx_o,   // the head's index
  output logic [Ports*RegW-1:0]       rd2_ren_o,
  output logic [Ports*RegW-1:0]       rd2_dst_o
);
  localparam int Wps = NumWarps / Ports;   // warps per scheduler (bank)

  // a slot's distance from slot `base` (7 bits: a slot below base wraps to
  // 65 or more, so the slot is in the bank starting at base iff this is
  // below Wps)
  function automatic logic [6:0] from_base(input logic [5:0] slot, input logic [6:0] base);
    from_base = {1'b0, slot} - base;
  endfunction
  // a slot's index inside the bank starting at `base` (0 when the slot is
  // not in that bank: see above)
  function automatic logic [5:0] local_slot(input logic [5:0] slot, input logic [6:0] base);
    logic [6:0] d;
    d = from_base(slot, base);
    local_slot = (d < 7'(Wps)) ? d[5:0] : 6'd0;
  endfunction

  for (genvar s = 0; s < Ports; s++) begin : g_bank
    logic [WbPorts-1:0]   wb_valid;
    logic [WbPorts*6-1:0] wb_slot;
    for (genvar k = 0; k < WbPorts; k++) begin : g_wb
      assign wb_valid[k] = wb_valid_i[k] && from_base(wb_slot_i[k*6 +: 6], 7'(s * Wps)) < 7'(Wps);
      assign wb_slot[k*6 +: 6] = local_slot(wb_slot_i[k*6 +: 6], 7'(s * Wps));
    end

    sched_rcu_bank #(.NumWarps(Wps), .Ports(1), .Depth(Depth), .RegW(RegW),
                     .WbPorts(WbPorts)) u_bank (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .clear_i      (clear_i[s*Wps +: Wps]),
      .init_i       (init_i[s*Wps +: Wps]),
      .alloc_valid_i(alloc_valid_i[s]),
      .alloc_slot_i (local_slot(alloc_slot_i[s*6 +: 6], 7'(s * Wps))),
      .alloc_off_i  (alloc_off_i[s*9 +: 9]),
      .alloc_dst_i  (alloc_dst_i[s*RegW +: RegW]),
      .alloc_ren_i  (alloc_ren_i[s*RegW +: RegW]),
      .alloc_ctrl_i (alloc_ctrl_i[s]),
      .free_valid_i (free_valid_i[s]),
      .free_slot_i  (local_slot(free_slot_i[s*6 +: 6], 7'(s * Wps))),
      .free_idx_i   (free_idx_i[s*3 +: 3]),
      .adv_valid_i  (adv_valid_i[s]),
      .adv_skip_i   (adv_skip_i[s]),
      .adv_slot_i   (local_slot(adv_slot_i[s*6 +: 6], 7'(s * Wps))),
      .wb_valid_i   (wb_valid),
      .wb_slot_i    (wb_slot),
      .wb_reg_i     (wb_reg_i),
      .busy_o       (busy_o[s*Wps +: Wps]),
      .has_head_o   (has_head_o[s*Wps +: Wps]),
      .rd_slot_i    (local_slot(rd_slot_i[s*6 +: 6], 7'(s * Wps))),
      .rd_kind_o    (rd_kind_o[s*2 +: 2]),
      .rd_off_o     (rd_off_o[s*9 +: 9]),
      .rd_ren_o     (rd_ren_o[s*RegW +: RegW]),
      .rd_dst_o     (rd_dst_o[s*RegW +: RegW]),
      .rd2_slot_i   (local_slot(rd2_slot_i[s*6 +: 6], 7'(s * Wps))),
      .rd2_idx_o    (rd2_idx_o[s*3 +: 3]),
      .rd2_ren_o    (rd2_ren_o[s*RegW +: RegW]),
      .rd2_dst_o    (rd2_dst_o[s*RegW +: RegW])
    );
  end

`ifndef SYNTHESIS
  // every port names its own scheduler's warps when it acts
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      for (int p = 0; p < Ports; p++) begin
        assert (!alloc_valid_i[p] || 32'(alloc_slot_i[p*6 +: 6]) / Wps == p);
        assert (!free_valid_i[p]  || 32'(free_slot_i[p*6 +: 6]) / Wps == p);
        assert (!adv_valid_i[p]   || 32'(adv_slot_i[p*6 +: 6]) / Wps == p);
        assert (32'(rd_slot_i[p*6 +: 6]) / Wps == p);
      end
    end
  end
`endif
endmodule
