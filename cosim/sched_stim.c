/*
 * sched_stim.c -- seeded random stimulus, legal or with the contract's
 * dropped/ignored violations (see sched_stim.h).
 */
#include "sched_stim.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PENDING 4096
#define REG_WINDOW  12

typedef struct pending_wb { uint64_t due; uint32_t life; uint8_t warp, reg, is_long; } pending_wb;

struct sched_stim {
    sched_params p;
    sched_stim_opts o;
    sched_stim_counts n;
    uint64_t rng;
    uint64_t cycle;
    uint64_t alive;
    uint64_t barrier;
    unsigned policy, warp_limit, pool_size;
    unsigned group_prio;                     /* groups: the group_prio level */
    unsigned reg_space;                      /* 1 << reg_id_width */
    uint32_t pc[SCHED_MAX_WARPS];
    uint32_t life[SCHED_MAX_WARPS];          /* launches so far */
    unsigned reg_base[SCHED_MAX_WARPS];      /* start of the warp's id window */
    unsigned count[SCHED_MAX_WARPS];         /* buffer occupancy, as the core has it */
    unsigned burst[SCHED_MAX_WARPS];         /* independent long loads still to push */
    unsigned outstanding[SCHED_MAX_WARPS];   /* writebacks not yet delivered */
    /* writebacks waiting for their cycle, in issue order */
    pending_wb q[MAX_PENDING];
    unsigned nq;
    /* HAWS */
    unsigned haws;                           /* the level given */
    uint64_t prev_mode;                      /* haws_mode of the last outputs */
    uint64_t long_wb;                        /* warps given a long writeback last time */
    uint64_t lf_prev;                        /* warps launched or finished last time */
    uint8_t  chain_over[SCHED_MAX_WARPS];    /* the chain can fetch no more */
    uint8_t  fetched[SCHED_MAX_WARPS];       /* members pushed in the episode */
    uint8_t  ren_n[SCHED_MAX_WARPS];         /* renamed originals in the episode ... */
    uint8_t  ren_orig[SCHED_MAX_WARPS][SCHED_MAX_REN_ENTRIES];
    uint8_t  hbr_wait[SCHED_MAX_WARPS];      /* a conditional member branch issued ... */
    uint64_t hbr_due[SCHED_MAX_WARPS];       /* ... its outcome is given from then */
    /* OAWS: its own random stream (the draws above stay what they were) */
    uint64_t rng2;
    unsigned oaws, mshr_avail, ocw_min, ocw_max, cnt_max, oaws_cap;
    unsigned prev_ocw;                       /* ocw of the last outputs */
    /* Peers (CCWS, MASCAR): a third stream, so the draws above stay as they were */
    uint64_t rng3;
    unsigned peer, ccws_base, ccws_bump, mascar_sat, prev_owner;
};

