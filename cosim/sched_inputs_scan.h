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
 * pad, hint): long_lat above bit 0, hint above bit 23 (the padding is not
 * looked at); and pred_miss (byte 20) above bit 5, pred_div (byte 21) above
 * bit 0 (the two as one 16-bit word). */
_Static_assert(offsetof(sched_instr, long_lat) == 12 && offsetof(sched_instr, hint) == 16 &&
               offsetof(sched_instr, pred_miss) == 20 && offsetof(sched_instr, pred_div) == 21 &&
               sizeof(sched_instr) == 24,
               "sched_instr: long_lat..pred_div layout");
#define SCHED_PRED_FORBIDDEN 0xFEC0u
static inline unsigned sched_instr_pred_word(const sched_instr *i)
{
    uint16_t v;
    memcpy(&v, &i->pred_miss, sizeof v);
    return v;
}
#define SCHED_LONG_TO_HINT_FORBIDDEN 0xFF000000000000FEull
_Static_assert(offsetof(sched_push, rcu) == 2 && offsetof(sched_push, instr) == 4,
               "sched_push layout");
_Static_assert(sizeof(sched_hbr) == 4, "sched_hbr: 4 bytes");

/* What sched_inputs_scan() needs from the parameters, worked out once
 * (sched_scan_limits_init) so that a back end checking every cycle does
 * not redo it. */
typedef struct sched_scan_limits {
    uint64_t warps;              /* bits 0..num_warps-1 */
    uint64_t instr_forbidden;    /* ~sched_instr_allowed_bits(reg_id_width) */
    unsigned ns, nw, wb_ports;
    unsigned pow2;               /* num_schedulers and num_warps powers of two */
    unsigned warp_forbidden;     /* pow2: bits of (push warp ^ port) that must be 0 */
    /* The eight writebacks are 24 bytes = three words; byte b is field
     * b % 3 (valid, warp, reg) of port b / 3. Per word: */
    uint64_t wb_valid[3];        /* 0xFF at the valid bytes */
    uint64_t wb_warp_top[3];     /* 0x80 at the warp bytes */
    uint64_t wb_reg_forbidden[3];/* bits a reg byte must not have */
    uint64_t wb_warp_add;        /* 128 - num_warps in every byte */
    unsigned omit;               /* sched_params.omit */
} sched_scan_limits;

_Static_assert(sizeof(sched_writeback) == 3 && sizeof(((sched_inputs *)0)->wb) == 24,
               "sched_writeback: 3 bytes, eight of them in three words");

static inline void sched_scan_limits_init(const sched_params *p, sched_scan_limits *l)
{
    const unsigned ns = p->num_schedulers, nw = p->num_warps;
    memset(l, 0, sizeof *l);
    l->warps = nw == 64 ? ~0ull : (1ull << nw) - 1;
    l->instr_forbidden = ~sched_instr_allowed_bits(p->reg_id_width);
    l->ns = ns;
    l->nw = nw;
    l->wb_ports = p->wb_ports;
    l->pow2 = (ns & (ns - 1)) == 0 && (nw & (nw - 1)) == 0;
    l->warp_forbidden = (ns - 1) | (~(nw - 1) & 0xFF);
    /* bytes {0,3,6}, {1,4,7} and {2,5} of a word (0xFF each): the valid,
     * warp and reg bytes of the three words take them in turn */
    const uint64_t b036 = 0x00FF0000FF0000FFull, b147 = b036 << 8, b25 = b036 << 16;
    const uint64_t reg_forbidden = (~((1u << p->reg_id_width) - 1) & 0xFF) * 0x0101010101010101ull;
    l->wb_valid[0] = b036;
    l->wb_valid[1] = b147;
    l->wb_valid[2] = b25;
    l->wb_warp_top[0] = b147 & 0x8080808080808080ull;
    l->wb_warp_top[1] = b25 & 0x8080808080808080ull;
    l->wb_warp_top[2] = b036 & 0x8080808080808080ull;
    l->wb_reg_forbidden[0] = b25 & reg_forbidden;
    l->wb_reg_forbidden[1] = b036 & reg_forbidden;
    l->wb_reg_forbidden[2] = b147 & reg_forbidden;
    l->wb_warp_add = (128 - nw) * 0x0101010101010101ull;
    l->omit = p->omit;
}

/* Bit j of the valid bytes gathered from the writeback words is port 3j % 8
 * (byte 3k is port k's valid flag): port_of_byte_bits[j bits] = port bits. */
static const uint8_t sched_wb_port_bits[256] = {
#define SCHED_WBP(x) (((x) & 1) | ((x) >> 1 & 1) << 3 | ((x) >> 2 & 1) << 6 | ((x) >> 3 & 1) << 1 | \
                      ((x) >> 4 & 1) << 4 | ((x) >> 5 & 1) << 7 | ((x) >> 6 & 1) << 2 | ((x) >> 7 & 1) << 5)
