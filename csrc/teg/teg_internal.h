/*
 * teg_internal.h — what TEG's files share: the memory system's queues
 * (teg_mem.c) and the call back into the model when a global access has
 * departed (teg_model.c).
 */
#ifndef SMC_TEG_INTERNAL_H
#define SMC_TEG_INTERNAL_H

#include "teg.h"

/* A global access: whose registers its completion makes ready. */
typedef struct teg_mem_rec {
    uint32_t sm, slot, gen;
    uint32_t ndst;
    uint16_t dst[8];
    int32_t  sb;                /* its scoreboard entry, -1: none */
    uint32_t unit;              /* its unit (--load) */
} teg_mem_rec;

typedef struct teg_tx {         /* one transaction (a sector) */
    uint64_t when;              /* in flight: its completion */
    uint32_t bytes, group, channel;
    uint32_t rec;               /* index into the access records */
} teg_tx;

typedef struct teg_txq {        /* a FIFO of transactions */
    teg_tx  *q;
    uint32_t head, n, cap;
} teg_txq;

typedef struct teg_access {     /* an access with transactions not yet departed */
    teg_mem_rec rec;
    uint32_t    left;           /* transactions still queued */
    uint32_t    next_free;      /* free list */
} teg_access;

typedef struct teg_mem {
    const teg_params *p;
    void      *run;             /* for teg_model_load_done */
    teg_txq   *wait;            /* [groups]: transactions waiting to depart */
    teg_txq    inflight;        /* departed, in completion order */
    uint64_t  *group_bytes;     /* [groups] in flight */
    uint64_t  *channel_bytes;   /* [channels] in flight */
    uint32_t   groups;
    uint32_t   no_channel_cap;  /* what-if no-channel-skew */
    teg_access *acc;
    uint32_t   nacc, capacc, free_acc;
} teg_mem;

int  teg_mem_init(teg_mem *m, const teg_params *p, void *run, char *err, size_t errlen);
void teg_mem_free(teg_mem *m);
/* Complete every transaction due by t (and depart what then fits). 0, or -1
 * when out of host memory. */
int  teg_mem_advance(teg_mem *m, uint64_t t);
/* The next completion after t (UINT64_MAX: nothing in flight). */
uint64_t teg_mem_next_event(const teg_mem *m, uint64_t t);
/* Issue a global (or local) access at t: its transactions queue and depart
 * when the caps allow; teg_model_load_done is called at its last departure
 * (at once when it moves nothing). 0, or -1 when out of memory. */
int  teg_mem_global(teg_mem *m, const teg_params *p, const teg_mem_rec *rec,
                    const emu_exec_info *ex, const emu_inst_info *in, uint32_t whatif,
                    uint64_t t, teg_result *r);
/* The cycles a shared access adds for its passes beyond one per group (G9);
 * *passes counts those passes. */
uint64_t teg_mem_smem_extra(const teg_params *p, const emu_exec_info *ex, const emu_inst_info *in,
                            uint32_t whatif, uint64_t *passes);

void teg_model_load_done(void *run, const teg_mem_rec *rec, uint64_t when);

/* --load: the unit workload of SM 0 as +1/-1 events, written at the end. */
typedef struct teg_load_ev { uint64_t t; int32_t delta; uint32_t unit; } teg_load_ev;

#endif
