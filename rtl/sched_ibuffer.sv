// sched_ibuffer -- the instruction buffers of all warps of an SM.
//
// Every warp has a ring of Depth decoded instructions with dependency bits;
// the buffers and their logic are in sched_ibuffer_bank (see there for the
// push, the pop, the dependency bits and the storage layout). This module
// splits them into one bank per scheduler, as the hardware would be built:
// scheduler s owns the warps in slots [s*Wps +: Wps] (sched_core, "Slot
// order"), and port p is scheduler p's: it pops the warp it grants, pushes
// into one of its own warps and reads the head of its own warp entering
// HAWS hint mode. (A push port's slot may name another scheduler's warp
// only while the port does not push; here it then names warp 0 of the
// port's own bank, which it does not change.) So each bank is a buffer
// with one port over Wps warps, and the area flow synthesizes one bank once
// and counts it Ports times (docs/area.md). The per-warp vectors are
// gathered from the banks: bit w of a vector is warp w, as before.
module sched_ibuffer #(
  parameter int NumWarps = 64,
  parameter int Ports    = 4,    // push and pop ports, one per scheduler
  parameter int Depth    = 2,
  parameter int Width    = 92,
  parameter int Entries  = 6,    // scoreboard slots per warp
  parameter int RegW     = 8,
  // where the fields sit in an instruction (sched_ibuffer_bank)
  parameter int OffOp   = 32,
  parameter int OffDst  = 35,
  parameter int OffSrcV = 43,
  parameter int OffSrc  = 46,
  parameter int OffFlag0 = 60,
  parameter int OffFlag1 = 61,
  // OAWS: PmW payload bits from OffPm kept bit-sliced (sched_ibuffer_bank)
  parameter int OffPm    = 62,
  parameter int PmW      = 7
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic [NumWarps-1:0]              clear_i,
  input  logic [Ports-1:0]                 push_valid_i,
  input  logic [Ports*6-1:0]               push_warp_i,
  input  logic [Ports*Width-1:0]           push_data_i,
  input  logic [Ports-1:0]                 pop_valid_i,
  input  logic [Ports*6-1:0]               pop_warp_i,
  input  logic [Ports*Entries-1:0]         alloc_slot_i,
  input  logic [Ports*Entries*RegW-1:0]    push_sb_reg_i,
  output logic [NumWarps-1:0]              head_valid_o,
  output logic [NumWarps-1:0]              has_space_o,
  output logic [NumWarps-1:0]              head_dst_valid_o,
  output logic [2*NumWarps-1:0]            head_op_o,    // op bit b at [b*NumWarps +: NumWarps]
  output logic [Entries*NumWarps-1:0]      head_dep_o,   // slot e at [e*NumWarps +: NumWarps]
  output logic [2*NumWarps-1:0]            head_flag_o,  // flag b at [b*NumWarps +: NumWarps]
  output logic [PmW*NumWarps-1:0]          head_pm_o,    // OAWS bit b at [b*NumWarps +: NumWarps]
  output logic [Ports*Width-1:0]           pop_data_o,
  input  logic [Ports-1:0]                 rd_en_i,      // (0: rd_data_o is 0)
  input  logic [Ports*6-1:0]               rd_warp_i,
  output logic [Ports*Width-1:0]           rd_data_o
);
  localparam int N   = NumWarps;
  localparam int Wps = NumWarps / Ports;   // warps per scheduler (bank)

  // a warp's index inside the bank starting at `base` (0 when the warp is
  // not in that bank: see above); a warp below base wraps to 65 or more
  function automatic logic [5:0] local_warp(input logic [5:0] warp, input logic [6:0] base);
    logic [6:0] d;
    d = {1'b0, warp} - base;
    local_warp = (d < 7'(Wps)) ? d[5:0] : 6'd0;
  endfunction

  for (genvar s = 0; s < Ports; s++) begin : g_bank
    logic [2*Wps-1:0]       op, flag;
    logic [PmW*Wps-1:0]     pm;
    logic [Entries*Wps-1:0] dep;

    sched_ibuffer_bank #(.NumWarps(Wps), .Ports(1), .Depth(Depth), .Width(Width),
                         .Entries(Entries), .RegW(RegW), .OffOp(OffOp), .OffDst(OffDst),
                         .OffSrcV(OffSrcV), .OffSrc(OffSrc), .OffFlag0(OffFlag0),
                         .OffFlag1(OffFlag1), .OffPm(OffPm), .PmW(PmW)) u_bank (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .clear_i         (clear_i[s*Wps +: Wps]),
      .push_valid_i    (push_valid_i[s]),
      .push_warp_i     (local_warp(push_warp_i[s*6 +: 6], 7'(s * Wps))),
      .push_data_i     (push_data_i[s*Width +: Width]),
      .pop_valid_i     (pop_valid_i[s]),
      .pop_warp_i      (local_warp(pop_warp_i[s*6 +: 6], 7'(s * Wps))),
      .alloc_slot_i    (alloc_slot_i[s*Entries +: Entries]),
      .push_sb_reg_i   (push_sb_reg_i[s*Entries*RegW +: Entries*RegW]),
      .head_valid_o    (head_valid_o[s*Wps +: Wps]),
      .has_space_o     (has_space_o[s*Wps +: Wps]),
      .head_dst_valid_o(head_dst_valid_o[s*Wps +: Wps]),
      .head_op_o       (op),
      .head_dep_o      (dep),
      .head_flag_o     (flag),
      .head_pm_o       (pm),
      .pop_data_o      (pop_data_o[s*Width +: Width]),
      .rd_en_i         (rd_en_i[s]),
      .rd_warp_i       (local_warp(rd_warp_i[s*6 +: 6], 7'(s * Wps))),
      .rd_data_o       (rd_data_o[s*Width +: Width])
    );
    for (genvar b = 0; b < 2; b++) begin : g_bit
      assign head_op_o[b*N + s*Wps +: Wps]   = op[b*Wps +: Wps];
      assign head_flag_o[b*N + s*Wps +: Wps] = flag[b*Wps +: Wps];
    end
    for (genvar b = 0; b < PmW; b++) begin : g_pm
      assign head_pm_o[b*N + s*Wps +: Wps] = pm[b*Wps +: Wps];
    end
    for (genvar e = 0; e < Entries; e++) begin : g_dep
      assign head_dep_o[e*N + s*Wps +: Wps] = dep[e*Wps +: Wps];
    end
  end

`ifndef SYNTHESIS
  // every port names its own scheduler's warps when it acts
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      for (int p = 0; p < Ports; p++) begin
        assert (!push_valid_i[p] || 32'(push_warp_i[p*6 +: 6]) / Wps == p);
        assert (!pop_valid_i[p]  || 32'(pop_warp_i[p*6 +: 6]) / Wps == p);
        assert (!rd_en_i[p]      || 32'(rd_warp_i[p*6 +: 6]) / Wps == p);
      end
    end
  end
`endif
endmodule
