/*
 * inst_source_emu.c — the functional emulator (csrc/emu/emu.h) as the
 * timing model's instruction source: instructions execute for real at the
 * cycle the scheduler issues them, so a timed launch computes what a
 * functional one does.
 */
#include "inst_source.h"

#include "../ptx/ptx.h"

/* An inst_cta of this source is an emu_cta. */
static emu_cta *ecta(inst_cta *c) { return (emu_cta *)c; }
static const emu_cta *ccta(const inst_cta *c) { return (const emu_cta *)c; }
static inst_source_emu *st(void *ctx) { return ctx; }

static uint32_t emu_num_ctas(void *ctx) { return emu_launch_num_ctas(st(ctx)->launch); }

static const emu_inst_info *emu_inst_at(void *ctx, uint32_t pc)
{
    return emu_kernel_inst(st(ctx)->kernel, pc);
}

static uint32_t emu_code_size(void *ctx) { return emu_kernel_ptx(st(ctx)->kernel)->ncode; }

static void emu_mark_joins(void *ctx, uint8_t *join)
{
    const emu_kernel *ek = st(ctx)->kernel;
    const ptx_kernel *pk = emu_kernel_ptx(ek);
    for (uint32_t pc = 0; pc < pk->ncode; pc++) {
        const emu_inst_info *in = emu_kernel_inst(ek, pc);
        if (in->is_branch && pk->reconv && pk->reconv[pc] < pk->ncode)
            join[pk->reconv[pc]] = 1;
    }
}

static const smc_fault *emu_fault(void *ctx) { return emu_launch_fault(st(ctx)->launch); }
static uint64_t emu_warp_insts(void *ctx) { return emu_launch_warp_insts(st(ctx)->launch); }
static uint64_t emu_thread_insts(void *ctx) { return emu_launch_thread_insts(st(ctx)->launch); }
static uint64_t emu_progress(void *ctx) { return emu_launch_progress(st(ctx)->launch); }

static inst_cta *emu_start(void *ctx, uint32_t linear, uint32_t smid)
{
    return (inst_cta *)emu_cta_create(st(ctx)->launch, linear, smid);
}

static uint32_t emu_warps(const inst_cta *c) { return emu_cta_num_warps(ccta(c)); }
static bool emu_done(const inst_cta *c) { return emu_cta_done(ccta(c)); }
static void emu_finish(inst_cta *c) { emu_cta_destroy(ecta(c)); }

static const emu_inst_info *emu_peek(const inst_cta *c, uint32_t w) { return emu_warp_peek(ccta(c), w); }

static int emu_execute(inst_cta *c, uint32_t w, emu_exec_info *out)
{
    return emu_warp_execute(ecta(c), w, out);
}

static int emu_skip(inst_cta *c, uint32_t w) { return emu_warp_skip(ecta(c), w); }
static int emu_hint_begin(inst_cta *c, uint32_t w) { return emu_warp_hint_begin(ecta(c), w); }
static int emu_execute_hinted(inst_cta *c, uint32_t w, uint32_t pc, uint32_t mask, int rename_to,
                              emu_exec_info *out)
{
    return emu_warp_execute_hinted(ecta(c), w, pc, mask, rename_to, out);
}
static int emu_branch_ahead(inst_cta *c, uint32_t w, uint32_t pc, uint32_t mask, uint32_t *taken)
{
    return emu_warp_branch_ahead(ecta(c), w, pc, mask, taken);
}
static int emu_commit(inst_cta *c, uint32_t w) { return emu_warp_commit(ecta(c), w); }
static uint32_t emu_ahead(const inst_cta *c, uint32_t w) { return emu_warp_ahead_pending(ccta(c), w); }
static uint32_t emu_mask(const inst_cta *c, uint32_t w) { return emu_warp_active_mask(ccta(c), w); }
static bool emu_ready(const inst_cta *c, uint32_t w) { return emu_warp_ready(ccta(c), w); }
static bool emu_exited(const inst_cta *c, uint32_t w) { return emu_warp_exited(ccta(c), w); }
static uint64_t emu_idle(const inst_cta *c, uint32_t w) { return emu_warp_idle_insts(ccta(c), w); }
static void emu_hang(inst_cta *c, uint32_t w, const char *what) { emu_launch_hang(ecta(c), w, what); }

static const inst_source_ops emu_source_ops = {
    .name = "emulator",
    .num_ctas = emu_num_ctas,
    .inst_at = emu_inst_at,
    .mark_joins = emu_mark_joins,
    .code_size = emu_code_size,
    .fault = emu_fault,
    .warp_insts = emu_warp_insts,
    .thread_insts = emu_thread_insts,
    .progress = emu_progress,
    .cta_start = emu_start,
    .cta_warps = emu_warps,
    .cta_done = emu_done,
    .cta_finish = emu_finish,
    .peek = emu_peek,
    .execute = emu_execute,
    .skip = emu_skip,
    .ready = emu_ready,
    .exited = emu_exited,
    .idle_insts = emu_idle,
    .hang = emu_hang,
    .hint_begin = emu_hint_begin,
    .execute_hinted = emu_execute_hinted,
    .branch_ahead = emu_branch_ahead,
    .commit = emu_commit,
    .ahead_pending = emu_ahead,
    .active_mask = emu_mask,
};

inst_source inst_source_from_emu(inst_source_emu *state, const emu_kernel *ek, emu_launch *l)
{
    state->kernel = ek;
    state->launch = l;
    return (inst_source){ &emu_source_ops, state };
}
