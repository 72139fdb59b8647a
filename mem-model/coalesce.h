/*
 * coalesce.h — the coalescer's interface inside mem-model/ (coalesce.c):
 * a warp instruction's lanes into L1 transactions, and the L1D set index
 * those transactions carry. Depends on nothing but the public mem.h; the
 * hierarchy's files include it through mem_internal.h.
 */
#ifndef SMC_MEM_COALESCE_H
#define SMC_MEM_COALESCE_H

#include "mem.h"

#define MEM_MAX_TX (2 * MEM_MAX_LANES)   /* a lane touches at most 2 blocks */

/* One coalesced L1 access: a line, or a sector of a line. */
typedef struct mem_tx {
    uint64_t block;      /* byte address of the block (line or sector) */
    uint32_t set;        /* L1D set of its line */
    uint32_t bytes;      /* bytes the lanes touch in it (capped at the block) */
} mem_tx;

/* Coalesce req into tx[] (global/local) or compute the bank-conflict degree
 * (shared) / the number of distinct words (const). Returns -1 with a message
 * for a malformed request. */
int mem_coalesce_tx(const mem_config *cfg, const mem_request *req, mem_tx *tx,
                    uint32_t *ntx, mem_coalesce_info *info, char *err,
                    size_t errlen);

/* The L1D set of a line address under the configured index function (the
 * coalescer counts distinct sets, OAWS's #sets; the L1D indexes with it).
 * The linear index is inline (it is on every access's path). */
uint32_t mem_l1_set_hashed(const mem_config *cfg, uint64_t line_addr);

static inline uint32_t mem_l1_set(const mem_config *cfg, uint64_t line_addr)
{
    if (cfg->l1d_index == MEM_INDEX_LINEAR || cfg->l1d_sets == 1)
        return (uint32_t)((line_addr >> __builtin_ctz(cfg->l1d_line_bytes)) &
                          (cfg->l1d_sets - 1));
    return mem_l1_set_hashed(cfg, line_addr);
}

#endif /* SMC_MEM_COALESCE_H */
