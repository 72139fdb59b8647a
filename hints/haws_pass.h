/*
 * haws_pass.h — the HAWS hint pass (docs/haws.md "Hint pass";
 * ../shared/design/haws-locality.md A.3, A.4, C.3, C.9).
 *
 * Over a linked kernel (emu_kernel: the PTX code, reconvergence points,
 * physical registers) the pass finds the stall points (instructions that read
 * the result of a long-latency load directly), walks forward from each one and
 * links the independent instructions of its shadow into a chain of at most 8
 * members (seed 000 §5.3.1-5.3.3), renaming a member's destination into the
 * pool of free registers above the kernel's own when a skipped instruction
 * would otherwise see the wrong value (WAR/WAW, §5.3.1 L1003-1007). The result
 * is one 24-bit hint word per pc (hints/haws_hint.h).
 *
 * A validator checks any set of hint words (the pass's or a hand-written
 * hint file's) against the same rules and names the kernel, pc, PTX line and
 * rule of the first violation. A hand-written hint file replaces the pass's
 * words for the kernels it names (the thesis inserted its Kepler hints by
 * hand, §5.4.5 L1208; tests inject wrong hints this way).
 *
 * Entry points:
 *   haws_prepare_kernel  the timing model, at launch when HAWS is on: compute
 *                        (or load), validate and install the hints into the
 *                        emu_kernel. Idempotent: the same kernel with the same
 *                        options is computed once (cached by content).
 *   haws_compute         the same without installing (ptx-info, tests).
 *   haws_validate        the validator alone.
 */
#ifndef SMCOSIM_HAWS_PASS_H
#define SMCOSIM_HAWS_PASS_H

#include <stddef.h>
#include <stdint.h>

#include "haws_hint.h"
#include "../csrc/emu/emu.h"

struct gpu_config;

/* The first register id the pool may not reach: the core's register-id space
 * of 256 (8-bit ids) less the 8 ids it keeps for predicates
 * (csrc/timing/pipeline.c pred_ids), spec C.3 step 4. */
#define HAWS_POOL_LIMIT 248u

/* Options: the haws.* configuration keys (docs/config.md). */
typedef struct haws_opts {
    uint32_t mem_hints;           /* haws.mem_hints: memory instructions may be members */
    uint32_t branch_hints;        /* haws.branch_hints: uniform branches may be members */
    uint32_t cross_stall_points;  /* haws.cross_stall_points: a later stall point is
                                     skipped instead of ending the chain (C.9 #33) */
    uint32_t validate;            /* haws.validate: reject unsafe hints (default 1) */
    const char *hints_file;       /* haws.hints_file: NULL or "" = none */
    uint32_t reg_id_width;        /* sched.reg_id_width: the core's register ids decide
                                     where it can block, i.e. the stall points */
} haws_opts;

/* The defaults of the keys: memory and branch hints on, chains stop at the
 * next stall point, validator on, no hint file. */
void haws_opts_default(haws_opts *o);
/* The options from a GPU configuration's haws.* keys (the pointer to the
 * file name points into cfg). */
void haws_opts_from_config(haws_opts *o, const struct gpu_config *cfg);

/* Per-kernel summary (what `smcosim ptx-info --hints` prints). */
typedef struct haws_summary {
    uint32_t ninsts;              /* instructions of the kernel */
    uint32_t stall_points;        /* pcs that read a long-latency load's result */
    uint32_t chains;              /* stall points with an entry hint */
    uint32_t hinted;              /* chain members (pcs) */
    uint32_t mem_members;         /* ... of them memory instructions */
    uint32_t branch_members;      /* ... of them branches (format 2) */
    uint32_t renames;             /* ... of them renamed (rename bit set) */
    uint32_t max_members;         /* longest path of a chain, members */
    uint32_t regs_per_thread;     /* the kernel's own */
    uint32_t regs_haws;           /* max(regs_per_thread, highest renamed id + 1) */
    uint32_t from_file;           /* 1: the words came from a hint file */
} haws_summary;

#define HAWS_NO_CHAIN UINT32_MAX

/* Hints of one kernel. */
typedef struct haws_result {
    uint32_t  n;                  /* = ninsts */
    uint32_t *hint;               /* [n] 24-bit hint words */
    uint8_t  *stall;              /* [n] 1 = stall point */
    uint32_t *chain;              /* [n] pc of the stall point whose chain this
                                     pc is a member of, else HAWS_NO_CHAIN */
    haws_summary sum;
} haws_result;

