/*
 * mem-digest — a fingerprint of the memory model's observable behaviour, for
 * checking that a change (a speed-up) leaves every result bit-identical.
 *
 * Each scenario (a preset, configuration overrides, a request pattern, a
 * seed) drives the model the way an SM model would, cycle by cycle, and
 * folds into one 64-bit hash:
 *   - every cycle, for every SM: mem_free_mshrs and mem_ldst_ready, and the
 *     list from mem_ldst_ready_list;
 *   - every submission: the request's id, mem_submit's return value and the
 *     coalescing information;
 *   - every completion: sm, warp, op, space, destination registers, tag,
 *     submit cycle and cycle, in the order the collect calls return them
 *     (collected per SM or all at once, with small buffers, by turns);
 *   - mem_outstanding and mem_idle every cycle;
 *   - at the end (after draining): the JSON statistics, the printed summary
 *     and the MSHR occupancy series.
 * It prints one line per scenario: name, hash, completions, cycles. The
 * digest is not a test: there is no expected value in the source. Record it
 * before a change (`make mem-digest > before.txt`) and diff after.
 *
 *   mem-digest [scale]     (scale multiplies every scenario's length;
 *                           default 3, about 3 s)
 */
#include "mem.h"
#include "splitmix64.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- hashing and random numbers ------------------------------------------ */

static uint64_t digest;

static void fold(uint64_t v)
{
    /* FNV-1a over the 8 bytes of v */
    for (int i = 0; i < 8; i++) {
        digest ^= (v >> (8 * i)) & 0xff;
        digest *= 0x100000001b3ull;
    }
}

static void fold_bytes(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        digest ^= (unsigned char)p[i];
        digest *= 0x100000001b3ull;
    }
}

static uint64_t rng_s;   /* the request stream's generator state */
static uint64_t rnd(void) { return splitmix64_next(&rng_s); }

/* ---- scenarios ---------------------------------------------------------- */

enum pattern {
    P_STREAMING,    /* each warp loads one line of a per-SM sequential sweep */
    P_RANDOM,       /* each lane loads a random word of 256 MB */
    P_RESIDENT,     /* lines of a 4 KB window per SM: L1 hits */
    P_MIXED,        /* loads/stores/atomics, all spaces, sizes, masks, strides */
    P_CONTEND,      /* every SM loads the same few lines: merges, duplicates,
                       merge-limit replays */
    P_ROWS,         /* one bank, alternating rows: DRAM row conflicts;
                       and stores that write back */
};

typedef struct scenario {
    const char *name;
    const char *preset;
    const char *overrides[8];
    enum pattern pattern;
    uint32_t cycles;        /* submission cycles (then the model drains) */
    uint32_t max_inflight;  /* per SM */
    uint32_t submit_pct;    /* chance that a ready SM submits this cycle */
    uint64_t seed;
    uint64_t offset;        /* added to every global/local address */
} scenario;

