/*
 * exec_internal.h — what the files of the functional emulator share.
 *
 * The emulator (emu.h is its contract) is split by concern, one file per
 * PTX instruction family in the manner of Multi2Sim:
 *
 *   kernel.c          pre-decoding a linked kernel (emu_kernel_*)
 *   launch.c          launch, CTA and warp state, their queries, faults
 *   exec.c            the dispatcher: emu_execute_at's switch (the one place an
 *                     opcode is mapped to its family) and the fast paths
 *   exec_int.c        integer arithmetic, logic and bit manipulation
 *   exec_float.c      f32/f64 arithmetic
 *   exec_half.c       f16/f16x2 arithmetic, the f16 conversions, cvt
 *   exec_compare.c    setp/set, selp/slct, testp
 *   exec_memory.c     address translation, mov, cvta, isspacep, ld/st, atomics
 *   exec_control.c    the SIMT stack, bra, exit, out-of-line call and ret
 *   exec_warp.c       shfl, vote, match, activemask, barriers
 *   exec_video.c      SIMD video instructions (vadd4, vabsdiff2, ...)
 *   exec_sreg.c       special registers (%tid, %clock, ...)
 *   exec_builtin.c    device-runtime builtins: vprintf, malloc/free, __assertfail
 *   verify_regalloc.c the register-allocation verifier (verify_regalloc)
 *   exec_ahead.c      HAWS execution ahead of order (docs/haws.md "Emulator")
 *   runner.c          the functional runner (emu_run_functional)
 *
 * This header owns the state they share (kernel, launch, CTA, warp, the
 * per-instruction context), the helpers every family uses (operand read,
 * register write, bit and float conversions) as static inline functions,
 * since they run once per lane, and the prototypes of what one file
 * offers the others. Everything here is internal to libsmc_emu.
 *
 * Values are kept per virtual register and lane as 64-bit words holding the
 * register's bits zero-extended (a .b32 register never has bits above 31).
 * Each instruction reads its operands at its own type width, computes in
 * 64-bit (or float/double), and writes the result masked to the width of
 * the destination register.
 *
 * Every file of csrc/emu/ is compiled with -frounding-math (csrc/module.mk):
 * rounding-mode changes (fesetround) must not be optimised across.
 */
#ifndef SMC_EMU_EXEC_INTERNAL_H
#define SMC_EMU_EXEC_INTERNAL_H

#include "emu.h"
#include "../../hints/haws_hint.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

/* ---- kernel, launch, CTA, warp state ------------------------------------------ */
/* A linked kernel pre-decoded for execution (kernel.c). */
struct emu_kernel {
    ptx_kernel *k;
    emu_inst_info *info;
    uint64_t *rmask;          /* per vreg: mask of its width */
    uint32_t regs_haws;       /* registers per thread with the HAWS pool (0 = none) */
    /* per out-of-line function: the rows of the regalloc verifier's owner
     * table (physical registers, then predicates) its registers occupy,
     * kf_rows[kf_rows_off[i] .. kf_rows_off[i + 1]) */
    uint16_t *kf_rows; uint32_t *kf_rows_off;
};

/* depth: the call depth its lanes run at (0 = the kernel; n = inside the
 * n-th out-of-line call, warp.calls[n - 1]). Depths never decrease from the
 * bottom of the stack to the top. */
typedef struct simt_entry { uint32_t pc, rpc, mask, depth; } simt_entry;

/* One out-of-line call in progress (docs/emulator.md "Calls"). All lanes of
 * an activation called the same function from the same call site at the
 * same depth, so they share the frame base. Saved values (registers of a
 * function that is active deeper down the stack, verifier owner rows) are
 * in warp.save from save_off on. */
typedef struct call_rec {
    uint32_t kf, site;        /* ptx_kernel.funcs / .calls index */
    uint32_t base, caller_base;   /* frame bases in the thread's local memory */
    bool     saved_regs;      /* the function's registers were saved (recursion) */
    size_t   save_off;
} call_rec;

enum { W_RUN, W_BAR, W_DONE };

