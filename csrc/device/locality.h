/*
 * locality.h — the per-kernel locality hints of a device (seed 000 §6.3.1,
 * Table 6.1), for programs that cannot pass smc_launch_ext themselves:
 * `smcosim run --locality KERNEL=HINT,...`, SMCOSIM_LOCALITY, or
 * smc_device_opts.locality. docs/locality.md.
 *
 * A KERNEL matches a launched kernel by its PTX name exactly (mangled, e.g.
 * `_Z4gemmPfS_S_`), or, for an Itanium-mangled name, by its demangled
 * qualified name without parameters (`ns::gemm`) or its last component
 * (`gemm`): every overload of that name gets the hint. HINT is 0..3.
 *
 * The map lives inside the device (fixed storage, no heap), so the device's
 * many error paths need no extra frees.
 */
#ifndef SMC_LOCALITY_H
#define SMC_LOCALITY_H

#include <stddef.h>
#include <stdint.h>

#define LOCALITY_MAX_ENTRIES 64
#define LOCALITY_MAX_TEXT    4096
/* the hint of an entry KERNEL=auto (= TIMING_LOCALITY_AUTO, csrc/timing/timing.h) */
#define LOCALITY_AUTO        4u

typedef struct locality_map {
    uint32_t n;
    struct { const char *kernel; uint32_t hint; } e[LOCALITY_MAX_ENTRIES];
    char text[LOCALITY_MAX_TEXT];   /* the kernel names, NUL-separated */
} locality_map;

/* Parse "KERNEL=HINT[,KERNEL=HINT...]" (spaces around names and values are
 * ignored). NULL or "" gives an empty map. -1 and a message naming the
 * entry (the kernel and the value) when an entry is malformed, a hint is not
 * 0..3, or a kernel is named twice. */
int locality_map_parse(locality_map *m, const char *spec, char *err, size_t errlen);

/* 1 and *hint when `kernel_name` (as in the PTX) matches an entry. */
int locality_map_lookup(const locality_map *m, const char *kernel_name, uint32_t *hint);

/* Does `pattern` name `kernel_name` (rules above)? */
int locality_kernel_matches(const char *pattern, const char *kernel_name);

#endif
