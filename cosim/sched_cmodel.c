/*
 * sched_cmodel.c -- the C reference model of rtl/sched_core.sv.
 *
 * Cycle-exact with the RTL: for the same inputs it produces the same outputs
 * every cycle (checked by tests/sched/ in lockstep with the Verilated RTL).
 * It is written for speed rather than as a transliteration of the RTL; a
 * cycle costs work proportional to the events in it (issues, pushes,
 * writebacks), not to the number of warps:
 *
 *   - Every per-warp property the qualification needs is one bit of a 64-bit
 *     mask over warps (head valid, blocked by the scoreboard, blocked by a
 *     long-latency write, buffer space, the head's operation class, ...).
 *     The stall reasons and the ready set of all schedulers are a handful of
 *     mask operations; each scheduler then picks with one ctz.
 *   - The masks are updated on events only. A warp's head qualification is
 *     recomputed when its head changes (issue, push into an empty buffer) or
 *     when a writeback releases a register of a warp whose head was blocked;
 *     a writeback to a warp whose head was not blocked cannot change it.
 *   - The scoreboard is a byte per register id and warp (0 free, 1 pending,
 *     2 pending long-latency) rather than the RTL's slots: a warp never has
 *     two pending writes to one register (WAW stalls issue), so "a slot holds
 *     register r" is "byte r is not 0", and "full" is "as many pending as
 *     slots". A head's hazard test is then four byte loads ORed together (an
 *     unused source points at a byte that is always 0).
 *   - A buffer entry holds its grant image (the sched_issue the outputs show
 *     when it issues), built once at push, so issuing is one struct copy.
 *
 * The model mirrors the RTL's register/next-state split: outputs of cycle t
 * (and the decisions behind them: grants, fetch requests, reasons) are
 * computed from the state alone by compute_outputs(); step() then applies the
 * rising edge: the decisions of cycle t plus the sampled inputs. Nothing is
 * allocated per cycle.
 */
#include "sched_if.h"
#include "sched_inputs_scan.h"

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Test-only planted bugs (docs/testing.md, "Detection power"): compiled in
 * only with -DSCHED_CMODEL_MUTANTS (cosim/module.mk builds that object for
 * tests/sched/test_sched_mutants.c alone); sched_cmodel_mutant, read when a
 * model is created, picks one (0 = none). Elsewhere the blocks are compiled
 * out and the code is the same as without them. */
#ifdef SCHED_CMODEL_MUTANTS
int sched_cmodel_mutant;
#define MUT(k) (m->mutant == (k))
#endif

/* Scoreboard byte values (per warp and register id). */
enum { CM_FREE = 0, CM_PENDING = 1, CM_PENDING_LONG = 2 };

/* Register ids have at most 8 bits. The scoreboard has twice as many bytes:
 * an unused register field of an entry points at its id + CM_SHADOW, a byte
 * that is never written and so always reads CM_FREE. */
#define CM_REGS   (1u << SCHED_MAX_REG_ID_WIDTH)
#define CM_SHADOW CM_REGS

typedef struct cm_entry {
    sched_issue issue;          /* grant image: valid = 1, warp, fields */
    uint16_t    reg[4];         /* scoreboard bytes to test: dst, src[0..2]
                                   (+ CM_SHADOW when not used) */
    uint8_t     rcu_slot;       /* HAWS return pass: the RCU entry a copy or
                                   re-exec frees when it issues, + 1 (0: none) */
    uint8_t     orig_dst;       /* HAWS chain member: its original destination
                                   (issue.dst is the id it writes) */
} cm_entry;

/* HAWS state of one warp (docs/haws.md, "Scheduler core"; seed 000 §5.3.3,
 * Fig. 5.6). Cleared by reset, launch and finish. */
typedef struct cm_rcu_entry {
    uint16_t offset;            /* pc - stall_pc, 9 bits */
    uint8_t  dst, ren;          /* original and written destination (0, 0
                                   for a member without one) */
    uint8_t  ready, control;    /* written back; a hinted branch (re-exec) */
} cm_rcu_entry;

typedef struct cm_haws {
    uint32_t stall_pc;          /* pc of the stall point (kept for the return pass) */
    uint16_t stall_reg[4];      /* the stall point's dst, src[0..2] ... */
    uint8_t  stall_dep;         /* ... bit i: stall_reg[i] still pending long */
    uint8_t  wait_br;           /* a conditional member branch waits for hbr */
    int16_t  cursor;            /* offset of the next member (9-bit signed; 0 = end) */
    int16_t  br_taken, br_fall; /* the waiting branch's offsets (9 bits) */
    uint8_t  fetched;           /* members pushed in this episode */
    uint8_t  ren_n;             /* renaming table: ren_n pairs orig -> ren */
    uint8_t  ren_orig[SCHED_MAX_REN_ENTRIES], ren_new[SCHED_MAX_REN_ENTRIES];
    uint8_t  rcu_head, rcu_tail;/* FIFO [head, tail) not yet met by the return pass */
    uint8_t  rcu_valid;         /* bit i: entry i valid */
    cm_rcu_entry rcu[SCHED_MAX_RCU_DEPTH];
} cm_haws;

typedef struct cm_warp {
    uint8_t  head;              /* ring buffer of `count` entries from `head` */
    uint8_t  count;
    uint8_t  sb_count;          /* pending writes */
    uint8_t  sb_long;           /* ... of them long-latency */
    uint8_t  sb[2 * CM_REGS];   /* per register id: CM_FREE / CM_PENDING / _LONG;
                                   then the shadow bytes, always CM_FREE */
    cm_entry buf[SCHED_MAX_IBUF_DEPTH];
} cm_warp;

/* The per-warp masks a step updates, held in locals during a step (the
 * compiler keeps them in registers) and stored back at its end. */
typedef struct cm_masks {
    uint64_t head_valid, space, blocked, blocked_long, op_lo, op_hi;
} cm_masks;

