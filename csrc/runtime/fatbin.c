/*
 * fatbin.c — fatbinary parsing, PTX selection and decompression.
 * See fatbin.h for the layout.
 */
#include "fatbin.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Little-endian field readers; the caller has checked the bounds. */
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

size_t fatbin_declared_size(const void *data, size_t avail)
{
    const uint8_t *p = data;
    if (!p || avail < FATBIN_HEADER_BYTES || rd32(p) != FATBIN_MAGIC)
        return 0;
    uint16_t hdr = rd16(p + 6);
    uint64_t body = rd64(p + 8);
    if (hdr < FATBIN_HEADER_BYTES || body > FATBIN_MAX_IMAGE_BYTES * 16ull)
        return 0;
    return (size_t)hdr + (size_t)body;
}

int fatbin_parse(const void *data, size_t avail, fatbin_entry *out, size_t max,
                 size_t *count, char *err, size_t errlen)
{
    const uint8_t *p = data;
    *count = 0;
    if (!p || avail < FATBIN_HEADER_BYTES) {
        set_err(err, errlen, "fatbinary truncated: %zu bytes, header needs %u",
                avail, FATBIN_HEADER_BYTES);
        return -1;
    }
    if (rd32(p) != FATBIN_MAGIC) {
        set_err(err, errlen, "not a fatbinary: magic 0x%08x, expected 0x%08x",
                rd32(p), FATBIN_MAGIC);
        return -1;
    }
    size_t hdr = rd16(p + 6);
    uint64_t body = rd64(p + 8);
    if (hdr < FATBIN_HEADER_BYTES || hdr > avail || body > avail - hdr) {
        set_err(err, errlen,
                "fatbinary truncated or corrupt: header %zu + body %llu bytes, "
                "only %zu available", hdr, (unsigned long long)body, avail);
        return -1;
    }
    size_t off = hdr, end = hdr + (size_t)body;
    while (off < end) {
        const uint8_t *e = p + off;
        size_t left = end - off;
        if (left < FATBIN_ENTRY_MIN_HEADER) {
            set_err(err, errlen, "fatbinary entry at offset %zu truncated: "
                    "%zu bytes left, entry header needs %u", off, left,
                    FATBIN_ENTRY_MIN_HEADER);
            return -1;
        }
        uint32_t ehdr = rd32(e + 4);
        uint64_t psize = rd64(e + 8);
        if (ehdr < FATBIN_ENTRY_MIN_HEADER || ehdr > left ||
            psize > left - ehdr) {
            set_err(err, errlen, "fatbinary entry at offset %zu corrupt: "
                    "header %u + payload %llu bytes, only %zu left", off, ehdr,
                    (unsigned long long)psize, left);
            return -1;
        }
        if (*count >= max) {
            set_err(err, errlen, "fatbinary has more than %zu entries", max);
            return -1;
        }
        fatbin_entry *x = &out[(*count)++];
        x->kind = rd16(e);
        x->compressed_size = rd32(e + 16);
        x->ptx_minor = rd16(e + 24);
        x->ptx_major = rd16(e + 26);
        x->arch = rd32(e + 28);
        x->flags = rd64(e + 40);
        x->uncompressed_size = rd64(e + 56);
        x->payload = e + ehdr;
        x->payload_size = psize;
        off += ehdr + (size_t)psize;
    }
    return 0;
}

int fatbin_pick_ptx(const fatbin_entry *e, size_t n, uint32_t max_arch)
{
    int best = -1;
    for (size_t i = 0; i < n; i++) {
        if (e[i].kind != FATBIN_KIND_PTX || e[i].arch > max_arch)
            continue;
        if (best < 0 || e[i].arch > e[best].arch)
            best = (int)i;
    }
    return best;
}

