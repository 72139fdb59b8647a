/*
 * dispatch.c — the CTA dispatcher: step 1 of every GPU cycle. It hands the
 * launch's CTAs, in order, to SMs that have a free CTA slot (N_slot, Eq.
 * 3.3); an SM takes at most one CTA per cycle. WHICH SM gets the next CTA
 * is a placement policy: an entry of `placements` below, chosen by name.
 *
 * A placement policy visits the SMs in its own order and offers each the
 * next CTA (dispatch_offer); the dispatcher does the rest (slots, warps,
 * statistics). Round-robin is the only policy today; locality-aware
 * placement (CTAs that share data on the same SM) is meant to be a second
 * entry of the table, with its state in tm_dispatch.
 */
#include "timing_internal.h"

#include <string.h>

struct tm_placement {
    const char *name;
    /* Offer CTAs to the SMs for one cycle, from *next_cta on (of nctas),
     * calling dispatch_offer(); 0, or -1 with g->fault set. */
    int (*place)(timing_gpu *g, uint32_t *next_cta, uint32_t nctas);
};

/* Place CTA `linear` on an SM if a slot is free. Returns 1 when placed, 0
 * when the SM is full, -1 (g->fault set) on host memory exhaustion. */
static int dispatch_offer(timing_gpu *g, tm_sm *sm, uint32_t linear)
{
    if (sm->resident >= g->occ.ctas_per_sm)
        return 0;
    int32_t cs = -1;
    for (uint32_t i = 0; i < g->cfg.max_ctas_per_sm; i++)
        if (!sm->cta[i].used) {
            cs = (int32_t)i;
            break;
        }
    if (cs < 0)
        return 0;
    inst_cta *ec = g->src.ops->cta_start(g->src.ctx, linear, sm->id);
    if (!ec) {
        g->fault = SMC_ERR_OUT_OF_MEMORY;
        tm_set_msg(g, "out of host memory");
        return -1;
    }
    tm_cta *c = &sm->cta[cs];
    c->src = ec;
    c->nwarps = g->src.ops->cta_warps(ec);
    c->used = 1;
    /* the CTA's warps take the lowest free warp slots */
    for (uint32_t i = 0; i < c->nwarps; i++) {
        unsigned w = (unsigned)__builtin_ctzll(~sm->used_slots);
        sm->used_slots |= 1ull << w;
        c->slot[i] = (uint8_t)w;
        tm_warp_init(&sm->warp[w], ec, i, cs);
        sm->launch_next |= 1ull << w;
    }
    sm->resident++;
    g->st->ctas++;
    return 1;
}

/* ---- round-robin -------------------------------------------------------- */

/* Over the SMs, starting after the SM that last received a CTA. */
static int place_round_robin(timing_gpu *g, uint32_t *next_cta, uint32_t nctas)
{
    uint32_t last = UINT32_MAX;
    for (uint32_t i = 0; i < g->nsm && *next_cta < nctas; i++) {
        uint32_t s = (g->dispatch_rr + i) % g->nsm;
        int r = dispatch_offer(g, &g->sm[s], *next_cta);
        if (r < 0)
            return -1;
        if (r) {
            ++*next_cta;
            last = s;
        }
    }
    if (last != UINT32_MAX)
        g->dispatch_rr = (last + 1) % g->nsm;
    return 0;
}

/* ---- the policies, by name ---------------------------------------------- */

static const tm_placement placements[] = {
    { "round-robin", place_round_robin },
};

const tm_placement *tm_placement_find(const char *name)
{
    for (size_t i = 0; i < sizeof placements / sizeof placements[0]; i++)
        if (strcmp(placements[i].name, name) == 0)
            return &placements[i];
    return NULL;
}

/* The launch's hint: gpu.locality_hint when it forces one, else the
 * launch's own (already checked to be 0..3 by timing_occupancy_compute). */
static uint32_t launch_hint(const timing_gpu *g, const timing_kernel_req *req)
{
    if (g->cfg.locality_hint >= GPU_LOCALITY_FORCE)
        return g->cfg.locality_hint - GPU_LOCALITY_FORCE;
    return req->locality_hint;
}

void tm_dispatch_reset(timing_gpu *g, const timing_kernel_req *req)
{
    g->dispatch_rr = 0;
    g->loc_hint = launch_hint(g, req);
    g->launch_placement = g->placement;
    g->st->locality_hint = g->loc_hint;
}

int tm_dispatch_cycle(timing_gpu *g, uint32_t *next_cta, uint32_t nctas)
{
    if (*next_cta >= nctas)
        return 0;
    return g->launch_placement->place(g, next_cta, nctas);
}