typedef struct cmodel {
    sched_backend base;                     /* first: cast from sched_backend */

    /* derived from the parameters (kept across reset) */
    uint64_t all_warps;                     /* bits 0..num_warps-1 */
    uint64_t sched_mask[SCHED_MAX_SCHEDULERS];
    uint64_t sched_rep;                     /* bit 0 of every scheduler group */
    uint64_t sched_sel;                     /* bits 0..num_schedulers-1 */
    sched_scan_limits limits;               /* for the input check */
#ifdef SCHED_CMODEL_MUTANTS
    int mutant;                             /* the planted bug (kept across reset) */
#endif

    /* --- everything below is cleared by reset --- */

    /* registered levels */
    unsigned policy, warp_limit, pool_size;
    /* OAWS (docs/oaws.md): mode, Avail_mshr, OCW, the cap of eff, and the
     * Miss_inflight register (its output copy is base.out.miss_inflight) */
    unsigned oaws, mshr_avail, ocw, oaws_cap, miss_inflight;  /* ocw: the OCW register */
    uint64_t rank_alive;                    /* alive when rank[] was computed */
    /* Peers (docs/oaws.md, "Peers"; rtl/sched_ccws.sv, rtl/sched_mascar.sv):
     * the mode (1 CCWS, 2 MASCAR), CCWS's base score and each warp's score
     * above base (ex, warp order; ccws_any: some ex != 0), MASCAR's
     * saturation level and owner */
    unsigned peer, ccws_base, ccws_any, mascar_sat, owner_v, owner;
    uint16_t ccws_ex[SCHED_MAX_WARPS];
    uint64_t ccws_hold;                     /* CCWS's registered verdicts, warp order */
    unsigned ccws_scan;                     /* the warp index each scheduler judges next */
    unsigned group_prio;                    /* grouped policy: 1 = OWL priority */
    uint64_t unit_avail;                    /* the 8 input bytes, as registered */
    uint64_t barrier;
    uint64_t alive;

    /* derived per-warp state (functions of buffers and scoreboards):
     *   head_valid    buffer not empty
     *   space         buffer not full
     *   blocked       head: hazard on any pending write, or it has a
     *                 destination and the scoreboard is full
     *   blocked_long  head: hazard on a long-latency pending write
     *   op_lo, op_hi  head's operation class, bits 0 and 1
     * Bits of blocked, blocked_long and op_lo/hi are only meaningful where
     * head_valid is set: every use masks them with it. */
    struct cm_masks mk;
    uint64_t swl_ok;                        /* static warp limit */

    /* other registers */
    uint64_t in_active;                     /* two-level active pool */
    unsigned pool_count[SCHED_MAX_SCHEDULERS];  /* its warps per scheduler */
    /* Round-robin pointers (global warp ids). compute_outputs() advances them
     * as soon as it decides the grant or the fetch request of a cycle: the
     * RTL's registers take the same value at the edge ending the cycle, and
     * nothing reads them in between. So last_issue[s] is also the warp
     * scheduler s issues from this cycle when it is granted. */
    unsigned last_issue[SCHED_MAX_SCHEDULERS];
    unsigned last_fetch[SCHED_MAX_SCHEDULERS];
    /* Grouped policy (rtl/sched_group.sv): each warp's group id, written at
     * launch, and each scheduler's active group. Like last_issue, active[s]
     * is advanced by compute_outputs() to the value the RTL's register takes
     * at the edge ending the cycle. */
    uint8_t  group[SCHED_MAX_WARPS];
    uint8_t  active[SCHED_MAX_SCHEDULERS];
    /* the counters and long_pending are registers; they live in base.out */

    /* decisions of the current cycle (from compute_outputs) */
    unsigned granted;                       /* bit s: scheduler s issues (from
                                               warp last_issue[s]); the reasons
                                               are in base.out.stall_reason */

    /* &warp[w].buf[warp[w].head], kept by refresh_head (a stale slot when
     * the buffer is empty) */
    const cm_entry *head_entry[SCHED_MAX_WARPS];
    /* OAWS: each head's stored prediction (kept by refresh_head, so that
     * Eq. 1 reads bytes instead of chasing head_entry) and each warp's rank
     * (alive warps with a lower id, kept when alive changes) */
    uint8_t head_pm[SCHED_MAX_WARPS], head_div[SCHED_MAX_WARPS], rank[SCHED_MAX_WARPS];

    cm_warp  warp[SCHED_MAX_WARPS];

    /* HAWS (per-warp masks; the state is in haws[]) */
    uint64_t mode;                          /* in hint mode (haws_mode) */
    uint64_t chain_ok;                      /* in hint mode and may chain-fetch */
    uint64_t wait_br;                       /* haws[w].wait_br (kept by haws_refresh) */
    uint64_t dep_live;                      /* haws[w].stall_dep != 0 (set at entry,
                                               cleared by haws_wb); read for mode warps */
    uint64_t busy;                          /* RCU has a valid entry (rcu_busy) */
    uint64_t rcu_head;                      /* RCU has an entry the return pass
                                               has not met (rcu_tail > rcu_head) */
    uint64_t reentry;                       /* re-entry block (chain exhausted) */
    uint64_t head_copy;                     /* head is a return-pass copy (needs no
                                               unit); kept like the masks of mk */
    uint64_t head_long;                     /* head is a long-latency (global/local)
                                               load; kept like head_copy (peers) */
    uint64_t haws_live;                     /* any of the above */
    int      haws_out;                      /* HAWS outputs may be nonzero */
    cm_haws  haws[SCHED_MAX_WARPS];
} cmodel;

static inline unsigned lowest(uint64_t m) { return (unsigned)__builtin_ctzll(m); }

#define popcount64 sched_popcount64   /* sched_if.h */

/* Recompute the head qualification of warp w, whose buffer is not empty
 * (its head changed, or a writeback released a register it may have waited
 * on). Its bits in the masks of k have been cleared by clear_heads(). */
static inline void refresh_head(cmodel *m, cm_masks *k, unsigned w, unsigned sb_entries)
{
    const cm_warp *wp = &m->warp[w];
    uint64_t bit = 1ull << w;
    const cm_entry *e = &wp->buf[wp->head];
    m->head_entry[w] = e;
    unsigned haz = wp->sb[e->reg[0]] | wp->sb[e->reg[1]] | wp->sb[e->reg[2]] | wp->sb[e->reg[3]];
#ifdef SCHED_CMODEL_MUTANTS
    if (MUT(1) && sb_entries > 1) sb_entries--;             /* one entry too few */
#endif
    uint64_t full = e->issue.dst_valid & (wp->sb_count == sb_entries);
    k->blocked |= bit & -((haz != 0) | full);
    k->blocked_long |= bit & -(uint64_t)(haz >> 1);
    k->op_lo |= bit & -(uint64_t)(e->issue.op & 1);
    k->op_hi |= bit & -(uint64_t)(e->issue.op >> 1);
    m->head_copy |= bit & -(uint64_t)e->issue.copy;
    m->head_long |= bit & -(uint64_t)e->issue.long_lat;
    m->head_pm[w] = e->issue.pred_miss;
    m->head_div[w] = e->issue.pred_div;
}

/* Clear the head qualification bits of the warps in `heads` (before
 * refresh_head; those left clear are the empty buffers). */
static inline void clear_heads(cm_masks *k, uint64_t heads)
{
    k->blocked &= ~heads;
    k->blocked_long &= ~heads;
    k->op_lo &= ~heads;
    k->op_hi &= ~heads;
}

/* The static warp limit: warps with fewer than warp_limit alive warps below. */
static void refresh_swl(cmodel *m)
{
    if (m->warp_limit == 0) { m->swl_ok = ~0ull; return; }
    uint64_t a = m->alive;
    unsigned n = 0;
    unsigned limit = m->warp_limit;
#ifdef SCHED_CMODEL_MUTANTS
    if (MUT(3)) limit++;                    /* SWL: one warp too many */
#endif
    while (a && n + 1 < limit) { a &= a - 1; n++; }
    /* a's lowest bit is now the warp_limit-th alive warp (if any) */
    if (!a) { m->swl_ok = ~0ull; return; }
    unsigned pos = lowest(a);
    m->swl_ok = pos >= 63 ? ~0ull : (1ull << (pos + 1)) - 1;
}

/* Warps whose scheduler has operation class c available: bit c of every
 * scheduler's unit_avail byte, gathered into one bit per scheduler, then
 * repeated over the warp groups (warp w belongs to scheduler w % ns). */
static inline uint64_t unit_class_mask(const cmodel *m, unsigned c)
{
    uint64_t bytes = (m->unit_avail >> c) & 0x0101010101010101ull;
    uint64_t per_sched = ((bytes * 0x0102040810204080ull) >> 56) & m->sched_sel;
    return per_sched * m->sched_rep;
}

/* cond (0 or 1) ? a : b, computed without a branch. The outcomes in
 * compute_outputs() (who issues, why not, who fetches) are data a branch
 * predictor cannot learn; compilers often turn ?: into a branch. */
static inline uint64_t select64(uint64_t cond, uint64_t a, uint64_t b)
{
    return b ^ ((a ^ b) & -cond);
}

/* The lowest set bit of m; 63 when m is 0. */
static inline unsigned lowest_or_63(uint64_t m) { return lowest(m | 1ull << 63); }

/* The first set bit of m at or after position `from` (0..63), wrapping:
 * rotate m so that `from` comes first, take the lowest bit, rotate back.
 * from - 1 (mod 64) when m is 0. */
static inline unsigned first_from(uint64_t m, unsigned from)
{
    uint64_t rot = (m >> from) | (m << ((64 - from) & 63));
    return (lowest_or_63(rot) + from) & 63;
}

/* Round-robin: the first set bit of m after position `last`; last itself
 * when m is 0. */
static inline unsigned rr_pick(uint64_t m, unsigned last) { return first_from(m, (last + 1) & 63); }

