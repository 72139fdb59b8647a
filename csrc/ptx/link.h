/*
 * link.h — turn one .entry of a parsed module into a flat, executable kernel.
 *
 * Linking inlines every .func call (recursion is rejected), resolves every
 * symbol to a number (global/const variables to device addresses, shared
 * variables to offsets in the CTA's shared memory, .local arrays and call
 * parameters to offsets in the thread's local memory, kernel parameters to
 * offsets in the parameter block), builds the control-flow graph, computes
 * the immediate post-dominator of every branch (the SIMT reconvergence
 * point) and allocates physical registers (see docs/emulator.md).
 */
#ifndef SMC_PTX_LINK_H
#define SMC_PTX_LINK_H

#include "ptx.h"

/* Generic-address windows of the per-CTA shared and per-thread local spaces
 * (cvta.shared / cvta.local). Global device memory lives far above them. */
#define SMC_SHARED_WINDOW 0x0000010000000000ull   /* 1 TiB */
#define SMC_LOCAL_WINDOW  0x0000020000000000ull   /* 2 TiB */
#define SMC_WINDOW_SIZE   0x0000000100000000ull   /* 4 GiB each */

#define PTX_NO_PC UINT32_MAX          /* reconvergence at kernel exit */
#define PTX_MAX_PHYS_REGS 255         /* 32-bit registers per thread */
#define PTX_MAX_PRED_REGS 32          /* predicate file, see docs */
#define PTX_NO_PHYS 0xFFFFu

typedef struct ptx_kparam {
    const char *name;
    uint32_t offset, size, align;
} ptx_kparam;

typedef struct ptx_kernel {
    const char *name;
    ptx_insn *code;   uint32_t ncode;
    uint8_t  *reg_type; uint32_t nregs;  /* virtual registers after inlining */
    uint32_t *reconv;                    /* per pc: reconvergence pc of a branch */
    uint16_t *phys;                      /* per vreg: physical id (pair: first) */
    uint32_t regs_per_thread, pred_regs;
    uint32_t static_smem, local_bytes, param_bytes, const_bytes;
    ptx_kparam *params; uint32_t nparams;
    uint32_t maxntid[3], reqntid[3], minnctapersm;
    ptx_arena *arena;                    /* owns all of the above */
} ptx_kernel;

/* Device addresses of module-scope .global/.const variables, supplied by the
 * device that owns the memory. */
typedef uint64_t (*ptx_var_addr_fn)(void *ctx, const ptx_var *v);

ptx_kernel *ptx_link(const ptx_module *m, const ptx_func *entry,
                     ptx_var_addr_fn addr, void *ctx, char *err, size_t errlen);
void ptx_kernel_free(ptx_kernel *k);

/* Register operands of an instruction: destinations (written) and sources
 * (read, including the guard and address bases). Returns counts through
 * *nd / *ns; arrays need room for 8 and 16 entries. One place defines the
 * operand roles for liveness, the timing-model interface and the tests. */
void ptx_insn_regs(const ptx_insn *in, int32_t *dst, uint32_t *nd,
                   int32_t *src, uint32_t *ns);

#endif
