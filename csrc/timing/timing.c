/*
 * timing.c — the cycle-level GPU: creating the model, one launch, and the
 * cycle loop that drives the parts (timing_internal.h lists them). See
 * timing.h and docs/timing-model.md.
 *
 * One GPU cycle t:
 *   1. CTA dispatcher (dispatch.c): at most one CTA per SM per cycle, into
 *      SMs with fewer than N_slot resident CTAs (Eq. 3.3), in the order of
 *      the placement policy.
 *   2. Per SM, the front half (pipeline.c): read the scheduler core's
 *      outputs of cycle t; every issued warp-instruction executes now in the
 *      emulator; it goes to a functional unit or to the memory model.
 *   3. mem_cycle: the memory hierarchy simulates cycle t.
 *   4. Per SM, the back half (pipeline.c): collect memory completions; build
 *      the core's inputs for the rising edge that ends cycle t. Then one
 *      sched_group_step clocks every busy SM's core at once (an idle SM's
 *      core is not clocked), and per stepped SM tm_sm_after takes in what
 *      the new outputs say (OCW statistics, HAWS mode changes, waveform).
 */
#include "timing_internal.h"
#include "peers.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void tm_set_msg(timing_gpu *g, const char *fmt, ...)
{
    if (!g->msg || !g->msglen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->msg, g->msglen, fmt, ap);
    va_end(ap);
}

/* ---- create / destroy --------------------------------------------------- */

const gpu_config *timing_config(const timing_gpu *g) { return &g->cfg; }

sched_backend *timing_sm_backend(timing_gpu *g, uint32_t sm)
{
    return g && sm < g->nsm ? g->sm[sm].sched : NULL;
}

uint64_t timing_clock(void *gpu, uint32_t smid)
{
    (void)smid;
    return ((const timing_gpu *)gpu)->cycle;
}

/* Test hook: SMCOSIM_TEST_LOCKSTEP_INJECT=SM:CYCLE flips bit 0 of scheduler
 * 0's stall_reason in the C model's outputs of that cycle on that SM, so a
 * test can see a lockstep mismatch reported (and its waveform written)
 * through `smcosim run`. With a replay check (--check-rtl offload) it flips
 * the same bit of the device's outputs of that SM's cycle instead. CYCLE
 * counts the SM's core cycles since its reset, as the lockstep message
 * does. Deterministic: a re-run flips the same bit. */
static void flip_stall0(sched_outputs *o, uint64_t cycle, void *ctx)
{
    const timing_gpu *g = ctx;
    if (cycle == g->inject_cycle)
        o->stall_reason[0] ^= 1;
}

static int inject_lockstep(timing_gpu *g, tm_sm *sm)
{
    const char *e = getenv("SMCOSIM_TEST_LOCKSTEP_INJECT");
    if (!e || !*e)
        return 0;
    char *end;
    unsigned long smid = strtoul(e, &end, 10);
    if (end == e || *end != ':')
        return -1;
    const char *c = end + 1;
    unsigned long long cyc = strtoull(c, &end, 10);
    if (end == c || *end)
        return -1;
    g->inject_cycle = cyc;
    if (smid == sm->id)
        return sched_group_set_mutator(g->cores, sm->id, flip_stall0, g, NULL, 0);
    return 0;
}

/* Does the test hook apply (a back end or a check to inject into)? */
static int inject_applies(const timing_gpu *g)
{
    return g->cfg.backend == GPU_SCHED_LOCKSTEP || g->cfg.check_rtl;
}

/* The back end kind as sched_group_open takes it: "c", or
 * "offload:TRANSPORT" from sched.offload_transport. */
static const char *sched_kind(const timing_gpu *g, char *buf, size_t len)
{
    const char *kind = gpu_backend_name(g->cfg.backend);
    if (g->cfg.backend == GPU_SCHED_OFFLOAD)
        snprintf(buf, len, "%s:%s", kind, g->cfg.offload_transport);
    else
        snprintf(buf, len, "%s", kind);
    return buf;
}

/* Every SM's scheduler core in one group (sched_group.h); the waveform's SM
 * traced, a replay check when sched.check_rtl asks for one. */
