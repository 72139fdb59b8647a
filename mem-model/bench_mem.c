/*
 * bench-mem — simulator speed of the memory model in L1 line-accesses
 * (coalesced transactions) per second of host time, for two patterns on the
 * kepler-k20x preset:
 *   streaming  every warp loads 32 consecutive 4-byte words (one line) from
 *              a sweep over 64 MB, so each instruction is one transaction
 *   random     every lane loads a random 4-byte word from 256 MB, so each
 *              instruction is ~32 transactions that mostly miss everywhere
 *   l1-resident  like streaming over a 4 KB window per SM: after the first
 *              pass every access hits in the L1 (the cost of the hit path)
 * Rates are per second of this process's CPU time (the machine is shared;
 * wall time is printed too).
 * Every SM keeps issuing whenever its LD/ST unit is free and it has fewer
 * than 48 instructions outstanding (48 warps waiting on memory).
 *
 *   bench-mem [transactions]   (default 4,000,000; random uses a quarter)
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
        for (uint32_t s = 0; s < ns; s++) {
            if (inflight[s] < 48 && mem_ldst_ready(m, s)) {
                req.sm = s;
                req.warp = inflight[s];
                for (int l = 0; l < 32; l++) {
                    if (pattern == RANDOM)
                        req.addr[l] = (rng() % (64u << 20)) * 4;
                    else if (pattern == STREAMING)
                        req.addr[l] = ((uint64_t)s << 26) +
                                      (cursor[s] % (64u << 20)) + 4u * l;
                    else
                        req.addr[l] = ((uint64_t)s << 26) +
                                      (cursor[s] % 4096) + 4u * l;
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
        size_t n;
        while ((n = mem_collect_all(m, done, 64)) > 0)
            for (size_t i = 0; i < n; i++)
                inflight[done[i].sm]--;
    }
    double wall = seconds(CLOCK_MONOTONIC) - t0;
    double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    const mem_stats *st = mem_get_stats(m);
    printf("| %-11s | %10" PRIu64 " | %10" PRIu64 " | %6.2f | %6.2f | %8.2f | %8.2f |\n",
           name, st->transactions, st->cycles, wall, cpu,
           st->transactions / cpu / 1e6, st->cycles / cpu / 1e6);
    free(inflight);
    free(cursor);
    mem_destroy(m);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t target = argc > 1 ? strtoull(argv[1], NULL, 0) : 4000000ull;
    printf("bench-mem: memory model speed, kepler-k20x preset (14 SMs), "
           "one host core\n");
    printf("| pattern     | line-accesses | sim cycles | wall s | CPU s | M accesses/CPU-s | M cycles/CPU-s |\n");
    printf("|-------------|------------|------------|--------|--------|----------|----------|\n");
    if (run("streaming", STREAMING, target) || run("random", RANDOM, target / 4) ||
        run("l1-resident", L1_RESIDENT, target))
        return 1;
    return 0;
}