/* The stall reasons of all schedulers are decided together. Each category
 * of warps (ready, unit busy, scoreboard, long-latency dependence, warp
 * limit, barrier) is reduced to one bit per scheduler ("has a warp of this
 * category"), the six results go into the byte lanes of one word in the
 * order of the ranking (docs/sched-interface.md: the reason closest to
 * issuing wins), and a scheduler's reason is the lane of the lowest set bit
 * of its bits; no_instr is the sentinel lane. Lanes (bit positions):
 *   0 issue, 8 occluded (OAWS), 16 unit_busy, 24 scoreboard, 32 long_dep,
 *   40 warp_limit, 48 barrier, 56 no_instr
 * Two categories are reduced together, one in each 32-bit half. */
#define LANE_BITS  0x0101010101010101ull        /* bit 0 of every lane */
#define SENTINEL   (0xFFull << 56)              /* no_instr, for every scheduler */
#define REASON_AT_LANE ((uint64_t)SCHED_REASON_ISSUE | (uint64_t)SCHED_REASON_OCCLUDED << 8 |       \
                        (uint64_t)SCHED_REASON_UNIT_BUSY << 16 | (uint64_t)SCHED_REASON_SCOREBOARD << 24 | \
                        (uint64_t)SCHED_REASON_LONG_DEP << 32 | (uint64_t)SCHED_REASON_WARP_LIMIT << 40 |  \
                        (uint64_t)SCHED_REASON_BARRIER << 48 | (uint64_t)SCHED_REASON_NO_INSTR << 56)

/* Bit s (for a) and bit 32+s (for b) set when a (b) has a warp of scheduler
 * s; other bits are garbage. Warp w belongs to scheduler w % ns, so when ns
 * is a power of two the warps of scheduler s are the bits s (mod ns) of the
 * word, and ORing the word onto itself shifted by 32, 16, ..., ns gathers
 * them in bit s (the halves never mix: bit s < ns reads at most bit 31). */
static inline __attribute__((always_inline)) uint64_t
sched_any_pair(const cmodel *m, uint64_t a, uint64_t b, unsigned ns, int pow2)
{
    if (pow2) {
        a |= a >> 32;
        b |= b >> 32;
        uint64_t y = (a & 0xFFFFFFFFull) | b << 32;
        for (unsigned sh = 16; sh >= ns; sh >>= 1) y |= y >> sh;
        return y;
    }
    uint64_t y = 0;
    for (unsigned s = 0; s < ns; s++)
        y |= (uint64_t)((a & m->sched_mask[s]) != 0) << s | (uint64_t)((b & m->sched_mask[s]) != 0) << (32 + s);
    return y;
}

/* OAWS: the effective predicted misses of warp w's head, an LD/ST
 * instruction (sched_oaws_eff, sched_if.h); rank = alive warps below w. */
static inline unsigned oaws_eff(const cmodel *m, unsigned w)
{
    return sched_oaws_eff(m->oaws, m->head_pm[w], m->head_div[w], m->rank[w], m->ocw, m->oaws_cap);
}

/* Grouped policy, scheduler s (rtl/sched_group.sv; seed 000 §6.3.2): the
 * ready warps rs of s narrowed to one group — the active group when it has
 * a ready warp, else the first group id after it (wrapping) that has one —
 * and the active group advanced to its value after this cycle: the group
 * issued from (group_prio 0), or (group_prio 1, OWL) unchanged while the
 * group has an alive warp of s, else the first group after it that has one. */
static uint64_t group_narrow(cmodel *m, unsigned s, uint64_t rs)
{
    unsigned a = m->active[s];
    uint64_t rdy = 0;
    for (uint64_t x = rs; x; x &= x - 1) rdy |= 1ull << m->group[lowest(x)];
    unsigned sel = ((rdy >> a) & 1) || !rdy ? a : rr_pick(rdy, a);
    uint64_t out = 0;
    for (uint64_t x = rs; x; x &= x - 1) {
        unsigned w = lowest(x);
        if (m->group[w] == sel) out |= 1ull << w;
    }
    if (!m->group_prio) {
        if (rdy) m->active[s] = (uint8_t)sel;
    } else {
        uint64_t alv = 0;
        for (uint64_t x = m->alive & m->sched_mask[s]; x; x &= x - 1) alv |= 1ull << m->group[lowest(x)];
        if (!((alv >> a) & 1) && alv) m->active[s] = (uint8_t)rr_pick(alv, a);
    }
    return out;
}

/* CCWS (rtl/sched_ccws.sv): is warp w held? Warps are stacked by
 * descending score (base + ex), ties by lower id; w is held when the
 * scores of the alive warps stacked ahead of it sum to at least the cutoff
 * (alive warps) x base. Nothing is held while every ex is 0 (every warp
 * then has base ahead of it at most alive - 1 times). */
static unsigned ccws_judge(const cmodel *m, unsigned w)
{
    uint64_t a = m->alive;
    if (!m->ccws_any || !((a >> w) & 1)) return 0;
    unsigned ew = m->ccws_ex[w], base = m->ccws_base, ahead = 0;
    for (uint64_t y = a & ~(1ull << w); y; y &= y - 1) {
        unsigned v = lowest(y), ev = m->ccws_ex[v];
        if (ev > ew || (ev == ew && v < w)) ahead += ev + base;
    }
    return ahead >= popcount64(a) * base;
}

/* The grant image shown when a scheduler does not issue: all zero. */
static const sched_issue no_issue;

/* Outputs and decisions of the current cycle, from the state only; for ns
 * schedulers (a constant in the specialised copies below). Branch-free per
 * scheduler (see select64). */
