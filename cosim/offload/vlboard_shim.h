/*
 * vlboard_shim.h -- extern "C" API over the Verilated board RTL kernel
 * (fpga/board/sched_kernel.sv), pin by pin: what a host bus would see. The
 * "vl-board" transport (offload_vlboard.c) drives the kernel's AXI4-Lite
 * and AXI4-Stream ports through it and never looks inside.
 *
 * Implemented in vlboard_shim.cpp. One Verilated model class per parameter
 * set in fpga/board/module.mk (VLBOARD_CONFIGS), all with the same
 * NumLanes (VLBOARD_LANES) and DataWidth 64.
 */
#ifndef SMCOSIM_VLBOARD_SHIM_H
#define SMCOSIM_VLBOARD_SHIM_H

#include "sched_if.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vlboard vlboard;

/* The kernel's pins other than the clock: the host sets the inputs, then
 * vlboard_eval() fills in the outputs as they are before the next rising
 * edge. Single-bit pins are 0/1. */
typedef struct vlboard_pins {
    /* inputs */
    uint8_t  rst_n;                                     /* ap_rst_n */
    uint8_t  awvalid, wvalid, bready, arvalid, rready;  /* s_axi_control_* */
    uint32_t awaddr, wdata, araddr;
    uint8_t  wstrb;
    uint8_t  in_tvalid, in_tlast;                       /* s_axis_in_* */
    uint64_t in_tdata;
    uint8_t  out_tready;                                /* m_axis_out_tready */
    /* outputs */
    uint8_t  awready, wready, bvalid, arready, rvalid;
    uint8_t  bresp, rresp;
    uint32_t rdata;
    uint8_t  in_tready;
    uint8_t  out_tvalid, out_tlast;
    uint64_t out_tdata;
} vlboard_pins;

/* A kernel for the core parameters p; NULL with a message when none of the
 * built models has them. */
vlboard    *vlboard_create(const sched_params *p, char *err, size_t errlen);
/* Drive io's inputs with the clock low and read the outputs into io. */
void        vlboard_eval(vlboard *v, vlboard_pins *io);
/* The rising edge that ends the cycle (inputs as last driven). 0, or -1
 * once an RTL assertion has failed in this kernel (Verilator prints the
 * assertion's file and line). */
int         vlboard_tick(vlboard *v);
void        vlboard_destroy(vlboard *v);
/* The parameter sets built in, e.g. "4/2/8/2/6/4/8/8". */
const char *vlboard_configs(void);

#ifdef __cplusplus
}
#endif
#endif