void fatbin_describe(const fatbin_entry *e, size_t n, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    if (n == 0) {
        snprintf(buf, len, "no entries");
        return;
    }
    for (size_t i = 0; i < n && used < len; i++) {
        const char *what = e[i].kind == FATBIN_KIND_PTX ? "compute" : "sm";
        const char *form = e[i].kind == FATBIN_KIND_PTX ? "PTX"
                         : e[i].kind == FATBIN_KIND_ELF ? "SASS"
                         : "unknown kind";
        int w = snprintf(buf + used, len - used, "%s%s_%u (%s)",
                         i ? ", " : "", what, e[i].arch, form);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

long fatbin_lz4_decode(const uint8_t *src, size_t src_len, uint8_t *dst,
                       size_t dst_cap)
{
    size_t ip = 0, op = 0;
    while (ip < src_len) {
        uint8_t token = src[ip++];
        size_t lit = token >> 4;
        if (lit == 15) {
            uint8_t b;
            do {
                if (ip >= src_len)
                    return -1;
                b = src[ip++];
                lit += b;
            } while (b == 255 && lit < src_len);
        }
        if (lit > src_len - ip || lit > dst_cap - op)
            return -1;
        memcpy(dst + op, src + ip, lit);
        ip += lit;
        op += lit;
        if (ip == src_len)        /* the last sequence has literals only */
            break;
        if (src_len - ip < 2)
            return -1;
        size_t dist = (size_t)src[ip] | (size_t)src[ip + 1] << 8;
        ip += 2;
        if (dist == 0 || dist > op)
            return -1;
        size_t mlen = token & 15u;
        if (mlen == 15) {
            uint8_t b;
            do {
                if (ip >= src_len)
                    return -1;
                b = src[ip++];
                mlen += b;
            } while (b == 255 && mlen <= dst_cap);
        }
        mlen += 4;
        if (mlen > dst_cap - op)
            return -1;
        for (size_t k = 0; k < mlen; k++, op++)   /* may overlap: byte by byte */
            dst[op] = dst[op - dist];
    }
    return (long)op;
}

/* Zstandard frames are decoded by the system's libzstd.so.1, loaded when the
 * first compressed image is met so that nothing else depends on it. */
typedef size_t (*zstd_decompress_fn)(void *, size_t, const void *, size_t);
typedef unsigned (*zstd_is_error_fn)(size_t);
typedef const char *(*zstd_error_name_fn)(size_t);

static long zstd_decode(const uint8_t *src, size_t src_len, uint8_t *dst,
                        size_t dst_cap, char *err, size_t errlen)
{
    static void *lib;
    static zstd_decompress_fn decompress;
    static zstd_is_error_fn is_error;
    static zstd_error_name_fn error_name;
    if (!lib) {
        lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            set_err(err, errlen, "the PTX is Zstandard-compressed and "
                    "libzstd.so.1 could not be loaded (%s); install the Debian "
                    "package libzstd1 or rebuild with -Xfatbin -compress=false",
                    dlerror());
            return -1;
        }
        *(void **)&decompress = dlsym(lib, "ZSTD_decompress");
        *(void **)&is_error = dlsym(lib, "ZSTD_isError");
        *(void **)&error_name = dlsym(lib, "ZSTD_getErrorName");
        if (!decompress || !is_error || !error_name) {
            set_err(err, errlen, "libzstd.so.1 lacks ZSTD_decompress; rebuild "
                    "with -Xfatbin -compress=false");
            dlclose(lib);
            lib = NULL;
            return -1;
        }
    }
    size_t r = decompress(dst, dst_cap, src, src_len);
    if (is_error(r)) {
        set_err(err, errlen, "Zstandard decompression of the PTX failed: %s",
                error_name(r));
        return -1;
    }
    return (long)r;
}

int fatbin_entry_text(const fatbin_entry *e, char **text, size_t *len,
                      char *err, size_t errlen)
{
    *text = NULL;
    *len = 0;
    if (e->kind != FATBIN_KIND_PTX) {
        set_err(err, errlen, "entry sm_%u is not PTX", e->arch);
        return -1;
    }
    int lz4 = (e->flags & FATBIN_FLAG_LZ4) != 0;
    int zstd = (e->flags & FATBIN_FLAG_ZSTD) != 0;
    if (!lz4 && !zstd) {
        size_t n = strnlen((const char *)e->payload, (size_t)e->payload_size);
        char *t = malloc(n + 1);
        if (!t) {
            set_err(err, errlen, "out of host memory for %zu bytes of PTX", n);
            return -1;
        }
        memcpy(t, e->payload, n);
        t[n] = '\0';
        *text = t;
        *len = n;
        return 0;
    }
    if (e->compressed_size == 0 || e->compressed_size > e->payload_size ||
        e->uncompressed_size == 0 ||
        e->uncompressed_size > FATBIN_MAX_IMAGE_BYTES) {
        set_err(err, errlen, "compressed PTX entry compute_%u has bad sizes "
                "(compressed %llu, payload %llu, uncompressed %llu)", e->arch,
                (unsigned long long)e->compressed_size,
                (unsigned long long)e->payload_size,
                (unsigned long long)e->uncompressed_size);
        return -1;
    }
    size_t cap = (size_t)e->uncompressed_size;
    uint8_t *out = malloc(cap + 1);
    if (!out) {
        set_err(err, errlen, "out of host memory for %zu bytes of PTX", cap);
        return -1;
    }
    long n;
    if (lz4) {
        n = fatbin_lz4_decode(e->payload, (size_t)e->compressed_size, out, cap);
        if (n < 0)
            set_err(err, errlen, "LZ4 data of PTX entry compute_%u is corrupt",
                    e->arch);
    } else {
        n = zstd_decode(e->payload, (size_t)e->compressed_size, out, cap, err,
                        errlen);
    }
    if (n < 0) {
        free(out);
        return -1;
    }
    if ((uint64_t)n != e->uncompressed_size) {
        set_err(err, errlen, "PTX entry compute_%u decompressed to %ld bytes, "
                "header says %llu", e->arch, n,
                (unsigned long long)e->uncompressed_size);
        free(out);
        return -1;
    }
    out[n] = '\0';
    *text = (char *)out;
    *len = strlen(*text);
    return 0;
}
