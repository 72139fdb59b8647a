/*
 * coalesce.c — the memory access coalescing unit and the shared-memory bank
 * conflict calculation.
 *
 * Global and local accesses: every active lane's bytes [addr, addr+size) are
 * mapped to blocks of l1d.sector_bytes (a whole line when sector_bytes equals
 * line_bytes). Each distinct block is one transaction, in the order the lanes
 * first touch it (lane 0 first), so the result depends only on the request.
 * An instruction is coherent when its transactions fall in at most two lines
 * (OAWS §2.2 / §4.1 use the same split), divergent otherwise.
 *
 * Shared memory: 32 banks of 4 bytes (configurable). Lanes that touch the same
 * word are served together (broadcast); distinct words in the same bank
 * serialise. The degree is the largest number of distinct words in one bank.
 *
 * Constant memory: one cycle per distinct 4-byte word (the constant cache
 * broadcasts one address per cycle).
 */
#include "coalesce.h"
#include "fail.h"

#include <string.h>

static uint32_t log2u(uint64_t v)
{
    uint32_t l = 0;
    while ((1ull << l) < v)
        l++;
    return l;
}

uint32_t mem_l1_set_hashed(const mem_config *cfg, uint64_t line_addr)
{
    if (cfg->l1d_index == MEM_INDEX_FERMI) {
        /* Fermi's L1 set index (Nugteren et al., "A Detailed GPU Cache Model
         * Based on Reuse Distance Theory", HPCA 2014):
         * byte-address bits 7..11 (the line index; lines are 128 bytes) XOR
         * bits 13, 14, 15, 17 and 19 in that order; with 64 sets (48 KB)
         * bit 12 is the index's top bit. mem_config_check allows it only for
         * 128-byte lines and 32 or 64 sets. */
        uint32_t lower = (uint32_t)(line_addr >> 7) & 31;
        uint32_t upper = (uint32_t)(line_addr >> 13) & 7;
        upper |= (uint32_t)((line_addr >> 17) & 1) << 3;
        upper |= (uint32_t)((line_addr >> 19) & 1) << 4;
        uint32_t set = lower ^ upper;
        if (cfg->l1d_sets == 64)
            set |= (uint32_t)((line_addr >> 12) & 1) << 5;
        return set;
    }
    uint64_t idx = line_addr >> __builtin_ctz(cfg->l1d_line_bytes);
    uint32_t mask = cfg->l1d_sets - 1;
    if (mask == 0)
        return 0;
    /* A generic pseudo-random hash for any geometry: XOR-fold all higher
     * address bits onto the index bits, so that strides that are multiples
     * of sets*line no longer land in one set. */
    uint32_t bits = log2u(cfg->l1d_sets);
    uint64_t h = 0;
    while (idx) {
        h ^= idx & mask;
        idx >>= bits;
    }
    return (uint32_t)h;
}

/* Slot of a key in a 256-entry open-addressing table (Fibonacci hashing). */
static uint32_t slot_hash(uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 56);
}

/* Add key to keys[0..*n) unless present; slots index the keys (index + 1). */
static void seen_add(uint64_t *keys, uint8_t *slots, uint32_t *n, uint64_t key)
{
    uint32_t h = slot_hash(key);
    while (slots[h]) {
        if (keys[slots[h] - 1] == key)
            return;
        h = (h + 1) & 255;
    }
    keys[*n] = key;
    slots[h] = (uint8_t)++*n;
}

/* Two 64-bit lanes (GCC vector extension: SSE2 on x86-64, plain scalar
 * code elsewhere); loads go through memcpy, the arrays are 8-byte aligned. */
typedef uint64_t v2u64 __attribute__((vector_size(16)));

