/*
 * sched_stim.c -- seeded random legal stimulus (see sched_stim.h).
 */
#include "sched_stim.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PENDING 4096

typedef struct pending_wb { uint64_t due; uint8_t warp, reg; } pending_wb;

struct sched_stim {
    sched_params p;
    sched_stim_opts o;
    uint64_t rng;
    uint64_t cycle;
    uint64_t alive;
    uint64_t barrier;
    unsigned policy, warp_limit, pool_size;
    uint32_t pc[SCHED_MAX_WARPS];
    unsigned outstanding[SCHED_MAX_WARPS];   /* writebacks not yet delivered */
    /* writebacks waiting for their cycle, in issue order */
    pending_wb q[MAX_PENDING];
    unsigned nq;
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
/* true with probability num/1024 */
static int chance(sched_stim *st, unsigned num) { return below(st, 1024) < num; }

sched_stim *sched_stim_create(const sched_params *p, const sched_stim_opts *o)
{
    sched_stim *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->p = *p;
    st->o = *o;
    if (st->o.reg_range == 0) st->o.reg_range = 12;
    if (st->o.reg_range > (1u << p->reg_id_width)) st->o.reg_range = 1u << p->reg_id_width;
    st->rng = o->seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
    if (st->rng == 0) st->rng = 1;
    st->policy = o->policy >= 0 ? (unsigned)o->policy : 0;
    st->pool_size = 4;
    return st;
}

void sched_stim_destroy(sched_stim *st) { free(st); }

static void random_instr(sched_stim *st, unsigned w, sched_instr *i)
{
    unsigned rr = st->o.reg_range;
    memset(i, 0, sizeof *i);
    i->pc = st->pc[w];
    st->pc[w] += 8;
    unsigned k = below(st, 16);
    i->op = k < 9 ? SCHED_OP_SP : k < 11 ? SCHED_OP_SFU : k < 15 ? SCHED_OP_LDST : SCHED_OP_DP;
    i->dst_valid = chance(st, 750);
    i->dst = (uint8_t)below(st, rr);
    i->src_valid = (uint8_t)below(st, 8);
    for (int s = 0; s < 3; s++) i->src[s] = (uint8_t)below(st, rr);
    i->pred = chance(st, 100);
    i->long_lat = i->op == SCHED_OP_LDST && i->dst_valid && chance(st, 600);
    i->hint = (uint16_t)next_rand(st);
    i->pred_miss = (uint8_t)below(st, 16);
}

void sched_stim_next(sched_stim *st, const sched_outputs *out, sched_inputs *in)
{
    const sched_params *p = &st->p;
    const unsigned ns = p->num_schedulers;
    memset(in, 0, sizeof *in);

    /* Writebacks for what issued last time we looked (this cycle's issues). */
    for (unsigned s = 0; s < ns; s++) {
        const sched_issue *is = &out->issue[s];
        if (!is->valid || !is->dst_valid || st->nq == MAX_PENDING) continue;
        unsigned lat = is->long_lat ? 20 + below(st, 300) : 1 + below(st, 12);
        pending_wb *pw = &st->q[st->nq++];
        pw->due = st->cycle + lat;
        pw->warp = is->warp;
        pw->reg = is->dst;
        st->outstanding[is->warp]++;
    }
    /* Deliver due writebacks (oldest first), at most wb_ports per cycle. */
    unsigned nwb = 0;
    for (unsigned k = 0; k < st->nq && nwb < p->wb_ports;) {
        pending_wb *pw = &st->q[k];
        if (st->cycle >= pw->due) {
            in->wb[nwb].valid = 1;
            in->wb[nwb].warp = pw->warp;
            in->wb[nwb].reg = pw->reg;
            nwb++;
            st->outstanding[pw->warp]--;
            memmove(pw, pw + 1, (st->nq - k - 1) * sizeof *pw);
            st->nq--;
        } else {
            k++;
        }
    }

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
    }
    st->alive = (st->alive & ~in->finish) | in->launch;

    /* Pushes into the warps the core asks to refill (sometimes skipped, as
     * an instruction cache miss would). */
    for (unsigned s = 0; s < ns; s++) {
        if (!out->fetch_valid[s] || !chance(st, 800)) continue;
        unsigned w = out->fetch_warp[s];
        if ((in->launch | in->finish) >> w & 1) continue;
        in->push[s].valid = 1;
        in->push[s].warp = (uint8_t)w;
        random_instr(st, w, &in->push[s].instr);
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
    }
    if (chance(st, 2)) st->pool_size = below(st, p->num_warps / ns + 2);
    if (st->o.policy < 0 && chance(st, 1)) st->policy = below(st, SCHED_NUM_POLICIES);
    in->policy = (uint8_t)st->policy;
    in->warp_limit = (uint8_t)st->warp_limit;
    in->pool_size = (uint8_t)st->pool_size;

    st->cycle++;
}
