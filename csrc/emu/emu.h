/*
 * emu.h — the functional emulator, driven one warp-instruction at a time.
 *
 * Two users:
 *   - smc_launch (csrc/device/) runs a whole grid functionally with
 *     emu_run_functional(): CTAs one after another, warps of a CTA in
 *     round-robin order, deterministic.
 *   - the timing model (a later issue) owns the schedule: it creates CTAs on
 *     its SMs with emu_cta_create(), looks at the next instruction of a warp
 *     with emu_warp_peek() (fetch/decode: static information only, nothing
 *     executes), and executes it at issue time with emu_warp_execute(), which
 *     fills an emu_exec_info with the dynamic information (active mask,
 *     per-lane addresses for the coalescer, branch outcome, status).
 *
 * Register ids in emu_inst_info are PHYSICAL ids from the register
 * allocator (32-bit file: 0..regs_per_thread-1, a 64-bit value occupies the
 * pair id, id+1; predicates have their own file). Functional execution
 * itself keeps values per virtual register (see docs/emulator.md).
 *
 * Faults (bad address, misaligned access, illegal instruction, trap,
 * watchdog) stop the launch: the warp's execute returns EMU_FAULT and the
 * fault (kernel, CTA, warp, lane, pc, PTX line, address, message) is kept in
 * the launch (emu_launch_fault).
 */
#ifndef SMC_EMU_H
#define SMC_EMU_H

#include <stdbool.h>
#include <stdint.h>

#include "smcosim.h"
#include "../ptx/link.h"
#include "../device/devmem.h"

/* Operation class of an instruction. Which functional unit runs it is the
 * timing model's decision (unit_of in csrc/timing/pipeline.c), made from
 * this class and the opcode. */
enum emu_class {
    EC_INT = 0,     /* integer / logic / move / compare ALU */
    EC_FP32,        /* single-precision ALU (add, mul, fma, min/max, setp.f32) */
    EC_FP64,        /* double-precision unit */
    EC_SFU,         /* rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh, div.approx */
    EC_MEM,         /* ld/st/atom/red (mem_space says where) */
    EC_BRANCH,      /* bra, out-of-line call, ret */
    EC_BARRIER,     /* bar / barrier */
    EC_EXIT,        /* exit, trap */
    EC_WARP,        /* shfl, vote, activemask: cross-lane */
    EC_NOP,         /* fence, membar, prefetch, nanosleep */
    EC_COUNT
};

#define EMU_NO_REG 0xFFFFu

/* Static, decoded view of one instruction (emu_warp_peek). */
typedef struct emu_inst_info {
    uint32_t pc, ptx_line;
    uint8_t  op;              /* enum ptx_op */
    uint8_t  op_class;        /* enum emu_class */
    uint8_t  mem_space;       /* enum ptx_space, for EC_MEM */
    uint8_t  is_load, is_store, is_atomic;
    uint8_t  long_latency;    /* global/local/generic memory: result comes late */
    uint8_t  is_branch, is_barrier, is_exit;
    uint8_t  is_call;         /* an out-of-line call or its ret: the next pc is
                                 known only once it has executed */
    uint8_t  access_size;     /* bytes per lane (vector included) */
    uint8_t  ndst, nsrc;      /* 32-bit register ids below */
    uint8_t  ndst_pred, nsrc_pred;
    uint16_t dst[8], src[16];
    uint16_t dst_pred[2], src_pred[4];  /* predicate file ids (guard included) */
    uint32_t hint;            /* HAWS hint word (hints/haws_hint.h); 0 = none */
    /* Set by an instruction source that knows more than the emulator's class
     * (Accel-Sim traces: the SASS opcode table, csrc/trace/sass_ops.c); 0
     * from the emulator: the timing model decides the unit from op_class/op
     * and takes the unit's configured latency (csrc/timing/pipeline.c). */
    uint8_t  unit;            /* enum gpu_unit + 1; 0 = from op_class */
    uint16_t latency;         /* cycles to a dependent's issue; 0 = unit.KIND.latency */
    const char *name;         /* opcode, e.g. "ld" */
} emu_inst_info;