static v2u64 load_v2u64(const void *p)
{
    v2u64 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static int valid_size(uint32_t s)
{
    return s == 1 || s == 2 || s == 4 || s == 8 || s == 16;
}

/* Distinct words per bank for shared memory; distinct words for const. */
static uint32_t word_degree(const mem_request *req, uint32_t word_bytes,
                            uint32_t banks)
{
    uint64_t words[MEM_MAX_LANES * 5];   /* 16 B unaligned: 5 words */
    uint32_t nwords = 0;
    for (uint32_t lane = 0; lane < MEM_MAX_LANES; lane++) {
        if (!(req->active_mask >> lane & 1))
            continue;
        uint64_t first = req->addr[lane] / word_bytes;
        uint64_t last = (req->addr[lane] + req->size[lane] - 1) / word_bytes;
        for (uint64_t w = first; w <= last; w++) {
            uint32_t j = 0;
            while (j < nwords && words[j] != w)
                j++;
            if (j == nwords)
                words[nwords++] = w;
        }
    }
    if (banks == 0)
        return nwords;
    uint32_t per_bank[64] = { 0 };
    uint32_t degree = 0;
    for (uint32_t j = 0; j < nwords; j++) {
        uint32_t b = (uint32_t)(words[j] % banks);
        if (++per_bank[b] > degree)
            degree = per_bank[b];
    }
    return degree;
}

int mem_coalesce_tx(const mem_config *cfg, const mem_request *req, mem_tx *tx,
                    uint32_t *ntx, mem_coalesce_info *info, char *err,
                    size_t errlen)
{
    uint64_t blk = cfg->l1d_sector_bytes, line = cfg->l1d_line_bytes;
    uint64_t mask = req->active_mask;
    if (req->space <= MEM_LOCAL && req->op <= MEM_ATOMIC &&
        !(req->space == MEM_LOCAL && req->op == MEM_ATOMIC) &&
        req->num_dst <= MEM_MAX_DST && mask && !(mask & (mask + 1)) &&
        (cfg->warp_size >= 64 || !(mask >> cfg->warp_size))) {
        /* Fast path for the common coherent case of a well-formed request:
         * lanes 0..n-1 active, all of one size, every byte in the block of
         * lane 0. Branch-free XOR/OR accumulation over the lanes, two at a
         * time in 16-byte vectors, decides it; anything else (and any
         * malformed lane) goes through the general code below, so the
         * result is exactly what that code would give. */
        uint32_t n = 64 - (uint32_t)__builtin_clzll(mask);
        uint64_t a0 = req->addr[0], b0 = a0 & ~(blk - 1);
        uint32_t s0 = req->size[0];
        v2u64 vb = { b0, b0 }, vs = { s0 * 0x0101010101010101ull,
                                      s0 * 0x0101010101010101ull };
        v2u64 x0 = { 0, 0 }, x1 = x0, x2 = x0, x3 = x0, sd = x0;
        uint32_t lane = 0;
        /* sizes: 16 lanes per vector, s0 repeated in every byte */
        for (; lane + 16 <= n; lane += 16)
            sd |= load_v2u64(&req->size[lane]) ^ vs;
        uint64_t sdiff = sd[0] | sd[1];
        /* The tails: n <= MEM_MAX_LANES since the mask has 64 bits; the
         * bound is spelled out because GCC, inlining a caller that sets 32
         * lanes, cannot see it and warns of iterations past the array. */
        for (; lane < n && lane < MEM_MAX_LANES; lane++)
            sdiff |= req->size[lane] ^ s0;
        /* Every lane's bytes are in b0's block if every address, XOR b0,
         * is below blk (same block) and a multiple of s0 (a naturally
         * aligned access of a power-of-two size s0 <= blk cannot cross
         * the block's end): one OR over the lanes decides both. */
        for (lane = 0; lane + 8 <= n; lane += 8) {
            x0 |= load_v2u64(&req->addr[lane]) ^ vb;
            x1 |= load_v2u64(&req->addr[lane + 2]) ^ vb;
            x2 |= load_v2u64(&req->addr[lane + 4]) ^ vb;
            x3 |= load_v2u64(&req->addr[lane + 6]) ^ vb;
        }
        x0 |= x1 | x2 | x3;
        uint64_t x = x0[0] | x0[1];
        for (; lane < n && lane < MEM_MAX_LANES; lane++)
            x |= req->addr[lane] ^ b0;
        if (!sdiff && valid_size(s0) && s0 <= blk && x < blk && !(x & (s0 - 1)) &&
            b0 <= UINT64_MAX - 16 - (blk - 1)) {
            uint64_t total = (uint64_t)n * s0;
            tx[0].block = b0;
            tx[0].set = mem_l1_set(cfg, a0 & ~(line - 1));
            tx[0].bytes = (uint32_t)(total < blk ? total : blk);
            *ntx = 1;
            info->transactions = info->lines = info->sets = 1;
            info->coherent = true;
            info->bank_conflict = 0;
            return 0;
        }
    }
    memset(info, 0, sizeof *info);
    *ntx = 0;
    if ((unsigned)req->op > MEM_ATOMIC)
        return smc_fail(err, errlen, "request op %d is not load/store/atomic", req->op);
    if ((unsigned)req->space > MEM_CONST)
        return smc_fail(err, errlen, "request space %d is not global/local/shared/const",
                    req->space);
    if (req->space == MEM_CONST && req->op != MEM_LOAD)
        return smc_fail(err, errlen, "constant memory is read-only");
    if (req->space == MEM_LOCAL && req->op == MEM_ATOMIC)
        return smc_fail(err, errlen, "atomic on local memory");
    if (req->num_dst > MEM_MAX_DST)
        return smc_fail(err, errlen, "num_dst %u exceeds %d", req->num_dst, MEM_MAX_DST);
    if (cfg->warp_size < 64 && (req->active_mask >> cfg->warp_size))
        return smc_fail(err, errlen, "active mask 0x%llx has lanes beyond warp size %u",
                    (unsigned long long)req->active_mask, cfg->warp_size);
    /* validate, and find the span of all lanes for the fast path below */
    uint64_t lo = UINT64_MAX, hi = 0, total = 0;
    for (uint64_t act = mask; act; act &= act - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(act);
        uint64_t a = req->addr[lane];
        uint32_t sz = req->size[lane];
        if (!valid_size(sz))
            return smc_fail(err, errlen, "lane %u: access size %u is not 1, 2, 4, 8 "
                        "or 16", lane, sz);
        if (a > UINT64_MAX - 16)
            return smc_fail(err, errlen, "lane %u: address 0x%llx wraps", lane,
                        (unsigned long long)a);
        lo = a < lo ? a : lo;
        hi = a + sz > hi ? a + sz : hi;
        total += sz;
    }

    if (req->space == MEM_SHARED) {
        info->bank_conflict = word_degree(req, cfg->smem_bank_bytes, cfg->smem_banks);
        return 0;
    }
    if (req->space == MEM_CONST) {
        info->transactions = word_degree(req, 4, 0);
        return 0;
    }

    uint64_t lines[MEM_MAX_TX];
    if (req->active_mask && (lo & ~(blk - 1)) == ((hi - 1) & ~(blk - 1))) {
        /* every lane in one block (the common coherent case): one
         * transaction, exactly what the general loop below would give */
        tx[0].block = lo & ~(blk - 1);
        tx[0].set = mem_l1_set(cfg, lo & ~(line - 1));
        tx[0].bytes = (uint32_t)(total < blk ? total : blk);
        *ntx = 1;
        info->transactions = info->lines = info->sets = 1;
        info->coherent = true;
        return 0;
    }
    /* Distinct blocks are found through a small hash table (slot = index +
     * 1, 0 = empty) over tx[], which keeps them in first-touch order. With
     * whole-line blocks every block is its own line; otherwise distinct
     * lines go through a second table. Distinct sets are bits of a 256-bit
     * map when there are at most 256 sets (every preset), else a third
     * table. */
    int lines_are_blocks = blk == line, set_map = cfg->l1d_sets <= 256;
    uint64_t set_keys[MEM_MAX_TX], set_bits[4] = { 0, 0, 0, 0 };
    uint8_t tx_slot[256], line_slot[256], set_slot[256];
    memset(tx_slot, 0, sizeof tx_slot);
    if (!lines_are_blocks)
        memset(line_slot, 0, sizeof line_slot);
    if (!set_map)
        memset(set_slot, 0, sizeof set_slot);
    uint32_t n = 0, nlines = 0, nsets = 0, last = 0;
    for (uint64_t act = req->active_mask; act; act &= act - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(act);
        uint64_t a = req->addr[lane], end = a + req->size[lane];
        while (a < end) {
            uint64_t b = a & ~(blk - 1);
            uint64_t stop = b + blk < end ? b + blk : end;
            /* neighbouring lanes usually share the previous lane's block */
            uint32_t j = last;
            if (j >= n || tx[j].block != b) {
                uint32_t h = slot_hash(b);
                while (tx_slot[h] && tx[tx_slot[h] - 1].block != b)
                    h = (h + 1) & 255;
                if (tx_slot[h]) {
                    j = tx_slot[h] - 1u;
                } else {
                    j = n;
                    tx_slot[h] = (uint8_t)(n + 1);
                    tx[n].block = b;
                    tx[n].bytes = 0;
                    uint64_t la = b & ~(line - 1);
                    uint32_t set = mem_l1_set(cfg, la);
                    tx[n].set = set;
                    n++;
                    if (!lines_are_blocks)
                        seen_add(lines, line_slot, &nlines, la);
                    if (set_map)
                        set_bits[set >> 6] |= 1ull << (set & 63);
                    else
                        seen_add(set_keys, set_slot, &nsets, set);
                }
            }
            last = j;
            tx[j].bytes += (uint32_t)(stop - a);
            if (tx[j].bytes > blk)
                tx[j].bytes = (uint32_t)blk;
            a = stop;
        }
    }
    if (lines_are_blocks)
        nlines = n;
    if (set_map)
        for (int w = 0; w < 4; w++)
            nsets += (uint32_t)__builtin_popcountll(set_bits[w]);
    *ntx = n;
    info->transactions = n;
    info->lines = nlines;
    info->sets = nsets;
    info->coherent = nlines <= 2;
    return 0;
}
