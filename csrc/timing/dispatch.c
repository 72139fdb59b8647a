/*
 * dispatch.c — the CTA dispatcher: step 1 of every GPU cycle. It hands the
 * launch's CTAs, in order, to SMs that have a free CTA slot (N_slot, Eq.
 * 3.3); an SM takes at most one CTA per cycle. WHICH SM gets the next CTA
 * is a placement policy: an entry of `placements` below, chosen by name.
 *
 * A placement policy visits the SMs in its own order and offers each the
 * next CTA (dispatch_offer); the dispatcher does the rest (slots, warps,
 * statistics). Two policies: round-robin (the GPU's default, for launches
 * with locality hint 0) and locality (hints 1..3, seed 000 §6.3.2: adjacent
 * blocks on the same SM; docs/locality.md). The launch's hint picks the
 * policy at tm_dispatch_reset.
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

/* ---- locality: adjacent CTAs on the same SM ----------------------------- */

/*
 * Seed 000 §6.3.2 (Fig. 6.8): for hints 1..3 "our locality-aware block
 * scheduler assigns adjacent blocks to the same SM". The thesis gives
 * neither the number of adjacent blocks nor their order (spec B.4 [G]);
 * decided here (spec §C.7, C.9 item 25; docs/locality.md):
 *
 *   - The CTAs are put in a sequence ("positions"): x-major (the linear id)
 *     for hints 1 and 3 — blocks with the same blockIdx.y, which share rows
 *     of A in GEMM (§6.2) —, column-major for hint 2 — blocks with the same
 *     blockIdx.x, vertically adjacent, which share the boundary lines of a
 *     stencil (§6.2, Fig. 6.4; §6.3.2 groups "warps whose blockIdx.x is the
 *     same") —, z slowest in both.
 *   - The sequence is cut into chunks of k consecutive positions. An SM with
 *     a free CTA slot and no CTA left in its chunk claims the next unclaimed
 *     chunk; it takes the CTAs of its chunk in order, at most one per cycle
 *     (as round-robin does). SMs are visited in id order every cycle. There
 *     is no stealing: an SM whose chunk is used up waits for the next one.
 *   - k = gpu.dispatch_chunk, or when that is 0: N_slot (Eq. 3.3, the CTAs
 *     an SM holds at once; spec C.7) capped at ceil(CTAs / SMs), so that a
 *     grid smaller than one full wave still spreads over every SM instead
 *     of filling the first SMs and leaving the others idle.
 *
 * *next_cta counts the CTAs placed (as it does for round-robin, where it is
 * also the next linear id), so the cycle loop's "all placed" test holds.
 */

/* Linear CTA id (x fastest, then y, then z) of position p in the hint's order. */
static uint32_t locality_linear(const timing_gpu *g, uint32_t p)
{
    if (g->loc_hint != 2)
        return p;
    uint32_t gx = g->st->grid[0], gy = g->st->grid[1];
    uint32_t plane = gx * gy;
    uint32_t z = p / plane, r = p % plane;
    uint32_t x = r / gy, y = r % gy;            /* column-major: y fastest */
    return z * plane + y * gx + x;
}

static int place_locality(timing_gpu *g, uint32_t *next_cta, uint32_t nctas)
{
    for (uint32_t s = 0; s < g->nsm && *next_cta < nctas; s++) {
        tm_sm *sm = &g->sm[s];
        if (sm->resident >= g->occ.ctas_per_sm)
            continue;                           /* full: claims nothing */
        if (sm->chunk_next >= sm->chunk_end) {
            uint64_t first = (uint64_t)g->loc_claimed * g->loc_chunk;
            if (first >= nctas)
                continue;                       /* every chunk is claimed */
            g->loc_claimed++;
            sm->chunk_next = (uint32_t)first;
            sm->chunk_end = (uint32_t)(first + g->loc_chunk < nctas ? first + g->loc_chunk : nctas);
        }
        int r = dispatch_offer(g, sm, locality_linear(g, sm->chunk_next));
        if (r < 0)
            return -1;
        if (r) {
            sm->chunk_next++;
            ++*next_cta;
        }
    }
    return 0;
}

/* ---- the policies, by name ---------------------------------------------- */

static const tm_placement placements[] = {
    { "round-robin", place_round_robin },
    { "locality", place_locality },
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
    g->st->dispatch_chunk = 0;
    if (g->loc_hint == 0)
        return;                                 /* today's dispatcher, untouched */
    g->launch_placement = &placements[1];
    uint64_t nctas = req->num_ctas;
    uint64_t k = g->cfg.dispatch_chunk;
    if (k == 0) {
        uint64_t even = (nctas + g->nsm - 1) / g->nsm;
        k = g->occ.ctas_per_sm < even ? g->occ.ctas_per_sm : even;
        if (k == 0)
            k = 1;
    }
    g->loc_chunk = (uint32_t)k;
    g->loc_claimed = 0;
    for (uint32_t i = 0; i < g->nsm; i++)
        g->sm[i].chunk_next = g->sm[i].chunk_end = 0;
    g->st->dispatch_chunk = g->loc_chunk;
}

int tm_dispatch_cycle(timing_gpu *g, uint32_t *next_cta, uint32_t nctas)
{
    if (*next_cta >= nctas)
        return 0;
    return g->launch_placement->place(g, next_cta, nctas);
}
