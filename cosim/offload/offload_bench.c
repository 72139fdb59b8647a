/*
 * offload_bench.c -- `make bench`'s offload table (docs/offload.md,
 * "Bench"): the scheduler cores of N SMs (Kepler set: 64 warps, 4
 * schedulers) stepped through the group interface by
 *
 *   c        a group of C models
 *   rtl      a group of Verilated models
 *   offload  the offload back end in closed loop: one exchange per cycle
 *            for all N SMs (k = 1)
 *   device   the transport alone replaying recorded tokens, k cycles x N
 *            SMs per exchange (the device's share of a replay)
 *   replay   a C-model group checked against the transport, k cycles per
 *            exchange (what --check-rtl offload:T:k costs)
 *
 * for N = 1, 15, 64, 80, 512 and k = 1, 64, 4096. Every SM gets the same
 * recorded legal input stream (a C-model run under cosim/sched_stim.c):
 * the core is deterministic, so the rows time the back ends, not the
 * stimulus. Each row runs about 2^17 SM-cycles (fewer cycles for more SMs;
 * a k beyond them is one exchange), five times; the table shows the
 * median wall-clock time (a device may run on other threads).
 *
 *   offload_bench [TRANSPORT [SM_CYCLES [REPS]]]
 *       (default cmodel, 131072, 5; e.g. netlist 8192 1: the netlist on
 *       PoCL takes about a millisecond per Kepler cycle)
 */
#include "offload_check.h"
#include "offload_transport.h"
#include "sched_group.h"
#include "sched_stim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPS_MAX   9
/* per row: SM-cycles and repetitions (median); the arguments may lower
 * them for a slow transport */
static unsigned SM_CYCLES = 1u << 17, REPS = 5;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static sched_params P;
static sched_inputs *rec;     /* the recorded stream, one SM */
static unsigned nrec;

/* One run of a group over `cycles` recorded cycles; seconds, or -1. */
static double run_group(sched_group *g, unsigned n, unsigned cycles, sched_inputs *in)
{
    sched_group_reset(g);
    double t0 = now();
    unsigned bad;
    for (unsigned c = 0; c < cycles; c++) {
        for (unsigned l = 0; l < n; l++)
            in[l] = rec[c];
        if (sched_group_step(g, in, NULL, &bad) != 0) {
            fprintf(stderr, "offload_bench: %s: SM %u: %s\n", sched_group_describe(g), bad,
                    sched_error(sched_group_member(g, bad)));
            return -1;
        }
    }
    if (sched_group_sync(g, &bad) != 0) {
        fprintf(stderr, "offload_bench: %s: SM %u: %s\n", sched_group_describe(g), bad,
                sched_error(sched_group_member(g, bad)));
        return -1;
    }
    return now() - t0;
}

static void row(unsigned n, const char *what, const char *k, double secs, unsigned cycles,
                double exchanges)
{
    if (secs < 0) {
        printf("%5u  %-22s %6s  %12s %14s %12s\n", n, what, k, "-", "-", "-");
        return;
    }
    if (exchanges <= 0)   /* a back end without a device */
        printf("%5u  %-22s %6s  %12s %14s %12.3f\n", n, what, k, "-", "-",
               (double)n * cycles / secs / 1e6);
    else
        printf("%5u  %-22s %6s  %12.0f %14.2f %12.3f\n", n, what, k, exchanges,
               secs / exchanges * 1e6, (double)n * cycles / secs / 1e6);
}

/* A group kind over n SMs, REPS times; the median seconds (-1: failed). */
static double time_group(const char *kind, const sched_group_opts *o, unsigned n,
                         unsigned cycles)
{
    char err[768];
    sched_group *g = sched_group_open(kind, &P, n, o, err, sizeof err);
    if (!g) {
        if (!strstr(err, "use a smaller k"))   /* (the queue's limit: a "-" row) */
            fprintf(stderr, "offload_bench: %s (%u SMs): %s\n", kind, n, err);
        return -1;
    }
    sched_inputs *in = calloc(n, sizeof *in);
    double t[REPS_MAX];
    for (unsigned r = 0; r < REPS; r++)
        if ((t[r] = run_group(g, n, cycles, in)) < 0) {
            free(in);
            sched_group_close(g);
            return -1;
        }
    free(in);
    sched_group_close(g);
    qsort(t, REPS, sizeof t[0], cmp_double);
    return t[REPS / 2];
}

/* The transport alone: the recorded tokens for n lanes, k cycles per
 * exchange; the median seconds, and the exchanges of one run. */
