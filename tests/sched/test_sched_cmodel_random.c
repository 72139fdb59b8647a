/*
 * test_sched_cmodel_random.c -- the C model under random legal stimulus,
 * checked against an independent reference of what the contract promises.
 *
 * The test keeps its own copy of every warp's buffer (a FIFO of the pushes
 * the contract says are accepted) and of its pending writes, and checks each
 * cycle that: an issued instruction is exactly the oldest one pushed to that
 * warp and not yet issued, the warp belongs to the scheduler and is alive, no
 * source or destination is pending (no RAW/WAW), the warp never has more than
 * SbEntries pending writes, a fetch request names an alive warp of the
 * scheduler with buffer space, long_pending matches the pending long writes,
 * and the counters add up to the cycle count. Runs in the ASan/UBSan pass.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <string.h>

#include "sched_if.h"
#include "sched_stim.h"

typedef struct ref_warp {
    sched_instr fifo[SCHED_MAX_IBUF_DEPTH];
    unsigned    head, count;
    int         pending[256];      /* 0 none, 1 short, 2 long */
    unsigned    npending;
} ref_warp;

static ref_warp ref[SCHED_MAX_WARPS];

static void run(const sched_params *p, int policy, uint64_t seed, uint64_t cycles)
{
    char err[512];
    sched_backend *b = sched_cmodel_create(p, err, sizeof err);
    if (!b) fail_msg("create: %s", err);
    sched_stim_opts so = { .seed = seed, .policy = policy, .reg_range = 0 };
    sched_stim *st = sched_stim_create(p, &so);
    memset(ref, 0, sizeof ref);
    uint64_t alive = 0, issued_total = 0;
    const unsigned ns = p->num_schedulers;
    sched_inputs in;

    for (uint64_t c = 0; c < cycles; c++) {
        const sched_outputs *o = sched_get_outputs(b);
        uint64_t long_ref = 0;
        for (unsigned w = 0; w < p->num_warps; w++) {
            unsigned nl = 0;
            for (unsigned r = 0; r < 256; r++) nl += ref[w].pending[r] == 2;
            if (nl) long_ref |= 1ull << w;
        }
        assert_int_equal(o->long_pending, long_ref);
        for (unsigned s = 0; s < ns; s++) {
            uint64_t sum = 0;
            for (unsigned r = 0; r < SCHED_NUM_REASONS; r++) sum += o->counters[s][r];
            assert_int_equal(sum, c);
            if (o->fetch_valid[s]) {
                unsigned w = o->fetch_warp[s];
                assert_int_equal(w % ns, s);
                assert_true((alive >> w) & 1);
                assert_true(ref[w].count < p->ibuf_depth);
            }
            const sched_issue *is = &o->issue[s];
            assert_int_equal(is->valid, o->stall_reason[s] == SCHED_REASON_ISSUE);
            if (!is->valid) continue;
            issued_total++;
            unsigned w = is->warp;
            ref_warp *rw = &ref[w];
            assert_int_equal(w % ns, s);
            assert_true((alive >> w) & 1);
            assert_true(rw->count > 0);
            const sched_instr *h = &rw->fifo[rw->head];
            assert_int_equal(is->pc, h->pc);
            assert_int_equal(is->op, h->op);
            assert_int_equal(is->dst_valid, h->dst_valid);
            assert_int_equal(is->dst, h->dst);
            assert_int_equal(is->long_lat, h->long_lat);
            assert_int_equal(is->hint, h->hint);
            assert_int_equal(is->pred_miss, h->pred_miss);
            assert_int_equal(is->pred_div, h->pred_div);
            for (unsigned k = 0; k < 3; k++)
                if (h->src_valid >> k & 1) assert_int_equal(rw->pending[h->src[k]], 0);
            if (h->dst_valid) {
                assert_int_equal(rw->pending[h->dst], 0);
                assert_true(rw->npending < p->sb_entries);
            }
        }

        sched_stim_next(st, o, &in);

        /* reference next state, in the contract's order */
        for (unsigned s = 0; s < ns; s++) {                  /* issue pops, allocates */
            const sched_issue *is = &o->issue[s];
            if (!is->valid) continue;
            ref_warp *rw = &ref[is->warp];
            if (is->dst_valid) {
                rw->pending[is->dst] = is->long_lat ? 2 : 1;
                rw->npending++;
            }
            rw->head = (rw->head + 1) % p->ibuf_depth;
            rw->count--;
        }
        for (unsigned k = 0; k < p->wb_ports; k++) {         /* writebacks */
            const sched_writeback *wb = &in.wb[k];
            if (!wb->valid) continue;
            assert_int_not_equal(ref[wb->warp].pending[wb->reg], 0);   /* stimulus legal */
            ref[wb->warp].pending[wb->reg] = 0;
            ref[wb->warp].npending--;
        }
        for (unsigned s = 0; s < ns; s++) {                  /* pushes */
            const sched_push *ps = &in.push[s];
            if (!ps->valid) continue;
            ref_warp *rw = &ref[ps->warp];
            unsigned before = rw->count + (o->issue[s].valid && o->issue[s].warp == ps->warp);
            if (before >= p->ibuf_depth) continue;           /* full at cycle start: dropped */
            rw->fifo[(rw->head + rw->count) % p->ibuf_depth] = ps->instr;
            rw->count++;
        }
        for (unsigned w = 0; w < p->num_warps; w++) {        /* launch / finish */
            if ((in.launch | in.finish) >> w & 1) ref[w].head = ref[w].count = 0;
            if (in.launch >> w & 1) {
                memset(ref[w].pending, 0, sizeof ref[w].pending);
                ref[w].npending = 0;
            }
        }
        alive = (alive & ~in.finish) | in.launch;

        assert_int_equal(sched_step(b, &in), 0);
    }
    if (issued_total <= cycles / 20)
        fail_msg("params %u/%u/%u/%u/%u/%u: only %" PRIu64 " issues in %" PRIu64 " cycles",
                 p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth, p->sb_entries,
                 p->wb_ports, issued_total, cycles);
    sched_stim_destroy(st);
    sched_destroy(b);
}

static void test_invariants_default(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    for (int policy = -1; policy < SCHED_NUM_POLICIES; policy++) run(&p, policy, 11 + (uint64_t)policy, 20000);
}

static void test_invariants_other_params(void **state)
{
    (void)state;
    /* including parameter sets with no Verilated model: the C model takes any */
    static const sched_params sets[] = {
        { 48, 2, 6, 3, 4, 2, 8, 8, 0 }, { 32, 1, 8, 1, 8, 1, 8, 8, 0 }, { 8, 4, 8, 4, 2, 3, 8, 8, 0 },
        { 64, 8, 5, 8, 16, 8, 8, 8, 0 }, { 3, 3, 1, 1, 1, 1, 8, 8, 0 }, { 60, 6, 7, 5, 3, 5, 8, 8, 0 },
    };
    for (unsigned k = 0; k < sizeof sets / sizeof sets[0]; k++)
        run(&sets[k], -1, 100 + k, 20000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invariants_default),
        cmocka_unit_test(test_invariants_other_params),
    };
    return cmocka_run_group_tests_name("sched_cmodel_random", tests, NULL, NULL);
}
