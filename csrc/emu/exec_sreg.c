/*
 * exec_sreg.c — special registers (%tid, %ctaid, %laneid, %clock,
 * %globaltimer, %lanemask_*, %envreg*, ...), read as operands by val().
 * docs/emulator.md says where the clock values come from.
 */
#include "exec_internal.h"

static uint64_t clock_now(const ctx *X) {
    emu_launch *l = X->c->l;
    return l->d.clock ? l->d.clock(l->d.clock_ctx, X->c->smid) : l->warp_insts;
}

uint64_t emu_sreg(const ctx *X, int id, int lane) {
    const emu_launch *l = X->c->l;
    uint32_t t = X->wi * 32 + (uint32_t)lane;
    smc_dim3 b = l->d.block;
    switch (id) {
    case SR_TID_X: return t % b.x;
    case SR_TID_Y: return (t / b.x) % b.y;
    case SR_TID_Z: return t / (b.x * b.y);
    case SR_NTID_X: return b.x;
    case SR_NTID_Y: return b.y;
    case SR_NTID_Z: return b.z;
    case SR_CTAID_X: return X->c->id.x;
    case SR_CTAID_Y: return X->c->id.y;
    case SR_CTAID_Z: return X->c->id.z;
    case SR_NCTAID_X: return l->d.grid.x;
    case SR_NCTAID_Y: return l->d.grid.y;
    case SR_NCTAID_Z: return l->d.grid.z;
    case SR_LANEID: return (uint64_t)lane;
    case SR_WARPID: return X->wi;
    case SR_NWARPID: return l->d.max_warps_per_sm ? l->d.max_warps_per_sm : 64;
    case SR_SMID: return X->c->smid;
    case SR_NSMID: return l->d.num_sms ? l->d.num_sms : 1;
    case SR_GRIDID: return 1;
    case SR_CLOCK: return (uint32_t)clock_now(X);
    case SR_CLOCK_HI: return (uint32_t)(clock_now(X) >> 32);
    case SR_CLOCK64: return clock_now(X);
    case SR_GLOBALTIMER: return clock_now(X);          /* 1 ns per cycle, see docs */
    case SR_GLOBALTIMER_LO: return (uint32_t)clock_now(X);
    case SR_GLOBALTIMER_HI: return (uint32_t)(clock_now(X) >> 32);
    case SR_LANEMASK_EQ: return 1u << lane;
    case SR_LANEMASK_LE: return (uint32_t)((2ull << lane) - 1);
    case SR_LANEMASK_LT: return (1u << lane) - 1;
    case SR_LANEMASK_GE: return ~((1u << lane) - 1);
    case SR_LANEMASK_GT: return (uint32_t)~((2ull << lane) - 1);
    case SR_DYN_SMEM: return l->d.dyn_smem;
    case SR_TOTAL_SMEM: return X->c->smem_size;
    default:
        if (id >= SR_ENVREG0 && id <= SR_ENVREG31) return l->d.envreg[id - SR_ENVREG0];
        return 0;
    }
}