static int open_cores(timing_gpu *g, char *err, size_t errlen)
{
    char kind[GPU_OFFLOAD_SPEC_MAX + 16], e2[768] = "";
    sched_kind(g, kind, sizeof kind);
    const sched_trace_opts **trace = calloc(g->nsm, sizeof *trace);
    g->sched_in = calloc(g->nsm, sizeof *g->sched_in);
    g->sched_active = calloc(g->nsm, 1);
    if (!trace || !g->sched_in || !g->sched_active) {
        free(trace);
        snprintf(err, errlen, "%s scheduler back end: out of memory", kind);
        return -1;
    }
    trace[g->wave_sm] = tm_wave_trace(g, &g->sm[g->wave_sm]);
    sched_group_opts o = {
        .trace = trace,
        .check = g->cfg.check_rtl ? g->cfg.offload_transport : NULL,
        .check_k = g->cfg.check_k,
    };
    g->cores = sched_group_open(kind, &g->params, g->nsm, &o, e2, sizeof e2);
    free(trace);
    if (!g->cores) {
        snprintf(err, errlen, "%s scheduler back end: %s", kind, e2);
        return -1;
    }
    for (uint32_t i = 0; i < g->nsm; i++) {
        g->sm[i].sched = sched_group_member(g->cores, i);
        if (inject_applies(g) && inject_lockstep(g, &g->sm[i]) != 0) {
            snprintf(err, errlen, "SMCOSIM_TEST_LOCKSTEP_INJECT '%s': expected SM:CYCLE",
                     getenv("SMCOSIM_TEST_LOCKSTEP_INJECT"));
            return -1;
        }
    }
    return 0;
}

/* OAWS: every SM's DLC (cosim/dlc.h), of the scheduler back end's kind:
 * the RTL with --sched rtl, both in lockstep with --sched lockstep, else the
 * C model (the DLC is beside the core, not in it: an offloaded core leaves
 * it on the host). One read port per scheduler and one for the retiring
 * load. */
static int open_dlcs(timing_gpu *g, char *err, size_t errlen)
{
    if (!g->oaws.mode)
        return 0;
    dlc_kind kind = g->cfg.backend == GPU_SCHED_RTL      ? DLC_RTL
                  : g->cfg.backend == GPU_SCHED_LOCKSTEP ? DLC_LOCKSTEP : DLC_C;
    for (uint32_t i = 0; i < g->nsm; i++) {
        char e2[512] = "";
        g->sm[i].dlc = dlc_open(kind, g->oaws.dlc_entries, g->cfg.num_schedulers + 1, e2,
                                sizeof e2);
        if (!g->sm[i].dlc) {
            snprintf(err, errlen, "OAWS DLC (sched.oaws_dlc_entries = %u): %s",
                     g->oaws.dlc_entries, e2);
            return -1;
        }
    }
    return 0;
}

/* The edge ending cycle t for every SM that tm_sm_back prepared, then the
 * after-edge work of each. A failing core fails the launch, naming the SM
 * and the cycle (with a replay check, the cycle of the first difference,
 * which may lie before t). 0, or -1 with g->fault set. */
static int cores_fail(timing_gpu *g, unsigned bad)
{
    const sched_backend *b = sched_group_member(g->cores, bad);
    uint64_t fc = sched_group_failed_cycle(g->cores);
    g->fault = SMC_ERR_LAUNCH_FAILED;
    if (g->cfg.backend == GPU_SCHED_LOCKSTEP) {
        g->mismatch = 1;
        g->mismatch_sm = bad;
        g->mismatch_cycle = fc + 1;   /* the outputs of cycle fc+1 differ */
    }
    tm_set_msg(g, "scheduler back end %s failed on SM %u at cycle %llu: %s",
               sched_group_describe(g->cores), bad, (unsigned long long)fc,
               b ? sched_error(b) : "closed");
    return -1;
}

