/*
 * launch.c — a launch, its CTAs and their warps: creation, destruction,
 * the queries of emu.h (state, pc, active mask, next instruction), and the
 * launch's fault record (emu_fault, emu_launch_hang).
 */
#include "exec_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

emu_launch *emu_launch_create(const emu_launch_desc *d) {
    emu_launch *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->d = *d;
    l->ek = d->kernel;
    l->k = d->kernel->k;
    l->params = calloc(1, l->k->param_bytes + 8);
    if (!l->params) { free(l); return NULL; }
    if (d->params) memcpy(l->params, d->params, d->param_bytes < l->k->param_bytes ? d->param_bytes : l->k->param_bytes);
    l->nctas = d->grid.x * d->grid.y * d->grid.z;
    l->threads_per_cta = d->block.x * d->block.y * d->block.z;
    l->warps_per_cta = (l->threads_per_cta + 31) / 32;
    l->watchdog = d->watchdog ? d->watchdog : EMU_DEFAULT_WATCHDOG;
    l->fault.status = SMC_OK;
    return l;
}
void emu_launch_destroy(emu_launch *l) { if (l) { free(l->params); free(l); } }
uint32_t emu_launch_num_ctas(const emu_launch *l) { return l->nctas; }
const smc_fault *emu_launch_fault(const emu_launch *l) { return &l->fault; }
uint64_t emu_launch_warp_insts(const emu_launch *l) { return l->warp_insts; }
uint64_t emu_launch_thread_insts(const emu_launch *l) { return l->thread_insts; }
uint64_t emu_launch_progress(const emu_launch *l) { return l->progress; }

emu_cta *emu_cta_create(emu_launch *l, uint32_t linear, uint32_t smid) {
    if (linear >= l->nctas) return NULL;
    emu_cta *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->l = l; c->linear = linear; c->smid = smid;
    c->id.x = linear % l->d.grid.x;
    c->id.y = (linear / l->d.grid.x) % l->d.grid.y;
    c->id.z = linear / (l->d.grid.x * l->d.grid.y);
    c->nthreads = l->threads_per_cta;
    c->nwarps = l->warps_per_cta;
    c->live_warps = c->nwarps;
    c->smem_size = l->k->static_smem + l->d.dyn_smem;
    /* a kernel that calls out of line has its call stack after its own frame */
    c->local_size = l->k->stack_bytes ? (l->k->local_bytes + 15u) / 16u * 16u + l->k->stack_bytes
                                      : l->k->local_bytes;
    c->smem = calloc(1, c->smem_size + 16);
    c->local = calloc(1, (size_t)c->local_size * c->nthreads + 16);
    c->w = calloc(c->nwarps, sizeof *c->w);
    if (!c->smem || !c->local || !c->w) goto fail;
    size_t nr = (size_t)l->k->nregs * 32;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        warp *w = &c->w[i];
        uint32_t n = c->nthreads - i * 32;
        w->valid = n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
        w->regs = calloc(nr + 1, sizeof *w->regs);
        if (l->d.verify_regalloc) {
            w->owner = calloc((PTX_MAX_PHYS_REGS + 1 + PTX_MAX_PRED_REGS) * 32, sizeof *w->owner);
            if (!w->owner) goto fail;
        }
        w->cap = 8;
        w->stack = malloc(w->cap * sizeof *w->stack);
        if (!w->regs || !w->stack) goto fail;
        w->stack[0] = (simt_entry){ 0, PTX_NO_PC, w->valid, 0 };
        w->sp = 1;
        w->state = W_RUN;
        w->bar_dst = -1;
    }
    /* a CTA starting is progress: new work entered the machine (in the
     * functional runner it always follows the previous CTA's last exit) */
    l->progress++;
    return c;
fail:
    emu_cta_destroy(c);
    return NULL;
}

