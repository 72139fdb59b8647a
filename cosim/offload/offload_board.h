/*
 * offload_board.h -- what the hosts of the board RTL kernel
 * (fpga/board/sched_kernel.sv) share: its register map and the record
 * format of its streams (docs/offload.md, "Board kernel"). Used by the
 * "vl-board" (offload_vlboard.c) and "ocl-board" (offload_oclboard.c)
 * transports.
 */
#ifndef SMCOSIM_OFFLOAD_BOARD_H
#define SMCOSIM_OFFLOAD_BOARD_H

#include <stdint.h>

/* AXI4-Lite registers (byte offsets; fpga/board/sched_kernel_ctrl.sv). */
enum {
    OFFLOAD_BOARD_CTRL     = 0x00,   /* bit 0 ap_start, 1 ap_done, 2 ap_idle, 3 ap_ready */
    OFFLOAD_BOARD_N_CYCLES = 0x10,   /* scalar argument 0 */
    OFFLOAD_BOARD_N_LANES  = 0x18,   /* scalar argument 1 */
    OFFLOAD_BOARD_ID       = 0x20,
    OFFLOAD_BOARD_CORE0    = 0x24,
    OFFLOAD_BOARD_CORE1    = 0x28,
    OFFLOAD_BOARD_KERNEL   = 0x2C,
    OFFLOAD_BOARD_IN_BITS  = 0x30,
    OFFLOAD_BOARD_OUT_BITS = 0x34
};
enum { OFFLOAD_BOARD_START = 1, OFFLOAD_BOARD_DONE = 2, OFFLOAD_BOARD_IDLE = 4 };
#define OFFLOAD_BOARD_ID_VALUE 0x53434B31u   /* "SCK1" */

/* Records are cut into 64-bit beats (the kernel's DataWidth as these hosts
 * build it). An input record is the control byte in bits 7:0 and the input
 * token from bit 8; an output record is the output token. */
#define OFFLOAD_BOARD_CTL_BITS 8u

static inline unsigned offload_board_in_beats(unsigned in_bits)
{
    return (OFFLOAD_BOARD_CTL_BITS + in_bits + 63) / 64;
}

/* Beat b of the input record of control byte ctl and token tok[iw]. */
static inline uint64_t offload_board_in_beat(uint8_t ctl, const uint64_t *tok, unsigned iw,
                                             unsigned b)
{
    uint64_t lo = b == 0 ? ctl : (b - 1 < iw ? tok[b - 1] >> (64 - OFFLOAD_BOARD_CTL_BITS) : 0);
    uint64_t hi = b < iw ? tok[b] << OFFLOAD_BOARD_CTL_BITS : 0;
    return lo | hi;
}

#endif