static const scenario scenarios[] = {
    { "k20x-streaming", "kepler-k20x-v1", { NULL }, P_STREAMING, 60000, 48, 100, 1, 0 },
    { "k20x-random", "kepler-k20x-v1", { NULL }, P_RANDOM, 30000, 48, 100, 2, 0 },
    { "k20x-resident", "kepler-k20x-v1", { NULL }, P_RESIDENT, 20000, 48, 100, 3, 0 },
    { "k20x-mixed", "kepler-k20x-v1", { NULL }, P_MIXED, 60000, 32, 60, 4, 0 },
    { "k20x-contend", "kepler-k20x-v1", { NULL }, P_CONTEND, 40000, 48, 90, 5, 0 },
    { "k20x-rows", "kepler-k20x-v1", { NULL }, P_ROWS, 40000, 16, 70, 6, 0 },
    { "gtx480-mixed", "fermi-gtx480-v1", { NULL }, P_MIXED, 50000, 32, 50, 7, 0 },
    { "gtx480-streaming", "fermi-gtx480-v1", { NULL }, P_STREAMING, 40000, 48, 100, 8, 0 },
    { "gtx480-g321-mixed", "fermi-gtx480", { NULL }, P_MIXED, 25000, 32, 50, 27, 0 },
    { "gtx480-g321-streaming", "fermi-gtx480", { NULL }, P_STREAMING, 20000, 48, 100, 28, 0 },
    { "gtx480-g321-rows", "fermi-gtx480", { NULL }, P_ROWS, 20000, 16, 70, 29, 0 },
    { "si7970-mixed", "si-7970-v1", { NULL }, P_MIXED, 50000, 32, 50, 9, 0 },
    { "si7970-random", "si-7970-v1", { NULL }, P_RANDOM, 20000, 40, 100, 10, 0 },
    { "k20x-sector-hash-mixed", "kepler-k20x-v1",
      { "l1d.sector_bytes=32", "l1d.index=hash", NULL }, P_MIXED, 50000, 32, 60, 11, 0 },
    { "k20x-sector-contend", "kepler-k20x-v1",
      { "l1d.sector_bytes=32", NULL }, P_CONTEND, 30000, 48, 90, 12, 0 },
    { "gtx480-hash-onmiss-mixed", "fermi-gtx480-v1",
      { "l1d.index=hash", "l1d.alloc=on_miss", NULL }, P_MIXED, 50000, 32, 60, 13, 0 },
    { "k20x-onmiss-streaming", "kepler-k20x-v1",
      { "l1d.alloc=on_miss", NULL }, P_STREAMING, 30000, 48, 100, 14, 0 },
    { "tiny-mixed", "kepler-k20x-v1",
      { "l1d.mshr_entries=2", "l1d.mshr_max_merge=2", "icnt.queue_entries=1",
        "l2.queue_entries=1", "l2.mshr_entries=2", "l2.mshr_max_merge=1",
        "dram.queue_entries=1", "l1d.alloc=on_miss" }, P_MIXED, 30000, 32, 60, 15, 0 },
    { "tiny-contend", "kepler-k20x-v1",
      { "l1d.mshr_entries=4", "l1d.mshr_max_merge=2", "icnt.queue_entries=2",
        "l2.mshr_max_merge=2", "mem.dup_window=50", "mem.sample_interval=7",
        NULL }, P_CONTEND, 30000, 48, 90, 16, 0 },
    { "tiny-rows", "fermi-gtx480-v1",
      { "dram.queue_entries=2", "dram.banks=2", "l2.sets=2", "l2.ways=2",
        "icnt.bytes_per_cycle=8", NULL }, P_ROWS, 30000, 16, 80, 17, 0 },
    { "narrow-random", "kepler-k20x-v1",
      { "icnt.bytes_per_cycle=4", "dram.bytes_per_cycle=5", "l2.partitions=2",
        "mem.sample_interval=0", NULL }, P_RANDOM, 20000, 48, 100, 18, 0 },
    /* sectors with allocate-on-miss and few MSHRs: replays of loads whose
     * line holds other sectors' reservations and fills */
    { "sector-onmiss-tiny-contend", "kepler-k20x-v1",
      { "l1d.sector_bytes=32", "l1d.alloc=on_miss", "l1d.mshr_entries=4",
        "l1d.mshr_max_merge=2", "icnt.queue_entries=2", NULL }, P_CONTEND, 30000, 48, 90,
      23, 0 },
    { "sector-onmiss-tiny-mixed", "fermi-gtx480-v1",
      { "l1d.sector_bytes=32", "l1d.alloc=on_miss", "l1d.mshr_entries=3",
        "l1d.ways=2", "icnt.queue_entries=1", NULL }, P_MIXED, 30000, 32, 70, 24, 0 },
    /* more than 64 SMs: round-robin over several bitset words */
    { "many-sms-mixed", "kepler-k20x-v1", { "mem.num_sms=100", NULL }, P_MIXED, 15000, 16, 40,
      25, 0 },
    { "many-sms-streaming", "fermi-gtx480-v1", { "mem.num_sms=130", NULL }, P_STREAMING, 10000,
      24, 100, 26, 0 },
    /* MSHR tables beyond the small-table limit of the index */
    { "big-mshr-random", "kepler-k20x-v1",
      { "l1d.mshr_entries=200", "l1d.mshr_max_merge=3", "l2.mshr_entries=300",
        "icnt.queue_entries=32", "dram.queue_entries=64", NULL }, P_RANDOM, 20000, 48, 100, 19, 0 },
    { "big-mshr-contend", "fermi-gtx480-v1",
      { "l1d.mshr_entries=100", "l2.mshr_entries=80", "l2.mshr_max_merge=3",
        NULL }, P_CONTEND, 30000, 48, 90, 20, 0 },
    /* line and row indices beyond 32 bits */
    { "high-addr-mixed", "kepler-k20x-v1", { NULL }, P_MIXED, 40000, 32, 60, 21,
      (uint64_t)0x5a5 << 40 },
    { "high-addr-rows", "fermi-gtx480-v1", { "dram.banks=6", NULL }, P_ROWS, 30000, 16, 70, 22,
      (uint64_t)1 << 50 },
    /* the Multi2Sim machines (issue 37): many ports, an in-flight limit,
     * fixed-latency memory, two clocks on kepler-k20x */
    { "k20x-m2s-mixed", "kepler-k20x", { NULL }, P_MIXED, 30000, 48, 60, 30, 0 },
    { "k20x-m2s-contend", "kepler-k20x", { NULL }, P_CONTEND, 20000, 48, 90, 31, 0 },
    { "si7970-m2s-random", "si-7970", { NULL }, P_RANDOM, 20000, 48, 100, 32, 0 },
};

