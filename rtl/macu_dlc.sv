// macu_dlc -- OAWS's Divergent Load Classifier, DLC (docs/oaws.md "DLC";
// seed 001 = B. Wang et al., "OAWS: Memory Occlusion Aware Warp
// Scheduling", PACT'16, §4.2 and §4.4).
//
// A small fully associative table, one per SM, beside the L1D in the memory
// access coalescing unit (MACU) where the paper puts it -- not in the
// scheduler core: the timing model drives it next to its memory model, and
// the core gets its answer with each pushed instruction (pred_div,
// pred_miss). Each entry holds a divergent load's pc, #acc (its L1D accesses
// so far) and #sets (the distinct sets they touched), 10 bits each (§4.4).
//
// Fill (fill_i, at most one per edge): a global/local load occurrence the
// coalescer found divergent (more than two lines) enters or updates the
// entry of its pc (§4.2 "its PC is first checked against DLC"):
//   * pc present: that entry; absent and fewer than entries_i valid: the
//     next free entry; absent and full: the least recently updated entry,
//     cleared (§4.4 "managed under the LRU policy"; docs/oaws.md #16);
//   * if #acc + fill_acc or #sets + fill_sets would pass 1023, both fields
//     are halved first (the ratio the associativity test reads is kept;
//     fill_acc, fill_sets < 128, so one halving always makes room);
//   * #acc += fill_acc, #sets += fill_sets.
// Clear (clear_i, each kernel launch): no valid entry (§4.2 "DLC is cleared
// at each kernel invocation").
//
// Lookups (combinational, NumSchedulers + 1 read ports): port 0 is the load
// that left the LD/ST unit (its OCW event's Δ), ports 1.. the instructions
// decoded this cycle, one per scheduler. look_hit_o: the pc has an entry
// (the load is predicted divergent); look_assoc_o: that entry is
// associativity-sensitive, #acc > 1.5 x #sets (§4.3.1), kept as a bit per
// entry computed at its fill.
//
// The paper's 7-bit #inst (§4.4: entries whose #inst reaches 0 "could be
// evicted") has no reader once eviction is by recency, so it is not kept;
// the recency is a rank per entry (0 = most recently updated), IdxW bits.
// The C twin is cosim/dlc_cmodel.c; cosim/dlc.c runs both in lockstep.
module macu_dlc #(
  parameter int unsigned DlcEntries    = 32,  // §4.4: 32 entries
  parameter int unsigned NumSchedulers = 2,   // decode lookups per cycle
  parameter int unsigned PcWidth       = 32   // smcosim's pcs (the paper: 40 bits)
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  input  logic [$clog2(DlcEntries + 1)-1:0]      entries_i,
  input  logic                                   clear_i,
  input  logic                                   fill_i,
  input  logic [PcWidth-1:0]                     fill_pc_i,
  input  logic [6:0]                             fill_acc_i,
  input  logic [6:0]                             fill_sets_i,
  input  logic [(NumSchedulers+1)*PcWidth-1:0]   look_pc_i,
  output logic [NumSchedulers:0]                 look_hit_o,
  output logic [NumSchedulers:0]                 look_assoc_o,
  output logic [$clog2(DlcEntries + 1)-1:0]      count_o
);
  localparam int unsigned NumLook = NumSchedulers + 1;
  localparam int unsigned CntW    = $clog2(DlcEntries + 1);
  localparam int unsigned IdxW    = DlcEntries > 1 ? $clog2(DlcEntries) : 1;
  localparam int unsigned FieldW  = 10;                  // #acc, #sets (§4.4)

  logic [DlcEntries*PcWidth-1:0] pc_q;
  logic [DlcEntries*FieldW-1:0]  acc_q, sets_q;
  logic [DlcEntries*IdxW-1:0]    rank_q;
  logic [DlcEntries-1:0]         assoc_q;
  logic [CntW-1:0]               count_q;

  // entry i holds a load
  logic [DlcEntries-1:0] valid;
  always_comb begin
    for (int unsigned i = 0; i < DlcEntries; i++)
      valid[i] = CntW'(i) < count_q;
  end

  // ---- lookups ----
  always_comb begin
    for (int unsigned p = 0; p < NumLook; p++) begin
      look_hit_o[p]   = 1'b0;
      look_assoc_o[p] = 1'b0;
      for (int unsigned i = 0; i < DlcEntries; i++)
        if (valid[i] && pc_q[i*PcWidth +: PcWidth] == look_pc_i[p*PcWidth +: PcWidth]) begin
          look_hit_o[p]   = 1'b1;
          look_assoc_o[p] = assoc_q[i];
        end
    end
  end

  // ---- fill: which entry, and its new fields ----
  logic [DlcEntries-1:0] match, target;
  logic                  hit, full;
  logic [IdxW-1:0]       old_rank;      // entries more recent than this move back by one
  logic [FieldW-1:0]     base_acc, base_sets, new_acc, new_sets;
  always_comb begin
    match = '0;
    for (int unsigned i = 0; i < DlcEntries; i++)
      match[i] = valid[i] && pc_q[i*PcWidth +: PcWidth] == fill_pc_i;
    hit  = |match;
    full = count_q >= entries_i || count_q == CntW'(DlcEntries);
    target   = '0;
    old_rank = '0;
    base_acc  = '0;
    base_sets = '0;
    if (hit) begin
      target = match;
      for (int unsigned i = 0; i < DlcEntries; i++)
        if (match[i]) begin
          old_rank  = rank_q[i*IdxW +: IdxW];
          base_acc  = acc_q[i*FieldW +: FieldW];
          base_sets = sets_q[i*FieldW +: FieldW];
        end
    end else if (full) begin
      // the least recently updated entry has the largest rank, count - 1
      old_rank = IdxW'(count_q - CntW'(1));
      for (int unsigned i = 0; i < DlcEntries; i++)
        target[i] = valid[i] && rank_q[i*IdxW +: IdxW] == old_rank;
    end else begin
      // a new entry at index count: every valid entry moves back
      old_rank = IdxW'(count_q);
      for (int unsigned i = 0; i < DlcEntries; i++)
        target[i] = CntW'(i) == count_q;
    end
    if (({1'b0, base_acc} + 11'(fill_acc_i) > 11'd1023) ||
        ({1'b0, base_sets} + 11'(fill_sets_i) > 11'd1023)) begin
      base_acc  = base_acc >> 1;
      base_sets = base_sets >> 1;
    end
    new_acc  = base_acc + FieldW'(fill_acc_i);
    new_sets = base_sets + FieldW'(fill_sets_i);
  end

  // associativity-sensitive (§4.3.1: #acc > #sets x 1.5), of the new fields
  logic new_assoc;
  assign new_assoc = {1'b0, new_acc, 1'b0} > {2'b0, new_sets} + {1'b0, new_sets, 1'b0};

  // ---- state ----
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else if (clear_i) begin
      count_q <= '0;
    end else if (fill_i && !hit && !full) begin
      count_q <= count_q + CntW'(1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (fill_i && !clear_i) begin
      for (int unsigned i = 0; i < DlcEntries; i++) begin
        if (target[i]) begin
          pc_q[i*PcWidth +: PcWidth]  <= fill_pc_i;
          acc_q[i*FieldW +: FieldW]   <= new_acc;
          sets_q[i*FieldW +: FieldW]  <= new_sets;
          assoc_q[i]                  <= new_assoc;
          rank_q[i*IdxW +: IdxW]      <= '0;
        end else if (valid[i] && rank_q[i*IdxW +: IdxW] < old_rank) begin
          rank_q[i*IdxW +: IdxW] <= rank_q[i*IdxW +: IdxW] + IdxW'(1);
        end
      end
    end
  end

  assign count_o = count_q;
endmodule
