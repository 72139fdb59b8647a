// sched_kernel_ctrl -- the board kernel's AXI4-Lite slave: Vitis ap_ctrl_hs
// start/done/idle, the run's arguments and read-only identification
// registers (register map in docs/offload.md, "Board kernel").
//
// 32-bit registers at byte offsets (AddrWidth bits of address, the low two
// ignored); unmapped offsets read 0 and ignore writes; every response is OKAY.
//   0x00 CTRL       bit 0 ap_start (write 1: start; reads 1 until the kernel
//                   accepts it), bit 1 ap_done (clear on read), bit 2 ap_idle,
//                   bit 3 ap_ready (clear on read; set with ap_done)
//   0x10 N_CYCLES   cycles in the run (RW)
//   0x18 N_LANES    lanes in the run (RW; a write is clamped to 1..NumLanes)
//   0x20 ID         0x53434B31 ("SCK1": this register map and record format)
//   0x24 CORE0      NumWarps | NumSchedulers << 8 | RegIdWidth << 16 | IbufDepth << 24
//   0x28 CORE1      SbEntries | WbPorts << 8 | RcuDepth << 16 | RenEntries << 24
//   0x2C KERNEL     NumLanes | DataWidth << 16
//   0x30 IN_BITS    bits of an input token
//   0x34 OUT_BITS   bits of an output token
// A write and a read may be in flight at once; each channel may stall.
module sched_kernel_ctrl #(
  parameter int          AddrWidth = 7,
  parameter int          NumLanes  = 4,
  parameter logic [31:0] Core0     = '0,
  parameter logic [31:0] Core1     = '0,
  parameter logic [31:0] Kernel    = '0,
  parameter int unsigned InBits    = 0,
  parameter int unsigned OutBits   = 0
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // AXI4-Lite slave
  input  logic                 awvalid_i,
  output logic                 awready_o,
  input  logic [AddrWidth-1:0] awaddr_i,
  input  logic                 wvalid_i,
  output logic                 wready_o,
  input  logic [31:0]          wdata_i,
  input  logic [3:0]           wstrb_i,
  output logic                 bvalid_o,
  input  logic                 bready_i,
  output logic [1:0]           bresp_o,
  input  logic                 arvalid_i,
  output logic                 arready_o,
  input  logic [AddrWidth-1:0] araddr_i,
  output logic                 rvalid_o,
  input  logic                 rready_i,
  output logic [31:0]          rdata_o,
  output logic [1:0]           rresp_o,
  // to and from the kernel
  output logic                 start_o,     // one cycle: a run starts
  output logic [31:0]          n_cycles_o,
  output logic [31:0]          n_lanes_o,
  input  logic                 busy_i,      // a run is in progress
  input  logic                 done_i       // one cycle: the run has ended
);
  localparam logic [31:0] IdValue = 32'h5343_4B31;

  localparam logic [AddrWidth-1:0] AddrCtrl    = AddrWidth'(8'h00);
  localparam logic [AddrWidth-1:0] AddrCycles  = AddrWidth'(8'h10);
  localparam logic [AddrWidth-1:0] AddrLanes   = AddrWidth'(8'h18);
  localparam logic [AddrWidth-1:0] AddrId      = AddrWidth'(8'h20);
  localparam logic [AddrWidth-1:0] AddrCore0   = AddrWidth'(8'h24);
  localparam logic [AddrWidth-1:0] AddrCore1   = AddrWidth'(8'h28);
  localparam logic [AddrWidth-1:0] AddrKernel  = AddrWidth'(8'h2C);
  localparam logic [AddrWidth-1:0] AddrInBits  = AddrWidth'(8'h30);
  localparam logic [AddrWidth-1:0] AddrOutBits = AddrWidth'(8'h34);

  // ---- write channel: address and data are taken independently, the write
  // happens once both are held, then the response is offered.
  logic                 aw_full_q, aw_full_d;
  logic [AddrWidth-1:0] aw_addr_q, aw_addr_d;
  logic                 w_full_q, w_full_d;
  logic [31:0]          w_data_q, w_data_d;
  logic [3:0]           w_strb_q, w_strb_d;
  logic                 bvalid_q, bvalid_d;
  logic                 do_write;

  assign awready_o = !aw_full_q;
  assign wready_o  = !w_full_q;
  assign bvalid_o  = bvalid_q;
  assign bresp_o   = 2'b00;
  assign do_write  = aw_full_q && w_full_q && !bvalid_q;

  always_comb begin
    aw_full_d = aw_full_q;
    aw_addr_d = aw_addr_q;
    w_full_d  = w_full_q;
    w_data_d  = w_data_q;
    w_strb_d  = w_strb_q;
    bvalid_d  = bvalid_q;
    if (awvalid_i && awready_o) begin
      aw_full_d = 1'b1;
      aw_addr_d = awaddr_i;
    end
    if (wvalid_i && wready_o) begin
      w_full_d = 1'b1;
      w_data_d = wdata_i;
      w_strb_d = wstrb_i;
    end
    if (do_write) begin
      aw_full_d = 1'b0;
      w_full_d  = 1'b0;
      bvalid_d  = 1'b1;
    end
    if (bvalid_q && bready_i) bvalid_d = 1'b0;
  end

  // ---- registers
  logic        start_q, start_d;
  logic        done_q, done_d;
  logic        ready_q, ready_d;
  logic [31:0] cycles_q, cycles_d;
  logic [31:0] lanes_q, lanes_d;
  logic        read_ctrl;      // CTRL is being read (clears done and ready)
  logic [31:0] lanes_w;        // N_LANES as written, before the clamp

  // a byte-masked write of a 32-bit register
  function automatic logic [31:0] masked(logic [31:0] old, logic [31:0] data,
                                         logic [3:0] strb);
    for (int b = 0; b < 4; b++) masked[8*b +: 8] = strb[b] ? data[8*b +: 8] : old[8*b +: 8];
  endfunction

  always_comb begin
    start_d  = start_q;
    done_d   = done_q;
    ready_d  = ready_q;
    cycles_d = cycles_q;
    lanes_d  = lanes_q;
    lanes_w  = '0;
    if (start_o) start_d = 1'b0;            // accepted (ap_start clears)
    if (read_ctrl) begin
      done_d  = 1'b0;
      ready_d = 1'b0;
    end
    if (done_i) begin                        // after a read in the same cycle
      done_d  = 1'b1;
      ready_d = 1'b1;
    end
    if (do_write) begin
      unique case (aw_addr_q & ~AddrWidth'(3))
        AddrCtrl:   if (w_strb_q[0] && w_data_q[0]) start_d = 1'b1;
        AddrCycles: cycles_d = masked(cycles_q, w_data_q, w_strb_q);
        AddrLanes: begin
          lanes_w = masked(lanes_q, w_data_q, w_strb_q);
          lanes_d = lanes_w == 32'd0 ? 32'd1
                  : lanes_w > 32'(NumLanes) ? 32'(NumLanes) : lanes_w;
        end
        default: ;
      endcase
    end
  end

  assign start_o    = start_q && !busy_i;
  assign n_cycles_o = cycles_q;
  assign n_lanes_o  = lanes_q;

  // ---- read channel: the address is taken when no response is pending; the
  // data follow in the next cycle and are held until taken.
  logic        rvalid_q, rvalid_d;
  logic [31:0] rdata_q, rdata_d;
  logic [31:0] rd_value;

  assign arready_o = !rvalid_q;
  assign rvalid_o  = rvalid_q;
  assign rdata_o   = rdata_q;
  assign rresp_o   = 2'b00;
  assign read_ctrl = arvalid_i && arready_o && (araddr_i & ~AddrWidth'(3)) == AddrCtrl;

  always_comb begin
    unique case (araddr_i & ~AddrWidth'(3))
      AddrCtrl:    rd_value = {28'd0, ready_q, !busy_i, done_q, start_q};
      AddrCycles:  rd_value = cycles_q;
      AddrLanes:   rd_value = lanes_q;
      AddrId:      rd_value = IdValue;
      AddrCore0:   rd_value = Core0;
      AddrCore1:   rd_value = Core1;
      AddrKernel:  rd_value = Kernel;
      AddrInBits:  rd_value = 32'(InBits);
      AddrOutBits: rd_value = 32'(OutBits);
      default:     rd_value = '0;
    endcase
  end

  always_comb begin
    rvalid_d = rvalid_q;
    rdata_d  = rdata_q;
    if (rvalid_q && rready_i) rvalid_d = 1'b0;
    if (arvalid_i && arready_o) begin
      rvalid_d = 1'b1;
      rdata_d  = rd_value;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_full_q <= 1'b0;
      aw_addr_q <= '0;
      w_full_q  <= 1'b0;
      w_data_q  <= '0;
      w_strb_q  <= '0;
      bvalid_q  <= 1'b0;
      start_q   <= 1'b0;
      done_q    <= 1'b0;
      ready_q   <= 1'b0;
      cycles_q  <= '0;
      lanes_q   <= 32'd1;
      rvalid_q  <= 1'b0;
      rdata_q   <= '0;
    end else begin
      aw_full_q <= aw_full_d;
      aw_addr_q <= aw_addr_d;
      w_full_q  <= w_full_d;
      w_data_q  <= w_data_d;
      w_strb_q  <= w_strb_d;
      bvalid_q  <= bvalid_d;
      start_q   <= start_d;
      done_q    <= done_d;
      ready_q   <= ready_d;
      cycles_q  <= cycles_d;
      lanes_q   <= lanes_d;
      rvalid_q  <= rvalid_d;
      rdata_q   <= rdata_d;
    end
  end
endmodule
