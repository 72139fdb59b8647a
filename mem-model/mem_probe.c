/*
 * mem_probe.c — the unloaded latency of each level, measured on the model
 * itself through its interface (docs/memory-model.md, "The path of a
 * load"): what `smcosim config` prints and what tests/mem/test_mem_machine.c
 * holds against the configuration's arithmetic.
 */
#include "mem.h"
#include "fail.h"

#include <string.h>

/* One 4-byte load of lane 0 by `sm` at addr, submitted at core cycle `at`
 * (the system idles until then); its latency in core cycles, 0 if it did
 * not complete. The system drains afterwards. */
static uint64_t probe_load(mem_system *m, uint32_t sm, uint64_t addr, uint64_t at)
{
    while (mem_now(m) < at)
        mem_cycle(m);
    mem_request r;
    memset(&r, 0, sizeof r);
    r.sm = sm;
    r.op = MEM_LOAD;
    r.space = MEM_GLOBAL;
    r.active_mask = 1;
    r.addr[0] = addr;
    r.size[0] = 4;
    r.num_dst = 1;
    r.dst[0] = 1;
    char err[128];
    if (!mem_ldst_ready(m, sm) || mem_submit(m, &r, NULL, err, sizeof err) != 0)
        return 0;
    for (uint32_t i = 0; i < 1000000; i++) {
        mem_cycle(m);
        mem_completion done;
        if (mem_collect(m, sm, &done, 1) == 1) {
            for (uint32_t k = 0; k < 1000000 && !mem_idle(m); k++)
                mem_cycle(m);
            return done.cycle - at;
        }
    }
    return 0;
}

int mem_probe_unloaded(const mem_config *cfg, uint64_t at, mem_probe *out, char *err,
                       size_t errlen)
{
    memset(out, 0, sizeof *out);
    mem_system *m = mem_create(cfg, err, errlen);
    if (!m)
        return -1;
    /* a line of partition-local address 0 in its partition: cold */
    uint64_t addr = 64ull * cfg->l2_line_bytes;
    out->dram_at = at;
    out->dram = probe_load(m, 0, addr, at);
    out->l2_at = mem_now(m) + 100;
    out->l2 = probe_load(m, cfg->num_sms - 1, addr, out->l2_at);
    out->l1_at = mem_now(m) + 100;
    out->l1 = probe_load(m, 0, addr, out->l1_at);
    mem_destroy(m);
    if (!out->dram || !out->l2 || !out->l1)
        return smc_fail(err, errlen, "the latency probe's load did not complete");
    return 0;
}

void mem_probe_print(const mem_config *cfg, FILE *out)
{
    char err[128];
    mem_probe p;
    if (mem_config_check(cfg, err, sizeof err) != 0 ||
        mem_probe_unloaded(cfg, 1000, &p, err, sizeof err) != 0)
        return;
    uint32_t mhz = mem_clock_mhz(cfg, MEM_CLK_CORE);
    fprintf(out, "# memory: ");
    if (mhz)
        fprintf(out, "clock domains core %u, interconnect %u, L2 %u, DRAM %u MHz; ", mhz,
                mem_clock_mhz(cfg, MEM_CLK_ICNT), mem_clock_mhz(cfg, MEM_CLK_L2),
                mem_clock_mhz(cfg, MEM_CLK_DRAM));
    else
        fprintf(out, "one clock; ");
    fprintf(out, "%u SMs in clusters of %u\n", cfg->num_sms, cfg->icnt_sms_per_cluster);
    fprintf(out, "# unloaded latency, measured on this memory model (mem_probe_unloaded;\n"
                 "# docs/memory-model.md): L1 hit %llu, L2 hit %llu, DRAM %llu core cycles",
            (unsigned long long)p.l1, (unsigned long long)p.l2, (unsigned long long)p.dram);
    if (mhz)
        fprintf(out, " (%.0f, %.0f, %.0f ns)", p.l1 * 1000.0 / mhz, p.l2 * 1000.0 / mhz,
                p.dram * 1000.0 / mhz);
    fprintf(out, "\n");
}

/* ---- sustained bandwidth ------------------------------------------------- */

/* The address of an SM's k-th load: one line of warp_size x 4 bytes, fully
 * coalesced, in the pattern the level needs (see mem.h). */
static uint64_t stream_addr(const mem_config *c, mem_bw_level level, uint32_t sm, uint32_t nsms,
                            uint64_t k)
{
    uint64_t bytes = (uint64_t)c->warp_size * 4;
    uint64_t l1 = (uint64_t)c->l1d_sets * c->l1d_ways * c->l1d_line_bytes;
    switch (level) {
    case MEM_BW_L1:       /* half the L1, its own region: hits once warm */
        return ((uint64_t)sm << 32) + (k * bytes) % (l1 / 2);
    case MEM_BW_L2: {     /* twice the L1, one region for all, each SM from
                             its own offset (not all on one partition at
                             once): L1 misses, L2 hits */
        uint64_t lines = 2 * l1 / bytes;
        return ((k + sm * lines / nsms) % lines) * bytes;
    }
    default:              /* never the same line twice: 16 MB per SM */
        return ((uint64_t)sm << 24) + k * bytes;
    }
}

int mem_probe_bandwidth(const mem_config *cfg, mem_bw_level level, uint32_t nsms,
                        uint64_t warm, uint64_t window, double *bytes_per_cycle, char *err,
                        size_t errlen)
{
    if (nsms == 0 || nsms > cfg->num_sms || cfg->warp_size * 4 > MEM_MAX_LANES * 4)
        return smc_fail(err, errlen, "bandwidth probe: %u SMs of %u", nsms, cfg->num_sms);
    mem_system *m = mem_create(cfg, err, errlen);
    if (!m)
        return -1;
    uint64_t next[MEM_MAX_SMS] = { 0 }, bytes = 0;
    mem_request r;
    memset(&r, 0, sizeof r);
    r.op = MEM_LOAD;
    r.space = MEM_GLOBAL;
    r.num_dst = 1;
    r.dst[0] = 1;
    for (uint32_t l = 0; l < cfg->warp_size; l++) {
        r.size[l] = 4;
        r.active_mask |= 1ull << l;
    }
    for (uint64_t t = 0; t < warm + window; t++) {
        for (uint32_t s = 0; s < nsms; s++) {
            if (!mem_ldst_ready(m, s))
                continue;
            uint64_t base = stream_addr(cfg, level, s, nsms, next[s]++);
            r.sm = s;
            for (uint32_t l = 0; l < cfg->warp_size; l++)
                r.addr[l] = base + 4ull * l;
            if (mem_submit(m, &r, NULL, err, errlen) != 0) {
                mem_destroy(m);
                return -1;
            }
        }
        mem_cycle(m);
        for (uint32_t s = 0; s < nsms; s++) {
            mem_completion done[16];
            size_t n;
            while ((n = mem_collect(m, s, done, 16)) > 0)
                if (t >= warm)
                    bytes += n * cfg->warp_size * 4ull;
        }
    }
    mem_destroy(m);
    *bytes_per_cycle = (double)bytes / (double)window;
    return 0;
}