typedef struct warp {
    uint32_t valid;          /* lanes that have a thread */
    uint32_t exited;
    uint32_t carry;          /* CC.CF per lane */
    uint8_t  state, bar_id;
    int32_t  bar_dst;        /* bar.red destination vreg, -1 */
    uint32_t bar_dst_mask;
    uint32_t bar_pc;         /* pc of the barrier it waits at (W_BAR) */
    /* the watchdog: warp-instructions executed since the launch's progress
     * count was dog_epoch (counts from 0 again when the count moved on) */
    uint64_t dog_epoch, dog_insts;
    simt_entry *stack; uint32_t sp, cap;
    call_rec *calls; uint32_t ncalls, calls_cap;   /* out-of-line calls, by depth */
    uint8_t *save; size_t save_top, save_cap;      /* their saved values (a stack) */
    uint64_t *regs;          /* nregs x 32 */
    uint32_t *owner;         /* verify_regalloc: per physical register and lane,
                                1 + the virtual register that wrote it last */
    struct warp_haws *haws;  /* execution ahead of order; NULL until first used */
} warp;

/* HAWS (docs/haws.md "Emulator"): a warp's state for execution ahead of
 * order, allocated when first used. The pool registers are the shadow
 * storage behind the renamed ids [base, base + HAWS_POOL_REGS) (base =
 * haws_pool_base(regs_per_thread)): 32 bits per id and lane, as in the
 * register file (a 64-bit value: even id = low half, next id = high half).
 * For the regalloc verifier pool index j is "shadow virtual register
 * nregs + j". */
#define AHEAD_LOG_MAX 64u    /* far above any RCU depth; more is a timing-model bug */
typedef struct ahead_entry {
    uint32_t pc, mask, act;  /* executed for mask; act = mask with the guard applied */
    int32_t  renamed;        /* pool id of the destination, -1 = not renamed */
    int32_t  dst;            /* the renamed destination's virtual register, -1 */
} ahead_entry;
typedef struct warp_haws {
    uint8_t  ren[PTX_MAX_PHYS_REGS + 1];  /* renaming map: physical id -> 1 + pool index, 0 = none */
    uint32_t written[HAWS_POOL_REGS];     /* lanes each pool register holds a value for */
    uint32_t val[HAWS_POOL_REGS][32];     /* pool registers, per lane */
    ahead_entry log[AHEAD_LOG_MAX];       /* the ahead log (ring buffer), oldest at head */
    uint32_t head, n;
} warp_haws;
/* How one execution ahead redirects operands (ctx.hr): sources through the
 * map, the destination to pool index `pool` when dst >= 0. */
typedef struct haws_redirect {
    const warp_haws *h;
    uint32_t base;           /* first pool id */
    int32_t  dst;            /* renamed destination virtual register, -1 */
    uint32_t pool;           /* its pool index */
} haws_redirect;

typedef struct barrier {
    uint32_t arrived_warps, arrived_threads, expected;   /* expected threads, 0 = all */
    uint32_t popc; uint8_t red_and, red_or, red_kind;
} barrier;

struct emu_cta {
    emu_launch *l;
    uint32_t linear, smid;
    smc_dim3 id;
    uint32_t nwarps, nthreads, live_warps;
    warp *w;
    uint8_t *smem; uint32_t smem_size;
    uint8_t *local; uint32_t local_size;
    barrier bar[16];
};

struct emu_launch {
    emu_launch_desc d;
    const emu_kernel *ek;
    const ptx_kernel *k;
    uint8_t *params;
    smc_fault fault;
    uint64_t warp_insts, thread_insts;
    /* progress events so far (a warp exited, a barrier completed, a CTA
     * started) and the watchdog's budget per warp (docs/emulator.md) */
    uint64_t progress, watchdog;
    uint32_t nctas, threads_per_cta, warps_per_cta;
    bool ahead_note;         /* faults now say "(executed ahead by HAWS)" */
};

/* ---- faults (launch.c) ---------------------------------------------------------- */
/* Record the launch's fault (the first one only) and return EMU_FAULT. lane
 * -1: the warp as a whole. */
