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

/* ---- warp groups (the scheduler core's grouped policy) ------------------ */

/*
 * Seed 000 §6.3.2 (Fig. 6.9) groups the warps of a launch with hint 1..3;
 * OWL (Jog et al., ASPLOS'13) groups them by CTA. The core takes a 6-bit
 * group id per warp at its launch (launch_group); here a group is a key,
 * and each SM maps the keys of its resident warps to ids (the lowest free
 * id for a new key; an id is free again when its last warp's CTA leaves).
 * At most 64 warps are resident, so an id is always free. The keys
 * (docs/locality.md, "Warp groups"; the thesis leaves group size and
 * hint 2's rule for blocks of more than two warps open, spec B.5 [G]):
 *
 *   hint 1  (ctaid.z, ctaid.y, warp index): "warps with the same warp id" of
 *           the blocks "with the same blockIdx.y" (§6.3.2)
 *   hint 2  (ctaid.z, ctaid.x, floor((ctaid.y * W + warp index + 1) / 2)),
 *           W warps per block: in one column of blocks, consecutive warps in
 *           (y, warp) order are paired so that the last warp of block (x, y)
 *           and the first of (x, y+1) share a group — for two warps per block
 *           exactly the thesis's {(0,0).w1, (0,1).w0} (spec C.7)
 *   hint 3  i mod G for the i-th warp placed on the warp's scheduler, G =
 *           ceil(warps a scheduler holds / sched.pool_size) ("we distribute
 *           warps in a round-robin fashion to different groups"; spec C.7).
 *           Counted per scheduler: counted per SM, consecutive warps go to
 *           consecutive schedulers (slot w is scheduler w % ns), and with
 *           G = 2 and 4 schedulers every warp of a scheduler fell into one
 *           group, which made hint 3's grouping plain LRR.
 *   OWL     the CTA's placement ordinal on the SM / C, C = ceil(pool_size /
 *           warps per CTA): groups of whole CTAs of at least pool_size warps
 *           (OWL's CTA groups; the size is our choice, docs/locality.md)
 */
static uint64_t group_key(const timing_gpu *g, tm_sm *sm, uint32_t linear, uint32_t widx,
                          uint32_t nwarps, unsigned slot)
{
    uint32_t gx = g->st->grid[0], gy = g->st->grid[1];
    uint64_t x = linear % gx, y = linear / gx % gy, z = linear / gx / gy;
    uint32_t pool = g->cfg.pool_size ? g->cfg.pool_size : 1;
    switch (g->grouping) {
    case TM_GROUP_HINT1:
        return (z * gy + y) << 8 | widx;
    case TM_GROUP_HINT2:
        return (z * gx + x) << 32 | (y * nwarps + widx + 1) / 2;
    case TM_GROUP_HINT3: {
        uint32_t per_sched = g->occ.ctas_per_sm * nwarps / g->cfg.num_schedulers;
        uint32_t ng = (per_sched + pool - 1) / pool;
        return sm->grp_warps_s[slot % g->cfg.num_schedulers] % (ng ? ng : 1);
    }
    default: {                                  /* OWL */
        uint32_t c = (pool + nwarps - 1) / nwarps;
        return sm->grp_ctas / (c ? c : 1);
    }
    }
}

/* The group id of `key` on SM sm: its id when a resident warp holds it,
 * else the lowest free id. */
static uint8_t group_id(tm_sm *sm, uint64_t key)
{
    int free_id = -1;
    for (unsigned i = 0; i < SCHED_MAX_WARPS; i++) {
        if (sm->grp_refs[i] && sm->grp_key[i] == key)
            return (uint8_t)i;
        if (!sm->grp_refs[i] && free_id < 0)
            free_id = (int)i;
    }
    /* at most 64 warps are resident, each holds one id: one is free */
    sm->grp_key[free_id] = key;
    return (uint8_t)free_id;
}

void tm_group_release(tm_sm *sm, unsigned w)
{
    uint8_t id = sm->warp[w].group;
    if (sm->grp_refs[id])
        sm->grp_refs[id]--;
}

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
    if (!ec) {   /* the source's reason (a malformed trace), else host memory */
        const smc_fault *f = g->src.ops->fault(g->src.ctx);
        g->fault = f->status != SMC_OK ? f->status : SMC_ERR_OUT_OF_MEMORY;
        tm_set_msg(g, "%s", f->status != SMC_OK ? f->message : "out of host memory");
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
        sm->warp[w].cta_linear = linear;
        sm->launch_next |= 1ull << w;
        if (g->grouping != TM_GROUP_NONE) {
            uint8_t id = group_id(sm, group_key(g, sm, linear, i, c->nwarps, w));
            sm->grp_refs[id]++;
            sm->warp[w].group = id;
            sm->grp_warps_s[w % g->cfg.num_schedulers]++;
        }
    }
    sm->grp_ctas++;
    sm->resident++;
    sm->st.ctas++;
    return 1;
}