static uint64_t next_rand(sched_stim *st)
{
    /* xorshift64* */
    uint64_t x = st->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    st->rng = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* uniform in 0..n-1 */
static unsigned below(sched_stim *st, unsigned n) { return (unsigned)((next_rand(st) >> 32) % n); }

/* OAWS draws: uniform in 0..n-1 from the second stream */
static unsigned below2(sched_stim *st, unsigned n)
{
    uint64_t x = st->rng2;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    st->rng2 = x;
    return (unsigned)(((x * 0x2545F4914F6CDD1Dull) >> 32) % n);
}

/* An OAWS prediction for a pushed instruction: mostly small (so that Eq. 1
 * is near its boundary with the drawn MSHR counts), sometimes up to 63. */
static void oaws_pred(sched_stim *st, sched_instr *i)
{
    unsigned k = below2(st, 8);
    i->pred_miss = (uint8_t)(k < 2 ? 0 : k < 4 ? 1 : k < 7 ? below2(st, 20) : below2(st, 64));
    i->pred_div = (uint8_t)(below2(st, 2));
}
/* peer draws: uniform in 0..n-1 from the third stream */
static unsigned below3(sched_stim *st, unsigned n)
{
    uint64_t x = st->rng3;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    st->rng3 = x;
    return (unsigned)(((x * 0x2545F4914F6CDD1Dull) >> 32) % n);
}
/* true with probability num/1024 */
static int chance(sched_stim *st, unsigned num) { return below(st, 1024) < num; }

sched_stim *sched_stim_create(const sched_params *p, const sched_stim_opts *o)
{
    sched_stim *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->p = *p;
    st->o = *o;
    /* a fixed grouped policy always comes with its group ids; a core
     * without the grouped policy gets neither */
    st->o.groups |= o->policy == SCHED_POLICY_GROUPED;
    if (p->omit & SCHED_OMIT_GROUPED) st->o.groups = 0;
    if (p->omit & SCHED_OMIT_HAWS) st->o.haws = 0;
    st->reg_space = 1u << p->reg_id_width;
    if (st->o.reg_range > st->reg_space) st->o.reg_range = st->reg_space;
    st->rng = o->seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
    if (st->rng == 0) st->rng = 1;
    st->rng2 = st->rng ^ 0x5DEECE66Dull;
    st->rng3 = st->rng ^ 0xC2B2AE3D27D4EB4Full;
    st->oaws_cap = 32;
    st->policy = o->policy >= 0 ? (unsigned)o->policy : 0;
    st->pool_size = 4;
    for (unsigned w = 0; w < p->num_warps; w++) st->reg_base[w] = below(st, st->reg_space);
    return st;
}

void sched_stim_destroy(sched_stim *st) { free(st); }

const sched_stim_counts *sched_stim_stats(const sched_stim *st) { return &st->n; }

/* An entry hint: format 1, a small nonzero offset (HAWS). */
static uint32_t entry_hint(sched_stim *st)
{
    int o = 1 + (int)below(st, 6);
    return (uint32_t)((chance(st, 300) ? -o : o) & 0x1FF);
}

/* A register id for an instruction of warp w (see sched_stim.h). */
static uint8_t random_reg(sched_stim *st, unsigned w)
{
    if (st->o.reg_range) return (uint8_t)below(st, st->o.reg_range);
    if (st->reg_space <= REG_WINDOW || chance(st, 200)) return (uint8_t)below(st, st->reg_space);
    return (uint8_t)((st->reg_base[w] + below(st, REG_WINDOW)) & (st->reg_space - 1));
}

static void random_instr(sched_stim *st, unsigned w, sched_instr *i)
{
    memset(i, 0, sizeof *i);
    if (!st->o.reg_range && chance(st, 10)) st->reg_base[w] = below(st, st->reg_space);
    i->pc = st->pc[w];
    st->pc[w] += 8;
    /* Now and then a burst of independent long-latency loads (consecutive
     * destinations, no sources), so that scoreboards fill up even when
     * they have many entries (full id space of at least 32 ids only: the
     * narrow stimulus stays what it was). */
    if (!st->o.reg_range && st->reg_space >= 32 && !st->burst[w] && chance(st, 6))
        st->burst[w] = 4 + below(st, 13);
    if (st->burst[w]) {
        st->burst[w]--;
        i->op = SCHED_OP_LDST;
        i->dst_valid = 1;
        i->long_lat = 1;
        i->dst = (uint8_t)((st->reg_base[w] + st->burst[w]) & (st->reg_space - 1));
        i->hint = (uint32_t)next_rand(st) & 0xFFFFFFu;
        if (st->o.haws) i->hint = chance(st, 700) ? entry_hint(st) : 0;
        oaws_pred(st, i);
        return;
    }
    unsigned k = below(st, 16);
    i->op = k < 9 ? SCHED_OP_SP : k < 11 ? SCHED_OP_SFU : k < 15 ? SCHED_OP_LDST : SCHED_OP_DP;
    i->dst_valid = chance(st, 750);
    i->dst = random_reg(st, w);
    i->src_valid = (uint8_t)below(st, 8);
    for (int s = 0; s < 3; s++) i->src[s] = random_reg(st, w);
    i->pred = chance(st, 100);
    i->long_lat = i->op == SCHED_OP_LDST && i->dst_valid && chance(st, 600);
    i->hint = (uint32_t)next_rand(st) & 0xFFFFFFu;
    if (st->o.haws) i->hint = chance(st, 700) ? entry_hint(st) : 0;
    (void)below(st, 16);                     /* (was the 4-bit pred_miss draw) */
    oaws_pred(st, i);
}

/* A small nonzero offset, -6..6 (HAWS hints). */
static int small_offset(sched_stim *st)
{
    int o = 1 + (int)below(st, 6);
    return chance(st, 300) ? -o : o;
}

/* A chain member's hint, for warp w (see sched_stim.h); keeps the
 * stimulus's view of whether the chain can go on. */
static uint32_t member_hint(sched_stim *st, unsigned w, const sched_instr *i)
{
    unsigned k = below(st, 16);
    uint32_t h;
    st->fetched[w]++;
    if (k < 10) {
        int off = chance(st, 200) ? 0 : small_offset(st);
        unsigned rename = i->dst_valid && chance(st, 400);
        unsigned dst = rename ? below(st, st->reg_space) : i->dst;
        h = (uint32_t)(off & 0x1FF) | (rename << 9) | ((dst & 0xFFu) << 10);
        if (off == 0) st->chain_over[w] = 1;
        if (rename) {
            st->n.haws_renames++;
            unsigned j;
            for (j = 0; j < st->ren_n[w] && st->ren_orig[w][j] != i->dst; j++) {}
            if (j == st->ren_n[w]) {
                if (st->ren_n[w] < st->p.ren_entries) st->ren_orig[w][st->ren_n[w]++] = i->dst;
                else st->chain_over[w] = 1;          /* the table is full: the chain ends */
            }
        }
    } else {
        unsigned direct = k < 12;
        h = 1u << 23 | direct | ((uint32_t)small_offset(st) & 0x7FFu) << 1 |
            ((uint32_t)small_offset(st) & 0x7FFu) << 12;
        if (!direct) st->n.haws_branches++;
    }
    if (st->fetched[w] >= st->p.rcu_depth) st->chain_over[w] = 1;
    return h;
}

/* A writeback on the next free port (none when all are taken). */
static int add_wb(const sched_stim *st, sched_inputs *in, unsigned *nwb, unsigned warp, unsigned reg)
{
    if (*nwb >= st->p.wb_ports) return 0;
    sched_writeback *wb = &in->wb[(*nwb)++];
    wb->valid = 1;
    wb->warp = (uint8_t)warp;
    wb->reg = (uint8_t)reg;
    return 1;
}

void sched_stim_next(sched_stim *st, const sched_outputs *out, sched_inputs *in)
{
    const sched_params *p = &st->p;
    const unsigned ns = p->num_schedulers;
    const int bad = st->o.violate;
    memset(in, 0, sizeof *in);

    /* HAWS, from the outputs: entries and exits, hinted issues, copies, and
     * the conditional member branches whose outcome is to come. */
    if (st->o.haws) {
        uint64_t rose = out->haws_mode & ~st->prev_mode, fell = st->prev_mode & ~out->haws_mode;
        for (uint64_t r = rose; r; r &= r - 1) {
            unsigned w = (unsigned)__builtin_ctzll(r);
            st->n.haws_entries++;
            st->chain_over[w] = 0;
            st->fetched[w] = 0;
            st->ren_n[w] = 0;
            st->hbr_wait[w] = 0;
            st->count[w] = 0;
        }
        for (uint64_t f = fell & ~st->lf_prev; f; f &= f - 1) {
            unsigned w = (unsigned)__builtin_ctzll(f);
            if (!st->chain_over[w] && !st->hbr_wait[w]) st->n.haws_exit_load++;
            else if (st->chain_over[w] && !((st->long_wb >> w) & 1)) st->n.haws_exit_chain++;
            st->hbr_wait[w] = 0;
            st->count[w] = 0;
        }
        st->prev_mode = out->haws_mode;
        for (unsigned s = 0; s < ns; s++) {
            const sched_issue *is = &out->issue[s];
            if (!is->valid) continue;
            st->n.haws_hinted += is->hinted;
            st->n.haws_copy_issues += is->copy;
            if (is->hinted && (is->hint >> 23) & 1 && !(is->hint & 1)) {
                st->hbr_wait[is->warp] = 1;
                st->hbr_due[is->warp] = st->cycle + below(st, 4);
            }
        }
    }

    /* Writebacks for what issued last time we looked (this cycle's issues). */
    unsigned nwb = 0;
    for (unsigned s = 0; s < ns; s++) {
        const sched_issue *is = &out->issue[s];
        if (!is->valid || !is->dst_valid || st->nq == MAX_PENDING) continue;
        unsigned lat = is->long_lat ? 20 + below(st, 300) : 1 + below(st, 12);
        pending_wb *pw = &st->q[st->nq++];
        pw->due = st->cycle + lat;
        pw->life = st->life[is->warp];
        pw->warp = is->warp;
        pw->reg = is->dst;
        pw->is_long = is->long_lat;
        st->outstanding[is->warp]++;
        /* violation: a copy in the cycle of the issue (the real one follows) */
        if (bad && chance(st, 20) && add_wb(st, in, &nwb, is->warp, is->dst)) st->n.wb_same_cycle++;
    }
    for (unsigned w = 0; w < p->num_warps; w++)
        if (st->outstanding[w] >= p->sb_entries) {
            st->n.sb_full++;
            break;
        }
    /* Deliver due writebacks (oldest first), at most wb_ports per cycle. */
    st->long_wb = 0;
    for (unsigned k = 0; k < st->nq && nwb < p->wb_ports;) {
        pending_wb *pw = &st->q[k];
        if (st->cycle >= pw->due) {
            add_wb(st, in, &nwb, pw->warp, pw->reg);
            st->long_wb |= (uint64_t)pw->is_long << pw->warp;
            if (pw->life != st->life[pw->warp]) st->n.wb_stale++;
            /* violation: the same writeback on a second port */
            if (bad && chance(st, 15) && add_wb(st, in, &nwb, pw->warp, pw->reg)) st->n.wb_dup++;
            st->outstanding[pw->warp]--;
            memmove(pw, pw + 1, (st->nq - k - 1) * sizeof *pw);
            st->nq--;
        } else {
            k++;
        }
    }
    /* violation: a writeback of any warp and register */
    if (bad && chance(st, 30) && add_wb(st, in, &nwb, below(st, p->num_warps), below(st, st->reg_space)))
        st->n.wb_stray++;

    /* Warp life cycle: everyone starts at cycle 0; later a few finish and
     * empty slots with no writeback in flight are relaunched. */
    uint64_t all = p->num_warps == 64 ? ~0ull : (1ull << p->num_warps) - 1;
    if (st->cycle == 0) {
        in->launch = all;
    } else {
        if (st->alive && chance(st, 3)) {
            unsigned w = below(st, p->num_warps);
            if ((st->alive >> w) & 1) in->finish = 1ull << w;
        }
        if (chance(st, 12)) {
            unsigned w = below(st, p->num_warps);
            if (!((st->alive >> w) & 1) && st->outstanding[w] == 0 && !((in->finish >> w) & 1))
                in->launch = 1ull << w;
        }
        if (bad && chance(st, 6)) {
            /* violation: launch whatever the warp's state (alive, writebacks
             * to come, finished in this cycle) */
            unsigned w = below(st, p->num_warps);
            uint64_t bit = 1ull << w;
            in->launch |= bit;
            if (st->outstanding[w]) st->n.launch_pending++;
            if (st->alive & bit) st->n.launch_alive++;
            if (chance(st, 256)) in->finish |= bit;
            if (in->finish & bit) st->n.launch_finish++;
        }
        if (bad && chance(st, 4)) {
            /* violation: finish of a warp that may not be alive */
            unsigned w = below(st, p->num_warps);
            in->finish |= 1ull << w;
            if (!((st->alive >> w) & 1)) st->n.finish_dead++;
            if ((in->launch >> w) & 1) st->n.launch_finish++;
        }
    }
    for (uint64_t l = in->launch; l; l &= l - 1) st->life[__builtin_ctzll(l)]++;
    const uint64_t alive_before = st->alive;
    st->alive = (st->alive & ~in->finish) | in->launch;

    /* Pushes into the warps the core asks to refill (sometimes skipped, as
     * an instruction cache miss would); in violation mode sometimes into any
     * warp of the port's scheduler instead. */
    uint64_t lf = in->launch | in->finish;
    /* warps only the fetch request may push into (sched_haws_check) */
    const uint64_t haws_warps = out->haws_mode | out->rcu_busy;
    for (unsigned s = 0; s < ns; s++) {
        unsigned w;
        uint64_t lf_s = 0;                  /* launched or finished warps of s */
        for (uint64_t l = lf; l; l &= l - 1)
            if ((unsigned)__builtin_ctzll(l) % ns == s) lf_s |= l & -l;
        lf_s &= ~haws_warps;
        if (bad && lf_s && chance(st, 512)) {
            w = (unsigned)__builtin_ctzll(lf_s);
        } else if (bad && chance(st, 120) &&
                   !((haws_warps >> (w = s + ns * below(st, p->num_warps / ns))) & 1)) {
            /* (w chosen in the condition) */
        } else {
            if (!out->fetch_valid[s] || !chance(st, 800)) continue;
            w = out->fetch_warp[s];
            if ((lf >> w & 1) && !(bad && chance(st, 512))) continue;
        }
        in->push[s].valid = 1;
        in->push[s].warp = (uint8_t)w;
        random_instr(st, w, &in->push[s].instr);
        int answers = out->fetch_valid[s] && out->fetch_warp[s] == w;
        if (answers && out->fetch_pc_valid[s]) {
            /* a chain member at exactly fetch_pc */
            sched_instr *i = &in->push[s].instr;
            i->pc = out->fetch_pc[s];
            st->pc[w] -= 8;
            i->hint = member_hint(st, w, i);
            st->n.haws_chain++;
        } else if (answers && out->fetch_rcu[s].kind && chance(st, 700)) {
            /* the return pass meets the RCU head */
            sched_instr *i = &in->push[s].instr;
            i->pc = out->fetch_rcu[s].pc;
            st->pc[w] -= 8;
            in->push[s].rcu = out->fetch_rcu[s].kind;
            st->n.haws_skips += in->push[s].rcu == SCHED_RCU_SKIP;
            st->n.haws_copies += in->push[s].rcu == SCHED_RCU_COPY;
            st->n.haws_reexecs += in->push[s].rcu == SCHED_RCU_REEXEC;
        }
        if (st->count[w] >= p->ibuf_depth) st->n.push_full++;
        if (!(alive_before >> w & 1)) st->n.push_dead++;
        if (lf >> w & 1) st->n.push_lf++;
    }

    /* HAWS: the level, and the outcomes of member branches that are due */
    if (st->o.haws) {
        if (chance(st, 3)) st->haws = chance(st, 100) ? 0 : 1 + below(st, 2);
        if (st->cycle == 0) st->haws = 1;
        in->haws = (uint8_t)st->haws;
        for (unsigned w = 0; w < p->num_warps; w++) {
            sched_hbr *h = &in->hbr[w % ns];
            if (!st->hbr_wait[w] || st->cycle < st->hbr_due[w] || h->valid) continue;
            h->valid = 1;
            h->warp = (uint8_t)w;
            h->taken = (uint8_t)chance(st, 512);
            h->uniform = (uint8_t)chance(st, 900);
            if (!h->uniform || st->fetched[w] >= p->rcu_depth) st->chain_over[w] = 1;
            st->hbr_wait[w] = 0;
            st->n.haws_hbr++;
        }
    }
    st->lf_prev = lf;

    /* The buffers as the core will have them after this cycle's edge: the
     * issues pop, a push is taken when the buffer had room at the start of
     * the cycle, launch and finish empty it. */
    unsigned start[SCHED_MAX_SCHEDULERS];
    for (unsigned s = 0; s < ns; s++) start[s] = in->push[s].valid ? st->count[in->push[s].warp] : 0;
    for (unsigned s = 0; s < ns; s++)
        if (out->issue[s].valid) st->count[out->issue[s].warp]--;
    for (unsigned s = 0; s < ns; s++)
        if (in->push[s].valid && start[s] < p->ibuf_depth) st->count[in->push[s].warp]++;
    for (uint64_t l = lf; l; l &= l - 1) st->count[__builtin_ctzll(l)] = 0;

    /* violation: idle ports with nonzero fields (in range) */
    if (bad && chance(st, 64)) {
        for (unsigned s = 0; s < ns; s++)
            if (!in->push[s].valid) {
                in->push[s].warp = (uint8_t)(s + ns * below(st, p->num_warps / ns));
                random_instr(st, in->push[s].warp, &in->push[s].instr);
            }
        for (unsigned k = nwb; k < p->wb_ports; k++) {
            in->wb[k].warp = (uint8_t)below(st, p->num_warps);
            in->wb[k].reg = (uint8_t)below(st, st->reg_space);
        }
        st->n.idle_fields++;
    }

    /* Unit availability, barriers, run-time configuration. */
    for (unsigned s = 0; s < ns; s++) {
        uint8_t u = 0;
        for (unsigned c = 0; c < SCHED_NUM_OP_CLASSES; c++)
            if (chance(st, 870)) u |= (uint8_t)(1u << c);
        in->unit_avail[s] = u;
    }
    if (chance(st, 20)) st->barrier ^= 1ull << below(st, p->num_warps);
    if (chance(st, 4)) st->barrier = 0;
    in->barrier = st->barrier & all;
    if (chance(st, 2)) {
        unsigned k = below(st, 4);
        st->warp_limit = k == 0 ? 0 : below(st, p->num_warps + 3);
        if (bad && k == 1) {
            st->warp_limit = below(st, 128);
            st->n.level_range++;
        }
    }
    if (chance(st, 2)) {
        st->pool_size = below(st, p->num_warps / ns + 2);
        if (bad && chance(st, 256)) {
            st->pool_size = below(st, 128);
            st->n.level_range++;
        }
    }
    /* (the grouped policy only with the group stimulus: the other runs keep
     * the sequences they had before it existed) */
    if (st->o.policy < 0 && chance(st, st->o.groups ? 8 : 1))
        st->policy = below(st, st->o.groups ? SCHED_NUM_POLICIES : SCHED_POLICY_GROUPED);
    in->policy = (uint8_t)st->policy;
    if (st->o.groups) {
        /* Grouped policy: launched warps get a group id, mostly from a few
         * (so that groups have several warps), now and then any of the 64;
         * group_prio switches now and then. Violation mode also drives ids
         * on warps that are not launched (ignored by the contract). */
        for (uint64_t l = in->launch; l; l &= l - 1) {
            unsigned w = (unsigned)__builtin_ctzll(l);
            in->launch_group[w] = (uint8_t)(chance(st, 64) ? below(st, 64) : below(st, 4));
        }
        if (bad && chance(st, 64)) {
            unsigned w = below(st, p->num_warps);
            if (!((in->launch >> w) & 1)) {
                in->launch_group[w] = (uint8_t)below(st, 64);
                st->n.idle_fields++;
            }
        }
        if (chance(st, 3)) st->group_prio ^= 1;
        in->group_prio = (uint8_t)st->group_prio;
        st->n.group_cycles += st->policy == SCHED_POLICY_GROUPED;
    }
    in->warp_limit = (uint8_t)st->warp_limit;
    in->pool_size = (uint8_t)st->pool_size;

    /* OAWS levels and retirements (docs/oaws.md): the mode changes now and
     * then; Avail_mshr walks around small values; the retired eff is at
     * most a bit more than Miss_inflight (so that the floor at 0 is hit) */
    if (st->cycle == 0 || below2(st, 512) == 0) {
        /* under the HAWS stimulus OAWS is on only now and then, so that the
         * loads HAWS episodes wait for still issue (its coverage checks) */
        st->oaws = below2(st, 3);
        if (st->o.haws && below2(st, 4) != 0) st->oaws = 0;
        if (st->o.oaws_on && st->oaws == 0) st->oaws = 1 + below2(st, 2);
    }
    unsigned k2 = below2(st, 16);
    if (k2 == 0) st->mshr_avail = below2(st, 128);
    else if (k2 < 6) st->mshr_avail = st->mshr_avail ? st->mshr_avail - 1 : 0;
    else if (k2 < 10 && st->mshr_avail < 127) st->mshr_avail++;
    /* the OCW logic: small bounds and Cmax so that OCW moves often */
    if (st->cycle == 0 || below2(st, 256) == 0) {
        st->ocw_min = below2(st, 4) == 0 ? below2(st, 128) : below2(st, p->num_warps / 2 + 1);
        st->ocw_max = below2(st, 4) == 0 ? below2(st, 128) : st->ocw_min + below2(st, p->num_warps);
        if (st->ocw_max > 127) st->ocw_max = 127;
        st->cnt_max = below2(st, 8) == 0 ? below2(st, 256) : 1 + below2(st, 6);
    }
    in->ocw_min = (uint8_t)st->ocw_min;
    in->ocw_max = (uint8_t)st->ocw_max;
    in->cnt_max = (uint8_t)st->cnt_max;
    in->cnt_init = (uint8_t)below2(st, st->cnt_max + 1);
    if (st->cycle == 0 || below2(st, 4) == 0) {
        unsigned k = below2(st, 32);
        in->ocw_event = (uint8_t)(st->cycle == 0 || k == 0 ? 3 : 1 + (k & 1));
        in->ocw_half = (uint8_t)below2(st, 2);
        if (below2(st, 16) == 0) in->ocw_half = (uint8_t)(in->ocw_event == 2);
    }
    if (below2(st, 256) == 0) st->oaws_cap = below2(st, 4) == 0 ? below2(st, 128) : 32;
    in->oaws = (uint8_t)st->oaws;
    in->mshr_avail = (uint8_t)st->mshr_avail;
    in->oaws_cap = (uint8_t)st->oaws_cap;
    if (below2(st, 4) == 0) {
        unsigned lim = out->miss_inflight + 4u;
        in->ldst_retire_miss = (uint8_t)(below2(st, 64) == 0 ? below2(st, 128) : below2(st, lim < 128 ? lim : 128));
    }
    /* a core without OAWS gets none of its events (the draws stay, so that
     * the other streams do not change) */
    if (p->omit & SCHED_OMIT_OAWS) in->oaws = in->ocw_event = in->ldst_retire_miss = 0;
    for (unsigned s = 0; s < ns; s++) st->n.oaws_occluded += out->stall_reason[s] == SCHED_REASON_OCCLUDED;
    for (unsigned s = 0; s < ns; s++) st->n.oaws_eff_issues += out->issue[s].eff_miss != 0;
    st->n.oaws_inflight_max = out->miss_inflight > st->n.oaws_inflight_max ? out->miss_inflight
                                                                             : st->n.oaws_inflight_max;
    st->n.oaws_ocw_moves += out->ocw != st->prev_ocw;
    st->prev_ocw = out->ocw;

    /* Peers (docs/oaws.md, "Peers"): the mode changes now and then (under
     * the HAWS stimulus mostly none, as for OAWS); CCWS's base is mostly
     * small, so that a few VTA hits of small bumps already throttle, and
     * sometimes anything; MASCAR's saturation flips often. */
    if (st->cycle == 0 || below3(st, 512) == 0) {
        st->peer = below3(st, 3);
        if (st->o.haws && below3(st, 4) != 0) st->peer = 0;
        st->ccws_base = below3(st, 8) == 0 ? below3(st, 1024) : below3(st, 24);
        st->ccws_bump = below3(st, 8) == 0 ? below3(st, 4096) : below3(st, 4 * st->ccws_base + 8);
    }
    if (below3(st, 16) == 0) st->mascar_sat ^= 1;
    in->peer = (uint8_t)st->peer;
    in->ccws_base = (uint16_t)st->ccws_base;
    in->ccws_bump = (uint16_t)st->ccws_bump;
    in->mascar_sat = (uint8_t)st->mascar_sat;
    if (below3(st, 8) == 0) {
        in->vta_valid = 1;
        in->vta_warp = (uint8_t)(below3(st, 16) == 0 ? below3(st, 64) : below3(st, p->num_warps));
    }
    if (p->omit & SCHED_OMIT_PEERS) in->peer = in->vta_valid = in->vta_warp = 0;
    st->n.peer_ccws_holds += out->ccws_hold != 0;
    st->n.peer_owner_moves += out->mascar_owner != st->prev_owner;
    st->prev_owner = out->mascar_owner;

    st->cycle++;
}
