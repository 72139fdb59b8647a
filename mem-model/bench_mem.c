/*
 * bench-mem — simulator speed of the memory model, on the kepler-k20x preset
 * (14 SMs, 16 MSHRs each), driven like an SM model would: every cycle each
 * SM whose LD/ST unit is free (mem_ldst_ready_list) and that has fewer than
 * 48 loads outstanding submits a 32-lane load, then mem_cycle, then
 * mem_collect_all. Patterns:
 *   streaming    each warp loads 32 consecutive 4-byte words (one line) of a
 *                sweep over 64 MB per SM: one L1 access per instruction, all
 *                misses (L1, L2 and DRAM)
 *   random       each lane loads a random 4-byte word of 256 MB: ~32 L1
 *                accesses per instruction, almost all misses
 *   l1-resident  like streaming over a 4 KB window per SM: after the first
 *                pass every access hits in the L1 (the cost of the hit path)
 *
 * Measured: "L1 accesses" = line (or sector) accesses the L1D performed,
 * i.e. load hits + load misses in the statistics; the rate is that count
 * divided by the CPU time of this process over the whole loop (model plus
 * this driver's request generation, which is ~5% of the instructions). The
 * CPU clock, not wall time, because the build machine is shared; wall time is
 * printed too. The loop stops once `target` transactions have been submitted:
 * no warm-up or drain cycles are added, every simulated cycle in the table
 * is one the pattern needs. The miss patterns are bound by the simulated
 * MSHRs (about one access per simulated cycle), so their rate is also the
 * rate of simulated cycles with the whole hierarchy busy.
 *
 *   bench-mem [transactions [streaming|random|l1-resident]]
 *   (default 4,000,000 transactions, all three patterns; random uses a
 *   quarter of the count)
 */
#include "mem.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double seconds(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

enum { STREAMING, RANDOM, L1_RESIDENT };

static int run(const char *name, int pattern, uint64_t target)
{
    mem_config cfg;
    char err[256];
    mem_config_preset(&cfg, "kepler-k20x", err, sizeof err);
    mem_system *m = mem_create(&cfg, err, sizeof err);
    if (!m) {
        fprintf(stderr, "bench-mem: %s\n", err);
        return 1;
    }
    uint32_t ns = cfg.num_sms;
    uint32_t *inflight = calloc(ns, sizeof *inflight);
    uint64_t *cursor = calloc(ns, sizeof *cursor);
    uint32_t *ready = calloc(ns, sizeof *ready);
    mem_request req;
    memset(&req, 0, sizeof req);
    req.op = MEM_LOAD;
    req.space = MEM_GLOBAL;
    req.active_mask = 0xffffffffull;
    req.num_dst = 1;
    for (int l = 0; l < 32; l++)
        req.size[l] = 4;
    mem_completion done[64];
    double t0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
    while (mem_get_stats(m)->transactions < target) {
        /* the SMs whose LD/ST unit is free (same as mem_ldst_ready per SM) */
        uint32_t nready = mem_ldst_ready_list(m, ready);
        for (uint32_t k = 0; k < nready; k++) {
            uint32_t s = ready[k];
            if (inflight[s] < 48) {
                req.sm = s;
                req.warp = inflight[s];
                if (pattern == RANDOM) {
                    for (int l = 0; l < 32; l++)
                        req.addr[l] = (rng() % (64u << 20)) * 4;
                } else {
                    uint64_t base = ((uint64_t)s << 26) +
                                    cursor[s] % (pattern == STREAMING ? 64u << 20 : 4096);
                    for (int l = 0; l < 32; l++)
                        req.addr[l] = base + 4u * l;
                }
                cursor[s] += 128;
                if (mem_submit(m, &req, NULL, err, sizeof err) != 0) {
                    fprintf(stderr, "bench-mem: %s\n", err);
                    return 1;
                }
                inflight[s]++;
            }
        }
        mem_cycle(m);
        /* mem_collect_all returns every completion due unless it fills
         * the buffer */
        size_t n;
        do {
            n = mem_collect_all(m, done, 64);
            for (size_t i = 0; i < n; i++)
                inflight[done[i].sm]--;
        } while (n == 64);
    }
    double wall = seconds(CLOCK_MONOTONIC) - t0;
    double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    const mem_stats *st = mem_get_stats(m);
    uint64_t acc = st->l1_hit[MEM_LOAD] + st->l1_miss[MEM_LOAD];
    printf("| %-11s | %12" PRIu64 " | %6.1f%% | %11" PRIu64 " | %11" PRIu64
           " | %5.2f | %6.2f | %14.2f |\n", name, st->transactions,
           100.0 * st->l1_miss[MEM_LOAD] / (double)(acc ? acc : 1), acc,
           st->cycles, cpu, wall, acc / cpu / 1e6);
    free(inflight);
    free(cursor);
    free(ready);
    mem_destroy(m);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t target = 4000000;
    const char *only = NULL;
    if (argc > 1) {
        char *end;
        target = strtoull(argv[1], &end, 0);
        if (*end || target == 0) {
            fprintf(stderr, "bench-mem: transaction count '%s' is not a positive "
                    "integer\n", argv[1]);
            return 2;
        }
    }
    if (argc > 2) {
        only = argv[2];
        if (strcmp(only, "streaming") && strcmp(only, "random") &&
            strcmp(only, "l1-resident")) {
            fprintf(stderr, "bench-mem: unknown pattern '%s' (streaming, random, "
                    "l1-resident)\n", only);
            return 2;
        }
    }
    printf("bench-mem: memory model speed, kepler-k20x preset (14 SMs), one host "
           "core; rate = L1 accesses performed / CPU s of model + driver\n");
    printf("| pattern     | submitted tx | L1 miss | L1 accesses |  sim cycles "
           "| CPU s | wall s | M L1 acc/CPU-s |\n");
    printf("|-------------|-------------:|--------:|------------:|------------:"
           "|------:|-------:|---------------:|\n");
    if ((!only || !strcmp(only, "streaming")) && run("streaming", STREAMING, target))
        return 1;
    if ((!only || !strcmp(only, "random")) && run("random", RANDOM, target / 4))
        return 1;
    if ((!only || !strcmp(only, "l1-resident")) &&
        run("l1-resident", L1_RESIDENT, target))
        return 1;
    return 0;
}