#define SCHED_WBP4(x) SCHED_WBP(x), SCHED_WBP((x) + 1), SCHED_WBP((x) + 2), SCHED_WBP((x) + 3)
#define SCHED_WBP16(x) SCHED_WBP4(x), SCHED_WBP4((x) + 4), SCHED_WBP4((x) + 8), SCHED_WBP4((x) + 12)
    SCHED_WBP16(0), SCHED_WBP16(16), SCHED_WBP16(32), SCHED_WBP16(48),
    SCHED_WBP16(64), SCHED_WBP16(80), SCHED_WBP16(96), SCHED_WBP16(112),
    SCHED_WBP16(128), SCHED_WBP16(144), SCHED_WBP16(160), SCHED_WBP16(176),
    SCHED_WBP16(192), SCHED_WBP16(208), SCHED_WBP16(224), SCHED_WBP16(240)
#undef SCHED_WBP16
#undef SCHED_WBP4
#undef SCHED_WBP
};

/* Bytes whose value is 0 or 1, at positions 8j: bit j set for byte j = 1. */
static inline unsigned sched_byte_flags(uint64_t bytes)
{
    return (unsigned)((bytes * 0x0102040810204080ull) >> 56);
}

/* Any HAWS input set (the mode, a branch outcome, a return-pass push);
 * for a core that omits HAWS. */
static inline int sched_haws_inputs_any(const sched_inputs *in)
{
    unsigned any = in->haws;
    for (unsigned s = 0; s < SCHED_MAX_SCHEDULERS; s++) any |= in->hbr[s].valid | in->push[s].rcu;
    return any != 0;
}

/* The scan for l->ns == ns (a constant where the caller has one, so that
 * the loops over the ports unroll). */
