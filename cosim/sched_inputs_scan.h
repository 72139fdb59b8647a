/*
 * sched_inputs_scan.h -- the fast input check shared by sched_if.c and the C
 * model (private to cosim/).
 *
 * sched_inputs_scan() applies every rule of sched_inputs_check() without a
 * message and without branches on the data (which ports are valid changes
 * every cycle, and mispredicted branches cost more than the tests): 1 when
 * all inputs are in range, and then bit s of *push_valid says push[s] is
 * valid and bit k of *wb_valid says wb[k] is; 0 when sched_inputs_check()
 * would reject them (it then names the culprit). It is an inline function so
 * that the C model's step can absorb it (a call would cost a tenth of a
 * cycle's work).
 */
#ifndef SMCOSIM_SCHED_INPUTS_SCAN_H
#define SMCOSIM_SCHED_INPUTS_SCAN_H

#include "sched_if.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Bits that may be set in the eight bytes of sched_instr from `op` to
 * `pred` (op, dst_valid, dst, src_valid, src[0..2], pred), for register ids
 * of reg_id_width bits, ... */
_Static_assert(offsetof(sched_instr, dst_valid) == offsetof(sched_instr, op) + 1 &&
               offsetof(sched_instr, dst) == offsetof(sched_instr, op) + 2 &&
               offsetof(sched_instr, src_valid) == offsetof(sched_instr, op) + 3 &&
               offsetof(sched_instr, src) == offsetof(sched_instr, op) + 4 &&
               offsetof(sched_instr, pred) == offsetof(sched_instr, op) + 7,
               "sched_instr: op..pred must be 8 consecutive bytes");
static inline uint64_t sched_instr_allowed_bits(unsigned reg_id_width)
{
    uint64_t r = (1u << reg_id_width) - 1;
    return 0x03ull | 0x01ull << 8 | r << 16 | 0x07ull << 24 | r << 32 | r << 40 | r << 48 | 0x01ull << 56;
}
/* ... and bits that must be clear in the eight from `long_lat` (long_lat,
 * pad, hint, pred_miss, pad): long_lat above bit 0, pred_miss above bit 3. */
_Static_assert(offsetof(sched_instr, long_lat) == 12 && offsetof(sched_instr, pred_miss) == 16 &&
               sizeof(sched_instr) == 20, "sched_instr: long_lat..pred_miss layout");
#define SCHED_LONG_TO_MISS_FORBIDDEN 0xF0000000FEull

static inline int sched_inputs_scan(const sched_params *p, const sched_inputs *in,
                                    unsigned *push_valid, unsigned *wb_valid)
{
    const unsigned ns = p->num_schedulers, nw = p->num_warps;
    uint64_t warps = nw == 64 ? ~0ull : (1ull << nw) - 1;
    uint64_t units;
    memcpy(&units, in->unit_avail, sizeof units);
    unsigned bad = (in->policy >= SCHED_NUM_POLICIES) | (in->warp_limit > 127) |
                   (in->pool_size > 127) |
                   ((in->reserved_mshr_avail | in->reserved_mem_complete) != 0) |
                   (((in->barrier | in->launch | in->finish) & ~warps) != 0) |
                   ((units & 0xF0F0F0F0F0F0F0F0ull) != 0);

    /* valid flags: one bit per port (exact once every flag is 0 or 1) */
    unsigned pv = 0, wv = 0, flags = 0;
#pragma GCC unroll 8
    for (unsigned s = 0; s < SCHED_MAX_SCHEDULERS; s++) {
        flags |= in->push[s].valid;
        pv |= (unsigned)in->push[s].valid << s;
    }
#pragma GCC unroll 8
    for (unsigned k = 0; k < SCHED_MAX_WB_PORTS; k++) {
        flags |= in->wb[k].valid;
        wv |= (unsigned)in->wb[k].valid << k;
    }
    bad |= (flags > 1) | (((pv >> ns) | (wv >> p->wb_ports)) != 0);   /* ports beyond the parameters */

    /* the fields of valid ports (a valid flag is 0 or 1 once flags <= 1) */
    const unsigned reg_limit = 1u << p->reg_id_width;
    const uint64_t forbidden = ~sched_instr_allowed_bits(p->reg_id_width);
    if ((ns & (ns - 1)) == 0 && (nw & (nw - 1)) == 0) {
        /* powers of two: a push's warp is in range and belongs to its port
         * when (warp ^ s) has no bit of warp_forbidden; a writeback's warp
         * and register are in range when no bit of wb_forbidden is set in
         * the 16 bits from .warp */
        const unsigned warp_forbidden = (ns - 1) | (~(nw - 1) & 0xFF);
        const unsigned wb_forbidden = (~(nw - 1) & 0xFF) | (~(reg_limit - 1) & 0xFF) << 8;
        for (unsigned s = 0; s < ns; s++) {
            const sched_push *ps = &in->push[s];
            uint64_t op_to_pred, long_to_miss;          /* instr bytes 4..11 and 12..19 */
            memcpy(&op_to_pred, &ps->instr.op, sizeof op_to_pred);
            memcpy(&long_to_miss, &ps->instr.long_lat, sizeof long_to_miss);
            uint64_t wrong = ((ps->warp ^ s) & warp_forbidden) | (op_to_pred & forbidden) |
                             (long_to_miss & SCHED_LONG_TO_MISS_FORBIDDEN);
            bad |= ps->valid & (wrong != 0);
        }
        for (unsigned k = 0; k < p->wb_ports; k++) {
            const sched_writeback *wb = &in->wb[k];
            unsigned warp_reg = wb->warp | (unsigned)wb->reg << 8;
            bad |= wb->valid & ((warp_reg & wb_forbidden) != 0);
        }
    } else {
        for (unsigned s = 0; s < ns; s++) {
            const sched_push *ps = &in->push[s];
            uint64_t op_to_pred, long_to_miss;
            memcpy(&op_to_pred, &ps->instr.op, sizeof op_to_pred);
            memcpy(&long_to_miss, &ps->instr.long_lat, sizeof long_to_miss);
            unsigned wrong = (ps->warp >= nw) | (ps->warp % ns != s) |
                             (((op_to_pred & forbidden) | (long_to_miss & SCHED_LONG_TO_MISS_FORBIDDEN)) != 0);
            bad |= ps->valid & wrong;
        }
        for (unsigned k = 0; k < p->wb_ports; k++) {
            const sched_writeback *wb = &in->wb[k];
            bad |= wb->valid & ((wb->warp >= nw) | (wb->reg >= reg_limit));
        }
    }
    *push_valid = pv;
    *wb_valid = wv;
    return !bad;
}

#endif
