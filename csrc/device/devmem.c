/*
 * devmem.c — see devmem.h. Allocation is first-fit over the gaps between
 * live allocations, in address order, so the same sequence of malloc/free
 * calls always yields the same addresses.
 */
#define _GNU_SOURCE 1
#include "devmem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static uint8_t slot_used[DEVMEM_MAX_REGIONS];

static uint64_t page_size(void) {
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (uint64_t)p : 4096;
}

int devmem_init(devmem *m, char *err, size_t errlen) {
    memset(m, 0, sizeof *m);
    for (int s = 0; s < DEVMEM_MAX_REGIONS; s++) {
        if (slot_used[s]) continue;
        uint64_t base = DEVMEM_BASE + (uint64_t)s * DEVMEM_REGION_SIZE;
        void *p = mmap((void *)(uintptr_t)base, DEVMEM_REGION_SIZE, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
        if (p == MAP_FAILED) continue;
        if ((uint64_t)(uintptr_t)p != base) {   /* old kernels ignore NOREPLACE */
            munmap(p, DEVMEM_REGION_SIZE);
            continue;
        }
        slot_used[s] = 1;
        m->slot = s; m->base = base; m->limit = base + DEVMEM_REGION_SIZE;
        return 0;
    }
    snprintf(err, errlen, "cannot reserve device memory at 0x%llx (all %d regions busy or mmap failed: %s)",
             (unsigned long long)DEVMEM_BASE, DEVMEM_MAX_REGIONS, strerror(errno));
    return -1;
}

void devmem_fini(devmem *m) {
    if (!m->base) return;
    munmap((void *)(uintptr_t)m->base, DEVMEM_REGION_SIZE);
    slot_used[m->slot] = 0;
    free(m->a);
    memset(m, 0, sizeof *m);
}

void devmem_set_packed(devmem *m) {
    m->packed = true;
    m->packed_next = m->base + DEVMEM_PACKED_START;
}

/* The table index where an allocation starting at `start` goes. */
static uint32_t insert_pos(const devmem *m, uint64_t start) {
    uint32_t lo = 0, hi = m->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (m->a[mid].start < start) lo = mid + 1; else hi = mid;
    }
    return lo;
}

uint64_t devmem_alloc_bytes(devmem *m, uint64_t bytes, uint8_t kind) {
    if (bytes == 0 || bytes > DEVMEM_REGION_SIZE / 2) return 0;
    uint64_t pg = page_size();
    uint64_t span, cand;
    uint32_t pos = 0;
    uint64_t prot_from, prot_to;
    if (m->packed && (kind == DM_DEVICE || kind == DM_MANAGED)) {
        /* GPGPU-Sim's gpu_malloc: the next free byte, rounded to 256 */
        span = (bytes + DEVMEM_ALIGN - 1) / DEVMEM_ALIGN * DEVMEM_ALIGN;
        cand = m->packed_next;
        if (cand + span > m->limit) return 0;
        pos = insert_pos(m, cand);
        /* its pages: the first may be in use already (read-write then) */
        prot_from = cand / pg * pg;
        prot_to = (cand + span + pg - 1) / pg * pg;
    } else {
        span = (bytes + pg - 1) / pg * pg;
        uint64_t top = m->packed ? m->base + DEVMEM_PACKED_START : m->limit;
        /* first fit: before the first allocation, between, after the last */
        cand = m->base + pg;     /* keep the first page unused: address base is never valid */
        for (; pos < m->n; pos++) {
            if (m->a[pos].start >= cand + span) break;
            uint64_t end = m->a[pos].start + m->a[pos].span;
            if (end > cand) cand = end;
        }
        if (cand + span > top) return 0;
        prot_from = cand;
        prot_to = cand + span;
    }
    if (m->n >= m->cap) {
        uint32_t nc = m->cap ? m->cap * 2 : 64;
        devmem_alloc *na = realloc(m->a, nc * sizeof *na);
        if (!na) return 0;
        m->a = na; m->cap = nc;
    }
    if (mprotect((void *)(uintptr_t)prot_from, prot_to - prot_from, PROT_READ | PROT_WRITE) != 0)
        return 0;
    if (m->packed && cand == m->packed_next)
        m->packed_next = cand + span;
    memmove(&m->a[pos + 1], &m->a[pos], (m->n - pos) * sizeof *m->a);
    m->a[pos] = (devmem_alloc){ cand, bytes, span, kind };
    m->n++;
    m->last = pos;
    m->bytes_in_use += bytes;
    return cand;
}

int devmem_free(devmem *m, uint64_t addr) {
    int32_t i = devmem_find(m, addr, 1);
    if (i < 0 || m->a[i].start != addr) return -1;
    devmem_alloc x = m->a[i];
    /* drop the pages and make them inaccessible again (fresh zeros on
     * reuse); packed allocations share pages and are never reused: their
     * bytes stay (GPGPU-Sim's cudaFree returns nothing either) */
    if (!(m->packed && x.start >= m->base + DEVMEM_PACKED_START)) {
        madvise((void *)(uintptr_t)x.start, x.span, MADV_DONTNEED);
        mprotect((void *)(uintptr_t)x.start, x.span, PROT_NONE);
    } else {
        /* the host memory of the pages no neighbour shares goes back */
        uint64_t pg = page_size();
        uint64_t from = (x.start + pg - 1) / pg * pg, to = (x.start + x.span) / pg * pg;
        if (to > from) {
            madvise((void *)(uintptr_t)from, to - from, MADV_DONTNEED);
            mprotect((void *)(uintptr_t)from, to - from, PROT_NONE);
        }
    }
    memmove(&m->a[i], &m->a[i + 1], (m->n - (uint32_t)i - 1) * sizeof *m->a);
    m->n--;
    m->last = 0;
    m->bytes_in_use -= x.size;
    return 0;
}

int32_t devmem_find_slow(devmem *m, uint64_t addr, uint64_t size) {
    uint32_t lo = 0, hi = m->n;
    while (lo < hi) {                 /* first allocation with start > addr */
        uint32_t mid = (lo + hi) / 2;
        if (m->a[mid].start <= addr) lo = mid + 1; else hi = mid;
    }
    if (lo == 0) return -1;
    const devmem_alloc *x = &m->a[lo - 1];
    uint64_t off = addr - x->start;
    if (off > x->size || size > x->size - off) return -1;
    if (size == 0 && off == x->size) return -1;
    m->last = lo - 1;
    return (int32_t)(lo - 1);
}
