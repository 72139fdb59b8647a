// sched_scoreboard_bank -- pending-write tracking for one scheduler's warps.
// sched_scoreboard holds one bank per scheduler, each with one allocation
// port (AllocPorts = 1), every writeback port and the scheduler's warps
// numbered 0..NumWarps-1; the logic below also serves several allocation
// ports over one set of warps.
//
// Warps are numbered 0..NumWarps-1 as the core orders them (its slot order,
// see sched_core); writeback warp ids at or beyond NumWarps are ignored.
//
// Every warp has Entries slots, each {valid, register id, long-latency
// flag}, as in a hardware scoreboard (not a per-register bit vector). An
// issued instruction with a destination (alloc port p, one per scheduler)
// allocates the lowest free slot of its warp (alloc_slot_o tells which); a
// writeback event for (warp, reg) releases the warp's slots holding reg
// (only slots valid at the start of the cycle are looked at). The head
// instruction of every warp is checked against its valid slots; which slots
// hold one of its registers comes precomputed from the instruction buffers
// (head_dep_i, see sched_ibuffer), which get the register ids of the
// pushed warps' slots (rd_reg_o) for that:
//   hazard_o       some source (RAW) or the destination (WAW) is pending
//   hazard_long_o  ... and at least one matching slot is long-latency
//   full_o         no free slot (an instruction with a destination stalls)
//   long_pending_o any long-latency write pending (the HAWS trigger)
// Writebacks for registers that are not pending are ignored. clear_i (warp
// launch) empties a warp's scoreboard and wins over an allocation.
//
// The valid bits and long flags are bit-sliced, one NumWarps-bit vector per
// slot, so the checks of all warps are a few vector operations per slot;
// the register ids are one memory of NumWarps words per slot, read for the
// pushed warps and at the writebacks.
module sched_scoreboard_bank #(
  parameter int NumWarps   = 16,
  parameter int Entries    = 6,
  parameter int RegW       = 8,
  parameter int WbPorts    = 4,
  parameter int AllocPorts = 1
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
  localparam int N    = NumWarps;
  localparam int WIdW  = (N > 1) ? $clog2(N) : 1;

`ifdef SCHED_MUTANTS
  // Test-only planted bugs (docs/testing.md, "Detection power"): only the
  // one Verilated variant built with +define+SCHED_MUTANTS has them; the
  // bug is chosen per model instance with +sched_mutant=N (vsched_shim.cpp).
  int unsigned mutant;
  initial begin
    if (!$value$plusargs("sched_mutant=%d", mutant)) mutant = 0;
  end
`endif

  logic [Entries*N-1:0] valid_q;   // slot e at [e*N +: N], bit w = warp w
  logic [Entries*N-1:0] long_q;
  // the vector checks
  always_comb begin
    // verilator tracing_off
    logic [N-1:0] m;
    // verilator tracing_on
    hazard_o       = '0;
    hazard_long_o  = '0;
    full_o         = '1;
    long_pending_o = '0;
    for (int e = 0; e < Entries; e++) begin
      m              = head_dep_i[e*N +: N] & valid_q[e*N +: N];
      hazard_o       = hazard_o | m;
      hazard_long_o  = hazard_long_o | (m & long_q[e*N +: N]);
      full_o         = full_o & valid_q[e*N +: N];
      long_pending_o = long_pending_o | (valid_q[e*N +: N] & long_q[e*N +: N]);
    end