/* ... and *busy |= whether a stepped SM has work left. */
static int cores_edge(timing_gpu *g, uint64_t t, int *busy)
{
    unsigned bad = 0;
    int rc = sched_group_step(g->cores, g->sched_in, g->sched_active, &bad);
    uint32_t stepped = rc == 0 ? g->nsm : bad;   /* members before a failure stepped */
    for (uint32_t i = 0; i < stepped && i < g->nsm; i++) {
        if (!g->sched_active[i])
            continue;   /* (an SM not stepped has no work: tm_sm_busy) */
        if (tm_sm_after(g, &g->sm[i], t) != 0)
            return -1;
        *busy |= tm_sm_work(&g->sm[i]);
    }
    return rc == 0 ? 0 : cores_fail(g, bad);
}

int timing_lockstep_mismatch(const timing_gpu *g, uint32_t *sm, uint64_t *cycle)
{
    if (!g || !g->mismatch)
        return 0;
    *sm = g->mismatch_sm;
    *cycle = g->mismatch_cycle;
    return 1;
}

timing_gpu *timing_create(const gpu_config *cfg, const timing_trace *trace, char *err, size_t errlen)
{
    if (gpu_config_check(cfg, err, errlen) != 0)
        return NULL;
    int want_fst = trace && trace->path;
    /* say up front when the back end or the waveform writer cannot be
     * found (not linked, and no plugin) */
    const char *kind = gpu_backend_name(cfg->backend);
    char what[64];
    snprintf(what, sizeof what, "--sched %s", kind);
    if (want_fst && tm_wave_resolve("--fst", err, errlen) != 0)
        return NULL;
    if (sched_kind_available(kind, what, err, errlen) != 0)
        return NULL;
    if (cfg->check_rtl && cfg->backend == GPU_SCHED_OFFLOAD) {
        snprintf(err, errlen, "--check-rtl offload checks a run of --sched c, rtl or lockstep, "
                 "not of --sched offload");
        return NULL;
    }
    const tm_placement *placement = tm_placement_find("round-robin");
    timing_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->cfg = *cfg;
    g->nsm = cfg->mem.num_sms;
    g->placement = placement;
    if (trace && trace->sm < g->nsm)
        g->wave_sm = trace->sm;
    g->params = (sched_params){
        .num_warps = cfg->max_warps_per_sm, .num_schedulers = cfg->num_schedulers,
        .reg_id_width = cfg->reg_id_width, .ibuf_depth = cfg->ibuf_depth,
        .sb_entries = cfg->sb_entries, .wb_ports = cfg->wb_ports,
        /* HAWS hardware of seed 000 §5.3.3/§5.3.6 (used only with haws on;
         * the Verilated sets of cosim/module.mk have RcuDepth 8) */
        .rcu_depth = cfg->haws_rcu_depth, .ren_entries = HAWS_RENAME_ENTRIES,
    };
    /* Mechanisms this run never uses are left out of the core
     * (sched_params.omit): the RTL back end then runs the Verilated variant
     * without their logic where one is built (docs/rtl.md, "Variants"). The
     * grouped policy stays (a launch's locality hint may turn it on). Not
     * for the offload transports and replay checks, whose programs are the
     * whole core. Results are the same either way. */
    if (cfg->backend != GPU_SCHED_OFFLOAD && !cfg->check_rtl)
        g->params.omit = (cfg->oaws == GPU_OAWS_OFF ? SCHED_OMIT_OAWS : 0u) |
                         (cfg->peer == GPU_PEER_NONE ? SCHED_OMIT_PEERS : 0u) |
                         (cfg->haws == GPU_HAWS_OFF ? SCHED_OMIT_HAWS : 0u);
    for (unsigned w = 0; w < cfg->max_warps_per_sm; w++)
        g->sched_mask[w % cfg->num_schedulers] |= 1ull << w;
    /* OAWS (docs/oaws.md): the parameters of oaws.c; OCW's bounds default
     * to the schedulers and the warps of an SM (seed 001 §4.3.1: 2 and 48) */
    g->oaws = (oaws_params){
        .mode = cfg->oaws, .smr = cfg->oaws_smr, .dlc_entries = cfg->oaws_dlc_entries,
        .cnt_max = cfg->oaws_cnt_max, .cnt_init = cfg->oaws_cnt_init,
        .ocw_min = cfg->oaws_ocw_min ? cfg->oaws_ocw_min : cfg->num_schedulers,
        .ocw_max = cfg->oaws_ocw_max ? cfg->oaws_ocw_max : cfg->max_warps_per_sm,
        .delta = cfg->oaws_delta,
    };
    g->sm = calloc(g->nsm, sizeof *g->sm);
    if (!g->sm) {
        snprintf(err, errlen, "out of memory");
        free(g);
        return NULL;
    }
    if (want_fst) {
        g->wave = tm_wave_create(g, trace->path, trace->from, trace->to, err, errlen);
        if (!g->wave) {
            timing_destroy(g, NULL, 0);
            return NULL;
        }
    }
    for (uint32_t i = 0; i < g->nsm; i++) {
        tm_sm *sm = &g->sm[i];
        sm->id = i;
        sm->cta = calloc(cfg->max_ctas_per_sm, sizeof *sm->cta);
        int ok = sm->cta != NULL;
        for (unsigned u = 0; u < GPU_UNIT_COUNT && ok; u++) {
            sm->unit_n[u] = cfg->unit[u].private_units * cfg->num_schedulers +
                            cfg->unit[u].shared_units;
            sm->unit_next[u] = calloc(sm->unit_n[u] + 1, sizeof *sm->unit_next[u]);
            ok = sm->unit_next[u] != NULL;
        }
        if (ok)
            ok = tm_ldst_path_init(g, sm) == 0;
        if (!ok) {
            snprintf(err, errlen, "%s scheduler back end: out of memory", kind);
            timing_destroy(g, NULL, 0);
            return NULL;
        }
    }
    if (open_cores(g, err, errlen) != 0 || open_dlcs(g, err, errlen) != 0) {
        timing_destroy(g, NULL, 0);
        return NULL;
    }
    /* gpu.dispatch_persist: GPGPU-Sim 3.2.1 sets its last-served cluster to
     * 0 once, so the device's first CTA goes to cluster 1 (dispatch.c) */
    uint32_t per = cfg->mem.icnt_sms_per_cluster ? cfg->mem.icnt_sms_per_cluster : 1;
    tm_dispatch_rr_init(g, cfg->dispatch_persist ? 1 % ((g->nsm + per - 1) / per) : 0);
    /* --fst: the traced back end was opened to check that it can be; it is
     * reopened at the first launch, so that no file is left open meanwhile */
    tm_wave_launch_end(g, err, errlen);
    return g;
}