static double time_device(const char *spec, unsigned n, unsigned cycles, unsigned k,
                          double *exchanges)
{
    char err[768];
    const offload_transport *t;
    offload_dev *d = offload_open_spec(spec, &P, n, &t, err, sizeof err);
    if (!d) {
        fprintf(stderr, "offload_bench: %s\n", err);
        return -1;
    }
    unsigned iw = offload_words(offload_in_bits(&P)), ow = offload_words(offload_out_bits(&P));
    unsigned kk = k < cycles ? k : cycles;
    size_t slots = (size_t)cycles * n;
    uint8_t *ctl = malloc(slots);
    uint64_t *in = malloc(slots * iw * 8), *out = malloc((size_t)kk * n * ow * 8);
    if (!ctl || !in || !out) {
        fprintf(stderr, "offload_bench: out of host memory\n");
        free(ctl); free(in); free(out);
        t->close(d);
        return -1;
    }
    for (unsigned c = 0; c < cycles; c++) {
        offload_pack_inputs(&P, &rec[c], in + (size_t)c * n * iw);
        for (unsigned l = 0; l < n; l++) {
            ctl[(size_t)c * n + l] = OFFLOAD_CTL_STEP | (c == 0 ? OFFLOAD_CTL_RESET : 0);
            if (l)
                memcpy(in + ((size_t)c * n + l) * iw, in + (size_t)c * n * iw, iw * 8);
        }
    }
    double tm[REPS_MAX];
    *exchanges = (cycles + kk - 1) / kk;
    for (unsigned r = 0; r < REPS; r++) {
        double t0 = now();
        for (unsigned c0 = 0; c0 < cycles; c0 += kk) {
            unsigned m = cycles - c0 < kk ? cycles - c0 : kk;
            if (t->run(d, m, ctl + (size_t)c0 * n, in + (size_t)c0 * n * iw, out, err,
                       sizeof err) != 0) {
                fprintf(stderr, "offload_bench: %s: %s\n", spec, err);
                free(ctl); free(in); free(out);
                t->close(d);
                return -1;
            }
        }
        tm[r] = now() - t0;
    }
    free(ctl); free(in); free(out);
    t->close(d);
    qsort(tm, REPS, sizeof tm[0], cmp_double);
    return tm[REPS / 2];
}

int main(int argc, char **argv)
{
    const char *transport = argc > 1 ? argv[1] : "cmodel";
    if (argc > 2) {
        char *end;
        unsigned long v = strtoul(argv[2], &end, 10);
        if (*end || v < 512 || v > (1u << 24)) {
            fprintf(stderr, "offload_bench: SM_CYCLES '%s': expected 512..16777216\n", argv[2]);
            return 2;
        }
        SM_CYCLES = (unsigned)v;
    }
    if (argc > 3) {
        char *end;
        unsigned long v = strtoul(argv[3], &end, 10);
        if (*end || v < 1 || v > REPS_MAX) {
            fprintf(stderr, "offload_bench: REPS '%s': expected 1..%d\n", argv[3], REPS_MAX);
            return 2;
        }
        REPS = (unsigned)v;
    }
    sched_params_default(&P);
    /* the recording: a C model under the legal random stimulus */
    nrec = SM_CYCLES;
    rec = calloc(nrec, sizeof *rec);
    char err[768];
    sched_backend *cm = sched_cmodel_create(&P, err, sizeof err);
    sched_stim_opts so = { .seed = 1, .policy = -1, .haws = 1, .groups = 1 };
    sched_stim *st = sched_stim_create(&P, &so);
    if (!rec || !cm || !st) {
        fprintf(stderr, "offload_bench: set-up failed\n");
        return 1;
    }
    for (unsigned i = 0; i < nrec; i++) {
        sched_stim_next(st, sched_get_outputs(cm), &rec[i]);
        if (sched_step(cm, &rec[i]) != 0) {
            fprintf(stderr, "offload_bench: %s\n", sched_error(cm));
            return 1;
        }
    }
    sched_stim_destroy(st);
    sched_destroy(cm);

    char kind[300];
    snprintf(kind, sizeof kind, "offload:%s", transport);
    printf("offload bench: Kepler core (64 warps, 4 schedulers), transport %s; "
           "~%u SM-cycles per row, median of %u, wall clock\n", transport, SM_CYCLES, REPS);
    printf("%5s  %-22s %6s  %12s %14s %12s\n", "SMs", "back end", "k", "exchanges",
           "us/exchange", "M SM-cyc/s");
    static const unsigned ns[] = { 1, 15, 64, 80, 512 };
    static const unsigned ks[] = { 1, 64, 4096 };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        unsigned n = ns[i], cycles = SM_CYCLES / n;
        row(n, "c (C models)", "-", time_group("c", NULL, n, cycles), cycles, 0);
        row(n, "rtl (Verilator)", "-", time_group("rtl", NULL, n, cycles), cycles, 0);
        row(n, "offload closed loop", "1", time_group(kind, NULL, n, cycles), cycles, cycles);
        for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
            char kk[16];
            snprintf(kk, sizeof kk, "%u", ks[j]);
            double ex = 0;
            double s = time_device(transport, n, cycles, ks[j], &ex);
            row(n, "device (replay)", kk, s, cycles, ex);
            sched_group_opts o = { .check = transport, .check_k = ks[j] };
            unsigned kx = ks[j] < cycles ? ks[j] : cycles;
            row(n, "replay: c + check", kk, time_group("c", &o, n, cycles), cycles,
                (cycles + kx - 1) / kx);
        }
    }
    printf("(-: not run; a replay check's queue of k x SMs tokens is limited to %llu MiB)\n",
           (unsigned long long)(OFFLOAD_CHECK_MAX_BYTES >> 20));
    free(rec);
    return 0;
}