`ifdef SCHED_MUTANTS
    if (mutant == 1 && Entries > 1) begin   // one entry too few: full one slot early
      full_o = '1;
      for (int e = 0; e < Entries - 1; e++) full_o = full_o & valid_q[e*N +: N];
    end
`endif
  end

  // per alloc port: the lowest free slot of its warp
  logic [AllocPorts*WIdW-1:0] aw;
  for (genvar p = 0; p < AllocPorts; p++) begin : g_alloc
    logic [Entries-1:0] v;
    assign aw[p*WIdW +: WIdW] = WIdW'(alloc_warp_i[p*6 +: 6]);
    for (genvar e = 0; e < Entries; e++) begin : g_slot
      assign v[e] = valid_q[e*N + 32'(aw[p*WIdW +: WIdW])];
    end
    assign alloc_slot_o[p*Entries +: Entries] = ~v & (v + 1'b1);
  end

  // The register ids: one memory of NumWarps words per slot (g_slot[e].reg_q),
  // so that a read of warp w's slot e selects among NumWarps words only. Per
  // slot and port, the read for the push-time dependency bits (rd_reg_o) and
  // the writeback match (wb_hit: the port's register sits in that slot).
  logic [Entries*WbPorts-1:0] wb_hit;   // slot e, wb port k at [e*WbPorts + k]
  for (genvar e = 0; e < Entries; e++) begin : g_slot
    logic [RegW-1:0] reg_q [N];
    for (genvar p = 0; p < AllocPorts; p++) begin : g_rd
      assign rd_reg_o[(p*Entries + e)*RegW +: RegW] = reg_q[WIdW'(rd_warp_i[p*6 +: 6])];
    end
    for (genvar k = 0; k < WbPorts; k++) begin : g_wb
      assign wb_hit[e*WbPorts + k] =
          wb_valid_i[k] && (reg_q[WIdW'(wb_warp_i[k*6 +: 6])] == wb_reg_i[k*RegW +: RegW]);
    end
    always_ff @(posedge clk_i) begin
      for (int p = 0; p < AllocPorts; p++) begin
        if (alloc_valid_i[p] && alloc_slot_o[p*Entries + e]) begin
          reg_q[aw[p*WIdW +: WIdW]] <= alloc_reg_i[p*RegW +: RegW];
        end
      end
    end
  end

  assign long_slots_o = valid_q & long_q;
  always_comb begin
    // verilator tracing_off
    logic [N-1:0] m;
    // verilator tracing_on
    release_o = '0;
    m = '0;
    if (release_en_i) begin
      for (int k = 0; k < WbPorts; k++) begin
        m = N'(1) << wb_warp_i[k*6 +: 6];   // zero for a warp id >= N
        for (int e = 0; e < Entries; e++) begin
          if (wb_hit[e*WbPorts + k]) release_o[e*N +: N] = release_o[e*N +: N] | m;
        end
      end
      release_o = release_o & valid_q;
    end
  end

  // Updates with one-hot warp masks and constant slices (cheap word
  // operations in the Verilated model, plain decoders in synthesis).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      // verilator tracing_off
      logic [Entries*N-1:0] v;
      logic [N-1:0]         m;
      // verilator tracing_on
      v = valid_q;
      // releases look at the slots as they were at the start of the cycle;
      // the allocated slot was free, so a release never meets an allocation
      for (int k = 0; k < WbPorts; k++) begin
        m = N'(1) << wb_warp_i[k*6 +: 6];   // zero for a warp id >= N
        for (int e = 0; e < Entries; e++) begin
          if (wb_hit[e*WbPorts + k]) v[e*N +: N] = v[e*N +: N] & ~m;
        end
      end
      for (int p = 0; p < AllocPorts; p++) begin
        m = N'(1) << aw[p*WIdW +: WIdW];
        if (alloc_valid_i[p]) begin
          for (int e = 0; e < Entries; e++) begin
            if (alloc_slot_o[p*Entries + e]) v[e*N +: N] = v[e*N +: N] | m;
          end
        end
      end
      valid_q <= v & ~{Entries{clear_i}};
    end
  end

  always_ff @(posedge clk_i) begin
    // verilator tracing_off
    logic [Entries*N-1:0] l;
    logic [N-1:0]         m;
    // verilator tracing_on
    l = long_q;
    for (int p = 0; p < AllocPorts; p++) begin
      m = N'(1) << aw[p*WIdW +: WIdW];
      if (alloc_valid_i[p]) begin
        for (int e = 0; e < Entries; e++) begin
          if (alloc_slot_o[p*Entries + e]) begin
            l[e*N +: N] = alloc_long_i[p] ? (l[e*N +: N] | m) : (l[e*N +: N] & ~m);
          end
        end
      end
    end
    long_q <= l;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing is checked in reset
    end else begin
      for (int p = 0; p < AllocPorts; p++) begin
        // never over-allocated: an allocation finds a free slot, and takes one
        assert (!alloc_valid_i[p] || $onehot(alloc_slot_o[p*Entries +: Entries]));
        for (int q = p + 1; q < AllocPorts; q++) begin
          // two ports never allocate for one warp
          assert (!(alloc_valid_i[p] && alloc_valid_i[q] && aw[p*WIdW +: WIdW] == aw[q*WIdW +: WIdW]));
        end
      end
    end
  end
`endif
endmodule
