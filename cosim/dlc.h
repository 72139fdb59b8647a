/*
 * dlc.h — OAWS's Divergent Load Classifier (DLC; seed 001 = B. Wang et al.,
 * "OAWS: Memory Occlusion Aware Warp Scheduling", PACT'16, §4.2, §4.4) behind
 * one interface, like the scheduler core's back ends (sched_if.h): its C
 * model, its RTL (rtl/macu_dlc.sv, Verilated), or both in lockstep.
 *
 * One DLC per SM, beside the memory model (the paper's MACU). Its contract,
 * the same for every kind (docs/oaws.md, "DLC"):
 *
 *   dlc_fill()   one clock edge with a fill: a divergent global/local load
 *                occurrence (at most one per SM per cycle, by the LD/ST
 *                unit) enters or updates its pc's entry;
 *   dlc_clear()  one clock edge with the clear (each kernel launch);
 *   dlc_lookup() a combinational read port: the pc's entry exists (hit),
 *                and is associativity-sensitive (#acc > 1.5 x #sets); reads
 *                see every edge before them. Port 0 is the load that left
 *                the LD/ST unit, port 1 + s scheduler s's decode.
 *   dlc_count()  valid entries.
 *
 * Edges happen only when there is something to write; an edge without a
 * fill or clear changes nothing in the RTL (its registers are enabled by
 * them), so the cycles in between need none.
 */
#ifndef SMCOSIM_DLC_H
#define SMCOSIM_DLC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLC_MAX_ENTRIES 64    /* largest sched.oaws_dlc_entries = the Verilated model's size */
#define DLC_MAX_PORTS   5     /* read ports of the Verilated model: 4 schedulers + 1 */
#define DLC_FIELD_MAX   1023  /* #acc, #sets: 10 bits (§4.4) */
#define DLC_FILL_MAX    127   /* a fill's #acc and #sets: 7-bit ports */

/* ---- the C model (the RTL's twin; also what dlc_open(DLC_C) runs) ---- */

typedef struct dlc_entry {
    uint32_t pc;
    uint16_t acc, sets;       /* #acc, #sets */
    uint8_t  assoc;           /* 2·#acc > 3·#sets, of the fields at its last fill */
    uint64_t stamp;           /* last fill (the least recently filled is replaced) */
} dlc_entry;

typedef struct dlc_cmodel {
    unsigned  entries;        /* in use: 1..DLC_MAX_ENTRIES */
    unsigned  n;              /* valid entries (the first n) */
    uint64_t  clock;          /* fill counter for the stamps */
    dlc_entry e[DLC_MAX_ENTRIES];
} dlc_cmodel;

void dlc_cmodel_init(dlc_cmodel *m, unsigned entries);   /* empty */
void dlc_cmodel_clear(dlc_cmodel *m);
/* acc and sets above DLC_FILL_MAX saturate there (the RTL's 7-bit ports). */
void dlc_cmodel_fill(dlc_cmodel *m, uint32_t pc, unsigned acc, unsigned sets);
const dlc_entry *dlc_cmodel_find(const dlc_cmodel *m, uint32_t pc);

/* ---- the back ends ---- */

typedef enum dlc_kind { DLC_C = 0, DLC_RTL = 1, DLC_LOCKSTEP = 2 } dlc_kind;

typedef struct dlc dlc;

/* entries: 1..DLC_MAX_ENTRIES; ports: read ports used, 1..DLC_MAX_PORTS.
 * NULL with a message when the kind cannot be had (e.g. the RTL is not
 * linked and its plugin cannot be loaded). */
dlc *dlc_open(dlc_kind kind, unsigned entries, unsigned ports, char *err, size_t errlen);
void dlc_close(dlc *d);
void dlc_clear(dlc *d);
/* acc and sets above DLC_FILL_MAX saturate there. */
void dlc_fill(dlc *d, uint32_t pc, unsigned acc, unsigned sets);
/* port: 0..ports-1. 1 when pc has an entry (then *assoc, when not NULL, is
 * its bit), else 0. */
int dlc_lookup(dlc *d, unsigned port, uint32_t pc, int *assoc);
unsigned dlc_count(dlc *d);
/* "" while the two halves of a lockstep DLC agree; else the first
 * difference ("DLC lockstep mismatch after fill 12: lookup port 1 pc 40:
 * C hit 1 assoc 0, RTL hit 0 assoc 0"). Sticky. */
const char *dlc_failure(const dlc *d);

/* Test-only: in a lockstep DLC, change the C model's entry of pc (its #acc
 * becomes acc, its assoc bit recomputed) so that the next lookup of it can
 * disagree with the RTL. Returns 0, or -1 when there is no such entry or
 * the DLC is not lockstep. */
int dlc_test_corrupt(dlc *d, uint32_t pc, unsigned acc);

/* ---- the RTL's entry points (cosim/vdlc_shim.cpp, in $(VSCHED_LIB) and
 * the plugin libsmc_vsched.so): a table, so that one weak reference or one
 * plugin symbol finds them all ---- */

typedef struct vdlc vdlc;
typedef struct vdlc_api {
    vdlc    *(*create)(unsigned entries, char *err, size_t errlen);
    void     (*destroy)(vdlc *v);
    void     (*clear)(vdlc *v);
    void     (*fill)(vdlc *v, uint32_t pc, unsigned acc, unsigned sets);
    int      (*lookup)(vdlc *v, unsigned port, uint32_t pc, int *assoc);
    unsigned (*count)(vdlc *v);
} vdlc_api;

const vdlc_api *vdlc_api_get(void);

#ifdef __cplusplus
}
#endif
#endif