static inline __attribute__((always_inline)) void
compute_outputs_for(cmodel *m, const unsigned ns, const int pow2)
{
    sched_outputs *o = &m->base.out;
    const int gto = m->policy == SCHED_POLICY_GTO;
    uint64_t limit_ok = m->swl_ok & (m->policy == SCHED_POLICY_TWO_LEVEL ? m->in_active : ~0ull);
    const cm_masks *k = &m->mk;

    /* Peers (docs/oaws.md, "Peers"): their holds count as a warp limit.
     * CCWS holds the global/local loads (long) of the warps its scores
     * throttle; saturated MASCAR every LD/ST head but the owner's. */
    const uint64_t ldst_head = k->op_hi & ~k->op_lo & ~m->head_copy;
    const uint64_t own = (uint64_t)(m->peer == 2 && m->owner_v) << m->owner;
    o->ccws_hold = 0;
    if (__builtin_expect(m->peer != 0, 0)) {
        if (m->peer == 1) {
            o->ccws_hold = m->ccws_hold & m->alive;
            limit_ok &= ~(o->ccws_hold & ldst_head & m->head_long);
        } else if (m->mascar_sat) {
            limit_ok &= ~(ldst_head & ~own);
        }
    }

    /* The qualification chain of docs/sched-interface.md, for all warps. */
    uint64_t hv = m->alive & k->head_valid;
    uint64_t bar = hv & m->barrier;
    uint64_t r = hv & ~m->barrier;
    uint64_t wl = r & ~limit_ok;
    r &= limit_ok;
    uint64_t ld = r & k->blocked_long;
    r &= ~k->blocked_long;
    uint64_t sb = r & k->blocked;
    r &= ~k->blocked;
    uint64_t lo = k->op_lo, hi = k->op_hi;
    /* the unit of the head's class (op = hi lo: SP 00, SFU 01, LDST 10, DP 11) */
    _Static_assert(SCHED_OP_SP == 0 && SCHED_OP_SFU == 1 && SCHED_OP_LDST == 2 && SCHED_OP_DP == 3,
                   "operation class codes");
    uint64_t u0 = unit_class_mask(m, SCHED_OP_SP), u1 = unit_class_mask(m, SCHED_OP_SFU);
    uint64_t u2 = unit_class_mask(m, SCHED_OP_LDST), u3 = unit_class_mask(m, SCHED_OP_DP);
    uint64_t unit_lo0 = u0 ^ ((u0 ^ u1) & lo), unit_lo1 = u2 ^ ((u2 ^ u3) & lo);
    uint64_t unit_ok = (unit_lo0 ^ ((unit_lo0 ^ unit_lo1) & hi)) | m->head_copy;   /* a copy needs no unit */
    uint64_t ub = r & ~unit_ok;
    uint64_t ready = r & unit_ok;
    /* OAWS: Eq. 1 on the ready LD/ST heads (a HAWS copy is not one):
     * occluded when eff + Miss_inflight > Avail_mshr (seed 001 §4.1.1) */
    uint64_t occ = 0;
    if (m->oaws) {
        for (uint64_t c = ready & hi & ~lo & ~m->head_copy; c; c &= c - 1) {
            unsigned w = lowest(c);
            occ |= (uint64_t)(oaws_eff(m, w) + m->miss_inflight > m->mshr_avail) << w;
        }
        ready &= ~occ;
    }
    /* a warp in hint mode asks only for its next chain member; one waiting
     * at a barrier for nothing (its next instruction cannot be supplied
     * before the release, and the request would waste the fetch slot) */
    uint64_t want = m->alive & m->mk.space & ~m->barrier & (~m->mode | m->chain_ok);

    /* per scheduler and category, in the lanes (see REASON_AT_LANE) */
    const uint64_t halves = m->sched_sel | m->sched_sel << 32;
    uint64_t issue_ld = sched_any_pair(m, ready, ld, ns, pow2) & halves;
    uint64_t lanes = issue_ld | (sched_any_pair(m, occ, wl, ns, pow2) & halves) << 8 |
                     (sched_any_pair(m, ub, bar, ns, pow2) & halves) << 16 |
                     (sched_any_pair(m, sb, 0, ns, pow2) & m->sched_sel) << 24 | SENTINEL;
    m->granted = (unsigned)issue_ld & m->sched_sel;

    #pragma GCC unroll 8
    for (unsigned s = 0; s < ns; s++) {
        const uint64_t sm = m->sched_mask[s];

        /* issue: GTO keeps the last warp while it is ready, else the oldest
         * (the first ready warp from `last`, or from 0); LRR and two-level
         * take the first ready warp after the last one */
        uint64_t rs = ready & sm;
        if (m->peer == 2) {                 /* MASCAR's order (rtl/sched_mascar.sv) */
            uint64_t first = rs & (m->mascar_sat ? own : ldst_head);
            rs = first ? first : rs;
        }
        if (m->policy == SCHED_POLICY_GROUPED) rs = group_narrow(m, s, rs);
        unsigned last = m->last_issue[s];
        unsigned gto_from = last & -(unsigned)((rs >> last) & 1);
        unsigned w = first_from(rs, (unsigned)select64(gto & (rs != 0), gto_from, (last + 1) & 63));
#ifdef SCHED_CMODEL_MUTANTS
        if (MUT(2) && gto && rs && !((rs >> last) & 1))      /* GTO tie-break flipped */
            w = 63 - (unsigned)__builtin_clzll(rs);
#endif
        unsigned issues = (unsigned)(issue_ld >> s) & 1;
        const sched_issue *image = &m->head_entry[w]->issue;
        image = (const sched_issue *)select64(issues, (uintptr_t)image, (uintptr_t)&no_issue);
        o->issue[s] = *image;
        if (m->oaws && issues && ((hi & ~lo & ~m->head_copy) >> w & 1))
            o->issue[s].eff_miss = (uint8_t)oaws_eff(m, w);
        m->last_issue[s] = w;               /* last itself when none is ready */

        /* the reason: the lane of the lowest bit of this scheduler */
        unsigned why = (unsigned)(REASON_AT_LANE >> lowest((lanes >> s) & LANE_BITS)) & 0xF;
        o->stall_reason[s] = (uint8_t)why;

        /* fetch: round-robin over alive warps with buffer space */
        uint64_t ws = want & sm;
        unsigned lf = m->last_fetch[s];
        unsigned fw = rr_pick(ws, lf);      /* lf itself when ws is 0 */
        unsigned fetches = ws != 0;
        o->fetch_valid[s] = (uint8_t)fetches;
        o->fetch_warp[s] = (uint8_t)(fw & -fetches);
        m->last_fetch[s] = fw;
    }
}

static inline int sext9(unsigned v) { return (int)((v & 0x1FFu) ^ 0x100u) - 0x100; }

/* The HAWS outputs of the current cycle (after compute_outputs_for, which
 * chose the fetch requests): hint mode, RCU busy, the chain fetch pc and
 * the RCU head of each requested warp. Only while some warp has HAWS state,
 * and once more to zero them. */
static void haws_outputs(cmodel *m)
{
    sched_outputs *o = &m->base.out;
    const unsigned ns = m->base.params.num_schedulers;
    o->haws_mode = m->mode;
    o->rcu_busy = m->busy;
    for (unsigned s = 0; s < ns; s++) {
        unsigned w = o->fetch_warp[s];
        uint64_t bit = (uint64_t)o->fetch_valid[s] << w;
        const cm_haws *h = &m->haws[w];
        o->fetch_pc_valid[s] = (m->mode & bit) != 0;
        o->fetch_pc[s] = (m->mode & bit) ? h->stall_pc + (uint32_t)h->cursor : 0;
        sched_rcu_head r = { 0, 0, 0, 0 };
        if (m->rcu_head & ~m->mode & bit) {
            const cm_rcu_entry *e = &h->rcu[h->rcu_head];
            r.kind = e->control ? SCHED_RCU_REEXEC : e->ren != e->dst ? SCHED_RCU_COPY : SCHED_RCU_SKIP;
            r.ren = e->ren;
            r.dst = e->dst;
            r.pc = h->stall_pc + (uint32_t)sext9(e->offset);
        }
        o->fetch_rcu[s] = r;
    }
    m->haws_out = m->haws_live != 0;
}

/* For reset (any scheduler count). */
static void compute_outputs(cmodel *m)
{
    compute_outputs_for(m, m->base.params.num_schedulers, 0);
    haws_outputs(m);
}

static void cm_reset(sched_backend *b)
{
    cmodel *m = (cmodel *)b;
    const sched_params *p = &b->params;
    size_t keep = offsetof(cmodel, policy);
    memset((char *)m + keep, 0, sizeof *m - keep);
    memset(&b->out, 0, sizeof b->out);

    m->mk.space = m->all_warps;             /* every buffer empty */
    for (unsigned w = 0; w < SCHED_MAX_WARPS; w++) m->head_entry[w] = &m->warp[w].buf[0];
    m->swl_ok = ~0ull;
    unsigned last_local = p->num_warps / p->num_schedulers - 1;
    for (unsigned s = 0; s < p->num_schedulers; s++) {
        m->last_issue[s] = last_local * p->num_schedulers + s;
        m->last_fetch[s] = m->last_issue[s];
    }
    compute_outputs(m);
}

/* A pushed instruction as a buffer entry: its grant image and the
 * scoreboard bytes its hazard test reads (both assembled from words of the
 * little-endian sched_instr).
 *
 * The image is assembled from three words (the asserts below pin the
 * layouts this relies on):
 *   image bytes 0..7   valid = 1, warp, (pad), pc
 *   image bytes 8..15  op, dst_valid, dst            <- instr bytes 4..6
 *                      pred, long_lat                <- instr bytes 11, 12
 *                      hinted = 0, copy = 0, (pad)
 *   image bytes 16..23 hint, pred_miss, pred_div     <- instr bytes 16..21
 *                      eff_miss = 0, (pad)
 * Padding bytes are always written as 0. */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "sched_cmodel.c assembles buffer entries from little-endian words"
#endif
_Static_assert(offsetof(sched_instr, src) == 8, "sched_instr.src");
#define CM_AT(type, field, off) _Static_assert(offsetof(type, field) == (off), #type "." #field)
CM_AT(sched_instr, pc, 0); CM_AT(sched_instr, op, 4); CM_AT(sched_instr, dst_valid, 5);
CM_AT(sched_instr, dst, 6); CM_AT(sched_instr, pred, 11); CM_AT(sched_instr, long_lat, 12);
CM_AT(sched_instr, hint, 16); CM_AT(sched_instr, pred_miss, 20); CM_AT(sched_instr, pred_div, 21);
CM_AT(sched_issue, valid, 0); CM_AT(sched_issue, warp, 1); CM_AT(sched_issue, pc, 4);
CM_AT(sched_issue, op, 8); CM_AT(sched_issue, dst_valid, 9); CM_AT(sched_issue, dst, 10);
CM_AT(sched_issue, pred, 11); CM_AT(sched_issue, long_lat, 12); CM_AT(sched_issue, hinted, 13);
CM_AT(sched_issue, copy, 14); CM_AT(sched_issue, hint, 16); CM_AT(sched_issue, pred_miss, 20);
CM_AT(sched_issue, pred_div, 21); CM_AT(sched_issue, eff_miss, 22);
_Static_assert(sizeof(sched_instr) == 24 && sizeof(sched_issue) == 24, "sched_instr/sched_issue size");
#undef CM_AT

