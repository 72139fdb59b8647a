/*
 * sass_ops.h — SASS opcode tables per architecture: what a traced
 * instruction is for the timing model (operation class, functional unit,
 * latency, memory space). The tables and their sources are in sass_ops.c and
 * docs/traces.md.
 */
#ifndef SMC_SASS_OPS_H
#define SMC_SASS_OPS_H

#include <stdint.h>

enum sass_flag {
    SASS_LOAD    = 1u << 0,   /* reads memory into a register */
    SASS_STORE   = 1u << 1,   /* writes memory */
    SASS_ATOMIC  = 1u << 2,   /* read-modify-write */
    SASS_BRANCH  = 1u << 3,
    SASS_BARRIER = 1u << 4,   /* CTA barrier (BAR) */
    SASS_EXIT    = 1u << 5,
    SASS_GENERIC = 1u << 6,   /* generic address: space decided per address */
};

typedef struct sass_op {
    const char *name;         /* base opcode (before the first '.') */
    uint8_t     op_class;     /* enum emu_class (csrc/emu/emu.h) */
    uint8_t     unit;         /* enum gpu_unit (csrc/config/gpu_config.h) */
    uint8_t     space;        /* enum ptx_space for memory instructions */
    uint8_t     flags;        /* enum sass_flag */
    uint16_t    latency;      /* cycles from issue to a dependent's issue;
                                 0 for memory instructions (the memory model) */
} sass_op;

typedef struct sass_arch {
    const char *name;         /* "Pascal" */
    uint32_t    versions[4];  /* binary versions (SM numbers) it covers, 0-terminated */
} sass_arch;

/* The architecture of a trace's "-binary version"; NULL when there is no
 * table for it. */
const sass_arch *sass_arch_of(uint32_t binary_version);
/* A comma-separated list of the supported binary versions (for messages). */
const char *sass_arch_versions(void);
/* Look up a full opcode ("LDG.E.CG": the base name LDG decides) for an
 * architecture. 0 and *out filled, -1 when the opcode is unknown there. */
int sass_op_lookup(const sass_arch *a, const char *opcode, sass_op *out);

#endif
