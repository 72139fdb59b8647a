/*
 * test_sched_mutants.c -- detection power of the random lockstep, measured.
 *
 * Bugs are planted inside one model at a time and the C model is run against
 * the RTL, output for output, under the random stimulus of cosim/sched_stim.c
 * until the first difference (or failing RTL assertion). Each planted bug
 * must be caught within its stated number of cycles; the cycle of detection
 * is printed (docs/testing.md, "Detection power", records the table).
 *
 *   C-model bugs: cosim/sched_cmodel.c compiled once more with
 *     -DSCHED_CMODEL_MUTANTS (sched_cmodel_mut.o), the bug picked at run time
 *     through sched_cmodel_mutant; against the plain RTL.
 *   RTL bugs: the 32/1/8/1/8/1 model Verilated once more with
 *     +define+SCHED_MUTANTS, the bug picked per instance (+sched_mutant=N);
 *     against the plain C model. Two of them break an invariant the RTL
 *     asserts: run on the RTL alone (the stimulus reading its outputs), they
 *     must be reported as a failed assertion naming the asserting file.
 *
 * Some rows run the stimulus that cannot catch the bug (register ids 0..11
 * only, or no contract violations) and check it does not: that is why the
 * stimulus reaches the whole id space and generates the violations.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sched_if.h"
#include "sched_stim.h"
#include "vsched_shim.h"

extern int sched_cmodel_mutant;     /* sched_cmodel_mut.o */

enum side { C_MODEL, RTL };
enum stim { FULL, NARROW, VIOLATE, HAWS };
enum expect { CAUGHT, ASSERTION, MISSED };

typedef struct mutant {
    enum side   side;
    int         id;
    const char *bug;
    enum stim   stim;
    int         policy;         /* -1: switching at random */
    uint64_t    bound;          /* must be caught within this many cycles */
    enum expect expect;
    const char *file;           /* ASSERTION: the file whose assertion fires */
} mutant;

static const sched_params kepler = { 64, 4, 8, 2, 6, 4, 8, 8, 0 };
static const sched_params small = { 32, 1, 8, 1, 8, 1, 8, 8, 0 };  /* the mutant RTL model's set */

static const mutant mutants[] = {
    { C_MODEL, 1, "scoreboard one entry too few", FULL, -1, 20000, CAUGHT, NULL },
    { C_MODEL, 2, "GTO tie-break flipped (youngest)", FULL, SCHED_POLICY_GTO, 20000, CAUGHT, NULL },
    { C_MODEL, 3, "SWL prefix count off by one", FULL, -1, 20000, CAUGHT, NULL },
    { C_MODEL, 4, "writeback of the top register id dropped", FULL, -1, 20000, CAUGHT, NULL },
    { C_MODEL, 4, "writeback of the top register id dropped", NARROW, -1, 200000, MISSED, NULL },
    { C_MODEL, 5, "push into a full buffer overwrites the newest entry", VIOLATE, -1, 20000, CAUGHT, NULL },
    { C_MODEL, 5, "push into a full buffer overwrites the newest entry", FULL, -1, 200000, MISSED, NULL },
    { C_MODEL, 6, "stray writeback frees a scoreboard entry", VIOLATE, -1, 20000, CAUGHT, NULL },
    { C_MODEL, 6, "stray writeback frees a scoreboard entry", FULL, -1, 200000, MISSED, NULL },
    { C_MODEL, 7, "long-latency write marked short", FULL, -1, 20000, CAUGHT, NULL },
    { C_MODEL, 8, "two-level pool takes one warp too many", FULL, SCHED_POLICY_TWO_LEVEL, 20000, CAUGHT, NULL },
    { C_MODEL, 9, "HAWS: member sources not renamed", HAWS, -1, 100000, CAUGHT, NULL },
    { C_MODEL, 9, "HAWS: member sources not renamed", FULL, -1, 200000, MISSED, NULL },
    { C_MODEL, 10, "HAWS: no re-entry block after an exhausted chain", HAWS, -1, 100000, CAUGHT, NULL },
    { RTL, 1, "scoreboard one entry too few", FULL, -1, 20000, CAUGHT, NULL },
    { RTL, 2, "GTO tie-break flipped (youngest)", FULL, SCHED_POLICY_GTO, 20000, CAUGHT, NULL },
    { RTL, 3, "SWL prefix count off by one", FULL, -1, 20000, CAUGHT, NULL },
    { RTL, 4, "writeback of the top register id dropped", FULL, -1, 20000, CAUGHT, NULL },
    { RTL, 4, "writeback of the top register id dropped", NARROW, -1, 200000, MISSED, NULL },
    { RTL, 5, "issue from an empty buffer", FULL, -1, 1000, ASSERTION, "rtl/sched_ibuffer_bank.sv" },
    { RTL, 6, "full scoreboard does not stall (over-allocation)", FULL, -1, 20000, ASSERTION,
      "rtl/sched_scoreboard_bank.sv" },
    { RTL, 7, "HAWS: a skip does not advance the RCU head", HAWS, -1, 100000, CAUGHT, NULL },
    { RTL, 8, "HAWS: entry latches a long dependence released at that edge", HAWS, -1, 2000000,
      CAUGHT, NULL },
};

