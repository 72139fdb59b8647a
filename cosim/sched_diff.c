/*
 * sched_diff.c -- long differential runs: C model vs RTL in lockstep.
 *
 *   sched_diff [-c CYCLES] [-s SEED] [-p lrr|gto|two_level|mixed] [-P W/S/R/D/E/B[/C/N]] [-V 0|1]
 *              [-H 0|1|mixed]
 *
 * (C/N: RcuDepth and RenEntries, 8/8 when left out)
 *
 * Drives the lockstep back end with seeded random legal stimulus (-V 1: with
 * the contract's dropped/ignored violations, see sched_stim.h) and stops at
 * the first difference, printing cycle, signal and both values (exit 1).
 * -H: HAWS stimulus (hints, chains, return pass; sched_stim.h) off, on, or
 * (mixed, the default) on every other chunk.
 * Without -P it cycles through every built parameter set, one chunk each.
 */
#include "sched_if.h"
#include "sched_stim.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const sched_params param_sets[] = {
    { 64, 4, 8, 2, 6, 4, 8, 8, 0 }, { 48, 2, 6, 3, 4, 2, 8, 8, 0 }, { 32, 1, 8, 1, 8, 1, 8, 8, 0 },
    { 8, 4, 8, 4, 2, 3, 8, 8, 0 }, { 4, 1, 8, 2, 6, 2, 2, 1, 0 },
    /* the variants without OAWS, CCWS/MASCAR and HAWS (cosim/module.mk) */
    { 64, 4, 8, 2, 6, 4, 8, 8, SCHED_OMIT_OAWS | SCHED_OMIT_PEERS | SCHED_OMIT_HAWS },
    { 48, 2, 6, 3, 4, 2, 8, 8, SCHED_OMIT_OAWS | SCHED_OMIT_PEERS | SCHED_OMIT_HAWS },
};

static int violate;
static int haws = -1;          /* -H: 0 off, 1 on, -1 every other chunk */

static int run_one(const sched_params *p, uint64_t cycles, uint64_t seed, int policy, int with_haws)
{
    char err[512];
    sched_backend *b = sched_lockstep_create(p, NULL, err, sizeof err);
    if (!b) {
        fprintf(stderr, "sched_diff: %s\n", err);
        return 2;
    }
    sched_stim_opts so = { .seed = seed, .policy = policy, .reg_range = 0, .violate = violate,
                           .haws = with_haws };
    sched_stim *st = sched_stim_create(p, &so);
    sched_inputs in;
    int rc = 0;
    for (uint64_t c = 0; c < cycles; c++) {
        sched_stim_next(st, sched_get_outputs(b), &in);
        if (sched_step(b, &in) != 0) {
            fprintf(stderr, "sched_diff: params %u/%u/%u/%u/%u/%u seed %" PRIu64 " policy %s: %s\n",
                    p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth,
                    p->sb_entries, p->wb_ports, seed, policy < 0 ? "mixed" : sched_policy_name((unsigned)policy),
                    sched_error(b));
            rc = 1;
            break;
        }
    }
    sched_stim_destroy(st);
    sched_destroy(b);
    return rc;
}

int main(int argc, char **argv)
{
    uint64_t cycles = 1000000, seed = 1;
    int policy = -1;
    int have_p = 0;
    sched_params p = { 0 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) { fprintf(stderr, "sched_diff: option %s needs a value\n", a); return 2; }
        char *end;
        if (strcmp(a, "-c") == 0) {
            cycles = strtoull(v, &end, 10);
            if (*end || cycles == 0) { fprintf(stderr, "sched_diff: -c %s: not a positive number\n", v); return 2; }
        } else if (strcmp(a, "-s") == 0) {
            seed = strtoull(v, &end, 10);
            if (*end) { fprintf(stderr, "sched_diff: -s %s: not a number\n", v); return 2; }
        } else if (strcmp(a, "-p") == 0) {
            policy = strcmp(v, "mixed") == 0 ? -1 : sched_policy_parse(v);
            if (policy < 0 && strcmp(v, "mixed") != 0) {
                fprintf(stderr, "sched_diff: -p %s: unknown policy (lrr, gto, two_level, mixed)\n", v);
                return 2;
            }
        } else if (strcmp(a, "-H") == 0) {
            if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0 && strcmp(v, "mixed") != 0) {
                fprintf(stderr, "sched_diff: -H %s: 0, 1 or mixed\n", v);
                return 2;
            }
            haws = v[0] == 'm' ? -1 : v[0] == '1';
        } else if (strcmp(a, "-V") == 0) {
            if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0) {
                fprintf(stderr, "sched_diff: -V %s: 0 or 1\n", v);
                return 2;
            }
            violate = v[0] == '1';
        } else if (strcmp(a, "-P") == 0) {
            p.rcu_depth = p.ren_entries = 8;
            int n = sscanf(v, "%u/%u/%u/%u/%u/%u/%u/%u", &p.num_warps, &p.num_schedulers,
                           &p.reg_id_width, &p.ibuf_depth, &p.sb_entries, &p.wb_ports, &p.rcu_depth,
                           &p.ren_entries);
            if (n != 6 && n != 8) {
                fprintf(stderr, "sched_diff: -P %s: expected W/S/R/D/E/B[/C/N]\n", v);
                return 2;
            }
            have_p = 1;
        } else {
            fprintf(stderr, "sched_diff: unknown option %s\n", a);
            return 2;
        }
        i++;
    }
    if (have_p) {
        int rc = run_one(&p, cycles, seed, policy, haws != 0);
        if (rc == 0) printf("sched_diff: %" PRIu64 " cycles in lockstep, no difference\n", cycles);
        return rc;
    }
    /* every parameter set in turn, chunks of at most 1M cycles (so that even
     * a short run covers all sets), a new seed per chunk */
    const unsigned nsets = sizeof param_sets / sizeof param_sets[0];
    uint64_t per = (cycles + nsets - 1) / nsets;
    if (per > 1000000) per = 1000000;
    uint64_t done = 0, chunk = 0;
    while (done < cycles) {
        uint64_t n = cycles - done < per ? cycles - done : per;
        int rc = run_one(&param_sets[chunk % nsets], n, seed + chunk, policy,
                         haws < 0 ? (int)(chunk & 1) : haws);   /* sets rotate: each gets both */
        if (rc) return rc;
        done += n;
        chunk++;
    }
    printf("sched_diff: %" PRIu64 " cycles in lockstep over %u parameter sets, no difference\n",
           cycles, chunk < nsets ? (unsigned)chunk : nsets);
    return 0;
}
