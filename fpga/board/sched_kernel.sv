// sched_kernel -- the scheduler core as a Vitis-style RTL kernel for an FPGA
// board (docs/offload.md, "Board kernel"): NumLanes copies of
// rtl/sched_core.sv ("lanes", one simulated SM each), AXI4-Lite control
// (sched_kernel_ctrl.sv) and two AXI4-Stream ports carrying the tokens of
// cosim/offload/offload_token.h.
//
// A run (ap_start .. ap_done) is N_CYCLES cycles of N_LANES lanes. For each
// cycle c and each lane l in order, the kernel takes one input record from
// s_axis_in and gives one output record on m_axis_out:
//   input record   bits [7:0] the control byte (bit 0 STEP: the lane's core
//                  sees a rising edge with this token; bit 1 RESET: the
//                  lane's core is reset first), bits [8 +: InBits] the input
//                  token; InBeats beats of DataWidth bits, low bits first,
//                  zero-padded;
//   output record  the lane's output token after the reset and edge, OutBeats
//                  beats, low bits first, zero-padded; tlast on its last beat.
// Lanes are stepped one at a time (each core has a clock gate), which keeps
// one input register and one output register for all lanes; the streams,
// not the cores, bound a board's speed (docs/offload.md).
//
// Port names follow the Vitis RTL kernel conventions (ap_clk, ap_rst_n,
// s_axi_control_*, <stream>_t*), which its packager recognises.
module sched_kernel #(
  parameter int NumWarps      = 64,
  parameter int NumSchedulers = 4,
  parameter int RegIdWidth    = 8,
  parameter int IbufDepth     = 2,
  parameter int SbEntries     = 6,
  parameter int WbPorts       = 4,
  parameter int RcuDepth      = 8,
  parameter int RenEntries    = 8,
  parameter int NumLanes      = 4,    // cores in this kernel (a compute unit)
  parameter int DataWidth     = 64,   // stream beat width, a multiple of 8
  parameter int AddrWidth     = 7     // AXI4-Lite address bits
) (
  input  logic                 ap_clk,
  input  logic                 ap_rst_n,
  // AXI4-Lite control slave
  input  logic                 s_axi_control_awvalid,
  output logic                 s_axi_control_awready,
  input  logic [AddrWidth-1:0] s_axi_control_awaddr,
  input  logic                 s_axi_control_wvalid,
  output logic                 s_axi_control_wready,
  input  logic [31:0]          s_axi_control_wdata,
  input  logic [3:0]           s_axi_control_wstrb,
  output logic                 s_axi_control_bvalid,
  input  logic                 s_axi_control_bready,
  output logic [1:0]           s_axi_control_bresp,
  input  logic                 s_axi_control_arvalid,
  output logic                 s_axi_control_arready,
  input  logic [AddrWidth-1:0] s_axi_control_araddr,
  output logic                 s_axi_control_rvalid,
  input  logic                 s_axi_control_rready,
  output logic [31:0]          s_axi_control_rdata,
  output logic [1:0]           s_axi_control_rresp,
  // AXI4-Stream in: input records
  input  logic                 s_axis_in_tvalid,
  output logic                 s_axis_in_tready,
  input  logic [DataWidth-1:0] s_axis_in_tdata,
  input  logic                 s_axis_in_tlast,    // not used: records have a fixed length
  // AXI4-Stream out: output records
  output logic                 m_axis_out_tvalid,
  input  logic                 m_axis_out_tready,
  output logic [DataWidth-1:0] m_axis_out_tdata,
  output logic                 m_axis_out_tlast
);
  // BEGIN generated:board-bits (cosim/sched_ports.def; make sched-ports-gen)
  localparam int unsigned InBits = 0
      + (2)                                      // policy_i
      + (7)                                      // warp_limit_i
      + (7)                                      // pool_size_i
      + NumSchedulers * (4)                      // unit_avail_i
      + (NumWarps)                               // barrier_i
      + (NumWarps)                               // launch_i
      + (NumWarps)                               // finish_i
      + NumSchedulers * (1)                      // push_valid_i
      + NumSchedulers * (6)                      // push_warp_i
      + NumSchedulers * (32)                     // push_pc_i
      + NumSchedulers * (2)                      // push_op_i
      + NumSchedulers * (1)                      // push_dst_valid_i
      + NumSchedulers * (RegIdWidth)             // push_dst_i
      + NumSchedulers * (3)                      // push_src_valid_i
      + NumSchedulers * 3 * (RegIdWidth)         // push_src_i
      + NumSchedulers * (1)                      // push_pred_i
      + NumSchedulers * (1)                      // push_long_i
      + NumSchedulers * (24)                     // push_hint_i
      + NumSchedulers * (6)                      // push_pred_miss_i
      + NumSchedulers * (1)                      // push_pred_div_i
      + NumSchedulers * (2)                      // push_rcu_i
      + WbPorts * (1)                            // wb_valid_i
      + WbPorts * (6)                            // wb_warp_i
      + WbPorts * (RegIdWidth)                   // wb_reg_i
      + (2)                                      // haws_i
      + NumSchedulers * (1)                      // hbr_valid_i
      + NumSchedulers * (6)                      // hbr_warp_i
      + NumSchedulers * (1)                      // hbr_taken_i
      + NumSchedulers * (1)                      // hbr_uniform_i
      + (2)                                      // oaws_i
      + (7)                                      // mshr_avail_i
      + (7)                                      // oaws_cap_i
      + (7)                                      // ldst_retire_i
      + (2)                                      // ocw_event_i
      + (1)                                      // ocw_half_i
      + (7)                                      // ocw_min_i
      + (7)                                      // ocw_max_i
      + (8)                                      // cnt_max_i
      + (8)                                      // cnt_init_i
      + (2)                                      // peer_i
      + (10)                                     // ccws_base_i
      + (12)                                     // ccws_bump_i
      + (1)                                      // vta_valid_i
      + (6)                                      // vta_warp_i
      + (1)                                      // mascar_sat_i
      + (1)                                      // group_prio_i
      + NumWarps * (6)                           // launch_group_i
      ;
  localparam int unsigned OutBits = 0
      + NumSchedulers * (1)                      // issue_valid_o
      + NumSchedulers * (6)                      // issue_warp_o
      + NumSchedulers * (32)                     // issue_pc_o
      + NumSchedulers * (2)                      // issue_op_o
      + NumSchedulers * (1)                      // issue_dst_valid_o
      + NumSchedulers * (RegIdWidth)             // issue_dst_o
      + NumSchedulers * (1)                      // issue_pred_o
      + NumSchedulers * (1)                      // issue_long_o
      + NumSchedulers * (24)                     // issue_hint_o
      + NumSchedulers * (6)                      // issue_pred_miss_o
      + NumSchedulers * (1)                      // issue_pred_div_o
      + NumSchedulers * (7)                      // issue_eff_miss_o
      + NumSchedulers * (1)                      // issue_hinted_o
      + NumSchedulers * (1)                      // issue_copy_o
      + NumSchedulers * (3)                      // stall_reason_o
      + NumSchedulers * (1)                      // fetch_valid_o
      + NumSchedulers * (6)                      // fetch_warp_o
      + NumSchedulers * (1)                      // fetch_pc_valid_o
      + NumSchedulers * (32)                     // fetch_pc_o
      + NumSchedulers * (2)                      // fetch_rcu_kind_o
      + NumSchedulers * (32)                     // fetch_rcu_pc_o
      + NumSchedulers * (RegIdWidth)             // fetch_rcu_ren_o
      + NumSchedulers * (RegIdWidth)             // fetch_rcu_dst_o
      + (NumWarps)                               // long_pending_o
      + (NumWarps)                               // haws_mode_o
      + (NumWarps)                               // rcu_busy_o
      + (7)                                      // miss_inflight_o
      + (7)                                      // ocw_o
      + (8)                                      // ocw_cnt_o
      + (NumWarps)                               // ccws_hold_o
      + (7)                                      // mascar_owner_o
      + NumSchedulers * 8 * (32)                 // counters_o
      ;
  // END generated:board-bits

  localparam int unsigned CtlBits  = 8;
  localparam int unsigned InBeats  = (CtlBits + InBits + DataWidth - 1) / DataWidth;
  localparam int unsigned OutBeats = (OutBits + DataWidth - 1) / DataWidth;
  localparam int unsigned InRecBits  = InBeats * DataWidth;
  localparam int unsigned OutRecBits = OutBeats * DataWidth;
  localparam int unsigned LaneWidth  = NumLanes > 1 ? $clog2(NumLanes) : 1;
  localparam int unsigned BeatWidth  = (InBeats > OutBeats ? InBeats : OutBeats) > 1
                                     ? $clog2(InBeats > OutBeats ? InBeats : OutBeats) : 1;

  // ---- control
  logic        start;
  logic        done;
  logic        busy;
  logic [31:0] n_cycles;
  logic [31:0] n_lanes;

  sched_kernel_ctrl #(
    .AddrWidth (AddrWidth),
    .NumLanes  (NumLanes),
    .Core0     ({8'(IbufDepth), 8'(RegIdWidth), 8'(NumSchedulers), 8'(NumWarps)}),
    .Core1     ({8'(RenEntries), 8'(RcuDepth), 8'(WbPorts), 8'(SbEntries)}),
    .Kernel    ({16'(DataWidth), 16'(NumLanes)}),
    .InBits    (InBits),
    .OutBits   (OutBits)
  ) u_ctrl (
    .clk_i      (ap_clk),
    .rst_ni     (ap_rst_n),
    .awvalid_i  (s_axi_control_awvalid),
    .awready_o  (s_axi_control_awready),
    .awaddr_i   (s_axi_control_awaddr),
    .wvalid_i   (s_axi_control_wvalid),
    .wready_o   (s_axi_control_wready),
    .wdata_i    (s_axi_control_wdata),
    .wstrb_i    (s_axi_control_wstrb),
    .bvalid_o   (s_axi_control_bvalid),
    .bready_i   (s_axi_control_bready),
    .bresp_o    (s_axi_control_bresp),
    .arvalid_i  (s_axi_control_arvalid),
    .arready_o  (s_axi_control_arready),
    .araddr_i   (s_axi_control_araddr),
    .rvalid_o   (s_axi_control_rvalid),
    .rready_i   (s_axi_control_rready),
    .rdata_o    (s_axi_control_rdata),
    .rresp_o    (s_axi_control_rresp),
    .start_o    (start),
    .n_cycles_o (n_cycles),
    .n_lanes_o  (n_lanes),
    .busy_i     (busy),
    .done_i     (done)
  );

  // ---- the record sequencer
  typedef enum logic [2:0] {
    StIdle,     // no run
    StRecv,     // taking the beats of an input record
    StIssue,    // record complete: decide reset / step
    StReset,    // the lane's core is in reset during this cycle
    StStep,     // the lane's core sees the rising edge that ends this cycle
    StCapture,  // the lane's output token goes to the output register
    StDrain     // last record captured: wait until it has been sent
  } state_e;

  state_e                 state_q, state_d;
  logic [31:0]            cycles_left_q, cycles_left_d;  // cycles after the current one
  logic [31:0]            lanes_q, lanes_d;              // N_LANES of the run
  logic [LaneWidth-1:0]   lane_q, lane_d;                // lane of the current record
  logic [BeatWidth-1:0]   in_beat_q, in_beat_d;
  logic [InRecBits-1:0]   in_rec_q, in_rec_d;
  logic [NumLanes-1:0]    lane_rst_q, lane_rst_d;        // lane resets (active high)
  logic                   out_full_q, out_full_d;
  logic [BeatWidth-1:0]   out_beat_q, out_beat_d;
  logic [OutRecBits-1:0]  out_rec_q, out_rec_d;

  logic [NumLanes*OutBits-1:0] lane_out;
  logic [OutBits-1:0]          cur_out;
  logic [CtlBits-1:0]          ctl;
  logic                        in_take;
  logic                        out_give;
  logic                        last_record;

  assign ctl         = in_rec_q[CtlBits-1:0];
  assign cur_out     = lane_out[32'(lane_q) * OutBits +: OutBits];
  assign in_take     = s_axis_in_tvalid && s_axis_in_tready;
  assign out_give    = m_axis_out_tvalid && m_axis_out_tready;
  assign last_record = cycles_left_q == 32'd0 && 32'(lane_q) == lanes_q - 32'd1;

  assign busy              = state_q != StIdle;
  assign done              = state_q == StDrain && !out_full_q;
  assign s_axis_in_tready  = state_q == StRecv;
  assign m_axis_out_tvalid = out_full_q;
  assign m_axis_out_tdata  = out_rec_q[DataWidth-1:0];
  assign m_axis_out_tlast  = 32'(out_beat_q) == OutBeats - 1;

  always_comb begin
    state_d       = state_q;
    cycles_left_d = cycles_left_q;
    lanes_d       = lanes_q;
    lane_d        = lane_q;
    in_beat_d     = in_beat_q;
    in_rec_d      = in_rec_q;
    lane_rst_d    = '0;
    out_full_d    = out_full_q;
    out_beat_d    = out_beat_q;
    out_rec_d     = out_rec_q;

    // output records leave one beat at a time, low bits first
    if (out_give) begin
      out_rec_d = out_rec_q >> DataWidth;
      if (32'(out_beat_q) == OutBeats - 1) begin
        out_full_d = 1'b0;
        out_beat_d = '0;
      end else begin
        out_beat_d = out_beat_q + 1'b1;
      end
    end

    unique case (state_q)
      StIdle: begin
        if (start) begin
          lanes_d       = n_lanes;
          lane_d        = '0;
          cycles_left_d = n_cycles - 32'd1;
          in_beat_d     = '0;
          state_d       = n_cycles == 32'd0 ? StDrain : StRecv;
        end
      end
      StRecv: begin
        // beats shift in from the top, so the first ends in the low bits
        if (in_take) begin
          if (InBeats == 1) in_rec_d = InRecBits'(s_axis_in_tdata);
          else in_rec_d = {s_axis_in_tdata, in_rec_q[InRecBits-1:DataWidth]};
          if (32'(in_beat_q) == InBeats - 1) begin
            in_beat_d = '0;
            state_d   = StIssue;
          end else begin
            in_beat_d = in_beat_q + 1'b1;
          end
        end
      end
      StIssue: begin
        if (ctl[1]) begin
          lane_rst_d[lane_q] = 1'b1;
          state_d            = StReset;
        end else begin
          state_d = ctl[0] ? StStep : StCapture;
        end
      end
      StReset:  state_d = ctl[0] ? StStep : StCapture;
      StStep:   state_d = StCapture;
      StCapture: begin
        if (!out_full_d) begin       // the previous record's last beat may leave now
          out_full_d = 1'b1;
          out_rec_d  = OutRecBits'(cur_out);
          if (last_record) begin
            state_d = StDrain;
          end else begin
            state_d = StRecv;
            if (32'(lane_q) == lanes_q - 32'd1) begin
              lane_d        = '0;
              cycles_left_d = cycles_left_q - 32'd1;
            end else begin
              lane_d = lane_q + 1'b1;
            end
          end
        end
      end
      StDrain:  if (!out_full_q) state_d = StIdle;
      default:  state_d = StIdle;
    endcase
  end

  always_ff @(posedge ap_clk or negedge ap_rst_n) begin
    if (!ap_rst_n) begin
      state_q       <= StIdle;
      cycles_left_q <= '0;
      lanes_q       <= 32'd1;
      lane_q        <= '0;
      in_beat_q     <= '0;
      in_rec_q      <= '0;
      lane_rst_q    <= '0;
      out_full_q    <= 1'b0;
      out_beat_q    <= '0;
      out_rec_q     <= '0;
    end else begin
      state_q       <= state_d;
      cycles_left_q <= cycles_left_d;
      lanes_q       <= lanes_d;
      lane_q        <= lane_d;
      in_beat_q     <= in_beat_d;
      in_rec_q      <= in_rec_d;
      lane_rst_q    <= lane_rst_d;
      out_full_q    <= out_full_d;
      out_beat_q    <= out_beat_d;
      out_rec_q     <= out_rec_d;
    end
  end

  // ---- the lanes: every core sees the record's token; only the current
  // lane's clock gate opens, in StStep. A fresh kernel (ap_rst_n low) holds
  // every core in reset.
  for (genvar l = 0; l < NumLanes; l++) begin : g_lane
    sched_kernel_lane #(
      .NumWarps      (NumWarps),
      .NumSchedulers (NumSchedulers),
      .RegIdWidth    (RegIdWidth),
      .IbufDepth     (IbufDepth),
      .SbEntries     (SbEntries),
      .WbPorts       (WbPorts),
      .RcuDepth      (RcuDepth),
      .RenEntries    (RenEntries),
      .InBits        (InBits),
      .OutBits       (OutBits)
    ) u_lane (
      .clk_i       (ap_clk),
      .rst_ni      (ap_rst_n && !lane_rst_q[l]),
      .step_i      (state_q == StStep && 32'(lane_q) == 32'(l)),
      .in_token_i  (in_rec_q[CtlBits +: InBits]),
      .out_token_o (lane_out[l*OutBits +: OutBits])
    );
  end
endmodule