static const char *stim_name(enum stim s)
{
    return s == FULL ? "legal, full ids" : s == NARROW ? "legal, ids 0..11"
         : s == HAWS ? "legal, HAWS" : "with violations";
}

/* Run C model against RTL from reset; the cycle whose outputs first differ
 * (or whose edge fired an RTL assertion), 0 when none within the bound. */
static uint64_t first_difference(const mutant *mu, char *what, size_t whatlen)
{
    const sched_params *p = mu->side == RTL ? &small : &kepler;
    char err[512];
    sched_cmodel_mutant = mu->side == C_MODEL ? mu->id : 0;
    sched_backend *c = sched_cmodel_create(p, err, sizeof err);
    sched_cmodel_mutant = 0;
    if (!c) fail_msg("cmodel: %s", err);
    vsched *v = mu->side == RTL ? vsched_create_mutant(p, (unsigned)mu->id, err, sizeof err)
                                : vsched_create(p, NULL, err, sizeof err);
    if (!v) fail_msg("rtl: %s", err);
    sched_stim_opts so = { .seed = 1, .policy = mu->policy, .reg_range = mu->stim == NARROW ? 12 : 0,
                           .violate = mu->stim == VIOLATE, .haws = mu->stim == HAWS };
    sched_stim *st = sched_stim_create(p, &so);
    assert_non_null(st);
    sched_outputs ro;
    sched_inputs in;
    uint64_t found = 0, va, vb;
    char sig[64];
    what[0] = '\0';
    for (uint64_t cyc = 0; cyc <= mu->bound && !found; cyc++) {
        if (vsched_failure(v)[0]) {             /* the edge ending cycle cyc - 1 */
            found = cyc - 1;
            snprintf(what, whatlen, "%s", vsched_failure(v));
            break;
        }
        vsched_get_outputs(v, &ro);
        if (mu->expect == ASSERTION) {          /* the RTL alone */
            sched_stim_next(st, &ro, &in);
            vsched_step(v, &in);
            continue;
        }
        if (!sched_outputs_compare(p, sched_get_outputs(c), &ro, sig, sizeof sig, &va, &vb)) {
            found = cyc;
            snprintf(what, whatlen, "%s: cmodel=0x%" PRIx64 " rtl=0x%" PRIx64, sig, va, vb);
            break;
        }
        sched_stim_next(st, sched_get_outputs(c), &in);
        assert_int_equal(sched_step(c, &in), 0);
        vsched_step(v, &in);
    }
    sched_stim_destroy(st);
    vsched_destroy(v);
    sched_destroy(c);
    return found;
}