/* The CM_SHADOW offsets of an entry's four register fields (16-bit lanes:
 * dst, src[0], src[1], src[2]), by dst_valid << 3 | src_valid. */
#define CM_UNUSED(v) (((v) & 8 ? 0 : (uint64_t)CM_SHADOW) | ((v) & 1 ? 0 : (uint64_t)CM_SHADOW << 16) | \
                      ((v) & 2 ? 0 : (uint64_t)CM_SHADOW << 32) | ((v) & 4 ? 0 : (uint64_t)CM_SHADOW << 48))
static const uint64_t unused_regs[16] = {
    CM_UNUSED(0), CM_UNUSED(1), CM_UNUSED(2),  CM_UNUSED(3),  CM_UNUSED(4),  CM_UNUSED(5),
    CM_UNUSED(6), CM_UNUSED(7), CM_UNUSED(8),  CM_UNUSED(9),  CM_UNUSED(10), CM_UNUSED(11),
    CM_UNUSED(12), CM_UNUSED(13), CM_UNUSED(14), CM_UNUSED(15)
};
#undef CM_UNUSED

static inline void make_entry(cm_entry *e, const sched_instr *i, unsigned w)
{
    uint32_t pc;
    uint64_t op_to_pred, hint_to_pad, word0, word1, word2;
    memcpy(&pc, &i->pc, sizeof pc);
    memcpy(&op_to_pred, &i->op, sizeof op_to_pred);          /* instr bytes 4..11 */
    memcpy(&hint_to_pad, &i->hint, sizeof hint_to_pad);      /* instr bytes 16..23 */
    word0 = 1u | (uint64_t)w << 8 | (uint64_t)pc << 32;
    word1 = (op_to_pred & 0xFFFFFFull) | (op_to_pred >> 56) << 24 | (uint64_t)i->long_lat << 32;
    word2 = hint_to_pad & 0xFFFFFFFFFFFFull;
    /* three 8-byte stores straight into the entry (a staging array read
     * back with wider loads would stall store forwarding) */
    char *img = (char *)&e->issue;
    memcpy(img, &word0, 8);
    memcpy(img + 8, &word1, 8);
    memcpy(img + 16, &word2, 8);
    e->rcu_slot = 0;
    e->orig_dst = 0;
    /* dst (instr byte 6 = op_to_pred byte 2) to lane 0, src[0..2] (bytes
     * 4..6 of op_to_pred) to lanes 1..3 */
    uint64_t lanes = ((op_to_pred >> 16) & 0xFF00FFull) | ((op_to_pred >> 8) & 0xFF00000000ull) |
                     (op_to_pred & 0xFF000000000000ull);
    lanes |= unused_regs[(i->dst_valid << 3 | i->src_valid) & 15];
    memcpy(e->reg, &lanes, sizeof e->reg);
}

/* ---- HAWS: hint mode, RCU, renaming table (docs/haws.md, "Scheduler
 * core"; ../shared/design/haws-locality.md C.4.4). Everything here runs only
 * for warps with HAWS state (haws_live) or when a warp may enter, so with
 * haws = 0 the cycle is the one above. ---- */

/* Recompute the HAWS masks of the warps in `ws` from their state. */
static void haws_refresh(cmodel *m, uint64_t ws)
{
    const unsigned depth = m->base.params.rcu_depth;
    for (; ws; ws &= ws - 1) {
        unsigned w = lowest(ws);
        uint64_t bit = 1ull << w;
        const cm_haws *h = &m->haws[w];
        uint64_t chain = (m->mode & bit) && !h->wait_br && h->cursor != 0 && h->fetched < depth;
        m->chain_ok = (m->chain_ok & ~bit) | (bit & -chain);
        m->wait_br = (m->wait_br & ~bit) | (bit & -(uint64_t)(h->wait_br != 0));
        m->busy = (m->busy & ~bit) | (bit & -(uint64_t)(h->rcu_valid != 0));
        m->rcu_head = (m->rcu_head & ~bit) | (bit & -(uint64_t)(h->rcu_tail > h->rcu_head));
    }
    m->haws_live = m->mode | m->busy | m->rcu_head | m->reentry;
}

/* A writeback releasing register reg of warp w (it was pending): the stall
 * point's long dependence on it ends; RCU entries that wrote it are ready. */
static void haws_wb(cmodel *m, unsigned w, unsigned reg)
{
    cm_haws *h = &m->haws[w];
    for (unsigned i = 0; i < 4; i++)
        if (h->stall_reg[i] == reg) h->stall_dep &= (uint8_t)~(1u << i);
    if (h->stall_dep == 0) m->dep_live &= ~(1ull << w);
    for (unsigned i = h->rcu_valid; i; i &= i - 1)
        if (h->rcu[lowest(i)].ren == reg) h->rcu[lowest(i)].ready = 1;
}

/* The entries and exits at the edge ending this cycle, from the state of
 * the cycle (k: its head masks) after this edge's writebacks. A warp enters
 * when HAWS is on (for haws = 2: its scheduler does not issue), it is alive,
 * not at a barrier, its head is blocked by a long-latency write, the head's
 * hint is format 1 with an offset, its RCU is empty and it is not blocked
 * from re-entry; the head's long dependences still pending after the
 * writebacks become stall_dep (none: the load has just returned, no entry).
 * At most one warp per scheduler enters at an edge: the lowest id.
 * A warp leaves when stall_dep is empty (a), or (b) its chain has ended
 * (cursor 0 or RcuDepth members fetched, no branch outcome awaited) and no
 * member is left in its buffer. */
static void haws_decide(cmodel *m, const cm_masks *k, unsigned haws, uint64_t *enter,
                        uint64_t *leave, uint64_t *leave_b)
{
    const sched_params *p = &m->base.params;
    /* (a) stall_dep empty; (b) not waiting for a branch outcome and the
     * chain cannot fetch (cursor 0 or RcuDepth members fetched: for a mode
     * warp not waiting, exactly ~chain_ok), and no member in its buffer.
     * From the masks, which describe every warp's state as of the last
     * edge, and dep_live, which this edge's writebacks have updated. */
    uint64_t ended = m->mode & m->dep_live & ~m->wait_br & ~m->chain_ok & ~k->head_valid;
    *leave |= (m->mode & ~m->dep_live) | ended;
    *leave_b |= ended;
    if (haws == 0 || p->rcu_depth == 0) return;
    uint64_t cand = m->alive & k->head_valid & k->blocked_long & ~m->barrier & ~m->mode &
                    ~m->busy & ~m->reentry;
    if (haws == 2)
        for (unsigned g = m->granted; g; g &= g - 1) cand &= ~m->sched_mask[lowest(g)];
    /* ... of which those whose head has an entry hint and a long dependence
     * left after the writebacks; per scheduler the lowest id enters (one
     * read port per scheduler in the RTL) */
    uint64_t ok = 0;
    for (uint64_t c = cand; c; c &= c - 1) {
        unsigned w = lowest(c);
        const cm_entry *e = m->head_entry[w];
        uint32_t hint = e->issue.hint;
        if ((hint >> 23) & 1 || (hint & 0x1FFu) == 0) continue;
        const cm_warp *wp = &m->warp[w];
        unsigned dep = 0;
        for (unsigned i = 0; i < 4; i++) dep |= (unsigned)(wp->sb[e->reg[i]] == CM_PENDING_LONG) << i;
        if (dep) ok |= 1ull << w;
    }
    for (unsigned s = 0; ok && s < p->num_schedulers; s++) {
        uint64_t c = ok & m->sched_mask[s];
        if (!c) continue;
        unsigned w = lowest(c);
        const cm_entry *e = m->head_entry[w];
        const cm_warp *wp = &m->warp[w];
        unsigned dep = 0;
        for (unsigned i = 0; i < 4; i++) dep |= (unsigned)(wp->sb[e->reg[i]] == CM_PENDING_LONG) << i;
        cm_haws *h = &m->haws[w];
        memset(h, 0, sizeof *h);            /* the RCU is empty: nothing is lost */
        h->stall_pc = e->issue.pc;
        memcpy(h->stall_reg, e->reg, sizeof h->stall_reg);
        h->stall_dep = (uint8_t)dep;
        h->cursor = (int16_t)sext9(e->issue.hint);
        *enter |= 1ull << w;
        m->dep_live |= 1ull << w;
    }
}