static inline __attribute__((always_inline)) int
sched_inputs_scan_for(const sched_scan_limits *l, const sched_inputs *in,
                      unsigned *push_valid, unsigned *wb_valid, const unsigned ns)
{
    uint64_t units;
    memcpy(&units, in->unit_avail, sizeof units);
    unsigned bad = (in->policy >= SCHED_NUM_POLICIES) | (in->warp_limit > 127) |
                   (in->pool_size > 127) |
                   (in->oaws > 2) |
                   (((in->mshr_avail | in->oaws_cap | in->ldst_retire_miss | in->ocw_min |
                      in->ocw_max) & 0x80u) != 0) |
                   (in->ocw_event > 3) | (in->ocw_half > 1) |
                   (in->peer > 2) | (in->ccws_base > 1023) | (in->ccws_bump > 4095) |
                   (in->vta_valid > 1) | (in->vta_warp > 63) | (in->mascar_sat > 1) |
                   (((in->barrier | in->launch | in->finish) & ~l->warps) != 0) |
                   ((units & 0xF0F0F0F0F0F0F0F0ull) != 0);
    /* the inputs of omitted mechanisms (sched_params.omit) must be 0 */
    if (__builtin_expect(l->omit != 0, 0))
        bad |= ((l->omit & SCHED_OMIT_OAWS) && (in->oaws | in->ocw_event | in->ldst_retire_miss)) |
               ((l->omit & SCHED_OMIT_PEERS) && (in->peer | in->vta_valid)) |
               ((l->omit & SCHED_OMIT_GROUPED) && in->policy == SCHED_POLICY_GROUPED) |
               ((l->omit & SCHED_OMIT_HAWS) && sched_haws_inputs_any(in));

    /* push valid flags: bit s of pv for the ports of the ns schedulers
     * (the comparisons fold away when ns is a constant); the flags of the
     * other ports must be 0 */
    unsigned pv = 0, push_any = 0, push_beyond = 0;
#pragma GCC unroll 8
    for (unsigned s = 0; s < SCHED_MAX_SCHEDULERS; s++) {
        unsigned v = in->push[s].valid, mine = -(unsigned)(s < ns);
        pv |= (v & mine) << s;
        push_any |= v;
        push_beyond |= v & ~mine;
    }

    /* the writebacks, as three words: valid bytes (0 or 1 when legal) ... */
    uint64_t w[3];
    memcpy(w, in->wb, sizeof w);
    uint64_t v0 = w[0] & l->wb_valid[0], v1 = w[1] & l->wb_valid[1], v2 = w[2] & l->wb_valid[2];
    uint64_t wb_flags = v0 | v1 | v2;                   /* disjoint bytes */
    bad |= (push_any > 1) | ((wb_flags & 0xFEFEFEFEFEFEFEFEull) != 0);
    unsigned wv = sched_wb_port_bits[sched_byte_flags(wb_flags)];
    bad |= (push_beyond | (wv >> l->wb_ports)) != 0;    /* ports beyond the parameters */

    /* ... each valid byte spread over its port's three bytes (which may
     * run into the next word) ... */
    uint64_t e[3];
    e[0] = v0 * 0xFFFFFF;
    e[1] = v1 * 0xFFFFFF | ((v0 >> 48) * 0xFFFFFF) >> 16;
    e[2] = v2 * 0xFFFFFF | ((v1 >> 48) * 0xFFFFFF) >> 16;
    /* ... and in those, a warp byte >= num_warps (bit 7, or bits 0..6 plus
     * 128 - num_warps reaching bit 7) or a reg byte with forbidden bits */
#pragma GCC unroll 3
    for (unsigned i = 0; i < 3; i++) {
        uint64_t warp_over = (((w[i] & 0x7F7F7F7F7F7F7F7Full) + l->wb_warp_add) | w[i]) & l->wb_warp_top[i];
        bad |= ((warp_over | (w[i] & l->wb_reg_forbidden[i])) & e[i]) != 0;
    }

    /* the fields of valid pushes (pv is exact when bad is 0) */
    const uint64_t forbidden = l->instr_forbidden;
    if (l->pow2) {
        /* powers of two: a push's warp is in range and belongs to its port
         * when (warp ^ s) has no bit of warp_forbidden */
        const unsigned warp_forbidden = l->warp_forbidden;
#pragma GCC unroll 8
        for (unsigned s = 0; s < ns; s++) {
            const sched_push *ps = &in->push[s];
            uint64_t op_to_pred, long_to_hint;          /* instr bytes 4..11 and 12..19 */
            memcpy(&op_to_pred, &ps->instr.op, sizeof op_to_pred);
            memcpy(&long_to_hint, &ps->instr.long_lat, sizeof long_to_hint);
            uint64_t wrong = ((ps->warp ^ s) & warp_forbidden) | (op_to_pred & forbidden) |
                             (long_to_hint & SCHED_LONG_TO_HINT_FORBIDDEN) |
                             (sched_instr_pred_word(&ps->instr) & SCHED_PRED_FORBIDDEN) | (ps->rcu & 0xFCu);
            bad |= ps->valid & (wrong != 0);
        }
    } else {
        for (unsigned s = 0; s < ns; s++) {
            const sched_push *ps = &in->push[s];
            uint64_t op_to_pred, long_to_hint;
            memcpy(&op_to_pred, &ps->instr.op, sizeof op_to_pred);
            memcpy(&long_to_hint, &ps->instr.long_lat, sizeof long_to_hint);
            unsigned wrong = (ps->warp >= l->nw) | (ps->warp % ns != s) |
                             (((op_to_pred & forbidden) | (long_to_hint & SCHED_LONG_TO_HINT_FORBIDDEN) |
                               (sched_instr_pred_word(&ps->instr) & SCHED_PRED_FORBIDDEN) | (ps->rcu & 0xFCu)) != 0);
            bad |= ps->valid & wrong;
        }
    }
    /* HAWS: the mode and the branch outcomes (valid, taken and uniform 0 or
     * 1; the warp one of the port's scheduler; no port beyond ns) */
    bad |= in->haws > 2;
    /* grouped policy: group_prio 0 or 1, every launch_group byte 6 bits */
    {
        uint64_t gw[SCHED_MAX_WARPS / 8], acc = 0;
        _Static_assert(sizeof in->launch_group == sizeof gw, "launch_group: 64 bytes");
        memcpy(gw, in->launch_group, sizeof gw);
#pragma GCC unroll 8
        for (unsigned i = 0; i < SCHED_MAX_WARPS / 8; i++) acc |= gw[i];
        bad |= (in->group_prio > 1) | ((acc & 0xC0C0C0C0C0C0C0C0ull) != 0);
    }
    uint64_t hbr_words[4];
    _Static_assert(sizeof in->hbr == sizeof hbr_words, "hbr: 32 bytes");
    memcpy(hbr_words, in->hbr, sizeof hbr_words);
    if (hbr_words[0] | hbr_words[1] | hbr_words[2] | hbr_words[3]) {   /* rare: look closer */
        uint32_t hb;
        for (unsigned s = 0; s < SCHED_MAX_SCHEDULERS; s++) {
            const sched_hbr *h = &in->hbr[s];
            memcpy(&hb, h, sizeof hb);
            unsigned wrong = ((hb & 0xFEFF00FEu) != 0) | (s >= ns) | (h->warp >= l->nw) |
                             (h->warp % ns != s);
            bad |= (hb != 0) & (wrong | !h->valid);
        }
    }
    *push_valid = pv;
    *wb_valid = wv;
    return !bad;
}

static inline int sched_inputs_scan_limits(const sched_scan_limits *l, const sched_inputs *in,
                                           unsigned *push_valid, unsigned *wb_valid)
{
    return sched_inputs_scan_for(l, in, push_valid, wb_valid, l->ns);
}

static inline int sched_inputs_scan(const sched_params *p, const sched_inputs *in,
                                    unsigned *push_valid, unsigned *wb_valid)
{
    sched_scan_limits l;
    sched_scan_limits_init(p, &l);
    return sched_inputs_scan_limits(&l, in, push_valid, wb_valid);
}

#endif
