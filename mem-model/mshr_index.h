/*
 * mshr_index.h — the index of an MSHR table (block or line address -> entry,
 * and the lowest free entry), used by the L1D's MSHRs (mem_l1d.c) and the L2
 * slices' (mem_l2.c). Everything is inline: a lookup is on every miss's
 * path in both.
 */
#ifndef SMC_MEM_MSHR_INDEX_H
#define SMC_MEM_MSHR_INDEX_H

#include <stdint.h>
#include <stdlib.h>

/* An MSHR table's index: block/line address -> entry, and a bitmap of
 * free entries so that the lowest free entry is found without scanning.
 * Tables of up to MI_SCAN_MAX entries (every preset) keep each entry's
 * address in ekey[] and compare all of them without data-dependent branches
 * (an address is in at most one entry): a few host cache lines and no
 * mispredicted probe loops. Larger tables use open addressing with linear
 * probing (at most half full). */
#define MI_SCAN_MAX 64
#define MI_NO_KEY   1ull     /* addresses are block-aligned, never odd */
#define MI_FILTER_BITS 256   /* > 4 x MI_SCAN_MAX: few false positives */

typedef struct mshr_index {
    uint64_t *ekey;      /* scan: address of each entry, MI_NO_KEY if free */
    uint32_t  entries;
    int       scan;
    /* scan: a counting filter over the held addresses. Bit h of filter is
     * set iff fcount[h] > 0, fcount[h] being the number of held addresses
     * whose filter hash is h; a clear bit proves an address absent, so most
     * lookups that miss (every new line of a streaming pattern) skip the
     * scan. */
    uint64_t  filter[MI_FILTER_BITS / 64];
    uint8_t   fcount[MI_FILTER_BITS];
    uint64_t *key;       /* hash: slots */
    uint32_t *val;       /* entry + 1; 0 = empty slot */
    uint32_t  mask;      /* slots - 1 */
    uint32_t  shift;     /* 64 - log2(slots) */
    uint64_t *free_bits; /* bit e set: entry e is free */
    uint32_t  nwords;
} mshr_index;

static inline int mi_init(mshr_index *x, uint32_t entries)
{
    uint32_t slots = 4;
    while (slots < 2 * entries)
        slots *= 2;
    x->entries = entries;
    x->scan = entries <= MI_SCAN_MAX;
    x->ekey = malloc(entries * sizeof *x->ekey);
    for (uint32_t e = 0; x->ekey && e < entries; e++)
        x->ekey[e] = MI_NO_KEY;
    x->key = calloc(slots, sizeof *x->key);
    x->val = calloc(slots, sizeof *x->val);
    x->mask = slots - 1;
    x->shift = 64 - (uint32_t)__builtin_ctz(slots);   /* slots: a power of two */
    x->nwords = (entries + 63) / 64;
    x->free_bits = calloc(x->nwords, sizeof *x->free_bits);
    if (!x->ekey || !x->key || !x->val || !x->free_bits)
        return -1;
    for (uint32_t e = 0; e < entries; e++)
        x->free_bits[e >> 6] |= 1ull << (e & 63);
    return 0;
}

static inline void mi_free(mshr_index *x)
{
    free(x->ekey);
    free(x->key);
    free(x->val);
    free(x->free_bits);
}

static inline uint32_t mi_slot(const mshr_index *x, uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> x->shift);
}

static inline uint32_t mi_filter_hash(uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 56);   /* 0..255 */
}

/* The entry holding key, or -1. */
static inline int mi_find(const mshr_index *x, uint64_t key)
{
    if (x->scan) {
        uint32_t h = mi_filter_hash(key);
        if (!(x->filter[h >> 6] >> (h & 63) & 1))
            return -1;
        int found = -1;
        for (uint32_t e = 0; e < x->entries; e++)
            found = x->ekey[e] == key ? (int)e : found;
        return found;
    }
    for (uint32_t h = mi_slot(x, key); x->val[h]; h = (h + 1) & x->mask)
        if (x->key[h] == key)
            return (int)x->val[h] - 1;
    return -1;
}

/* Take the lowest free entry for key (the caller checked one is free). */
static inline uint32_t mi_take(mshr_index *x, uint64_t key)
{
    uint32_t w = 0;
    while (!x->free_bits[w])
        w++;
    uint32_t e = w * 64 + (uint32_t)__builtin_ctzll(x->free_bits[w]);
    x->free_bits[w] &= x->free_bits[w] - 1;
    if (x->scan) {
        uint32_t h = mi_filter_hash(key);
        x->fcount[h]++;      /* at most MI_SCAN_MAX < 256 addresses */
        x->filter[h >> 6] |= 1ull << (h & 63);
        x->ekey[e] = key;
        return e;
    }
    uint32_t h = mi_slot(x, key);
    while (x->val[h])
        h = (h + 1) & x->mask;
    x->key[h] = key;
    x->val[h] = e + 1;
    return e;
}

/* Release entry e holding key (backward-shift deletion keeps probing valid). */
static inline void mi_release(mshr_index *x, uint64_t key, uint32_t e)
{
    x->free_bits[e >> 6] |= 1ull << (e & 63);
    if (x->scan) {
        uint32_t h = mi_filter_hash(key);
        if (--x->fcount[h] == 0)
            x->filter[h >> 6] &= ~(1ull << (h & 63));
        x->ekey[e] = MI_NO_KEY;
        return;
    }
    uint32_t h = mi_slot(x, key);
    while (x->key[h] != key || x->val[h] != e + 1)
        h = (h + 1) & x->mask;
    for (uint32_t j = (h + 1) & x->mask; x->val[j]; j = (j + 1) & x->mask) {
        uint32_t home = mi_slot(x, x->key[j]);
        /* move j into the hole h unless its home lies cyclically in (h, j] */
        if (((j - home) & x->mask) >= ((j - h) & x->mask)) {
            x->key[h] = x->key[j];
            x->val[h] = x->val[j];
            h = j;
        }
    }
    x->val[h] = 0;
}

#endif /* SMC_MEM_MSHR_INDEX_H */