enum emu_status {
    EMU_OK = 0,               /* executed; warp continues */
    EMU_WAIT_BARRIER,         /* executed a barrier; waits until released */
    EMU_EXITED,               /* the warp has finished */
    EMU_FAULT                 /* launch failed: see emu_launch_fault */
};

/* Dynamic result of executing one warp-instruction. */
typedef struct emu_exec_info {
    uint32_t pc;
    uint32_t next_pc;         /* pc of the warp's next instruction (or PTX_NO_PC) */
    uint32_t active;          /* lanes that executed it (guard applied) */
    uint32_t warp_mask;       /* lanes active in the warp at issue */
    uint8_t  status;          /* enum emu_status */
    uint8_t  branch_taken;    /* some lane took the branch */
    uint8_t  diverged;        /* lanes split between target and fall-through */
    uint8_t  mem_space;       /* resolved space (generic accesses too) */
    uint8_t  access_size;     /* bytes per lane */
    uint64_t addr[32];        /* per-lane addresses of memory ops (active lanes) */
} emu_exec_info;

typedef struct emu_kernel emu_kernel;
typedef struct emu_launch emu_launch;
typedef struct emu_cta emu_cta;

/* Wraps a linked kernel (takes ownership) and pre-decodes it. */
emu_kernel *emu_kernel_create(ptx_kernel *k);
void emu_kernel_destroy(emu_kernel *ek);
const ptx_kernel *emu_kernel_ptx(const emu_kernel *ek);
const emu_inst_info *emu_kernel_inst(const emu_kernel *ek, uint32_t pc);
/* Set the flags of an instruction (is_load, is_store, is_atomic,
 * long_latency, is_branch, is_barrier, is_exit, is_call) from its op, op_class and
 * mem_space: the one rule, for the emulator's decoder and for PTX-level
 * traces read back (csrc/trace/trace_export.c). */
void emu_inst_flags(emu_inst_info *x);
/* HAWS: install one hint word per pc (hints/haws_hint.h; NULL = all 0) and
 * the registers per thread including the renaming pool (0 = the kernel's
 * own). The hint pass (hints/) is the one caller; it validates first. */
void emu_kernel_set_hints(emu_kernel *ek, const uint32_t *hint, uint32_t regs_per_thread_haws);
/* Registers per thread with HAWS renaming (= regs_per_thread when none). */
uint32_t emu_kernel_regs_haws(const emu_kernel *ek);

/* Supplies %clock/%clock64 (cycles) for an SM. NULL = count of warp-instructions executed so far. */
typedef uint64_t (*emu_clock_fn)(void *ctx, uint32_t smid);

typedef struct emu_launch_desc {
    const emu_kernel *kernel;
    smc_dim3 grid, block;
    uint32_t dyn_smem;
    const void *params;  uint32_t param_bytes;
    devmem  *mem;
    uint32_t num_sms;            /* %nsmid */
    uint32_t max_warps_per_sm;   /* %nwarpid */
    /* The watchdog (docs/emulator.md, "No progress"): the most
     * warp-instructions one warp may execute while the launch makes no
     * progress (no warp exits, no barrier completes, no CTA starts) before
     * the launch stops with SMC_ERR_LAUNCH_TIMEOUT; 0 = EMU_DEFAULT_WATCHDOG.
     * The device passes the configuration key gpu.watchdog_insts. */
    uint64_t watchdog;
    emu_clock_fn clock; void *clock_ctx;
    /* Check the register allocation while executing: every source operand's
     * physical register must still hold that virtual register (last writer),
     * else an SMC_ERR_LAUNCH_FAILED fault names both. smc_launch enables it
     * when the environment has SMC_VERIFY_REGALLOC=1. */
    bool verify_regalloc;
    /* %envreg0..31 (0 unless set). */
    uint32_t envreg[32];
    /* A cooperative launch (docs/runtime.md): all CTAs are co-resident, so
     * emu_run_functional interleaves the warps of every CTA instead of
     * running CTAs one after another (a grid-wide barrier then completes). */
    bool cooperative;
} emu_launch_desc;