void emu_cta_destroy(emu_cta *c) {
    if (!c) return;
    if (c->w) for (uint32_t i = 0; i < c->nwarps; i++) {
        free(c->w[i].regs); free(c->w[i].stack); free(c->w[i].owner); free(c->w[i].haws);
        free(c->w[i].calls); free(c->w[i].save);
    }
    free(c->w); free(c->smem); free(c->local); free(c);
}
uint32_t emu_cta_num_warps(const emu_cta *c) { return c->nwarps; }
bool emu_cta_done(const emu_cta *c) { return c->live_warps == 0; }
bool emu_warp_exited(const emu_cta *c, uint32_t w) { return w >= c->nwarps || c->w[w].state == W_DONE; }
bool emu_warp_ready(const emu_cta *c, uint32_t w) {
    return w < c->nwarps && c->w[w].state == W_RUN && c->l->fault.status == SMC_OK;
}
uint64_t emu_warp_idle_insts(const emu_cta *c, uint32_t w) {
    if (w >= c->nwarps || c->w[w].dog_epoch != c->l->progress) return 0;
    return c->w[w].dog_insts;
}
uint32_t emu_warp_pc(const emu_cta *c, uint32_t w) {
    if (w >= c->nwarps || c->w[w].state == W_DONE) return PTX_NO_PC;
    return c->w[w].stack[c->w[w].sp - 1].pc;
}
uint32_t emu_warp_active_mask(const emu_cta *c, uint32_t w) {
    if (w >= c->nwarps || c->w[w].state == W_DONE) return 0;
    return c->w[w].stack[c->w[w].sp - 1].mask;
}
uint32_t emu_warp_stack_depth(const emu_cta *c, uint32_t w) {
    return w < c->nwarps && c->w[w].state != W_DONE ? c->w[w].sp : 0;
}
const emu_inst_info *emu_warp_peek(const emu_cta *c, uint32_t w) {
    if (w >= c->nwarps || c->w[w].state == W_DONE) return NULL;
    const warp *W = &c->w[w];
    return emu_kernel_inst(c->l->ek, W->stack[W->sp - 1].pc);
}

/* ---- faults ---------------------------------------------------------------- */
int emu_fault(emu_cta *c, uint32_t wi, int lane, uint32_t pc, smc_status st, uint64_t addr,
              const char *fmt, ...) {
    emu_launch *l = c->l;
    if (l->fault.status != SMC_OK) return EMU_FAULT;
    smc_fault *f = &l->fault;
    f->status = st;
    snprintf(f->kernel, sizeof f->kernel, "%s", l->k->name);
    f->cta = c->id; f->warp = wi; f->lane = lane < 0 ? 0 : (uint32_t)lane;
    f->pc = pc; f->ptx_line = pc < l->k->ncode ? l->k->code[pc].line : 0;
    f->address = addr;
    char what[200];
    va_list ap; va_start(ap, fmt);
    int n = vsnprintf(what, sizeof what - 32, fmt, ap);
    va_end(ap);
    if (l->ahead_note && n >= 0)
        snprintf(what + strlen(what), 32, " (executed ahead by HAWS)");
    if (snprintf(f->message, sizeof f->message, "%s: %s in kernel %.60s, CTA (%u,%u,%u), warp %u, lane %d, pc %u (PTX line %u)",
                 smc_status_name(st), what, l->k->name, c->id.x, c->id.y, c->id.z, wi, lane, pc, f->ptx_line) < 0)
        f->message[0] = 0;
    return EMU_FAULT;
}

int emu_launch_hang(emu_cta *c, uint32_t wi, const char *what) {
    if (c->l->fault.status != SMC_OK) return EMU_FAULT;
    uint32_t pc = 0, lane = 0;
    if (wi < c->nwarps && c->w[wi].state != W_DONE) {
        const warp *w = &c->w[wi];
        const simt_entry *top = &w->stack[w->sp - 1];
        pc = w->state == W_BAR ? w->bar_pc : top->pc;
        uint32_t m = top->mask ? top->mask : w->valid & ~w->exited;
        lane = m ? (uint32_t)__builtin_ctz(m) : 0;
    }
    return emu_fault(c, wi, (int)lane, pc, SMC_ERR_LAUNCH_TIMEOUT, 0, "%s", what);
}
