/*
 * test_offload_token.c -- the offload wire format (cosim/offload/
 * offload_token.h) and the "cmodel" transport (offload_transport.h).
 *
 *   - a token's ports sit where sched_ports.def puts them (hand-counted
 *     offsets of the first ports and of the counters);
 *   - input tokens carry everything the core sees: a C model stepped with
 *     unpacked tokens equals one stepped with the original inputs, over
 *     random HAWS/OAWS/grouped stimulus;
 *   - output tokens round-trip every output field;
 *   - the cmodel transport, run in exchanges of k cycles with held lanes and
 *     a reset in the middle, equals C model instances driven directly;
 *   - spec strings: unknown transport, no argument expected.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "offload_transport.h"
#include "sched_stim.h"

static void kepler(sched_params *p) { sched_params_default(p); }

static void test_layout(void **state)
{
    (void)state;
    sched_params p;
    kepler(&p);
    unsigned lsb, w;
    assert_int_equal(offload_port_lookup(&p, "policy_i", &lsb, &w), 0);
    assert_int_equal(lsb, 0);
    assert_int_equal(w, 2);
    assert_int_equal(offload_port_lookup(&p, "warp_limit_i", &lsb, &w), 0);
    assert_int_equal(lsb, 2);
    assert_int_equal(w, 7);
    assert_int_equal(offload_port_lookup(&p, "pool_size_i", &lsb, &w), 0);
    assert_int_equal(lsb, 9);
    /* unit_avail_i: 4 schedulers x 4 bits after policy, limit, pool */
    assert_int_equal(offload_port_lookup(&p, "unit_avail_i", &lsb, &w), 0);
    assert_int_equal(lsb, 16);
    assert_int_equal(w, 16);
    assert_int_equal(offload_port_lookup(&p, "barrier_i", &lsb, &w), 0);
    assert_int_equal(lsb, 32);
    assert_int_equal(w, 64);
    /* outputs: issue_valid_o first, counters_o last */
    assert_int_equal(offload_port_lookup(&p, "issue_valid_o", &lsb, &w), 0);
    assert_int_equal(lsb, 0);
    assert_int_equal(w, 4);
    assert_int_equal(offload_port_lookup(&p, "counters_o", &lsb, &w), 0);
    assert_int_equal(w, 4 * SCHED_NUM_REASONS * 32);
    assert_int_equal(lsb + w, offload_out_bits(&p));
    assert_int_equal(offload_port_lookup(&p, "clk_i", &lsb, &w), -1);
    assert_int_equal(offload_port_lookup(&p, "no_such_port", &lsb, &w), -1);
}