/* ---- round-robin -------------------------------------------------------- */

/* Over the SMs, starting after the SM that last received a CTA. With SM
 * clusters (icnt.sms_per_cluster > 1) as GPGPU-Sim 3.2.1 issues
 * (gpgpu_sim::issue_block2core, simt_core_cluster::issue_block2core): each
 * cluster places at most one CTA per cycle, on the first of its SMs with
 * room after the one it served last; the clusters in turn, starting after
 * the last cluster that placed one. */
static int place_round_robin(timing_gpu *g, uint32_t *next_cta, uint32_t nctas)
{
    uint32_t per = g->cfg.mem.icnt_sms_per_cluster;
    if (per > 1) {
        uint32_t nclu = (g->nsm + per - 1) / per, last = UINT32_MAX;
        for (uint32_t i = 0; i < nclu && *next_cta < nctas; i++) {
            uint32_t c = (g->dispatch_rr + i) % nclu;
            tm_sm *head = &g->sm[c * per];
            for (uint32_t j = 1; j <= per; j++) {
                uint32_t core = (head->cluster_next + j) % per, s = c * per + core;
                if (s >= g->nsm)
                    continue;
                int r = dispatch_offer(g, &g->sm[s], *next_cta);
                if (r < 0)
                    return -1;
                if (r) {
                    ++*next_cta;
                    head->cluster_next = core;
                    last = c;
                    break;
                }
            }
        }
        if (last != UINT32_MAX)
            g->dispatch_rr = (last + 1) % nclu;
        return 0;
    }
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
 *   - An SM with a free CTA slot and no CTA left in its chunk claims the
 *     next k unclaimed positions as its chunk; it takes the CTAs of its
 *     chunk in order, at most one per cycle (as round-robin does). SMs are
 *     visited in id order every cycle. There is no stealing: an SM whose
 *     chunk is used up waits for the next one.
 *   - k = gpu.dispatch_chunk when set. Otherwise k0 = min(N_slot,
 *     ceil(CTAs / SMs)) — N_slot (Eq. 3.3, the CTAs an SM holds at once) as
 *     spec C.7 recommends, capped so that a grid smaller than one full wave
 *     still reaches every SM —, in rounds of SMs x k0 positions; the
 *     R < SMs x k0 positions left after the last full round (the tail) are
 *     cut into SMs chunks as equal as can be (the first R mod SMs get one
 *     more), so that the last wave spreads over the SMs instead of piling
 *     up on the first ones while the others idle.
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

/* k0 of a grid of n CTAs (rule above). */
static uint32_t first_chunk(const timing_gpu *g, uint32_t n)
{
    if (g->cfg.dispatch_chunk)
        return g->cfg.dispatch_chunk;
    uint32_t k = (n + g->nsm - 1) / g->nsm;
    if (k > g->occ.ctas_per_sm)
        k = g->occ.ctas_per_sm;
    return k ? k : 1;
}

/* CTAs of the next chunk, which starts at position g->loc_claimed of n. */
static uint32_t chunk_size(timing_gpu *g, uint32_t n)
{
    uint32_t p = g->loc_claimed, k0 = first_chunk(g, n), k = k0;
    if (!g->cfg.dispatch_chunk) {
        uint64_t round = (uint64_t)g->nsm * k0;
        uint32_t full = (uint32_t)(n / round * round);    /* positions in full rounds */
        if (p >= full) {                                  /* the tail: R positions */
            uint32_t r = n - full, j = g->loc_tail++;
            k = r / g->nsm + (j < r % g->nsm ? 1 : 0);
            if (k == 0)
                k = 1;
        }
    }
    return k < n - p ? k : n - p;
}

static int place_locality(timing_gpu *g, uint32_t *next_cta, uint32_t nctas)
{
    for (uint32_t s = 0; s < g->nsm && *next_cta < nctas; s++) {
        tm_sm *sm = &g->sm[s];
        if (sm->resident >= g->occ.ctas_per_sm)
            continue;                           /* full: claims nothing */
        if (sm->chunk_next >= sm->chunk_end) {
            if (g->loc_claimed >= nctas)
                continue;                       /* every CTA is claimed */
            uint32_t k = chunk_size(g, nctas);
            sm->chunk_next = g->loc_claimed;
            sm->chunk_end = g->loc_claimed + k;
            g->loc_claimed += k;
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

/* The launch's hint: under gpu.locality_hint=auto the type detected at the
 * kernel's first launch (0 while there is none: that launch detects, see
 * tm_dispatch_reset), gpu.locality_hint when it forces one, else the
 * launch's own (already checked to be 0..3 by timing_occupancy_compute). */
static uint32_t launch_hint(const timing_gpu *g, const timing_kernel_req *req, const char *kernel)
{
    if (tm_launch_auto(g, req)) {
        int t = tm_detect_known(g, kernel);
        return t > 0 ? (uint32_t)t : 0;
    }
    if (g->cfg.locality_hint >= GPU_LOCALITY_FORCE)
        return g->cfg.locality_hint - GPU_LOCALITY_FORCE;
    return req->locality_hint;
}

int tm_launch_auto(const timing_gpu *g, const timing_kernel_req *req)
{
    return g->cfg.locality_hint == GPU_LOCALITY_AUTO ||
           (g->cfg.locality_hint == GPU_LOCALITY_LAUNCH && req->locality_hint == TIMING_LOCALITY_AUTO);
}

/* The round-robin pointers: the next SM (or cluster) to try is `first`,
 * and each cluster's first CTA goes to its first SM. */
void tm_dispatch_rr_init(timing_gpu *g, uint32_t first)
{
    g->dispatch_rr = first;
    for (uint32_t i = 0; i < g->nsm; i++)
        g->sm[i].cluster_next = g->cfg.mem.icnt_sms_per_cluster - 1;
}

void tm_dispatch_reset(timing_gpu *g, const timing_kernel_req *req, const char *kernel)
{
    if (!g->cfg.dispatch_persist)               /* else as the last launch left them */
        tm_dispatch_rr_init(g, 0);
    g->loc_hint = launch_hint(g, req, kernel);
    g->st->locality_detected = -1;
    tm_detect_stop(g);                          /* timing_run begins it when needed */
    g->launch_placement = g->placement;
    g->st->locality_hint = g->loc_hint;
    g->st->dispatch_chunk = 0;
    /* the warp scheduling of this launch: OWL's CTA groups when it is the
     * policy, else the hint's groups (unless gpu.locality_warps is 0), else
     * the configured policy */
    g->sched_policy = g->cfg.policy;
    g->group_prio = 0;
    g->grouping = TM_GROUP_NONE;
    if (g->cfg.policy == GPU_POLICY_OWL) {
        g->sched_policy = SCHED_POLICY_GROUPED;
        g->group_prio = 1;
        g->grouping = TM_GROUP_OWL;
    } else if (g->loc_hint != 0 && g->cfg.locality_warps) {
        g->sched_policy = SCHED_POLICY_GROUPED;
        g->grouping = TM_GROUP_HINT1 + (g->loc_hint - 1);
    }
    g->st->warp_groups = g->grouping == TM_GROUP_NONE ? NULL
                       : g->grouping == TM_GROUP_OWL ? "owl" : "hint";
    for (uint32_t i = 0; i < g->nsm; i++) {
        tm_sm *sm = &g->sm[i];
        memset(sm->grp_refs, 0, sizeof sm->grp_refs);
        memset(sm->grp_warps_s, 0, sizeof sm->grp_warps_s);
        sm->grp_ctas = 0;
    }
    if (g->loc_hint == 0)
        return;                                 /* today's dispatcher, untouched */
    g->launch_placement = &placements[1];
    g->loc_claimed = g->loc_tail = 0;
    for (uint32_t i = 0; i < g->nsm; i++)
        g->sm[i].chunk_next = g->sm[i].chunk_end = 0;
    g->st->dispatch_chunk = first_chunk(g, (uint32_t)req->num_ctas);   /* k0 */
}

int tm_dispatch_cycle(timing_gpu *g, uint32_t *next_cta, uint32_t nctas)
{
    if (*next_cta >= nctas)
        return 0;
    return g->launch_placement->place(g, next_cta, nctas);
}