/* A conditional member branch's outcome: the chain continues on its side,
 * or ends when it diverged. For a warp waiting for one (others: ignored). */
static void haws_branch(cmodel *m, const sched_hbr *b, uint64_t leave)
{
    cm_haws *h = &m->haws[b->warp];
    if (!((m->mode & ~leave) >> b->warp & 1) || !h->wait_br) return;
    h->cursor = b->uniform ? (b->taken ? h->br_taken : h->br_fall) : 0;
    h->wait_br = 0;
}

/* An issue of warp w (with HAWS state) from entry e: a chain member takes
 * the RCU's tail entry; a copy or re-exec frees its entry; the stall point
 * issuing in normal mode lifts the re-entry block. */
static void haws_issue(cmodel *m, unsigned w, const cm_entry *e)
{
    cm_haws *h = &m->haws[w];
    if (e->issue.hinted) {
        cm_rcu_entry *r = &h->rcu[h->rcu_tail];
        uint32_t hint = e->issue.hint;
        r->offset = (uint16_t)((e->issue.pc - h->stall_pc) & 0x1FFu);
        r->dst = e->issue.dst_valid ? e->orig_dst : 0;
        r->ren = e->issue.dst_valid ? e->issue.dst : 0;
        r->ready = 0;
        r->control = (uint8_t)((hint >> 23) & 1);
        h->rcu_valid |= (uint8_t)(1u << h->rcu_tail);
        h->rcu_tail++;
    } else if ((m->reentry >> w) & 1 && e->issue.pc == h->stall_pc) {
        m->reentry &= ~(1ull << w);
    }
    if (e->rcu_slot) h->rcu_valid &= (uint8_t)~(1u << (e->rcu_slot - 1));
}

/* A push into warp w with HAWS state, or with push.rcu set, accepted by the
 * buffer (it had room); e is the buffer slot. Returns 1 when e was filled
 * (the caller counts it in), 0 when nothing is buffered: the push is
 * dropped (w enters or leaves hint mode at this edge) or is a skip. */
static int haws_push(cmodel *m, unsigned w, const sched_push *ps, cm_entry *e, uint64_t drop)
{
    uint64_t bit = 1ull << w;
    if (drop & bit) return 0;
    cm_haws *h = &m->haws[w];
    const sched_params *p = &m->base.params;
    const unsigned reg_mask = (1u << p->reg_id_width) - 1;
    if (m->mode & bit) {
        /* chain member: sources through the renaming table (before its own
         * rename), then the cursor and the table from its hint */
        make_entry(e, &ps->instr, w);
        e->issue.hinted = 1;
        e->orig_dst = ps->instr.dst_valid ? ps->instr.dst : 0;
        for (unsigned l = 1; l < 4; l++)           /* originals are unique in the table */
            for (unsigned i = 0; i < h->ren_n; i++)
#ifdef SCHED_CMODEL_MUTANTS
                if (!MUT(9))                        /* sources not renamed */
#endif
                if (e->reg[l] == h->ren_orig[i]) {
                    e->reg[l] = h->ren_new[i];
                    break;
                }
        uint32_t hint = ps->instr.hint;
        h->fetched++;
        if ((hint >> 23) & 1) {                     /* format 2: a branch */
            if (hint & 1) {
                h->cursor = (int16_t)sext9(hint >> 1);
            } else {
                h->wait_br = 1;
                h->cursor = 0;
                h->br_taken = (int16_t)sext9(hint >> 1);
                h->br_fall = (int16_t)sext9(hint >> 12);
            }
        } else {
            h->cursor = (int16_t)sext9(hint);
            if ((hint >> 9) & 1 && ps->instr.dst_valid) {   /* renamed: writes Dst */
                unsigned orig = ps->instr.dst, ren = (hint >> 10) & reg_mask, i;
                e->issue.dst = (uint8_t)ren;
                e->reg[0] = (uint16_t)ren;
                for (i = 0; i < h->ren_n && h->ren_orig[i] != orig; i++) {}
                if (i < h->ren_n) {
                    h->ren_new[i] = (uint8_t)ren;
                } else if (h->ren_n < p->ren_entries) {
                    h->ren_orig[h->ren_n] = (uint8_t)orig;
                    h->ren_new[h->ren_n++] = (uint8_t)ren;
                } else {
                    h->cursor = 0;                  /* table full: the chain ends here */
                }
            }
        }
        return 1;
    }
    /* normal mode: the return pass (the check of sched_step made sure the
     * pc is the RCU head's exactly when rcu != 0) */
    if (ps->rcu == SCHED_RCU_SKIP) {
        h->rcu_valid &= (uint8_t)~(1u << h->rcu_head);
        h->rcu_head++;
        return 0;
    }
    make_entry(e, &ps->instr, w);
    if (ps->rcu != SCHED_RCU_NONE) {
        const cm_rcu_entry *r = &h->rcu[h->rcu_head];
        if (ps->rcu == SCHED_RCU_COPY) {            /* renamed -> original */
            e->issue.dst_valid = 1;
            e->issue.dst = r->dst;
            e->issue.long_lat = 0;
            e->issue.copy = 1;
            e->reg[0] = r->dst;
            e->reg[1] = r->ren;
            e->reg[2] = e->reg[3] = CM_SHADOW;
        }
        e->rcu_slot = (uint8_t)(h->rcu_head + 1);
        h->rcu_head++;
    }
    return 1;
}

/* The rising edge ending the current cycle, then the outputs of the next.
 * push_ports and wb_ports: bit s set when push[s] (wb[s]) is valid. For ns
 * schedulers, ns a power of two when pow2 (constants in the copies that
 * cm_checked_step() dispatches to). */
