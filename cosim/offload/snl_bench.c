/*
 * snl_bench.c -- host time per cycle of the netlist program, in the C
 * reference evaluator and through the "netlist" transport (PoCL here), for
 * docs/offload.md, "Netlist transport" (make offload-netlist-bench).
 *
 *   snl_bench [SET...]      sets as W_S_R_D_E_P_RCU_REN, program files in
 *                           build/offload (default: 4_1_8_2_6_2_2_1 and
 *                           8_4_8_4_2_3_8_8)
 *
 * The interpreter evaluates every op every cycle whatever the data, so
 * the inputs are zero tokens with every lane stepped; the transport rows
 * include the host's token transposes and, at k = 1, one exchange (write,
 * launch, blocking read) per cycle. Wall-clock medians of 3 runs of at
 * least 0.2 s each: the numbers move with the machine's load.
 */
#include "offload_transport.h"
#include "snl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* µs per cycle of the C evaluator at `lanes` lanes. */
static double bench_c(const snl_program *g, unsigned lanes)
{
    snl_state *s = snl_state_create(g, lanes);
    unsigned nw = (lanes + 63) / 64;
    uint64_t *step = malloc(nw * 8), *rst = calloc(nw, 8);
    uint64_t *in = calloc((size_t)g->in_bits * nw + 1, 8), *out = calloc((size_t)g->out_bits * nw + 1, 8);
    memset(step, 0xff, nw * 8);
    double r[3];
    for (int k = 0; k < 3; k++) {
        unsigned n = 0;
        double t0 = now(), t;
        do {
            for (int i = 0; i < 10; i++)
                snl_eval_cycle(s, step, rst, in, out);
            n += 10;
        } while ((t = now() - t0) < 0.2);
        r[k] = t / n * 1e6;
    }
    qsort(r, 3, sizeof r[0], cmp_d);
    free(step), free(rst), free(in), free(out);
    snl_state_free(s);
    return r[1];
}

/* µs per cycle through the transport, k cycles per exchange; -1 when it
 * does not open. */
static double bench_t(const sched_params *p, unsigned lanes, unsigned k, char *err, size_t errlen)
{
    const offload_transport *t;
    offload_dev *d = offload_open_spec("netlist", p, lanes, &t, err, errlen);
    if (!d)
        return -1;
    unsigned iw = offload_words(offload_in_bits(p)), ow = offload_words(offload_out_bits(p));
    uint8_t *ctl = malloc((size_t)k * lanes);
    memset(ctl, OFFLOAD_CTL_STEP, (size_t)k * lanes);
    uint64_t *in = calloc((size_t)k * lanes * iw, 8), *out = calloc((size_t)k * lanes * ow, 8);
    t->run(d, k, ctl, in, out, err, errlen);   /* first launch: kernel build/cache */
    double r[3];
    for (int j = 0; j < 3; j++) {
        unsigned n = 0;
        double t0 = now(), tt = 0;
        do {
            if (t->run(d, k, ctl, in, out, err, errlen) != 0) {
                r[j] = -1;
                break;
            }
            n += k;
        } while ((tt = now() - t0) < 0.2);
        r[j] = tt / n * 1e6;
    }
    qsort(r, 3, sizeof r[0], cmp_d);
    free(ctl), free(in), free(out);
    t->close(d);
    return r[1];
}

int main(int argc, char **argv)
{
    static const char *defaults[] = { "4_1_8_2_6_2_2_1", "8_4_8_4_2_3_8_8" };
    const char **setv = argc > 1 ? (const char **)argv + 1 : defaults;
    int nsets = argc > 1 ? argc - 1 : 2;
    setenv("POCL_CACHE_DIR", "build/pocl-cache", 0);
    printf("Netlist program: host time per simulated cycle (all lanes), µs; in brackets "
           "M SM-cycles/s\n\n");
    printf("| set | ops | FFs | lanes | C evaluator | netlist k=1 | netlist k=64 |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < nsets; i++) {
        unsigned v[8];
        if (sscanf(setv[i], "%u_%u_%u_%u_%u_%u_%u_%u", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                   &v[6], &v[7]) != 8) {
            fprintf(stderr, "snl_bench: '%s' is not W_S_R_D_E_P_RCU_REN\n", setv[i]);
            return 2;
        }
        sched_params p = { v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], 0 };
        char path[512], err[1024];
        snl_default_path(&p, "build/offload", path, sizeof path);
        snl_program *g = snl_load(path, &p, NULL, err, sizeof err);
        if (!g) {
            fprintf(stderr, "snl_bench: %s\n", err);
            return 1;
        }
        static const unsigned lanes[] = { 64, 512 };
        for (int l = 0; l < 2; l++) {
            double c = bench_c(g, lanes[l]);
            double k1 = bench_t(&p, lanes[l], 1, err, sizeof err);
            double k64 = k1 < 0 ? -1 : bench_t(&p, lanes[l], 64, err, sizeof err);
            if (k1 < 0 || k64 < 0) {
                fprintf(stderr, "snl_bench: %s\n", err);
                return 1;
            }
            printf("| %s | %u | %u | %u | %.1f (%.2f) | %.1f (%.2f) | %.1f (%.2f) |\n", setv[i],
                   g->n_ops, g->n_ff, lanes[l], c, lanes[l] / c, k1, lanes[l] / k1, k64,
                   lanes[l] / k64);
            fflush(stdout);
        }
        snl_free(g);
    }
    return 0;
}
