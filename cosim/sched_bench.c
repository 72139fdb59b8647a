/*
 * sched_bench.c -- simulator speed of the scheduler core back ends.
 *
 * Prints cycles per second of the C model and of the Verilated RTL for one
 * SM (64 warps, 4 schedulers, default parameters), with FST tracing off and
 * on (the C model has no tracing of its own). To time the back ends and not
 * the stimulus generator, a random legal input sequence is first recorded
 * (from a C model run) and then replayed into fresh instances: the core is
 * deterministic, so a replay sees exactly the outputs the recording saw.
 *
 *   sched_bench [cycles]        (default 200000 recorded cycles)
 */
#include "sched_if.h"
#include "sched_stim.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Replays rec[0..n) `reps` times; returns cycles per second, or -1. */
static double run(sched_backend *b, const sched_inputs *rec, size_t n, unsigned reps)
{
    double t0 = now();
    for (unsigned r = 0; r < reps; r++) {
        sched_reset(b);
        for (size_t i = 0; i < n; i++) {
            if (sched_step(b, &rec[i]) != 0) {
                fprintf(stderr, "sched_bench: %s: %s\n", sched_backend_name(b), sched_error(b));
                return -1;
            }
        }
    }
    return (double)n * reps / (now() - t0);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000;
    if (n == 0) {
        fprintf(stderr, "sched_bench: cycles must be a positive number\n");
        return 2;
    }
    sched_params p;
    sched_params_default(&p);
    char err[512];

    /* record */
    sched_inputs *rec = malloc(n * sizeof *rec);
    sched_backend *cm = sched_cmodel_create(&p, err, sizeof err);
    sched_stim_opts so = { .seed = 1, .policy = -1, .reg_range = 0 };
    sched_stim *st = sched_stim_create(&p, &so);
    if (!rec || !cm || !st) {
        fprintf(stderr, "sched_bench: %s\n", cm ? "out of memory" : err);
        return 1;
    }
    uint64_t issued = 0;
    for (size_t i = 0; i < n; i++) {
        sched_stim_next(st, sched_get_outputs(cm), &rec[i]);
        if (sched_step(cm, &rec[i]) != 0) {
            fprintf(stderr, "sched_bench: %s\n", sched_error(cm));
            return 1;
        }
    }
    for (unsigned s = 0; s < p.num_schedulers; s++) issued += sched_get_outputs(cm)->counters[s][0];
    sched_stim_destroy(st);

    printf("scheduler core speed: 1 SM, %u warps, %u schedulers, ibuf %u, sb %u; "
           "%zu-cycle random stimulus (IPC %.2f)\n",
           p.num_warps, p.num_schedulers, p.ibuf_depth, p.sb_entries, n, (double)issued / n);
    printf("| back end | tracing | cycles/s | goal |\n|---|---|---|---|\n");

    double c = run(cm, rec, n, 20);
    printf("| C model | off | %.2f M | 10 M |\n", c / 1e6);
    printf("| C model | on | n/a (no C-side trace yet) | |\n");
    sched_destroy(cm);

    sched_backend *rtl = sched_rtl_create(&p, NULL, err, sizeof err);
    if (!rtl) {
        fprintf(stderr, "sched_bench: %s\n", err);
        return 1;
    }
    double r = run(rtl, rec, n, 2);
    printf("| RTL (Verilator) | off | %.2f M | 1 M |\n", r / 1e6);
    sched_destroy(rtl);

    /* traced: a shorter run (the FST of 200k cycles is ~100 MB) */
    const char *path = "build/cosim/sched_bench.fst";
    size_t nt = n < 20000 ? n : 20000;
    sched_trace_opts t = { .path = path, .start = 0, .end = 0 };
    rtl = sched_rtl_create(&p, &t, err, sizeof err);
    if (!rtl) {
        fprintf(stderr, "sched_bench: %s\n", err);
        return 1;
    }
    double rt = run(rtl, rec, nt, 1);
    sched_destroy(rtl);
    printf("| RTL (Verilator) | on (FST of all signals, every cycle, first %zu cycles) | %.3f M | |\n",
           nt, rt / 1e6);
    free(rec);
    return c > 0 && r > 0 && rt > 0 ? 0 : 1;
}