int tm_sm_open(timing_gpu *g, tm_sm *sm, char *err, size_t errlen)
{
    char kind[GPU_OFFLOAD_SPEC_MAX + 16], e2[512] = "";
    sched_kind(g, kind, sizeof kind);
    if (sched_group_member_open(g->cores, sm->id, tm_wave_trace(g, sm), e2, sizeof e2) != 0) {
        snprintf(err, errlen, "%s scheduler back end: %s", kind, e2);
        return -1;
    }
    sm->sched = sched_group_member(g->cores, sm->id);
    if (inject_applies(g) && inject_lockstep(g, sm) != 0) {
        snprintf(err, errlen, "SMCOSIM_TEST_LOCKSTEP_INJECT '%s': expected SM:CYCLE",
                 getenv("SMCOSIM_TEST_LOCKSTEP_INJECT"));
        return -1;
    }
    return 0;
}

int timing_destroy(timing_gpu *g, char *err, size_t errlen)
{
    if (!g)
        return 0;
    for (uint32_t i = 0; i < g->nsm; i++) {
        tm_sm *sm = &g->sm[i];
        free(sm->cta);
        for (unsigned u = 0; u < GPU_UNIT_COUNT; u++)
            free(sm->unit_next[u]);
        free(sm->wb);
        free(sm->mr);
        tm_ldst_path_free(sm);
        dlc_close(sm->dlc);
    }
    sched_group_close(g->cores);   /* closes the RTL's own FST */
    mem_destroy(g->mem_prev);
    free(g->sched_in);
    free(g->sched_active);
    free(g->sm);
    tm_detect_free(g);
    for (uint32_t i = 0; i < g->ncodes; i++)
        free(g->code[i].name);
    free(g->code);
    int rc = tm_wave_finish(g->wave, err, errlen);   /* after the back ends are gone */
    free(g);
    return rc;
}