/* Compute the hints of a kernel (the pass, or the hint file's words for a
 * kernel the file names), validate them unless o->validate is 0 and fill
 * *out (free with haws_result_free). Does not touch ek. -1 and a message
 * naming the kernel (and pc, line, rule; or file, line, field) on error. */
int haws_compute(const emu_kernel *ek, const haws_opts *o, haws_result *out,
                 char *err, size_t errlen);
void haws_result_free(haws_result *r);

/* haws_compute, then emu_kernel_set_hints(ek, hints, regs_haws). Computed
 * once per kernel content and options (a cache inside); a later call with
 * the same kernel and options installs the cached words again. */
int haws_prepare_kernel(emu_kernel *ek, const haws_opts *o, char *err, size_t errlen);

/* Validator rules (docs/haws.md, "Validator"). haws_rule_name gives the
 * short tag each message ends with, "[rule barrier-member]". */
enum haws_rule {
    HAWS_RULE_OK = 0,
    HAWS_RULE_OFFSET_KERNEL,      /* an offset leads outside the kernel (always checked) */
    HAWS_RULE_OFFSET_RANGE,       /* offset outside [-256, 255] (format 2: 11-bit field) */
    HAWS_RULE_FORMAT,             /* format/type/Dst field inconsistent with the instruction */
    HAWS_RULE_ORPHAN,             /* a word on a pc that is neither an entry nor a member */
    HAWS_RULE_STALL_MEMBER,       /* a stall point named as a member */
    HAWS_RULE_BARRIER_MEMBER,     /* bar / barrier named as a member */
    HAWS_RULE_EXIT_MEMBER,        /* exit, ret, trap, brkpt or a call named as a member */
    HAWS_RULE_FENCE_MEMBER,       /* fence / membar */
    HAWS_RULE_ATOMIC_MEMBER,      /* atom / red */
    HAWS_RULE_VOLATILE_MEMBER,    /* volatile or strong (relaxed/acquire/release) access */
    HAWS_RULE_CLOCK_MEMBER,       /* reads %clock* / %globaltimer* */
    HAWS_RULE_CARRY_MEMBER,       /* reads or writes the carry flag (.cc, addc, subc, madc) */
    HAWS_RULE_SKIPPED_CONTROL,    /* the chain crosses a skipped branch, exit, call or fence */
    HAWS_RULE_UNREACHABLE,        /* next member not on the straight-line path */
    HAWS_RULE_REVISIT,            /* a path passes one pc twice */
    HAWS_RULE_RAW,                /* member reads a skipped instruction's result */
    HAWS_RULE_MEM_PAST_BARRIER,   /* memory member after a barrier on its chain */
    HAWS_RULE_MEM_ALIAS,          /* memory member may alias a skipped memory instruction */
    HAWS_RULE_RENAME_MISSING,     /* WAR/WAW with the return pass and no rename */
    HAWS_RULE_RENAME_INVALID,     /* rename on an instruction that cannot be renamed */
    HAWS_RULE_RENAME_TARGET,      /* rename target outside the pool, misaligned or in use */
    HAWS_RULE_RENAME_TABLE,       /* more than 8 renaming-table entries on a path */
    HAWS_RULE_CHAIN_LENGTH,       /* more than 8 members on a path */
    HAWS_RULE_SHARED_PC,          /* a pc is a member of two chains */
    HAWS_RULE_COUNT
};
const char *haws_rule_name(unsigned rule);

/* Validate hint words for ek, for a scheduler core with register ids of
 * reg_id_width bits (the stall points depend on them). check = 0 checks
 * only that every offset stays inside the kernel (what the simulator needs
 * not to crash). Returns 0, or
 * the rule (> 0) of the first violation with its message in err. chain
 * (nullable, [ncode]) receives the owning stall point of each member and sum
 * (nullable) the counts. */
int haws_validate(const emu_kernel *ek, unsigned reg_id_width, const uint32_t *hint, int check,
                  uint32_t *chain, haws_summary *sum, char *err, size_t errlen);

/* A hint file (docs/haws.md, "Hint files"), parsed. */
typedef struct haws_file haws_file;
haws_file *haws_file_load(const char *path, char *err, size_t errlen);
haws_file *haws_file_parse(const char *text, const char *source, char *err, size_t errlen);
void haws_file_free(haws_file *f);
/* Does the file name this kernel? */
int haws_file_has_kernel(const haws_file *f, const char *kernel);
/* The file's words for one kernel into hint[ncode] (zeros elsewhere);
 * -1 when a pc is outside the kernel (the message names the file and
 * line). */
int haws_file_words(const haws_file *f, const emu_kernel *ek, uint32_t *hint,
                    char *err, size_t errlen);

#endif
