/*
 * link.h — turn one .entry of a parsed module into a flat, executable kernel.
 *
 * Linking inlines .func calls (a recursive call, and every function an
 * indirect call may reach, are called out of line instead), resolves every
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

/* Function addresses ("code addresses", docs/emulator.md "Calls"): the
 * function with index i in its module's function list has the address
 * SMC_CODE_WINDOW + 16 * (i + 1). The window holds no memory, so a load or
 * store through a function pointer is an illegal address, and an indirect
 * call through anything else than such an address is a fault. */
#define SMC_CODE_WINDOW   0x0000030000000000ull   /* 3 TiB */
#define SMC_CODE_ALIGN    16u

/* Per-thread call stack of a kernel that calls functions out of line
 * (recursion, indirect calls): local memory after the kernel's own frame.
 * A call whose frame does not fit is a stack-overflow fault. Every frame
 * takes at least PTX_MIN_FRAME bytes (the return address of a real ABI), so
 * the depth is at most PTX_CALL_STACK_BYTES / PTX_MIN_FRAME = 1024. */
#define PTX_CALL_STACK_BYTES 16384u
#define PTX_MIN_FRAME 16u

#define PTX_NO_PC UINT32_MAX          /* reconvergence at kernel exit */
#define PTX_MAX_PHYS_REGS 255         /* 32-bit registers per thread */
#define PTX_MAX_PRED_REGS 32          /* predicate file, see docs */
#define PTX_NO_PHYS 0xFFFFu

typedef struct ptx_kparam {
    const char *name;
    uint32_t offset, size, align;
} ptx_kparam;

/* A function compiled out of line into the kernel's code (after the
 * kernel's own code): the target of out-of-line calls. Its frame, in the
 * thread's local memory at the frame base the call sets, holds its formal
 * parameters first (params, then results, each at its alignment; offsets
 * in arg_off) and then its body's .local/.param variables, all addressed
 * through the frame-pointer register `fp`. */
typedef struct ptx_kfunc {
    const char *name;
    uint32_t module_index;          /* in the module's function list (its code address) */
    uint32_t entry;                 /* pc of its first instruction */
    uint32_t vreg_base, nvregs;     /* its virtual registers (functions inlined into it included) */
    int32_t  fp;                    /* the frame-pointer virtual register (.b64) */
    uint32_t frame_bytes;           /* multiple of 16, >= PTX_MIN_FRAME */
    uint32_t nargs, nrets;          /* formal parameters and results */
    uint32_t *arg_off, *arg_size;   /* nargs + nrets entries: frame offset and bytes */
} ptx_kfunc;

/* One out-of-line call site (OP_CALL with mode MD_NONE; its `target` is the
 * index in ptx_kernel.calls). Its ops[0] is the callee: OK_IMM = index in
 * ptx_kernel.funcs (a direct call), OK_REG = the register with the code
 * address (indirect). Arguments and results are the caller's .param slots:
 * offsets relative to the caller's frame base (0 in the kernel). */
typedef struct ptx_callsite {
    uint32_t nargs, nrets;
    uint32_t *slot_off, *slot_size; /* nargs + nrets entries */
} ptx_callsite;

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
    /* out-of-line functions and call sites (none: nfuncs = 0); kfunc_of maps
     * a module function index to its ptx_kfunc index, -1 when not compiled */
    ptx_kfunc *funcs; uint32_t nfuncs;
    ptx_callsite *calls; uint32_t ncalls;
    int32_t *kfunc_of; uint32_t nmodule_funcs;
    /* bytes of call stack per thread after local_bytes (rounded up to 16):
     * PTX_CALL_STACK_BYTES when nfuncs > 0, else 0 */
    uint32_t stack_bytes;
    ptx_arena *arena;                    /* owns all of the above */
} ptx_kernel;

/* Device addresses of module-scope .global/.const variables, supplied by the
 * device that owns the memory. */
typedef uint64_t (*ptx_var_addr_fn)(void *ctx, const ptx_var *v);

ptx_kernel *ptx_link(const ptx_module *m, const ptx_func *entry,
                     ptx_var_addr_fn addr, void *ctx, char *err, size_t errlen);
void ptx_kernel_free(ptx_kernel *k);

/* The code address of a function of m (see SMC_CODE_WINDOW). */
uint64_t ptx_func_addr(const ptx_module *m, const ptx_func *f);

/* The initial bytes of module variable v (v->size bytes into dst): its
 * initializer with every address filled in (variables through addr,
 * functions by ptx_func_addr). 0, or -1 with "file:line:col: error: ..." in
 * err for a symbol that is not a module .global/.const variable or function. */
int ptx_var_init(const ptx_module *m, const ptx_var *v, ptx_var_addr_fn addr, void *ctx,
                 uint8_t *dst, char *err, size_t errlen);

/* Register operands of an instruction: destinations (written) and sources
 * (read, including the guard and address bases). Returns counts through
 * *nd / *ns; arrays need room for 8 and 16 entries. One place defines the
 * operand roles for liveness, the timing-model interface and the tests. */
void ptx_insn_regs(const ptx_insn *in, int32_t *dst, uint32_t *nd,
                   int32_t *src, uint32_t *ns);

#endif
