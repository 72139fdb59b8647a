/*
 * inst_source.h — where the timing model's instructions come from.
 *
 * The pipeline (pipeline.c), the dispatcher (dispatch.c) and the waveform
 * (timing_wave.c) see the program only through this table of functions:
 * look at a warp's next instruction (fetch/decode), execute it at issue
 * (what the memory model needs: lanes, addresses), skip it, and the life
 * cycle of a CTA. Instructions are described with the emulator's types
 * (emu_inst_info: static; emu_exec_info: dynamic), which any source fills.
 *
 * Two sources: the functional emulator (inst_source_emu.c: the program
 * really runs, at the cycle of issue) and Accel-Sim traces
 * (csrc/trace/trace_source.c: recorded lanes and addresses are replayed),
 * each an implementation of inst_source_ops handed to timing_run_source().
 */
#ifndef SMC_INST_SOURCE_H
#define SMC_INST_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "timing.h"

typedef struct inst_cta inst_cta;   /* one CTA of a source (opaque) */

typedef struct inst_source_ops {
    const char *name;

    /* ---- the launch (ctx: the source's state) ---- */
    uint32_t (*num_ctas)(void *ctx);
    /* Static view of the instruction at pc; NULL past the end of the code. */
    const emu_inst_info *(*inst_at)(void *ctx, uint32_t pc);
    uint32_t (*code_size)(void *ctx);             /* instructions */
    /* Set join[pc] = 1 for every pc that is the reconvergence point of some
     * branch (join: code_size() + 1 bytes, zeroed). */
    void (*mark_joins)(void *ctx, uint8_t *join);
    /* The fault that stopped the launch (status SMC_OK when none). */
    const smc_fault *(*fault)(void *ctx);
    uint64_t (*warp_insts)(void *ctx);
    uint64_t (*thread_insts)(void *ctx);
    /* Progress events so far (a warp exited, a barrier completed, a CTA
     * started: docs/emulator.md); the cycle watchdog watches it move. */
    uint64_t (*progress)(void *ctx);

    /* ---- CTA life cycle ---- */
    /* Start CTA `linear` on SM smid; NULL when out of host memory. */
    inst_cta *(*cta_start)(void *ctx, uint32_t linear, uint32_t smid);
    uint32_t (*cta_warps)(const inst_cta *c);
    bool (*cta_done)(const inst_cta *c);              /* every warp exited */
    void (*cta_finish)(inst_cta *c);                  /* frees it */

    /* ---- one warp ---- */
    /* Its next instruction in program order; NULL once it has exited. */
    const emu_inst_info *(*peek)(const inst_cta *c, uint32_t warp);
    /* Optional (NULL: the emulator's rule, pipeline.c next_fetch_pc): the
     * instruction n places after the next one (0: the next one), known
     * without executing anything (a trace knows its whole future); NULL
     * past the warp's end. */
    const emu_inst_info *(*peek_ahead)(const inst_cta *c, uint32_t warp, uint32_t n);
    /* Execute the next instruction (enum emu_status; EMU_FAULT: see fault). */
    int (*execute)(inst_cta *c, uint32_t warp, emu_exec_info *out);
    /* Step over the next instruction without executing it (HAWS: it was
     * executed ahead; the emulator checks that against its ahead log). */
    int (*skip)(inst_cta *c, uint32_t warp);

    /* ---- HAWS (docs/haws.md): NULL in a source that cannot execute out of
     * program order (e.g. traces); the timing model then refuses sched.haws.
     * hint_begin starts an episode; execute_hinted runs the instruction at
     * pc now, writing pool register rename_to (-1: its own destination);
     * branch_ahead evaluates a branch's guard (*taken: lanes that take it)
     * without moving the warp; commit copies a renamed result back and steps
     * over it; ahead_pending counts instructions executed ahead and not yet
     * skipped or committed; active_mask is the warp's current mask. */
    int (*hint_begin)(inst_cta *c, uint32_t warp);
    int (*execute_hinted)(inst_cta *c, uint32_t warp, uint32_t pc, uint32_t mask, int rename_to,
                          emu_exec_info *out);
    int (*branch_ahead)(inst_cta *c, uint32_t warp, uint32_t pc, uint32_t mask, uint32_t *taken);
    int (*commit)(inst_cta *c, uint32_t warp);
    uint32_t (*ahead_pending)(const inst_cta *c, uint32_t warp);
    uint32_t (*active_mask)(const inst_cta *c, uint32_t warp);
    bool (*ready)(const inst_cta *c, uint32_t warp);  /* not at a barrier, not exited */
    bool (*exited)(const inst_cta *c, uint32_t warp);
    /* Warp-instructions the warp executed since the last progress event. */
    uint64_t (*idle_insts)(const inst_cta *c, uint32_t warp);
    /* Stop the launch as hung (SMC_ERR_LAUNCH_TIMEOUT, see fault), blamed on
     * this warp at its current pc, `what` the reason. */
    void (*hang)(inst_cta *c, uint32_t warp, const char *what);
} inst_source_ops;

typedef struct inst_source {
    const inst_source_ops *ops;
    void *ctx;
} inst_source;

/* ---- the functional emulator as a source (inst_source_emu.c) ------------ */

typedef struct inst_source_emu {
    const emu_kernel *kernel;
    emu_launch *launch;
} inst_source_emu;

/* A source that runs `l` (of kernel ek) in the emulator; `state` holds it
 * and must live as long as the source. */
inst_source inst_source_from_emu(inst_source_emu *state, const emu_kernel *ek, emu_launch *l);

/* timing_run with any source (timing_run is this with the emulator's). */
smc_status timing_run_source(timing_gpu *g, const inst_source *src, const char *kernel_name,
                             const timing_kernel_req *req, smc_dim3 grid, smc_dim3 block,
                             volatile sig_atomic_t *stop, timing_stats *out,
                             char *msg, size_t msglen);

#endif