/* = the default of gpu.watchdog_insts (csrc/config/gpu_config.c; a unit test
 * checks that they agree): ten times 10^8, the warp-instructions a legitimate
 * long loop may run in one warp between two progress events. */
#define EMU_DEFAULT_WATCHDOG 1000000000ull

emu_launch *emu_launch_create(const emu_launch_desc *d);
void emu_launch_destroy(emu_launch *l);
uint32_t emu_launch_num_ctas(const emu_launch *l);
/* The first fault of the launch (status SMC_OK when none). */
const smc_fault *emu_launch_fault(const emu_launch *l);
uint64_t emu_launch_warp_insts(const emu_launch *l);
uint64_t emu_launch_thread_insts(const emu_launch *l);

/* Progress, the one definition both modes use (docs/emulator.md): a warp
 * exits, a barrier completes or a CTA starts. The count of such events so
 * far in the launch: a caller that sees it unchanged over a stretch of time
 * knows that nothing progressed (the timing model's gpu.watchdog_cycles). */
uint64_t emu_launch_progress(const emu_launch *l);

/* CTAs are created on demand (linear id in x-major order) on an SM. */
emu_cta *emu_cta_create(emu_launch *l, uint32_t cta_linear, uint32_t smid);
void emu_cta_destroy(emu_cta *c);
uint32_t emu_cta_num_warps(const emu_cta *c);
bool emu_cta_done(const emu_cta *c);                 /* every warp exited */

/* NULL when the warp has exited. */
const emu_inst_info *emu_warp_peek(const emu_cta *c, uint32_t warp);
/* The warp's current pc and active mask (top of its SIMT stack) and SIMT
 * stack depth; PTX_NO_PC / 0 / 0 once it has exited. */
uint32_t emu_warp_pc(const emu_cta *c, uint32_t warp);
uint32_t emu_warp_active_mask(const emu_cta *c, uint32_t warp);
uint32_t emu_warp_stack_depth(const emu_cta *c, uint32_t warp);
/* May the warp issue (not exited, not waiting at a barrier)? */
bool emu_warp_ready(const emu_cta *c, uint32_t warp);
bool emu_warp_exited(const emu_cta *c, uint32_t warp);
/* Warp-instructions the warp executed since the last progress event of the
 * launch (what the watchdog compares with its budget). */
uint64_t emu_warp_idle_insts(const emu_cta *c, uint32_t warp);
/* Stop the launch as hung: an SMC_ERR_LAUNCH_TIMEOUT fault blamed on this
 * warp at its current pc and lowest active lane, with `what` as the reason
 * (the timing model's cycle watchdog). Returns EMU_FAULT; does nothing when
 * the launch has a fault already. */
int  emu_launch_hang(emu_cta *c, uint32_t warp, const char *what);
/* Execute the warp's next instruction. `out` may be NULL. */
int  emu_warp_execute(emu_cta *c, uint32_t warp, emu_exec_info *out);

/* Bridges from the public API objects (csrc/device/). */
const emu_kernel *smc_kernel_emu(const smc_kernel *k);
devmem *smc_device_mem(smc_device *dev);

/* ---- Out-of-order issue (HAWS, docs/haws.md "Emulator") ------------------
 * Execution happens at issue, so an instruction the scheduler issues from a
 * stall's shadow (a hint-mode "member") executes at that moment: registers
 * and memory change, the SIMT stack does not. Every such execution is
 * appended to the warp's AHEAD LOG {pc, mask, active lanes, renamed id}, a
 * functional mirror of the RCU (seed 000 §5.3.3, Fig. 5.6). When in-order
 * execution reaches the log's head it must skip it (not renamed) or commit
 * it (renamed: the value is copied to the original register, §5.3.4); the
 * head's pc and mask must equal the warp's top pc and mask, else the launch
 * fails ("HAWS: pc X executed ahead with mask A, reached in order with mask
 * B"). Starting an episode or exiting with entries left are faults too
 * (and so is, at the next skip/commit, an entry executed again in order
 * instead of skipped). All of these are SMC_ERR_LAUNCH_FAILED.
 *
 * Renaming: the pool of HAWS_POOL_REGS physical ids starting at
 * haws_pool_base(regs_per_thread) (hints/haws_hint.h) is per-warp shadow
 * storage, 32 bits per id and lane (a 64-bit value takes an even id and the
 * next). A renamed member writes its destination there instead of the
 * architectural register; the warp's renaming map (physical id -> pool id,
 * latest mapping wins, §5.3.3) makes later members read it. The regalloc
 * verifier (verify_regalloc) sees renamed writes under their pool ids, so a
 * physical-only WAR (a member overwriting the physical register of another
 * virtual register a skipped instruction still reads) is a "register
 * allocation conflict". A wrong hint is thus a wrong result or a fault,
 * never hidden. Executions ahead count in warp_insts/thread_insts and the
 * watchdog like in-order ones; skips, commits and branch_ahead do not, so
 * the totals equal functional mode. */