static inline __attribute__((always_inline)) void
step_edge_for(cmodel *m, const sched_inputs *in, unsigned push_ports, unsigned wb_ports,
              const unsigned ns, const int pow2)
{
    sched_backend *b = &m->base;
    const sched_params *p = &b->params;
    const unsigned depth = p->ibuf_depth;
    cm_masks k = m->mk;
    uint64_t long_pending = b->out.long_pending;
    uint64_t dirty = 0;                     /* warps whose head needs refresh_head */

    /* MASCAR's owner at this edge (rtl/sched_mascar.sv), from this cycle's
     * state: kept while alive and not waiting on a long-latency write, else
     * the first such warp after it (wrapping; from 0 without an owner). */
    if (m->peer == 2) {
        uint64_t cand = m->alive & ~(k.head_valid & k.blocked_long);
        if (!(m->owner_v && ((cand >> m->owner) & 1))) {
            unsigned from = m->owner_v ? m->owner + 1 : 0;
            if (from >= p->num_warps) from = 0;
            m->owner_v = cand != 0;
            m->owner = cand ? first_from(cand, from) : 0;
        }
    } else {
        m->owner_v = m->owner = 0;
    }
    b->out.mascar_owner = (uint8_t)(m->owner_v << 6 | m->owner);

    /* Two-level pool, from the state of this cycle. Warps leave it (rarely,
     * so the counts are corrected by a branch), then each scheduler with
     * room takes its lowest-id candidate. */
    {
        /* a warp waiting at a barrier leaves too (else a block of more
         * warps than the pool holds deadlocks: docs/sched-interface.md) */
        uint64_t long_wait = (k.head_valid & k.blocked_long) | m->barrier;
        uint64_t keep = m->alive & ~long_wait;
        uint64_t leave = m->in_active & ~keep;
        uint64_t cand = ~m->in_active & keep;
        uint64_t next = m->in_active & keep;
        if (leave)
            for (unsigned s = 0; s < ns; s++) m->pool_count[s] -= popcount64(leave & m->sched_mask[s]);
        if (cand && m->pool_size) {
            #pragma GCC unroll 8
            for (unsigned s = 0; s < ns; s++) {
                uint64_t c = cand & m->sched_mask[s];
                unsigned cap = m->pool_size;
#ifdef SCHED_CMODEL_MUTANTS
                if (MUT(8)) cap++;          /* the pool takes one warp too many */
#endif
                uint64_t join = c & -c & -(uint64_t)(m->pool_count[s] < cap);
                m->pool_count[s] += join != 0;
                next |= join;
            }
        }
        m->in_active = next;
    }

    /* Writebacks release the matching slot. They only see the slots valid at
     * the start of the cycle, as in the RTL, so they come before allocation.
     * One not naming a pending write changes nothing (the arithmetic below
     * then adds and clears zeros). */
    for (; wb_ports; wb_ports &= wb_ports - 1) {
        const sched_writeback *wb = &in->wb[lowest(wb_ports)];
        unsigned w = wb->warp;
        uint64_t bit = 1ull << w;
        cm_warp *wp = &m->warp[w];
#ifdef SCHED_CMODEL_MUTANTS
        if (MUT(4) && wb->reg == (1u << p->reg_id_width) - 1) continue;   /* top id's writeback lost */
        if (MUT(6) && wp->sb[wb->reg] == CM_FREE && wp->sb_count) {       /* a stray one counts */
            wp->sb_count--;
            dirty |= bit;
        }
#endif
        unsigned st = wp->sb[wb->reg];
        unsigned is_long = st >> 1;
        if ((m->haws_live & bit) && st != CM_FREE) haws_wb(m, w, wb->reg);
        wp->sb[wb->reg] = CM_FREE;
        wp->sb_count -= st != CM_FREE;
        wp->sb_long -= is_long;
        long_pending &= ~(bit & -(uint64_t)(is_long & (wp->sb_long == 0)));
        dirty |= k.blocked & bit;           /* only a blocked head can change (a
                                               refresh that changes nothing is harmless) */
    }

    /* HAWS entries and exits at this edge (from this cycle's state) */
    uint64_t h_enter = 0, h_leave = 0, h_leave_b = 0;
    if (m->mode | in->haws) haws_decide(m, &k, in->haws, &h_enter, &h_leave, &h_leave_b);
    const uint64_t h_drop = h_enter | h_leave;  /* pushes for these warps are dropped */
    /* the warps whose HAWS state this edge changes: only their masks are
     * recomputed at the end (haws_refresh), the others' stay as they are */
    uint64_t h_dirty = h_drop;

    /* Counters count the reason of the cycle that ends. */
    #pragma GCC unroll 8
    for (unsigned s = 0; s < ns; s++) b->out.counters[s][b->out.stall_reason[s]]++;

    /* Issue: pop the buffer head, allocate a scoreboard slot (a free one is
     * guaranteed: a full scoreboard blocks an instruction with a dst). */
    uint64_t issued = 0;
    for (unsigned g = m->granted; g; g &= g - 1) {
        unsigned w = m->last_issue[lowest(g)];
        uint64_t bit = 1ull << w;
        cm_warp *wp = &m->warp[w];
        const cm_entry *h = m->head_entry[w];
        unsigned dst_valid = h->issue.dst_valid;
        unsigned is_long = dst_valid & h->issue.long_lat;
#ifdef SCHED_CMODEL_MUTANTS
        if (MUT(7)) is_long = 0;            /* a long-latency write marked short */
#endif
        wp->sb[h->reg[0]] = (uint8_t)(dst_valid + is_long);     /* CM_PENDING(_LONG); a
                                                               shadow byte stays 0 */
        wp->sb_count += dst_valid;
        wp->sb_long += is_long;
        long_pending |= bit & -(uint64_t)is_long;
        if (m->haws_live & bit) {
            haws_issue(m, w, h);
            h_dirty |= bit;
        }
        unsigned next = wp->head + 1u;
        wp->head = (uint8_t)(next == depth ? 0 : next);
        wp->count--;
        k.head_valid &= ~(bit & -(uint64_t)(wp->count == 0));
        issued |= bit;
    }
    dirty |= issued;

    /* HAWS branch outcomes (before the pushes: a warp waiting for one
     * cannot chain-fetch, so no push of this edge competes) */
    if (m->mode)
        for (unsigned s = 0; s < ns; s++)
            if (in->hbr[s].valid) {
                haws_branch(m, &in->hbr[s], h_leave);
                h_dirty |= 1ull << in->hbr[s].warp;
            }

    /* Pushes: accepted when the buffer had room at the start of the cycle
     * (k.space is still that: the issue loop does not touch it). */
    for (; push_ports; push_ports &= push_ports - 1) {
        const sched_push *ps = &in->push[lowest(push_ports)];
        unsigned w = ps->warp;
        uint64_t bit = 1ull << w;
#ifdef SCHED_CMODEL_MUTANTS
        if (MUT(5) && !(k.space & bit) && m->warp[w].count) {   /* a push into a full buffer
                                                                   overwrites the newest entry */
            cm_warp *wp = &m->warp[w];
            unsigned slot = wp->head + wp->count - 1u;
            make_entry(&wp->buf[slot >= depth ? slot - depth : slot], &ps->instr, w);
            dirty |= bit & -(uint64_t)(wp->count == 1);
            continue;
        }
#endif
        if (!(k.space & bit)) continue;
        cm_warp *wp = &m->warp[w];
        unsigned slot = wp->head + wp->count;
        slot = slot >= depth ? slot - depth : slot;
        if (__builtin_expect(((m->haws_live | h_drop) & bit) != 0 || ps->rcu != 0, 0)) {
            h_dirty |= bit;
            if (!haws_push(m, w, ps, &wp->buf[slot], h_drop)) continue;
        } else {
            make_entry(&wp->buf[slot], &ps->instr, w);
        }
        dirty |= bit & -(uint64_t)(wp->count == 0);              /* new head */
        wp->count++;
        k.head_valid |= bit;
        k.space &= ~(bit & -(uint64_t)(wp->count == depth));    /* full (cannot have issued) */
    }
    /* Every buffer an issue popped has room again (a push after the pop
     * cannot fill it: it was pushed only if it had room before the pop). */
    k.space |= issued;

    /* HAWS entry and exit empty the warp's buffer (after this edge's issue);
     * a chain exhausted blocks re-entry until the stall point issues. */
    uint64_t h_touch = m->haws_live | h_enter;
    if (h_drop) {
        for (uint64_t d = h_drop; d; d &= d - 1) {
            cm_warp *wp = &m->warp[lowest(d)];
            wp->count = 0;
            wp->head = 0;
        }
        k.space |= h_drop;
        k.head_valid &= ~h_drop;
        dirty |= h_drop;
        m->mode = (m->mode | h_enter) & ~h_leave;
#ifdef SCHED_CMODEL_MUTANTS
        if (MUT(10)) h_leave_b = 0;         /* no re-entry block */
#endif
        m->reentry |= h_leave_b;
    }

    /* Launch empties buffer and scoreboard; finish empties the buffer. */
    uint64_t lf = in->launch | in->finish;
    if (lf) {
        for (uint64_t d = lf; d; d &= d - 1) {
            unsigned w = lowest(d);
            cm_warp *wp = &m->warp[w];
            wp->count = 0;
            wp->head = 0;
            if ((in->launch >> w) & 1) {
                memset(wp->sb, 0, sizeof wp->sb);
                wp->sb_count = wp->sb_long = 0;
            }
            if ((h_touch >> w) & 1) {
                memset(&m->haws[w], 0, sizeof m->haws[w]);
                h_dirty |= 1ull << w;
            }
        }
        m->mode &= ~lf;
        m->reentry &= ~lf;
        long_pending &= ~in->launch;
        k.space |= lf;
        k.head_valid &= ~lf;
        dirty |= lf;
    }

    clear_heads(&k, dirty);
    m->head_copy &= ~dirty;
    m->head_long &= ~dirty;
    const unsigned sb_entries = p->sb_entries;
    for (dirty &= k.head_valid; dirty; dirty &= dirty - 1) refresh_head(m, &k, lowest(dirty), sb_entries);
    /* field by field: a struct copy may read k back with wider loads than
     * it was stored with, which stalls store forwarding */
    m->mk.head_valid = k.head_valid;
    m->mk.space = k.space;
    m->mk.blocked = k.blocked;
    m->mk.blocked_long = k.blocked_long;
    m->mk.op_lo = k.op_lo;
    m->mk.op_hi = k.op_hi;
    b->out.long_pending = long_pending;

    /* OAWS: Miss_inflight += the eff of this cycle's grants (0 unless an
     * LD/ST issued under OAWS) - the retired eff, saturating at 0 and 127 */
    if (m->oaws | m->miss_inflight | in->ldst_retire_miss) {
        int v = (int)m->miss_inflight - (int)in->ldst_retire_miss;
        for (unsigned s = 0; s < ns; s++) v += b->out.issue[s].eff_miss;
        m->miss_inflight = v < 0 ? 0u : v > 127 ? 127u : (unsigned)v;
        b->out.miss_inflight = (uint8_t)m->miss_inflight;
    }
    m->oaws = in->oaws;
    m->mshr_avail = in->mshr_avail;
    /* CCWS's evaluation lanes (rtl/sched_ccws.sv, docs/oaws.md P11): at
     * each edge scheduler s's lane judges warp scan x ns + s on the scores
     * before the edge; launch and finish clear the verdict. */
    {
        const unsigned wps = p->num_warps / ns;
        if (m->peer == 1) {
            for (unsigned s = 0; s < ns; s++) {
                unsigned w = m->ccws_scan * ns + s;
                m->ccws_hold = (m->ccws_hold & ~(1ull << w)) | (uint64_t)ccws_judge(m, w) << w;
            }
            m->ccws_hold &= ~lf;
        } else {
            m->ccws_hold = 0;
        }
        m->ccws_scan = m->ccws_scan + 1 == wps ? 0 : m->ccws_scan + 1;
    }
    /* CCWS scores (rtl/sched_ccws.sv): every ex decays by 1, a VTA hit adds
     * the bump (saturating at 4095), launch and finish clear */
    if (m->ccws_any | in->vta_valid | (unsigned)(lf != 0)) {
        unsigned any = 0, hit = in->vta_valid && in->vta_warp < p->num_warps ? in->vta_warp : 64;
        for (unsigned w = 0; w < p->num_warps; w++) {
            unsigned e = m->ccws_ex[w];
            e -= e != 0;
            if (w == hit) e += in->ccws_bump;
            if (e > 4095) e = 4095;
            if ((lf >> w) & 1) e = 0;
            m->ccws_ex[w] = (uint16_t)e;
            any |= e;
        }
        m->ccws_any = any != 0;
    }
    m->peer = in->peer;
    m->ccws_base = in->ccws_base;
    m->mascar_sat = in->mascar_sat;
    m->oaws_cap = in->oaws_cap;
    if (in->ocw_event) {                    /* the OCW logic (Fig. 7) */
        sched_oaws_ocw_step(&b->out.ocw, &b->out.ocw_cnt, in->ocw_event, in->ocw_half,
                            in->ocw_min, in->ocw_max, in->cnt_max, in->cnt_init);
        m->ocw = b->out.ocw;
    }

    /* Registered levels. */
    uint64_t alive = (m->alive & ~in->finish) | in->launch;
    int swl_changed = alive != m->alive || in->warp_limit != m->warp_limit;
    m->alive = alive;
    m->policy = in->policy;
    m->group_prio = in->group_prio;
    for (uint64_t l = in->launch; l; l &= l - 1) m->group[lowest(l)] = in->launch_group[lowest(l)];
    m->warp_limit = in->warp_limit;
    m->pool_size = in->pool_size;
    m->barrier = in->barrier;
    memcpy(&m->unit_avail, in->unit_avail, sizeof m->unit_avail);
    if (swl_changed) refresh_swl(m);
    if (alive != m->rank_alive) {            /* OAWS ranks (GTO_gprio, §4.3.2) */
        m->rank_alive = alive;
        for (unsigned w = 0, n = 0; w < SCHED_MAX_WARPS; w++) {
            m->rank[w] = (uint8_t)n;
            n += (unsigned)(alive >> w) & 1;
        }
    }

    if (h_dirty) haws_refresh(m, h_dirty);
    compute_outputs_for(m, ns, pow2);
    if (m->haws_live | m->haws_out) haws_outputs(m);
}