/* ---- request generation ---------------------------------------------------- */

static uint64_t cursor[MEM_MAX_SMS];

static void make_request(const mem_config *c, const scenario *sc, mem_request *r,
                         uint32_t sm, uint64_t tag)
{
    memset(r, 0, sizeof *r);
    r->sm = sm;
    r->warp = (uint32_t)(rnd() % 48);
    r->tag = tag;
    r->op = MEM_LOAD;
    r->space = MEM_GLOBAL;
    uint32_t lanes = c->warp_size;
    r->active_mask = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
    r->num_dst = 1;
    r->dst[0] = (uint16_t)(rnd() % 255);
    for (uint32_t l = 0; l < lanes; l++)
        r->size[l] = 4;
    switch (sc->pattern) {
    case P_STREAMING:
    case P_RESIDENT: {
        uint64_t wrap = sc->pattern == P_STREAMING ? 64u << 20 : 4096;
        uint64_t base = ((uint64_t)sm << 26) + cursor[sm] % wrap;
        for (uint32_t l = 0; l < lanes; l++)
            r->addr[l] = base + 4u * (l % 32) + 128u * (l / 32);
        cursor[sm] += 128u * ((lanes + 31) / 32);
        return;
    }
    case P_RANDOM:
        for (uint32_t l = 0; l < lanes; l++)
            r->addr[l] = (rnd() % (64u << 20)) * 4;
        return;
    case P_CONTEND: {
        /* 24 lines shared by all SMs; sometimes two lines per instruction */
        uint64_t line = rnd() % 24, line2 = rnd() % 24;
        int two = rnd() % 4 == 0;
        for (uint32_t l = 0; l < lanes; l++)
            r->addr[l] = ((two && (l & 1)) ? line2 : line) * 128 + 4u * (l % 32);
        if (rnd() % 8 == 0) {
            r->op = MEM_STORE;
            r->num_dst = 0;
        }
        return;
    }
    case P_ROWS: {
        /* lines in the same partition and bank, alternating between rows */
        uint64_t row = rnd() % 6;
        uint64_t stride = (uint64_t)c->l2_partitions * c->dram_row_bytes * c->dram_banks;
        uint64_t base = row * stride + (rnd() % 4) * c->l2_line_bytes * c->l2_partitions;
        for (uint32_t l = 0; l < lanes; l++)
            r->addr[l] = base + 4u * (l % 32);
        if (rnd() % 3 == 0) {
            r->op = MEM_STORE;
            r->num_dst = 0;
        }
        return;
    }
    case P_MIXED:
        break;
    }
    uint32_t k = (uint32_t)(rnd() % 100);
    r->op = k < 65 ? MEM_LOAD : k < 85 ? MEM_STORE : MEM_ATOMIC;
    k = (uint32_t)(rnd() % 100);
    r->space = k < 76 ? MEM_GLOBAL : k < 84 ? MEM_LOCAL : k < 94 ? MEM_SHARED : MEM_CONST;
    if (r->space == MEM_CONST)
        r->op = MEM_LOAD;
    if (r->space == MEM_LOCAL && r->op == MEM_ATOMIC)
        r->op = MEM_STORE;
    r->num_dst = r->op == MEM_STORE ? 0 : (uint8_t)(1 + rnd() % 4);
    for (int i = 0; i < r->num_dst; i++)
        r->dst[i] = (uint16_t)(rnd() % 255);
    uint32_t f = (uint32_t)(rnd() % 4);
    uint64_t foot = f == 0 ? (64ull << 20) : f == 1 ? (256ull << 10) : (8ull << 10);
    uint64_t base = rnd() % foot & ~15ull;
    uint32_t stride_kind = (uint32_t)(rnd() % 5);
    uint8_t size = (uint8_t)(1u << (rnd() % 5));
    if (rnd() % 4 == 0)
        r->active_mask &= rnd();
    for (uint32_t l = 0; l < lanes; l++) {
        uint64_t a;
        switch (stride_kind) {
        case 0: a = base + (uint64_t)l * size; break;                 /* coalesced */
        case 1: a = base + (uint64_t)l * 128; break;                  /* a line each */
        case 2: a = base + (uint64_t)(l % 4) * 4; break;              /* broadcast-ish */
        case 3: a = base + (uint64_t)l * 36; break;                   /* odd stride */
        default: a = rnd() % foot; break;                             /* scattered */
        }
        r->addr[l] = a & ~(uint64_t)(size - 1);
        r->size[l] = size;
    }
    if (r->space == MEM_SHARED || r->space == MEM_CONST)
        for (uint32_t l = 0; l < lanes; l++)
            r->addr[l] %= 48u << 10;
}

