/*
 * haws_rules.h — the rules of HAWS chains, in one place for the pass
 * (haws_pass.c, which decides what is a member) and the validator
 * (haws_validate.c, which checks given hint words): private to hints/.
 *
 * A chain is walked as a *path*: the dynamic order of the instructions from
 * the stall point s on, each either a member (issued in hint mode, ahead) or
 * skipped (executed on the return pass, in order). The path state holds what
 * the skipped instructions read and write (the hazards a member must not
 * have), the registers a later member must not overwrite without renaming,
 * and the skipped memory instructions (spec C.3 "Chain construction").
 *
 * Register sets hold physical ids as the core sees them (emu_inst_info
 * dst/src, a 64-bit value as its pair): bits 0..255 the 32-bit file, bits
 * 256..287 the predicate file. A virtual-register conflict is always a
 * physical one (a virtual register has one physical id), so physical sets
 * cover both the functional values and the register-allocation verifier.
 */
#ifndef SMCOSIM_HAWS_RULES_H
#define SMCOSIM_HAWS_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "haws_pass.h"

/* Static facts of one instruction's memory access (EC_MEM only). */
typedef struct hk_mem {
    uint8_t  is_mem, is_load, is_store;   /* store: st, atom, red */
    uint8_t  space;                       /* enum ptx_space as written */
    uint8_t  readonly;                    /* .param / .const load: never aliases a store */
    int32_t  base;                        /* virtual base register, -1 = absolute */
    int64_t  off;                         /* byte offset from the base */
    uint32_t size;                        /* bytes per lane */
} hk_mem;

/* Static facts of one kernel. */
typedef struct hk_kernel {
    const emu_kernel *ek;
    const ptx_kernel *k;
    uint32_t n;                 /* instructions */
    uint8_t  *stall;            /* [n] stall point */
    uint8_t  *never;            /* [n] enum haws_rule: why never a member (0 = may be) */
    uint8_t  *stop;             /* [n] exit/ret/trap/brkpt/call/fence/membar: no path crosses it */
    uint8_t  *join;             /* [n] the reconvergence point of some branch: lanes may rejoin
                                   there, so the warp's mask may change; no path reaches it */
    hk_mem   *mem;              /* [n] */
    uint32_t pool_base;         /* first renamed id (haws_pool_base) */
    uint32_t pool_ok;           /* pool_base + 8 <= HAWS_POOL_LIMIT */
    unsigned reg_id_width;      /* the core's RegIdWidth */
} hk_kernel;

/* reg_id_width: the scheduler core's RegIdWidth (sched.reg_id_width), whose
 * register ids decide where the core can block (find_stall_points). */
int  hk_kernel_init(hk_kernel *K, const emu_kernel *ek, unsigned reg_id_width, char *err, size_t errlen);
void hk_kernel_free(hk_kernel *K);

#define HK_SET_WORDS 5          /* 256 registers + 32 predicates */
typedef struct hk_set { uint64_t w[HK_SET_WORDS]; } hk_set;

#define HK_WINDOW 512u          /* pcs s-256 .. s+255: every member's range */
#define HK_MAX_MEM HK_WINDOW

typedef struct hk_path {
    uint32_t s;                               /* the stall point */
    hk_set   skip_reads, skip_writes;         /* of the skipped instructions (s included) */
    hk_set   reexec_reads;                    /* sources of hinted branches (re-executed) */
    hk_set   renamed_writes;                  /* original destinations of renamed members */
    uint64_t visited[HK_WINDOW / 64];         /* pcs on the path, relative to s - 256 */
    uint16_t mem_pc[HK_MAX_MEM];              /* skipped memory instructions ... */
    uint8_t  mem_stable[HK_MAX_MEM];          /* ... whose base is unchanged since */
    uint32_t nmem;
    uint32_t members;                         /* members on the path so far */
    uint32_t ren_entries;                     /* renaming-table entries used */
    uint32_t pool_used;                       /* bit i: pool id pool_base + i taken */
    uint32_t past_barrier;                    /* a barrier is on the path */
} hk_path;

/* A new path at stall point s: s is on it and skipped. */
void hk_path_init(hk_path *P, const hk_kernel *K, uint32_t s);
/* Is pc on the path / in the window of s? */
bool hk_in_window(const hk_path *P, uint32_t pc);
bool hk_visited(const hk_path *P, uint32_t pc);
void hk_visit(hk_path *P, uint32_t pc);

/* The first rule that forbids pc as the next member (0 = it may be one;
 * renaming is a separate question, hk_needs_rename). */
int  hk_member_rule(const hk_kernel *K, const hk_path *P, uint32_t pc);
/* Would the member's destination be read or written on the return pass
 * between s and it (a WAR/WAW the return pass would see)? */
bool hk_needs_rename(const hk_kernel *K, const hk_path *P, uint32_t pc);
/* Can the destination be renamed: exactly one destination, a 32-bit
 * register or a 64-bit pair, not a predicate, not guarded? Returns the ids
 * it takes (1 or 2), 0 when not. */
uint32_t hk_rename_width(const hk_kernel *K, uint32_t pc);
/* A free pool id for a rename of `width` ids (a pair at an even id), or
 * UINT32_MAX. */
uint32_t hk_pool_alloc(const hk_kernel *K, const hk_path *P, uint32_t width);

/* pc on the path is skipped (a barrier sets past_barrier). */
void hk_skip(const hk_kernel *K, hk_path *P, uint32_t pc);
/* pc on the path is a member; renamed_to = its pool id or UINT32_MAX. */
void hk_member(const hk_kernel *K, hk_path *P, uint32_t pc, uint32_t renamed_to);

/* The conservative may-alias rule of two memory instructions, a before b
 * on the path; base_stable: a's base register unchanged between them. */
bool hk_may_alias(const hk_kernel *K, uint32_t a, uint32_t b, bool base_stable);

/* The instruction's destination id for a format-1 Dst field (the first
 * 32-bit destination, 0 when none). */
uint32_t hk_dst_field(const hk_kernel *K, uint32_t pc);

#endif