static void test_planted_bugs_are_caught(void **state)
{
    (void)state;
    unsigned bad = 0;
    printf("| side | planted bug | stimulus | parameters | caught at cycle | bound |\n");
    printf("|---|---|---|---|---:|---:|\n");
    for (unsigned i = 0; i < sizeof mutants / sizeof mutants[0]; i++) {
        const mutant *mu = &mutants[i];
        char what[256];
        uint64_t at = first_difference(mu, what, sizeof what);
        const sched_params *p = mu->side == RTL ? &small : &kepler;
        char caught[64];
        if (at) snprintf(caught, sizeof caught, "%" PRIu64, at);
        else snprintf(caught, sizeof caught, "not within %" PRIu64, mu->bound);
        printf("| %s %d | %s | %s%s | %u/%u/%u/%u/%u/%u | %s | %" PRIu64 " |   %s\n",
               mu->side == RTL ? "RTL" : "C", mu->id, mu->bug, stim_name(mu->stim),
               mu->policy == SCHED_POLICY_GTO ? ", GTO" : mu->policy == SCHED_POLICY_TWO_LEVEL ? ", two-level" : "",
               p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth, p->sb_entries,
               p->wb_ports, caught, mu->bound, what);
        int ok = mu->expect == MISSED ? at == 0
               : mu->expect == ASSERTION ? at != 0 && strncmp(what, "RTL assertion failed: ", 22) == 0 &&
                                           strncmp(what + 22, mu->file, strlen(mu->file)) == 0
               : at != 0 && strncmp(what, "RTL assertion", 13) != 0;
        if (!ok) {
            printf("  ^ FAILED: expected %s%s\n", mu->expect == MISSED ? "no difference"
                   : mu->expect == ASSERTION ? "an RTL assertion in " : "an output difference",
                   mu->expect == ASSERTION ? mu->file : "");
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* Without a planted bug the same runs show no difference (the table above
 * measures the bugs, not noise). */
static void test_no_bug_no_difference(void **state)
{
    (void)state;
    for (int side = C_MODEL; side <= RTL; side++)
        for (int s = FULL; s <= VIOLATE; s++) {
            mutant mu = { (enum side)side, 0, "none", (enum stim)s, -1, 50000, MISSED, NULL };
            char what[256];
            uint64_t at = first_difference(&mu, what, sizeof what);
            if (at) fail_msg("no bug planted, yet a difference at cycle %" PRIu64 ": %s", at, what);
        }
}

/* A failing RTL assertion fails the RTL back end: sched_step() returns -1
 * (sticky) and sched_error() names the file, line and cycle. */
static void test_assertion_fails_the_backend(void **state)
{
    (void)state;
    char err[512];
    vsched_create_mutant_default = 5;           /* issue from an empty buffer */
    sched_backend *b = sched_rtl_create(&small, NULL, err, sizeof err);
    vsched_create_mutant_default = 0;
    if (!b) fail_msg("rtl: %s", err);
    sched_stim_opts so = { .seed = 1, .policy = -1, .reg_range = 0 };
    sched_stim *st = sched_stim_create(&small, &so);
    sched_inputs in;
    int rc = 0;
    uint64_t c;
    for (c = 0; c < 100 && rc == 0; c++) {
        sched_stim_next(st, sched_get_outputs(b), &in);
        rc = sched_step(b, &in);
    }
    assert_int_equal(rc, -1);
    printf("sched_step: -1 after %" PRIu64 " steps: %s\n", c, sched_error(b));
    const char *e = sched_error(b), *want = "RTL assertion failed: rtl/sched_ibuffer_bank.sv:";
    assert_true(strncmp(e, want, strlen(want)) == 0);
    assert_true(strlen(e) > 11 && strcmp(e + strlen(e) - 11, " at cycle 1") == 0);
    assert_int_equal(sched_step(b, &in), -1);
    sched_stim_destroy(st);
    sched_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assertion_fails_the_backend),
        cmocka_unit_test(test_no_bug_no_difference),
        cmocka_unit_test(test_planted_bugs_are_caught),
    };
    return cmocka_run_group_tests_name("sched_mutants", tests, NULL, NULL);
}