/* The back end's step with inputs already checked (the lockstep back end). */
static void cm_step(sched_backend *b, const sched_inputs *in)
{
    const sched_params *p = &b->params;
    unsigned push_ports = 0, wb_ports = 0;
    for (unsigned s = 0; s < p->num_schedulers; s++) push_ports |= (unsigned)(in->push[s].valid != 0) << s;
    for (unsigned k = 0; k < p->wb_ports; k++) wb_ports |= (unsigned)(in->wb[k].valid != 0) << k;
    step_edge_for((cmodel *)b, in, push_ports, wb_ports, p->num_schedulers, 0);
}

/* sched_step(): one pass over the inputs both checks them and finds the
 * valid ports, then the edge; for ns schedulers (see step_edge_for). */
static inline __attribute__((always_inline)) int
checked_step_for(sched_backend *b, const sched_inputs *in, const unsigned ns, const int pow2)
{
    cmodel *m = (cmodel *)b;
    unsigned push_ports, wb_ports;
    if (!sched_inputs_scan_for(&m->limits, in, &push_ports, &wb_ports, ns)) {
        if (sched_inputs_check(&b->params, in, b->error, sizeof b->error) != 0) return -1;
        cm_step(b, in);                     /* the two checks agree; not reached */
        return 0;
    }
    step_edge_for(m, in, push_ports, wb_ports, ns, pow2);
    return 0;
}

/* One copy of the cycle per power-of-two scheduler count (constant folding
 * unrolls the per-scheduler loops and the reductions), one for any count. */
static int cm_checked_step(sched_backend *b, const sched_inputs *in)
{
    switch (b->params.num_schedulers) {
    case 1: return checked_step_for(b, in, 1, 1);
    case 2: return checked_step_for(b, in, 2, 1);
    case 4: return checked_step_for(b, in, 4, 1);
    case 8: return checked_step_for(b, in, 8, 1);
    default: return checked_step_for(b, in, b->params.num_schedulers, 0);
    }
}

static void cm_destroy(sched_backend *b) { free(b); }

static const sched_backend_ops cmodel_ops = {
    "cmodel", cm_reset, cm_step, cm_destroy, cm_checked_step
};

sched_backend *sched_cmodel_create(const sched_params *p, char *err, size_t errlen)
{
    if (sched_params_check(p, err, errlen) != 0) return NULL;
    cmodel *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    m->base.ops = &cmodel_ops;
    m->base.params = *p;
#ifdef SCHED_CMODEL_MUTANTS
    m->mutant = sched_cmodel_mutant;
#endif
    m->all_warps = p->num_warps == 64 ? ~0ull : (1ull << p->num_warps) - 1;
    for (unsigned w = 0; w < p->num_warps; w++) {
        m->sched_mask[w % p->num_schedulers] |= 1ull << w;
        if (w % p->num_schedulers == 0) m->sched_rep |= 1ull << w;
    }
    m->sched_sel = (1ull << p->num_schedulers) - 1;
    sched_scan_limits_init(p, &m->limits);
    sched_reset(&m->base);
    return &m->base;
}
