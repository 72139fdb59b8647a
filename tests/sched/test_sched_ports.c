/*
 * test_sched_ports.c -- the input checks against the port table.
 *
 * For every input field of cosim/sched_ports.def whose C type is wider than
 * its port, a value one bit too wide must be rejected: by sched_step() on the
 * C model (the fast scan, sched_inputs_scan.h) and by sched_inputs_check()
 * (the named message). A port added to the table whose field the checks do
 * not know fails here. Also: the port and reason counts, and the names the
 * lockstep checker gives the output fields. Runs in the ASan/UBSan pass.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "sched_if.h"
#include "sched_ports.h"

/* Legal inputs with push port 0 and writeback port 0 in use. */
static void legal_inputs(sched_inputs *in)
{
    memset(in, 0, sizeof *in);
    in->push[0].valid = 1;
    in->push[0].warp = 0;
    in->wb[0].valid = 1;
    in->wb[0].warp = 0;
    in->wb[0].reg = 0;
}

/* 1 << n (a call: the compiler does not fold it into the narrowing store) */
static uint64_t one_bit(unsigned n) { return 1ull << n; }

static unsigned check_widths(const sched_params *p)
{
    char err[256];
    sched_backend *b = sched_cmodel_create(p, err, sizeof err);
    if (!b) fail_msg("create: %s", err);
    sched_inputs base;
    legal_inputs(&base);
    assert_int_equal(sched_inputs_check(p, &base, err, sizeof err), 0);
    assert_int_equal(sched_step(b, &base), 0);

    SCHED_PORT_PARAMS(p);
    unsigned tested = 0;
    /* field 0 of group 0 of each input port, set to 1 << width */
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc)                        \
    SCHED_PORT_IF_IN(dir, {                                                               \
        sched_inputs bad;                                                                 \
        sched_inputs *in = &bad;                                                          \
        const unsigned g = 0, k = 0;                                                      \
        (void)g; (void)k;                                                                 \
        legal_inputs(in);                                                                 \
        if ((width) < 8 * sizeof(value)) {     /* the C field has room for more */        \
            const uint64_t over = one_bit(width);                                         \
            value = over;                                                                 \
            {                                                                             \
                tested++;                                                                 \
                char msg[256] = "";                                                       \
                if (sched_inputs_check(p, in, msg, sizeof msg) == 0)                      \
                    fail_msg("%s = 0x%llx (%u bits): accepted by sched_inputs_check",     \
                             #name, (unsigned long long)over, (unsigned)(width));        \
                assert_true(msg[0] != '\0');                                              \
                if (sched_step(b, in) == 0)                                               \
                    fail_msg("%s = 0x%llx (%u bits): accepted by sched_step (C model)",   \
                             #name, (unsigned long long)over, (unsigned)(width));        \
            }                                                                             \
        }                                                                                 \
    })
#include "sched_ports.def"
    sched_destroy(b);
    return tested;
}

static void test_input_widths(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    unsigned n = check_widths(&p);
    /* all but pc, the 8-bit register ids and the 64-bit warp vectors, whose
     * C fields have no room for a wider value: 14 before HAWS, and the
     * 24-bit hint, push rcu, haws and the four hbr fields; OAWS's pred_div,
     * oaws, mshr_avail, oaws_cap, ldst_retire_miss, ocw_event, ocw_half,
     * ocw_min and ocw_max; the grouped policy's group_prio and launch_group; the
     * peers' peer, ccws_base, ccws_bump, vta_valid, vta_warp and mascar_sat */
    assert_int_equal(n, 38);
    /* and with 6-bit register ids and 48 warps, those too */
    const sched_params odd = { 48, 2, 6, 3, 4, 2, 8, 8, 0 };
    assert_int_equal(check_widths(&odd), 44);
}

static void test_counts(void **state)
{
    (void)state;
    assert_int_equal(SCHED_NUM_PORTS, 81);   /* 39 before HAWS added 16, OAWS 16, the grouped policy 2,
                                                the peers (CCWS, MASCAR) 8 */
    assert_int_equal(SCHED_NUM_REASONS, 8);
    assert_string_equal(sched_reason_name(SCHED_REASON_LONG_DEP), "long_dep");
    assert_string_equal(sched_reason_name(SCHED_NUM_REASONS), "?");
}

/* The lockstep checker names output fields after their ports. */
static void test_compare_names(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    sched_outputs a, b;
    char sig[64];
    uint64_t va, vb;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    assert_int_equal(sched_outputs_compare(&p, &a, &b, sig, sizeof sig, &va, &vb), 1);
    b.issue[2].long_lat = 1;
    assert_int_equal(sched_outputs_compare(&p, &a, &b, sig, sizeof sig, &va, &vb), 0);
    assert_string_equal(sig, "issue_long[2]");
    b.issue[2].long_lat = 0;
    b.counters[3][SCHED_REASON_UNIT_BUSY] = 5;
    assert_int_equal(sched_outputs_compare(&p, &a, &b, sig, sizeof sig, &va, &vb), 0);
    assert_string_equal(sig, "counter_unit_busy[3]");
    assert_int_equal(vb, 5);
    b.counters[3][SCHED_REASON_UNIT_BUSY] = 0;
    b.long_pending = 1ull << 40;
    assert_int_equal(sched_outputs_compare(&p, &a, &b, sig, sizeof sig, &va, &vb), 0);
    assert_string_equal(sig, "long_pending[0]");
    /* beyond the parameters: not compared */
    b.long_pending = 0;
    b.issue[5].valid = 1;
    assert_int_equal(sched_outputs_compare(&p, &a, &b, sig, sizeof sig, &va, &vb), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_input_widths),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_compare_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
