/*
 * sched_bench.c -- simulator speed of the scheduler core back ends.
 *
 * Prints cycles per second of the C model and of the Verilated RTL for one
 * SM (64 warps, 4 schedulers, default parameters), with FST tracing off and
 * on (the C model traces its ports, the RTL every signal). To time the back
 * ends and not the stimulus generator, a random legal input sequence is first recorded
 * (from a C model run) and then replayed into fresh instances: the core is
 * deterministic, so a replay sees exactly the outputs the recording saw.
 *
 * What is timed: the CPU time of this process (CLOCK_PROCESS_CPUTIME_ID;
 * the machine is shared, and time spent running other processes is not
 * ours) for replaying the recording, sched_reset() and sched_step() only.
 * Every row is measured REPS times; the table shows the median and the
 * min-max range.
 *
 *   sched_bench [cycles [workload]]   (default 200000 recorded cycles; all
 *                                      workloads, or only the one numbered
 *                                      0.. in `workloads` below, for profiling)
 */
#include "sched_if.h"
#include "sched_stim.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define REPS 5                          /* measurements per row */

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Replays rec[0..n) `loops` times; returns cycles per CPU second, or -1. */
static double run(sched_backend *b, const sched_inputs *rec, size_t n, unsigned loops)
{
    double t0 = cpu_seconds();
    for (unsigned r = 0; r < loops; r++) {
        sched_reset(b);
        for (size_t i = 0; i < n; i++) {
            if (sched_step(b, &rec[i]) != 0) {
                fprintf(stderr, "sched_bench: %s: %s\n", sched_backend_name(b), sched_error(b));
                return -1;
            }
        }
    }
    double t = cpu_seconds() - t0;
    return (double)n * loops / (t > 0 ? t : 1e-9);
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A row's measurement: REPS runs, sorted; rate[REPS / 2] is the median. */
typedef struct rates {
    double rate[REPS];
} rates;

static int measure(sched_backend *b, const sched_inputs *rec, size_t n, unsigned loops, rates *r)
{
    for (unsigned i = 0; i < REPS; i++)
        if ((r->rate[i] = run(b, rec, n, loops)) < 0) return -1;
    qsort(r->rate, REPS, sizeof r->rate[0], compare_double);
    return 0;
}

/* The traced rows: each of the REPS runs is on a fresh instance made by
 * `create`, so every run writes its trace from cycle 0. */
typedef sched_backend *(*traced_create)(const sched_params *p, const sched_trace_opts *t,
                                        char *err, size_t errlen);

static int measure_traced(traced_create create, const sched_params *p,
                          const sched_trace_opts *t, const sched_inputs *rec, size_t n,
                          rates *r)
{
    char err[512];
    for (unsigned i = 0; i < REPS; i++) {
        sched_backend *b = create(p, t, err, sizeof err);
        if (!b) {
            fprintf(stderr, "sched_bench: %s\n", err);
            return -1;
        }
        r->rate[i] = run(b, rec, n, 1);
        sched_destroy(b);
        if (r->rate[i] < 0) return -1;
    }
    qsort(r->rate, REPS, sizeof r->rate[0], compare_double);
    return 0;
}

/* "median M | min-max M" with `digits` decimals */
static void print_rates(const char *lead, const char *backend, const char *tracing, const rates *r,
                        int digits, const char *goal)
{
    printf("| %s | %s | %s | %.*f M | %.*f-%.*f M | %s |\n", lead, backend, tracing, digits,
           r->rate[REPS / 2] / 1e6, digits, r->rate[0] / 1e6, digits, r->rate[REPS - 1] / 1e6, goal);
}

/* A workload: which mechanisms the core has (sched_params.omit) and what
 * the stimulus drives. */
typedef struct workload {
    const char *name;
    unsigned    omit;
    int         haws, oaws_on;          /* sched_stim_opts */
    const char *c_goal, *rtl_goal;
} workload;

static const workload workloads[] = {
    /* the base policies (LRR, GTO, two-level) only: the core without OAWS,
     * CCWS/MASCAR, grouping and HAWS (the 419f53f goals) */
    { "every mechanism off", SCHED_OMIT_ALL, 0, 0, "10 M", "1 M" },
    { "OAWS on", SCHED_OMIT_ALL & ~SCHED_OMIT_OAWS, 0, 1, "", "" },
    { "HAWS on", SCHED_OMIT_ALL & ~SCHED_OMIT_HAWS, 1, 0, "", "" },
    /* the full core, OAWS and CCWS/MASCAR each on about 2/3 of the time */
    { "all mechanisms (random)", 0, 0, 0, "", "" },
};

/* Records n cycles of the workload's stimulus from a C model run into rec;
 * returns the IPC, or -1. */
static double record(const sched_params *p, const workload *wl, sched_inputs *rec, size_t n)
{
    char err[512];
    sched_backend *cm = sched_cmodel_create(p, err, sizeof err);
    /* reg_range 12: the workload of the rates in docs/rtl.md */
    sched_stim_opts so = { .seed = 1, .policy = -1, .reg_range = 12, .haws = wl->haws,
                           .oaws_on = wl->oaws_on };
    sched_stim *st = cm ? sched_stim_create(p, &so) : NULL;
    if (!st) {
        fprintf(stderr, "sched_bench: %s\n", cm ? "out of memory" : err);
        sched_destroy(cm);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        sched_stim_next(st, sched_get_outputs(cm), &rec[i]);
        if (sched_step(cm, &rec[i]) != 0) {
            fprintf(stderr, "sched_bench: %s: %s\n", wl->name, sched_error(cm));
            return -1;
        }
    }
    uint64_t issued = 0;
    for (unsigned s = 0; s < p->num_schedulers; s++) issued += sched_get_outputs(cm)->counters[s][0];
    sched_stim_destroy(st);
    sched_destroy(cm);
    return (double)issued / n;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000;
    const size_t nwl = sizeof workloads / sizeof workloads[0];
    size_t only = argc > 2 ? strtoull(argv[2], NULL, 10) : nwl;
    if (n == 0 || (argc > 2 && only >= nwl)) {
        fprintf(stderr, "sched_bench: usage: sched_bench [cycles > 0 [workload 0..%zu]]\n", nwl - 1);
        return 2;
    }
    char err[512];
    sched_inputs *rec = malloc(n * sizeof *rec);
    if (!rec) {
        fprintf(stderr, "sched_bench: out of memory\n");
        return 1;
    }
    sched_params p;
    sched_params_default(&p);

    printf("scheduler core speed: 1 SM, %u warps, %u schedulers, ibuf %u, sb %u; "
           "%zu-cycle random stimulus replayed; cycles per CPU second of this process "
           "(reset + step only), median of %d runs and min-max. A workload's core omits "
           "the mechanisms it does not use (sched_params.omit; the RTL runs the Verilated "
           "variant without them)\n",
           p.num_warps, p.num_schedulers, p.ibuf_depth, p.sb_entries, n, REPS);
    printf("| workload | IPC | back end | tracing | cycles/s | range | goal |\n"
           "|---|---|---|---|---|---|---|\n");

    for (size_t k = 0; k < nwl; k++) {
        if (only < nwl && k != only) continue;
        const workload *wl = &workloads[k];
        sched_params wp = p;
        wp.omit = wl->omit;
        double ipc = record(&wp, wl, rec, n);
        if (ipc < 0) return 1;
        char lead[128];
        snprintf(lead, sizeof lead, "%s | %.2f", wl->name, ipc);

        rates c, r;
        sched_backend *cm = sched_cmodel_create(&wp, err, sizeof err);
        if (!cm || measure(cm, rec, n, 4, &c) != 0) {
            if (!cm) fprintf(stderr, "sched_bench: %s\n", err);
            return 1;
        }
        sched_destroy(cm);
        print_rates(lead, "C model", "off", &c, 2, wl->c_goal);

        sched_backend *rtl = sched_rtl_create(&wp, NULL, err, sizeof err);
        if (!rtl) {
            fprintf(stderr, "sched_bench: %s\n", err);
            return 1;
        }
        if (measure(rtl, rec, n, 1, &r) != 0) return 1;
        sched_destroy(rtl);
        print_rates(lead, "RTL (Verilator)", "off", &r, 2, wl->rtl_goal);
    }

    if (only < nwl) {
        free(rec);
        return 0;
    }
    /* traced, the full core on the last workload's recording: a shorter
     * run (the FST of 200k cycles is ~100 MB) */
    size_t nt = n < 20000 ? n : 20000;
    const char *lead = "all mechanisms (random) | (as above)";
    rates rt, ct;
    sched_trace_opts t = { .path = "build/cosim/sched_bench.fst", .start = 0, .end = 0 };
    if (measure_traced(sched_rtl_create, &p, &t, rec, nt, &rt) != 0) return 1;
    char what[96];
    snprintf(what, sizeof what, "on (FST of all signals, every cycle, first %zu cycles)", nt);
    print_rates(lead, "RTL (Verilator)", what, &rt, 3, "");

    /* the C model's trace (the ports), the same cycles, same way */
    sched_trace_opts tc = { .path = "build/cosim/sched_bench_c.fst", .start = 0, .end = 0 };
    if (measure_traced(sched_cmodel_create_traced, &p, &tc, rec, nt, &ct) != 0) return 1;
    snprintf(what, sizeof what, "on (FST of the ports, every cycle, first %zu cycles)", nt);
    print_rates(lead, "C model", what, &ct, 3, "");
    free(rec);
    return 0;
}
