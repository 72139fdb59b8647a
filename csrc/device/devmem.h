/*
 * devmem.h — simulated device memory: one reserved region at a fixed virtual
 * address, committed as allocations are made, so that a device address IS the
 * host address of the same byte (managed memory is then trivial and addresses
 * are deterministic). An allocation table (sorted array, binary search,
 * last-hit cache) bounds-checks every guest access.
 */
#ifndef SMC_DEVMEM_H
#define SMC_DEVMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DEVMEM_REGION_SIZE 0x001000000000ull   /* 64 GiB of address space each */
#if defined(__SANITIZE_THREAD__)
/* ThreadSanitizer keeps its shadow above 1 TiB and takes the application's
 * memory from below 512 GiB only (its x86_64 map): its build (`make
 * SAN=thread`, the runtime's host-thread test) puts device memory at 64 GiB,
 * below the shared and local windows of ptx/link.h. */
#define DEVMEM_BASE        0x001000000000ull   /* first device's region */
#define DEVMEM_MAX_REGIONS 4
#else
#define DEVMEM_BASE        0x200000000000ull   /* first device's region */
#define DEVMEM_MAX_REGIONS 16
#endif
#define DEVMEM_ALIGN       256                 /* cudaMalloc alignment */

enum devmem_kind { DM_DEVICE = 0, DM_MANAGED, DM_HOST, DM_MODULE,
                   DM_HEAP      /* a kernel's malloc() */ };

/* The device heap of malloc()/free() in kernels: CUDA's default size
 * (cudaLimitMallocHeapSize, 8 MiB); a malloc beyond it returns NULL. */
#define DEVMEM_HEAP_DEFAULT (8ull << 20)

typedef struct devmem_alloc {
    uint64_t start, size;     /* size as requested (bounds checks use it) */
    uint64_t span;            /* bytes reserved (rounded up) */
    uint8_t  kind;
} devmem_alloc;

typedef struct devmem {
    uint64_t base, limit;     /* [base, limit) reserved */
    /* devmem_set_packed: device and managed allocations are packed upward
     * from `packed_next` (256-byte rounding, never reused), the others take
     * pages first fit below DEVMEM_PACKED_START */
    bool     packed;
    uint64_t packed_next;
    int      slot;
    devmem_alloc *a; uint32_t n, cap;
    uint32_t last;            /* last-hit cache */
    uint64_t bytes_in_use;
    uint64_t heap_in_use, heap_limit;   /* DM_HEAP bytes; limit (0: the default) */
} devmem;

/* Reserve a region. Returns 0 or -1 (errno-style failure; message in err). */
int  devmem_init(devmem *m, char *err, size_t errlen);
void devmem_fini(devmem *m);
/* GPGPU-Sim's layout (gpu.malloc = gpgpusim): device and managed
 * allocations from base + DEVMEM_PACKED_START (a 1-GiB boundary) upward,
 * each rounded up to DEVMEM_ALIGN bytes, freed memory not reused; module
 * variables, host and kernel-heap allocations stay page-granular below. */
#define DEVMEM_PACKED_START (DEVMEM_REGION_SIZE / 2)
void devmem_set_packed(devmem *m);
/* Allocate `bytes` (>0); returns the device address or 0 when out of memory. */
uint64_t devmem_alloc_bytes(devmem *m, uint64_t bytes, uint8_t kind);
/* Free the allocation that starts at addr; -1 if there is none. */
int  devmem_free(devmem *m, uint64_t addr);
/* Index of the allocation containing [addr, addr+size), or -1. */
int32_t devmem_find_slow(devmem *m, uint64_t addr, uint64_t size);

static inline int32_t devmem_find(devmem *m, uint64_t addr, uint64_t size) {
    if (m->last < m->n) {
        const devmem_alloc *x = &m->a[m->last];
        if (addr >= x->start && addr - x->start <= x->size && size <= x->size - (addr - x->start))
            return (int32_t)m->last;
    }
    return devmem_find_slow(m, addr, size);
}

#endif