static void make_request_at(const mem_config *c, const scenario *sc, mem_request *r,
                            uint32_t sm, uint64_t tag)
{
    make_request(c, sc, r, sm, tag);
    if (r->space == MEM_GLOBAL || r->space == MEM_LOCAL)
        for (uint32_t l = 0; l < c->warp_size; l++)
            r->addr[l] += sc->offset;
}

/* ---- the run ----------------------------------------------------------- */

static void fold_completion(const mem_completion *d)
{
    fold(d->sm);
    fold(d->warp);
    fold((uint64_t)d->op << 8 | d->space);
    fold(d->num_dst);
    for (int i = 0; i < d->num_dst; i++)
        fold(d->dst[i]);
    fold(d->tag);
    fold(d->submit_cycle);
    fold(d->cycle);
}

/* Collect completions, alternating the ways a caller may do it. */
static uint64_t collect(mem_system *m, uint32_t ns, uint32_t *inflight)
{
    mem_completion done[5];
    uint64_t got = 0;
    size_t n;
    if (rnd() % 2) {
        while ((n = mem_collect_all(m, done, 1 + rnd() % 5)) > 0)
            for (size_t i = 0; i < n; i++, got++) {
                fold_completion(&done[i]);
                inflight[done[i].sm]--;
            }
    } else {
        for (uint32_t s = 0; s < ns; s++)
            while ((n = mem_collect(m, s, done, 1 + rnd() % 5)) > 0)
                for (size_t i = 0; i < n; i++, got++) {
                    fold_completion(&done[i]);
                    inflight[done[i].sm]--;
                }
    }
    return got;
}