/* ---- the launch ----------------------------------------------------------- */

/* The watchdog (docs/emulator.md, "No progress"). Progress is a warp
 * exiting, a barrier completing or a CTA starting, counted by the
 * instruction source (the emulator, which also runs the per-warp budget
 * gpu.watchdog_insts at every execute). Here, in cycles: gpu.watchdog_cycles
 * cycles without progress, or TM_STALL_CYCLES cycles in which no warp issued
 * anything at all (the scheduler stalled: the instruction budget cannot
 * count then; a barrier deadlock is reported by the emulator when it
 * happens), stop the launch. */
#define TM_STALL_CYCLES UINT64_C(1000000)   /* far above any memory latency */

/* Stop the launch as hung, blamed — as the functional watchdog does — on a
 * warp: the resident warp that executed the most warp-instructions since
 * the last progress (the one spinning hardest; the first in SM, CTA slot,
 * warp order on a tie), at its current pc. */
static void tm_hang(timing_gpu *g, const char *kernel_name, const char *what)
{
    const inst_source *src = &g->src;
    inst_cta *bc = NULL;
    uint32_t bw = 0;
    uint64_t best = 0;
    for (uint32_t i = 0; i < g->nsm; i++)
        for (uint32_t j = 0; j < g->cfg.max_ctas_per_sm; j++) {
            tm_cta *c = &g->sm[i].cta[j];
            if (!c->used)
                continue;
            for (uint32_t w = 0; w < c->nwarps; w++) {
                if (src->ops->exited(c->src, w))
                    continue;
                uint64_t n = src->ops->idle_insts(c->src, w);
                if (!bc || n > best) {
                    bc = c->src;
                    bw = w;
                    best = n;
                }
            }
        }
    const smc_fault *f = src->ops->fault(src->ctx);
    if (bc)
        src->ops->hang(bc, bw, what);
    g->fault = SMC_ERR_LAUNCH_TIMEOUT;
    if (f->status != SMC_OK)
        tm_set_msg(g, "%s", f->message);
    else   /* no live warp to blame (cannot happen while the SM is busy) */
        tm_set_msg(g, "SMC_ERR_LAUNCH_TIMEOUT: %s in kernel %s", what, kernel_name);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

smc_status timing_run(timing_gpu *g, const emu_kernel *ek, emu_launch *l, const char *kernel_name,
                      const timing_kernel_req *req, smc_dim3 grid, smc_dim3 block,
                      volatile sig_atomic_t *stop, timing_stats *out, char *msg, size_t msglen)
{
    inst_source_emu state;
    inst_source src = inst_source_from_emu(&state, ek, l);
    return timing_run_source(g, &src, kernel_name, req, grid, block, stop, out, msg, msglen);
}

/* The instruction cache (l1i.*): the address of kernel `name`'s first
 * instruction. GPGPU-Sim 3.2.1 gives each function its code once, one after
 * another from PROGRAM_MEM_START (cuda-sim.cc function_info::ptx_assemble);
 * here a kernel gets its place at its first launch, l1i.inst_bytes per
 * instruction. -1 when out of host memory. */
static int tm_code_addr(timing_gpu *g, const char *name, uint32_t ninsts)
{
    for (uint32_t i = 0; i < g->ncodes; i++)
        if (strcmp(g->code[i].name, name) == 0) {
            g->code_addr = g->code[i].addr;
            return 0;
        }
    struct tm_code *bigger = realloc(g->code, (g->ncodes + 1) * sizeof *bigger);
    if (!bigger)
        return -1;
    g->code = bigger;
    char *copy = strdup(name);
    if (!copy)
        return -1;
    if (g->ncodes == 0)
        g->code_next = g->cfg.mem.l1i_code_base;
    g->code[g->ncodes++] = (struct tm_code){ copy, g->code_next };
    g->code_addr = g->code_next;
    g->code_next += (uint64_t)ninsts * g->cfg.mem.l1i_inst_bytes;
    return 0;
}

smc_status timing_run_source(timing_gpu *g, const inst_source *src, const char *kernel_name,
                             const timing_kernel_req *req, smc_dim3 grid, smc_dim3 block,
                             volatile sig_atomic_t *stop, timing_stats *out,
                             char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    out->locality_detected = -1;        /* (set by a launch that detects) */
    snprintf(out->kernel, sizeof out->kernel, "%s", kernel_name);
    snprintf(out->config, sizeof out->config, "%s", g->cfg.preset);
    snprintf(out->backend, sizeof out->backend, "%s", gpu_backend_name(g->cfg.backend));
    gpu_policy_string(&g->cfg, out->policy, sizeof out->policy);
    out->num_sms = g->nsm;
    out->grid[0] = grid.x; out->grid[1] = grid.y; out->grid[2] = grid.z;
    out->block[0] = block.x; out->block[1] = block.y; out->block[2] = block.z;
    g->msg = msg;
    g->msglen = msglen;
    if (msg && msglen)
        msg[0] = '\0';
    /* --fst: the traced SM's back end is closed between launches */
    char err[256];
    if (!g->sm[g->wave_sm].sched && tm_sm_open(g, &g->sm[g->wave_sm], err, sizeof err) != 0) {
        tm_set_msg(g, "%s", err);
        return out->status = SMC_ERR_LAUNCH_FAILED;
    }
    smc_status st = timing_occupancy_compute(&g->cfg, req, &g->occ, msg, msglen);
    out->status = st;
    if (st != SMC_OK)
        return st;
    out->ctas_per_sm_limit = g->occ.ctas_per_sm;
    out->waves = g->occ.waves;
    /* SWL counts warps waiting at a barrier against the limit (the core lets
     * the first warp_limit alive warps of the SM issue): when a CTA has more
     * warps than the limit, its warps inside the limit wait at the barrier
     * for warps outside it that can never issue. Refuse such a launch up
     * front instead of running into the watchdog. */
    if (g->cfg.warp_limit && g->occ.warps_per_cta > g->cfg.warp_limit) {
        uint32_t bar_pc = UINT32_MAX;
        const emu_inst_info *in;
        for (uint32_t pc = 0; (in = src->ops->inst_at(src->ctx, pc)) != NULL; pc++)
            if (in->is_barrier) {
                bar_pc = pc;
                break;
            }
        if (bar_pc != UINT32_MAX) {
            tm_set_msg(g, "policy swl:%u lets only %u warps per SM issue, but a block of %u "
                    "threads has %u warps and kernel %s has a barrier (PTX line %u): the "
                    "warps at the barrier would wait forever for warps outside the limit; "
                    "use swl:%u or more, or a smaller block", g->cfg.warp_limit,
                    g->cfg.warp_limit, req->threads_per_cta, g->occ.warps_per_cta, kernel_name,
                    in->ptx_line, g->occ.warps_per_cta);
            return out->status = SMC_ERR_INVALID_CONFIGURATION;
        }
    }

    /* HAWS executes hinted instructions out of program order: the source
     * must be able to (the emulator can; a trace replays a recorded order
     * and carries no hints, docs/haws.md) */
    if (g->cfg.haws != GPU_HAWS_OFF && !src->ops->execute_hinted) {
        tm_set_msg(g, "sched.haws=%s needs the program itself (hints come from its PTX and hinted "
                "instructions execute out of order); the %s instruction source cannot: run with "
                "sched.haws=off", gpu_haws_name(g->cfg.haws), src->ops->name);
        return out->status = SMC_ERR_INVALID_CONFIGURATION;
    }
    out->haws.on = g->cfg.haws;
    out->oaws.on = g->oaws.mode;
    out->oaws.smr = g->oaws.mode == GPU_OAWS_STATIC ? g->oaws.smr : 50;
    out->oaws.ocw_min = out->oaws.ocw_max = g->oaws.ocw_min;
    out->haws.regs_per_thread = req->regs_per_thread_own ? req->regs_per_thread_own
                                                         : req->regs_per_thread;
    out->haws.regs_per_thread_haws = req->regs_per_thread_haws ? req->regs_per_thread_haws
                                                               : out->haws.regs_per_thread;

    g->mem = mem_create(&g->cfg.mem, err, sizeof err);
    if (!g->mem) {
        tm_set_msg(g, "memory model: %s", err);
        return out->status = SMC_ERR_INVALID_VALUE;
    }
    if (g->mem_prev) {          /* mem.keep_caches: the caches persist */
        mem_inherit_caches(g->mem, g->mem_prev);
        mem_destroy(g->mem_prev);
        g->mem_prev = NULL;
    }
    out->peers.on = g->cfg.peer;
    if (tm_peers_launch(g) != 0) {         /* CCWS's victim tag array (peers.c) */
        mem_destroy(g->mem);
        g->mem = NULL;
        return out->status = SMC_ERR_OUT_OF_MEMORY;
    }
    g->src = *src;
    g->st = out;
    g->fault = SMC_OK;
    g->mismatch = 0;
    g->cycle = 0;
    g->ncode = src->ops->code_size(src->ctx);
    g->join = calloc(g->ncode + 1, 1);
    if (!g->join || tm_code_addr(g, kernel_name, g->ncode) != 0) {
        free(g->join);
        g->join = NULL;
        mem_destroy(g->mem);
        g->mem = NULL;
        tm_set_msg(g, "out of host memory");
        return out->status = SMC_ERR_OUT_OF_MEMORY;
    }
    src->ops->mark_joins(src->ctx, g->join);
    sched_group_reset(g->cores);   /* every core, in one go; the group's cycle is t */
    for (uint32_t i = 0; i < g->nsm; i++)
        tm_sm_reset(g, &g->sm[i]);
    tm_dispatch_reset(g, req, kernel_name);

    uint32_t nctas = src->ops->num_ctas(src->ctx);
    /* gpu.locality_hint=auto: the first launch of a kernel detects its type */
    if (tm_launch_auto(g, req) && tm_detect_known(g, kernel_name) < 0 &&
        tm_detect_begin(g, nctas) != 0) {
        mem_destroy(g->mem);
        free(g->join);
        tm_set_msg(g, "out of host memory");
        return out->status = SMC_ERR_OUT_OF_MEMORY;
    }
    uint32_t next_cta = 0;
    uint64_t last_issue = 0, last_progress = 0, progress = src->ops->progress(src->ctx);
    double t0 = now_seconds(), next_progress = t0 + g->cfg.progress_seconds;
    uint64_t t = 0;
    for (;; t++) {
        g->cycle = t;
        /* 1. CTA dispatcher */
        if (tm_dispatch_cycle(g, &next_cta, nctas) != 0)
            break;
        /* 2. issue and execute */
        int issued = 0, busy = 0;
        for (uint32_t i = 0; i < g->nsm && !g->fault; i++)
            if (tm_sm_busy(g, &g->sm[i]) && tm_sm_front(g, &g->sm[i], t, &issued) != 0)
                break;
        if (g->fault)
            break;
        /* 3. memory */
        mem_cycle(g->mem);
        /* 4. completions and inputs of every busy SM, one edge for all */
        for (uint32_t i = 0; i < g->nsm && !g->fault; i++) {
            g->sched_active[i] = (uint8_t)tm_sm_busy(g, &g->sm[i]);
            if (g->sched_active[i] && tm_sm_back(g, &g->sm[i], t) != 0)
                break;
        }
        if (g->fault || cores_edge(g, t, &busy) != 0)
            break;
        if (issued)
            last_issue = t;
        if (!busy && next_cta >= nctas) {
            t++;
            break;
        }
        uint64_t p = src->ops->progress(src->ctx);
        if (p != progress) {
            progress = p;
            last_progress = t;
        }
        if (t - last_progress > g->cfg.watchdog_cycles) {
            char what[160];
            snprintf(what, sizeof what, "watchdog: %llu cycles, no warp exited, no barrier "
                     "completed, no CTA started (gpu.watchdog_cycles)",
                     (unsigned long long)g->cfg.watchdog_cycles);
            tm_hang(g, kernel_name, what);
            break;
        }
        if (t - last_issue > TM_STALL_CYCLES) {
            char what[160];
            snprintf(what, sizeof what, "watchdog: no instruction issued for %llu cycles "
                     "(the scheduler stalled)", (unsigned long long)TM_STALL_CYCLES);
            tm_hang(g, kernel_name, what);
            break;
        }
        if ((t & 0xFFFF) == 0) {
            if (stop && *stop) {
                g->fault = SMC_ERR_INTERRUPTED;
                tm_set_msg(g, "kernel %s: interrupted at cycle %llu", kernel_name,
                        (unsigned long long)t);
                t++;
                break;
            }
            if (g->cfg.progress_seconds) {
                double now = now_seconds();
                if (now >= next_progress) {
                    fprintf(stderr, "smcosim: %s: %llu cycles, %u/%u blocks started, "
                            "%.0f cycles/s\n", kernel_name, (unsigned long long)t,
                            next_cta, nctas, t / (now - t0));
                    next_progress = now + g->cfg.progress_seconds;
                }
            }
        }
    }
    out->cycles = t;
    /* a replay check: the cycles still queued (a difference fails the launch) */
    unsigned bad;
    if (sched_group_sync(g->cores, &bad) != 0 && !g->fault)
        cores_fail(g, bad);
    tm_detect_end(g, kernel_name);
    out->warp_insts = src->ops->warp_insts(src->ctx);
    out->thread_insts = src->ops->thread_insts(src->ctx);
    out->ipc = t ? (double)out->warp_insts / (double)t : 0.0;
    out->mem = *mem_get_stats(g->mem);
    out->peers.vta_inserts = out->mem.vta_inserts;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        mem_stats_json(g->mem, f);
        fclose(f);
        out->mem_json = buf;
    }
    out->host_seconds = now_seconds() - t0;
    /* the issue slots, active cycles and CTAs, counted per SM: the launch's
     * are their sums; stats.per_sm keeps them apart (out of host memory:
     * not apart) */
    for (uint32_t i = 0; i < g->nsm; i++) {
        const timing_sm_stats *p = &g->sm[i].st;
        for (unsigned r = 0; r < TS_COUNT; r++)
            out->slots[r] += p->slots[r];
        out->idle_slots += p->idle_slots;
        out->sm_active_cycles += p->active_cycles;
        out->ctas += p->ctas;
    }
    if (g->cfg.stats_per_sm && (out->per_sm = malloc(g->nsm * sizeof *out->per_sm)) != NULL)
        for (uint32_t i = 0; i < g->nsm; i++)
            out->per_sm[i] = g->sm[i].st;
    for (uint32_t i = 0; i < g->nsm && g->oaws.mode; i++)
        if (dlc_count(g->sm[i].dlc) > out->oaws.dlc_max)
            out->oaws.dlc_max = dlc_count(g->sm[i].dlc);
    /* leave no CTA behind (a fault or interruption stops mid-launch) */
    for (uint32_t i = 0; i < g->nsm; i++) {
        tm_sm *sm = &g->sm[i];
        for (uint32_t j = 0; j < g->cfg.max_ctas_per_sm; j++)
            if (sm->cta[j].used) {
                src->ops->cta_finish(sm->cta[j].src);
                sm->cta[j].used = 0;
            }
    }
    if (g->cfg.mem.keep_caches)
        g->mem_prev = g->mem;
    else
        mem_destroy(g->mem);
    g->mem = NULL;
    free(g->join);
    g->join = NULL;
    g->msg = NULL;
    out->status = g->fault;
    /* --fst: this launch's cycles into the waveform file, now (a CUDA
     * program never destroys its device) */
    if (tm_wave_launch_end(g, err, sizeof err) != 0)
        fprintf(stderr, "smcosim: waveform: %s\n", err);
    return g->fault;
}
