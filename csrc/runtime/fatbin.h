/*
 * fatbin.h — reading the device code that nvcc embeds in a host program.
 *
 * nvcc puts a "fatbinary" into the host executable and hands the runtime a
 * pointer to a small wrapper (magic 0x466243B1) that points at it. A
 * fatbinary is a 16-byte header followed by entries; each entry is one
 * device image: PTX text for a virtual architecture (compute_XY) or a SASS
 * ELF for a real one (sm_XY), possibly compressed. The layout below was
 * established by reading nvcc 13 output on this machine (docs/runtime.md,
 * "Fatbinary handling"):
 *
 *   fatbinary header (16 bytes)
 *     u32 magic 0xBA55ED50, u16 version (1), u16 header_size (16),
 *     u64 body_size (bytes of entries after the header)
 *   entry header (header_size bytes, 80 in CUDA 13), then the payload
 *     +0  u16 kind (1 = PTX, 2 = ELF)      +2  u16 (unused here)
 *     +4  u32 header_size                  +8  u64 payload_size (padded)
 *     +16 u32 compressed_size              +20 u32 (unused here)
 *     +24 u16 ptx_minor  +26 u16 ptx_major +28 u32 arch (75 = compute_75)
 *     +32 u32 name offset, +36 u32 name length (unused here)
 *     +40 u64 flags: 0x2000 = LZ4 block, 0x8000 = Zstandard frame
 *     +48 u64 (unused)                     +56 u64 uncompressed_size
 *
 * Everything here is bounds-checked against the number of bytes the caller
 * says are readable: crafted or truncated input gives an error message, never
 * an out-of-bounds read.
 */
#ifndef SMC_RUNTIME_FATBIN_H
#define SMC_RUNTIME_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define FATBIN_WRAPPER_MAGIC 0x466243B1u
#define FATBIN_MAGIC         0xBA55ED50u
#define FATBIN_HEADER_BYTES  16u
#define FATBIN_ENTRY_MIN_HEADER 64u   /* through uncompressed_size */

#define FATBIN_KIND_PTX 1u
#define FATBIN_KIND_ELF 2u

#define FATBIN_FLAG_LZ4  0x2000u
#define FATBIN_FLAG_ZSTD 0x8000u

/* Largest image we agree to inflate: far above any real kernel, low enough
 * that a corrupt size field cannot make us allocate the machine away. */
#define FATBIN_MAX_IMAGE_BYTES (256u << 20)

typedef struct fatbin_entry {
    uint32_t kind;               /* FATBIN_KIND_PTX / FATBIN_KIND_ELF / other */
    uint32_t arch;               /* 75 for compute_75 / sm_75 */
    uint32_t ptx_major, ptx_minor;
    uint64_t flags;
    const uint8_t *payload;      /* points into the caller's buffer */
    uint64_t payload_size;
    uint64_t compressed_size;
    uint64_t uncompressed_size;
} fatbin_entry;

/* Total size (header + body) that the fatbinary at `data` declares, or 0 when
 * the first `avail` bytes do not start with a valid fatbinary header. */
size_t fatbin_declared_size(const void *data, size_t avail);

/* Parse the fatbinary in data[0..avail). Stores up to `max` entries in
 * `out` and their number in *count. Returns 0, or -1 with a message in err. */
int fatbin_parse(const void *data, size_t avail, fatbin_entry *out, size_t max,
                 size_t *count, char *err, size_t errlen);

/* Index of the PTX entry with the highest arch <= max_arch (first one wins a
 * tie), or -1 when there is none. */
int fatbin_pick_ptx(const fatbin_entry *e, size_t n, uint32_t max_arch);

/* One-line description of the entries ("sm_75 (SASS), compute_80 (PTX)")
 * for messages. */
void fatbin_describe(const fatbin_entry *e, size_t n, char *buf, size_t len);

/* The PTX text of a PTX entry, decompressed if needed and NUL-terminated.
 * On success *text is malloc'd (caller frees) and *len is strlen(*text). */
int fatbin_entry_text(const fatbin_entry *e, char **text, size_t *len,
                      char *err, size_t errlen);

/* Decode one raw LZ4 block (no frame). Returns the number of bytes written,
 * or -1 on malformed input or when the output would exceed dst_cap. */
long fatbin_lz4_decode(const uint8_t *src, size_t src_len, uint8_t *dst,
                       size_t dst_cap);

#endif /* SMC_RUNTIME_FATBIN_H */