/* Start a hint episode: the ahead log must be empty (else a fault); clears
 * the renaming map. EMU_OK or EMU_FAULT. */
int emu_warp_hint_begin(emu_cta *c, uint32_t warp);
/* Execute a copy of the instruction at `pc` for the lanes in `mask` now
 * (they must be live lanes of the warp; the warp must not wait at a
 * barrier). Sources whose physical id is in the renaming map read the pool
 * register. rename_to < 0: the destination is the architectural register;
 * else a pool id (even for a 64-bit destination; the instruction must have
 * exactly one non-predicate destination; the id must not belong to an entry
 * still in the log) that receives the result, and the map is updated. The
 * instruction is appended to the ahead log. Refused with a fault: branches,
 * exit/ret/trap/brkpt, barriers, atomics and reductions, builtin calls
 * (printf, assert), fence/membar. Any fault raised here says "(executed
 * ahead by HAWS)". Returns EMU_OK or EMU_FAULT (EMU_EXITED: warp done). */
int emu_warp_execute_hinted(emu_cta *c, uint32_t warp, uint32_t pc, uint32_t mask, int rename_to,
                            emu_exec_info *out);
/* The old name: emu_warp_execute_hinted without renaming. */
int emu_warp_execute_ahead(emu_cta *c, uint32_t warp, uint32_t pc, uint32_t mask, emu_exec_info *out);
/* Evaluate the guard of the branch at `pc` for `mask` without executing it
 * or changing the SIMT stack: *taken_lanes = the lanes of `mask` that would
 * take it (all of them when unguarded), so the caller tells uniform taken
 * (== mask), uniform not taken (0) and divergent apart. Predicates are never
 * renamed, so the guard is the architectural one. Not counted, not logged (a
 * hinted branch is executed again in order). EMU_OK or EMU_FAULT (not a bra). */
int emu_warp_branch_ahead(emu_cta *c, uint32_t warp, uint32_t pc, uint32_t mask, uint32_t *taken_lanes);
/* In order at the log's head, not renamed: check pc and mask, pop the
 * entry, step over the instruction (pc + 1). */
int emu_warp_skip(emu_cta *c, uint32_t warp);
/* In order at the log's head, renamed: check pc and mask, copy the pool
 * register into the original destination for the entry's active lanes
 * (masked to the destination's width), pop, step over (pc + 1). */
int emu_warp_commit(emu_cta *c, uint32_t warp);

/* One ahead-log entry, as the timing model's RCU sees it. */
typedef struct emu_ahead_entry {
    uint32_t pc;
    uint32_t mask;            /* lanes it was executed for */
    uint32_t active;          /* of those, the ones its guard let through */
    int32_t  renamed;         /* pool id of the destination, -1 = not renamed */
} emu_ahead_entry;
/* Entries in the warp's ahead log (0 when none or exited). */
uint32_t emu_warp_ahead_pending(const emu_cta *c, uint32_t warp);
/* The oldest entry; false when the log is empty. */
bool emu_warp_ahead_head(const emu_cta *c, uint32_t warp, emu_ahead_entry *e);

/* The whole grid, functionally. Returns SMC_OK or the fault status. */
smc_status emu_run_functional(emu_launch *l);

#endif