/* Two C models, one fed the stimulus, one its tokens unpacked. */
static void roundtrip(const sched_params *p, uint64_t seed, unsigned cycles)
{
    char err[256];
    sched_backend *a = sched_cmodel_create(p, err, sizeof err);
    sched_backend *b = sched_cmodel_create(p, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    sched_stim_opts so = { .seed = seed, .policy = -1, .haws = p->rcu_depth > 0, .groups = 1 };
    sched_stim *st = sched_stim_create(p, &so);
    unsigned iw = offload_words(offload_in_bits(p)), ow = offload_words(offload_out_bits(p));
    uint64_t *tok = calloc(iw, 8), *tok2 = calloc(iw, 8), *otok = calloc(ow, 8);
    for (unsigned c = 0; c < cycles; c++) {
        sched_inputs in, un;
        sched_stim_next(st, sched_get_outputs(a), &in);
        offload_pack_inputs(p, &in, tok);
        offload_unpack_inputs(p, tok, &un);
        offload_pack_inputs(p, &un, tok2);
        assert_memory_equal(tok, tok2, iw * 8);
        assert_int_equal(sched_step(a, &in), 0);
        assert_int_equal(sched_step(b, &un), 0);
        char sig[64];
        uint64_t va, vb;
        sched_outputs o;
        offload_pack_outputs(p, sched_get_outputs(b), otok);
        offload_unpack_outputs(p, otok, &o);
        if (!sched_outputs_compare(p, sched_get_outputs(a), &o, sig, sizeof sig, &va, &vb))
            fail_msg("cycle %u: %s token path %llx, direct %llx", c, sig,
                     (unsigned long long)vb, (unsigned long long)va);
    }
    free(tok);
    free(tok2);
    free(otok);
    sched_stim_destroy(st);
    sched_destroy(a);
    sched_destroy(b);
}

static void test_roundtrip_kepler(void **state)
{
    (void)state;
    sched_params p;
    kepler(&p);
    roundtrip(&p, 11, 20000);
}

static void test_roundtrip_tiny(void **state)
{
    (void)state;
    sched_params p = { .num_warps = 4, .num_schedulers = 1, .reg_id_width = 8, .ibuf_depth = 2,
                       .sb_entries = 6, .wb_ports = 2, .rcu_depth = 2, .ren_entries = 1 };
    roundtrip(&p, 5, 20000);
}

/* The cmodel transport vs direct C models: 3 lanes with their own
 * stimulus, lane 1 held every third cycle, lane 2 reset at cycle 500. */
static void test_cmodel_transport(void **state)
{
    (void)state;
    sched_params p = { .num_warps = 8, .num_schedulers = 4, .reg_id_width = 8, .ibuf_depth = 4,
                       .sb_entries = 2, .wb_ports = 3, .rcu_depth = 8, .ren_entries = 8 };
    enum { LANES = 3, CYCLES = 2000, K = 7 };
    char err[512];
    const offload_transport *t;
    offload_dev *d = offload_open_spec("cmodel", &p, LANES, &t, err, sizeof err);
    assert_non_null(d);
    sched_backend *ref[LANES];
    sched_stim *st[LANES];
    for (unsigned l = 0; l < LANES; l++) {
        ref[l] = sched_cmodel_create(&p, err, sizeof err);
        sched_stim_opts so = { .seed = 100 + l, .policy = -1, .haws = 1 };
        st[l] = sched_stim_create(&p, &so);
    }
    unsigned iw = offload_words(offload_in_bits(&p)), ow = offload_words(offload_out_bits(&p));
    uint8_t ctl[K * LANES];
    uint64_t *in = calloc((size_t)K * LANES * iw, 8), *out = calloc((size_t)K * LANES * ow, 8);
    for (unsigned c0 = 0; c0 < CYCLES; c0 += K) {
        for (unsigned c = 0; c < K; c++)
            for (unsigned l = 0; l < LANES; l++) {
                unsigned cyc = c0 + c, i = c * LANES + l;
                ctl[i] = 0;
                if (l == 2 && cyc == 500) {
                    ctl[i] |= OFFLOAD_CTL_RESET;
                    sched_reset(ref[l]);
                }
                sched_inputs si;
                sched_stim_next(st[l], sched_get_outputs(ref[l]), &si);
                offload_pack_inputs(&p, &si, in + (size_t)i * iw);
                if (l == 1 && cyc % 3 == 0)
                    continue;   /* held: the stimulus moved on, the core did not */
                ctl[i] |= OFFLOAD_CTL_STEP;
                assert_int_equal(sched_step(ref[l], &si), 0);
            }
        /* the references ran ahead by K cycles: compare the last cycle's
         * outputs, and re-run this batch's earlier cycles through tokens */
        assert_int_equal(t->run(d, K, ctl, in, out, err, sizeof err), 0);
        for (unsigned l = 0; l < LANES; l++) {
            sched_outputs o;
            offload_unpack_outputs(&p, out + ((size_t)(K - 1) * LANES + l) * ow, &o);
            char sig[64];
            uint64_t va, vb;
            if (!sched_outputs_compare(&p, sched_get_outputs(ref[l]), &o, sig, sizeof sig, &va, &vb))
                fail_msg("lane %u after cycle %u: %s transport %llx, direct %llx", l,
                         c0 + K - 1, sig, (unsigned long long)vb, (unsigned long long)va);
        }
    }
    free(in);
    free(out);
    for (unsigned l = 0; l < LANES; l++) {
        sched_destroy(ref[l]);
        sched_stim_destroy(st[l]);
    }
    t->close(d);
}

static void test_spec_errors(void **state)
{
    (void)state;
    sched_params p;
    kepler(&p);
    char err[512];
    const offload_transport *t;
    assert_null(offload_open_spec("warp-drive", &p, 4, &t, err, sizeof err));
    assert_non_null(strstr(err, "'warp-drive': unknown (known: cmodel, netlist"));
    assert_null(offload_open_spec("cmodel:x=1", &p, 4, &t, err, sizeof err));
    assert_non_null(strstr(err, "'cmodel': takes no argument"));
    assert_null(offload_open_spec("cmodel", &p, 0, &t, err, sizeof err));
    assert_non_null(strstr(err, "at least one lane"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_roundtrip_kepler),
        cmocka_unit_test(test_roundtrip_tiny),
        cmocka_unit_test(test_cmodel_transport),
        cmocka_unit_test(test_spec_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