int emu_fault(emu_cta *c, uint32_t wi, int lane, uint32_t pc, smc_status st, uint64_t addr,
              const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* ---- the per-instruction context ------------------------------------------------- */
/* One warp-instruction being executed: every family's exec_* gets it and
 * the lanes that execute (active and guard true). */
typedef struct ctx {
    emu_cta *c;
    warp *w;
    uint32_t wi, pc;
    const ptx_insn *in;
    const uint64_t *rmask;
    emu_exec_info *out;
    const struct haws_redirect *hr;   /* executed ahead (HAWS): operand redirection, else NULL */
} ctx;

/* A special register's value for one lane (exec_sreg.c). */
uint64_t emu_sreg(const ctx *X, int id, int lane);

/* ---- values ------------------------------------------------------------------- */
static inline float f32(uint64_t b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }
static inline double f64(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static inline uint64_t bf32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t bf64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline int64_t sext(uint64_t v, unsigned bits) {
    return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}
static inline uint64_t zmask(unsigned bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }
static inline float ftz32(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }
static inline double ftz64(double x) { return fpclassify(x) == FP_SUBNORMAL ? copysign(0.0, x) : x; }
static inline float sat32(float x) { return isnan(x) ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static inline double sat64(double x) { return isnan(x) ? 0.0 : x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; }
static inline unsigned tbits(uint8_t t) { return ptx_type_size[t] * 8u; }

/* A subnormal half becomes a zero of the same sign (.ftz). */
static inline uint16_t ftz16(uint16_t h) { return (h & 0x7c00) == 0 && (h & 0x3ff) ? (uint16_t)(h & 0x8000) : h; }

/* Round a double to f16 in the given mode (one rounding step), and an f16
 * value widened to float (exact) (exec_half.c). */
uint16_t emu_f16_round(double f, uint8_t rnd);
float emu_f16_to_float(uint16_t h);

/* ---- operands ------------------------------------------------------------------ */
/* An operand's value in one lane: register (a negated predicate read
 * inverted), immediate or special register. */
static inline uint64_t val(const ctx *X, const ptx_operand *o, int lane) {
    switch (o->kind) {
    case OK_REG: { uint64_t v = X->w->regs[(size_t)o->reg * 32 + lane]; return o->neg ? v ^ 1 : v; }
    case OK_IMM: return o->imm;
    case OK_SREG: return emu_sreg(X, o->reg, lane);
    default: return 0;
    }
}
static inline void wr(const ctx *X, int32_t reg, int lane, uint64_t v) {
    if (reg >= 0) X->w->regs[(size_t)reg * 32 + lane] = v & X->rmask[reg];
}

#define LANES(mask) for (uint32_t m_ = (mask), lane; m_ && ((lane = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

/* Switch the host rounding mode for an instruction's .rz/.rm/.rp (1: it was
 * switched, reset_rounding puts round-to-nearest back). */
static inline int set_rounding(uint8_t rnd) {
    switch (rnd) {
    case RND_RZ: case RND_RZI: return fesetround(FE_TOWARDZERO), 1;
    case RND_RM: case RND_RMI: return fesetround(FE_DOWNWARD), 1;
    case RND_RP: case RND_RPI: return fesetround(FE_UPWARD), 1;
    default: return 0;
    }
}
static inline void reset_rounding(int changed) { if (changed) fesetround(FE_TONEAREST); }

/* The lanes of mask whose guard lets the instruction through. */
static inline uint32_t guard_lanes(const warp *w, const ptx_insn *in, uint32_t mask) {
    if (in->guard < 0) return mask;
    const uint64_t *g = &w->regs[(size_t)in->guard * 32];
    uint32_t gm = 0;
    LANES(mask) if ((g[lane] & 1) != in->guard_neg) gm |= 1u << lane;
    return gm;
}

/* ---- memory (exec_memory.c) ------------------------------------------------------- */
/* Translate a guest address of one lane to a host pointer; NULL after
 * recording a fault. *resolved (when not NULL): the space a generic
 * address falls in. */
void *emu_xlate(const ctx *X, int lane, uint8_t space, uint64_t addr, uint32_t size,
                bool write, uint8_t *resolved);

static inline uint64_t load_bytes(const void *p, uint32_t n) {
    uint64_t v = 0;
    memcpy(&v, p, n);   /* little-endian host */
    return v;
}
static inline void store_bytes(void *p, uint64_t v, uint32_t n) { memcpy(p, &v, n); }

static inline uint64_t addr_of(const ctx *X, const ptx_operand *o, int lane) {
    uint64_t a = o->imm;
    if (o->reg >= 0) a += X->w->regs[(size_t)o->reg * 32 + lane];
    return a;
}

/* Value read from memory, extended as the load type says. */
static inline uint64_t ext_load(uint64_t v, uint8_t type) {
    unsigned bits = ptx_type_size[type] * 8u;
    return ptx_type_class[type] == TC_SINT ? (uint64_t)sext(v, bits) : v;
}

/* ---- the SIMT stack (exec_control.c) ------------------------------------------------ */
/* Pop entries that reached their reconvergence point or have no lanes left. */
static inline void reconverge(warp *w) {
    while (w->sp > 0) {
        simt_entry *t = &w->stack[w->sp - 1];
        if (t->mask != 0 && t->pc != t->rpc) break;
        w->sp--;
    }
}

/* Drop the call records of activations whose SIMT entries are all gone. */
static inline void calls_trim(warp *w) {
    uint32_t d = w->sp ? w->stack[w->sp - 1].depth : 0;
    while (w->ncalls > d) w->save_top = w->calls[--w->ncalls].save_off;
}

/* Push an entry (a fault on overflow or out of memory). */
int emu_simt_push(ctx *X, uint32_t pc, uint32_t rpc, uint32_t mask, uint32_t depth);
/* The lanes of mask exit; the warp is done when none is left. */
void emu_lanes_exit(emu_cta *c, uint32_t wi, uint32_t mask);

/* ---- barriers (exec_warp.c) --------------------------------------------------------- */
/* Release barrier id when every live warp has arrived (or the count is met). */
void emu_barrier_check(emu_cta *c, uint32_t id);
/* EMU_FAULT when no warp of the CTA can move again (a deadlock), else EMU_OK. */
int emu_deadlock_check(emu_cta *c);

/* ---- the register-allocation verifier (verify_regalloc.c) ------------------------- */
int emu_verify_sources(ctx *X, uint32_t mask);
void emu_record_dests(ctx *X, uint32_t act);

/* ---- the dispatcher (exec.c) --------------------------------------------------------- */
/* Execute the instruction at pc for the lanes in mask; hr != NULL: ahead of
 * order (HAWS, exec_ahead.c). */
int emu_execute_at(emu_cta *c, uint32_t wi, uint32_t pc, uint32_t mask, const haws_redirect *hr,
                   emu_exec_info *out);

/* ---- the instruction families ------------------------------------------------------ */
/* What every family's exec_* function is: execute X->in for the lanes act
 * (active, guard true); EMU_OK, EMU_FAULT (after emu_fault),
 * EMU_WAIT_BARRIER or EMU_EXITED. The dispatcher's switch calls them. */
typedef int exec_fn(ctx *X, uint32_t act);

exec_fn exec_arith_int, exec_logic;                                 /* exec_int.c */
exec_fn exec_arith_float;                                           /* exec_float.c */
exec_fn exec_arith_half, exec_cvt;                                  /* exec_half.c */
exec_fn exec_compare, exec_select, exec_testp;                      /* exec_compare.c */
exec_fn exec_mov, exec_cvta, exec_isspacep, exec_ldst, exec_atom;   /* exec_memory.c */
exec_fn exec_exit, exec_call, exec_ret;                             /* exec_control.c */
exec_fn exec_shfl, exec_vote, exec_match, exec_bar;                 /* exec_warp.c */
exec_fn exec_video;                                                 /* exec_video.c */
exec_fn exec_builtin;                                               /* exec_builtin.c */
/* (these two also need the lanes the warp executes for, guard or not) */
int exec_bra(ctx *X, uint32_t act, uint32_t mask);                  /* exec_control.c */
int exec_activemask(ctx *X, uint32_t act, uint32_t mask);           /* exec_warp.c */

#endif