static int run(const scenario *sc, uint32_t scale)
{
    mem_config cfg;
    char err[256];
    if (mem_config_preset(&cfg, sc->preset, err, sizeof err) != 0) {
        fprintf(stderr, "mem-digest: %s\n", err);
        return 1;
    }
    for (int i = 0; i < 8 && sc->overrides[i]; i++)
        if (mem_config_apply(&cfg, sc->overrides[i], err, sizeof err) != 0) {
            fprintf(stderr, "mem-digest: %s: %s\n", sc->name, err);
            return 1;
        }
    mem_system *m = mem_create(&cfg, err, sizeof err);
    if (!m) {
        fprintf(stderr, "mem-digest: %s: %s\n", sc->name, err);
        return 1;
    }
    digest = 0xcbf29ce484222325ull;
    rng_s = sc->seed;
    memset(cursor, 0, sizeof cursor);
    uint32_t ns = cfg.num_sms;
    uint32_t *inflight = calloc(ns, sizeof *inflight);
    uint32_t *ready = calloc(ns, sizeof *ready);
    uint64_t tag = 0, completions = 0;
    mem_request req;
    mem_coalesce_info info;
    uint64_t end = (uint64_t)sc->cycles * scale;
    uint64_t quiet = 0;
    while (mem_now(m) < end || !mem_idle(m)) {
        int submitting = mem_now(m) < end;
        uint32_t nready = mem_ldst_ready_list(m, ready);
        fold(nready);
        for (uint32_t k = 0; k < nready; k++)
            fold(ready[k]);
        for (uint32_t s = 0; s < ns; s++) {
            fold(mem_free_mshrs(m, s));
            bool ok = mem_ldst_ready(m, s);
            fold(ok);
            if (!ok || !submitting || inflight[s] >= sc->max_inflight ||
                rnd() % 100 >= sc->submit_pct)
                continue;
            make_request_at(&cfg, sc, &req, s, ++tag);
            int rc = mem_submit(m, &req, &info, err, sizeof err);
            fold(tag);
            fold((uint64_t)rc);
            if (rc != 0) {
                fprintf(stderr, "mem-digest: %s: cycle %" PRIu64 ": %s\n", sc->name,
                        mem_now(m), err);
                return 1;
            }
            fold(info.transactions);
            fold(info.lines);
            fold(info.sets);
            fold(info.coherent);
            fold(info.bank_conflict);
            inflight[s]++;
        }
        mem_cycle(m);
        uint64_t got = collect(m, ns, inflight);
        completions += got;
        fold(mem_outstanding(m));
        fold(mem_idle(m));
        quiet = got ? 0 : quiet + 1;
        if (quiet > 1000000) {
            fprintf(stderr, "mem-digest: %s: no completion for 1,000,000 cycles "
                    "at cycle %" PRIu64 "\n", sc->name, mem_now(m));
            return 1;
        }
    }
    /* final statistics, as the timing model would report them */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        fprintf(stderr, "mem-digest: out of memory\n");
        return 1;
    }
    mem_stats_json(m, f);
    mem_stats_print(m, f);
    fclose(f);
    fold_bytes(buf, len);
    free(buf);
    size_t nser;
    const double *ser = mem_occupancy_series(m, &nser);
    fold(nser);
    for (size_t i = 0; i < nser; i++) {
        uint64_t bits;
        memcpy(&bits, &ser[i], sizeof bits);
        fold(bits);
    }
    printf("%-26s %016" PRIx64 " %9" PRIu64 " completions %9" PRIu64 " cycles\n",
           sc->name, digest, completions, mem_now(m));
    free(inflight);
    free(ready);
    mem_destroy(m);
    return 0;
}

int main(int argc, char **argv)
{
    uint32_t scale = 3;
    if (argc > 1) {
        char *end;
        unsigned long v = strtoul(argv[1], &end, 0);
        if (*end || v == 0 || v > 1000) {
            fprintf(stderr, "mem-digest: scale '%s' is not an integer in 1..1000\n",
                    argv[1]);
            return 2;
        }
        scale = (uint32_t)v;
    }
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        if (run(&scenarios[i], scale) != 0)
            return 1;
    return 0;
}
