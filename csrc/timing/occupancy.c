/*
 * occupancy.c — launch limits and CTA slots per SM (GPUDIAG, seed 002,
 * Eq. 3.1-3.3). No dependency on the scheduler core: the device API uses it
 * for its launch checks in timing mode.
 */
#include "timing.h"

#include <string.h>

static uint32_t round_up(uint32_t v, uint32_t unit) { return unit ? (v + unit - 1) / unit * unit : v; }

smc_status timing_occupancy_compute(const gpu_config *c, const timing_kernel_req *r,
                                    timing_occupancy *o, char *msg, size_t msglen)
{
    memset(o, 0, sizeof *o);
    uint32_t b = (r->threads_per_cta + 31) / 32;
    o->warps_per_cta = b;
    o->regs_per_warp = round_up(r->regs_per_thread * 32, c->reg_alloc_unit);
    o->smem_per_cta = round_up(r->smem_per_cta, c->smem_alloc_unit);
    if (r->locality_hint > TIMING_LOCALITY_AUTO) {
        snprintf(msg, msglen, "locality hint %u is not one of 0..3 (seed 000 Table 6.1) or auto",
                 r->locality_hint);
        return SMC_ERR_INVALID_VALUE;
    }
    /* Eq. 3.1 */
    if (r->threads_per_cta == 0 || r->threads_per_cta > c->max_threads_per_block) {
        snprintf(msg, msglen, "%u threads per block exceed block.max_threads %u",
                 r->threads_per_cta, c->max_threads_per_block);
        return SMC_ERR_INVALID_CONFIGURATION;
    }
    if (o->smem_per_cta > c->max_smem_per_block) {
        snprintf(msg, msglen, "%u bytes of shared memory per block (rounded to %u) "
                 "exceed block.max_smem %u", r->smem_per_cta, c->smem_alloc_unit,
                 c->max_smem_per_block);
        return SMC_ERR_LAUNCH_OUT_OF_RESOURCES;
    }
    if (r->regs_per_thread > c->max_regs_per_thread) {
        snprintf(msg, msglen, "%u registers per thread exceed thread.max_regs %u",
                 r->regs_per_thread, c->max_regs_per_thread);
        return SMC_ERR_LAUNCH_OUT_OF_RESOURCES;
    }
    if ((uint64_t)b * o->regs_per_warp > c->max_regs_per_block) {
        snprintf(msg, msglen, "%u warps x %u registers exceed block.max_regs %u",
                 b, o->regs_per_warp, c->max_regs_per_block);
        return SMC_ERR_LAUNCH_OUT_OF_RESOURCES;
    }
    /* Eq. 3.3 (threads per SM as a fifth limit, as the CUDA calculator has) */
    o->limit_ctas = c->max_ctas_per_sm;
    o->limit_warps = c->max_warps_per_sm / b;
    o->limit_threads = c->max_threads_per_sm / (b * 32);
    o->limit_regs = o->regs_per_warp ? (c->regs_per_sm / o->regs_per_warp) / b : UINT32_MAX;
    o->limit_smem = o->smem_per_cta ? c->smem_per_sm / o->smem_per_cta : UINT32_MAX;
    struct { uint32_t v; const char *name; } lim[] = {
        { o->limit_ctas, "ctas" }, { o->limit_warps, "warps" },
        { o->limit_threads, "threads" }, { o->limit_regs, "registers" },
        { o->limit_smem, "shared memory" },
    };
    o->ctas_per_sm = UINT32_MAX;
    for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++)
        if (lim[i].v < o->ctas_per_sm) {
            o->ctas_per_sm = lim[i].v;
            o->limiter = lim[i].name;
        }
    if (o->ctas_per_sm == 0) {
        snprintf(msg, msglen, "not even one block fits an SM (%s: %u warps, %u registers "
                 "per warp, %u bytes of shared memory per block)", o->limiter, b,
                 o->regs_per_warp, o->smem_per_cta);
        return SMC_ERR_LAUNCH_OUT_OF_RESOURCES;
    }
    uint64_t per_sm = (r->num_ctas + c->mem.num_sms - 1) / c->mem.num_sms;   /* g */
    o->waves = (per_sm + o->ctas_per_sm - 1) / o->ctas_per_sm;
    return SMC_OK;
}

