/*
 * trace_reader.c — kernelslist.g, kernel trace headers, thread blocks and
 * instruction lines of Accel-Sim's trace format (trace.h; docs/traces.md).
 * Written from the format's description (the tracer's README and its
 * "#traces format" comment line), not from Accel-Sim's parser.
 *
 * Everything in the input is checked; an error names the file, the line and
 * the field, and nothing the input says is trusted to size an allocation
 * (counts only bound what is read).
 */
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tokens --------------------------------------------------------------- */

/* The next space-separated token of *p: its start and length; 0 at the end. */
static size_t next_tok(const char **p, const char **tok)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    const char *e = s;
    while (*e && *e != ' ' && *e != '\t')
        e++;
    *tok = s;
    *p = e;
    return (size_t)(e - s);
}

/* Copy a token for a message (at most 40 characters). */
static const char *show(const char *tok, size_t n, char *buf, size_t cap)
{
    if (n == 0)
        return "end of line";
    snprintf(buf, cap, "'%.*s%s'", (int)(n > 40 ? 40 : n), tok, n > 40 ? "..." : "");
    return buf;
}

/* One more than the value of a hexadecimal digit; 0 for any other character. */
static const uint8_t hex_val1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
    ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* Unsigned number of a token: base 16 (optional 0x) or 10. 0 when it is one
 * and fits in max. (Called for every address of a trace: a table and the
 * compiler's overflow checks, no division per digit.) */
static int tok_uint(const char *tok, size_t n, int base, uint64_t max, uint64_t *out)
{
    if (base == 16 && n > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
        tok += 2;
        n -= 2;
    }
    if (n == 0 || n > 20)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned d = hex_val1[(unsigned char)tok[i]] - 1u;   /* not a digit: UINT_MAX */
        if (d >= (unsigned)base)
            return -1;
        if (__builtin_mul_overflow(v, (uint64_t)base, &v) || __builtin_add_overflow(v, (uint64_t)d, &v))
            return -1;
    }
    if (v > max)
        return -1;
    *out = v;
    return 0;
}

/* Signed decimal token within [-max, max]. */
static int tok_int(const char *tok, size_t n, int64_t max, int64_t *out)
{
    int neg = n > 0 && (tok[0] == '-' || tok[0] == '+');
    uint64_t v;
    if (tok_uint(tok + neg, n - (size_t)neg, 10, (uint64_t)max, &v) != 0)
        return -1;
    *out = neg && tok[0] == '-' ? -(int64_t)v : (int64_t)v;
    return 0;
}

/* A register token "R<n>", n in 0..255. */
static int tok_reg(const char *tok, size_t n, uint16_t *out)
{
    uint64_t v;
    if (n < 2 || tok[0] != 'R' || tok_uint(tok + 1, n - 1, 10, 255, &v) != 0)
        return -1;
    *out = (uint16_t)v;
    return 0;
}

/* ---- instruction lines ------------------------------------------------------ */

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int trace_parse_inst(const char *line, uint32_t lineinfo, trace_inst *out, char *err, size_t errlen)
{
    const char *p = line, *t;
    size_t n;
    uint64_t v;
    char sb[64];
    memset(out, 0, offsetof(trace_inst, addr));
    if (lineinfo) {
        n = next_tok(&p, &t);
        if (tok_uint(t, n, 10, UINT32_MAX, &v) != 0)
            FAIL("field 'line_num': expected a decimal source line number, got %s", show(t, n, sb, sizeof sb));
        out->src_line = (uint32_t)v;
    }
    n = next_tok(&p, &t);
    if (tok_uint(t, n, 16, UINT64_MAX, &out->pc) != 0)
        FAIL("field 'PC': expected a hexadecimal pc, got %s", show(t, n, sb, sizeof sb));
    n = next_tok(&p, &t);
    if (tok_uint(t, n, 16, UINT32_MAX, &v) != 0)
        FAIL("field 'mask': expected a 32-bit hexadecimal active mask, got %s", show(t, n, sb, sizeof sb));
    out->mask = (uint32_t)v;
    n = next_tok(&p, &t);
    if (tok_uint(t, n, 10, TRACE_MAX_REGS, &v) != 0)
        FAIL("field 'dest_num': expected 0..%d destination registers, got %s", TRACE_MAX_REGS,
             show(t, n, sb, sizeof sb));
    out->ndst = (uint8_t)v;
    for (unsigned i = 0; i < out->ndst; i++) {
        n = next_tok(&p, &t);
        if (tok_reg(t, n, &out->dst[i]) != 0)
            FAIL("field 'reg_dests' (%u of %u): expected a register R0..R255, got %s", i + 1,
                 out->ndst, show(t, n, sb, sizeof sb));
    }
    n = next_tok(&p, &t);
    if (n == 0 || !isalpha((unsigned char)t[0]) || n >= sizeof out->opcode)
        FAIL("field 'opcode': expected a SASS opcode, got %s", show(t, n, sb, sizeof sb));
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)t[i]) && t[i] != '.' && t[i] != '_')
            FAIL("field 'opcode': expected a SASS opcode, got %s", show(t, n, sb, sizeof sb));
    memcpy(out->opcode, t, n);
    out->opcode[n] = '\0';
    n = next_tok(&p, &t);
    if (tok_uint(t, n, 10, TRACE_MAX_REGS, &v) != 0)
        FAIL("field 'src_num': expected 0..%d source registers, got %s", TRACE_MAX_REGS,
             show(t, n, sb, sizeof sb));
    out->nsrc = (uint8_t)v;
    for (unsigned i = 0; i < out->nsrc; i++) {
        n = next_tok(&p, &t);
        if (tok_reg(t, n, &out->src[i]) != 0)
            FAIL("field 'reg_srcs' (%u of %u): expected a register R0..R255, got %s", i + 1,
                 out->nsrc, show(t, n, sb, sizeof sb));
    }
    n = next_tok(&p, &t);
    if (tok_uint(t, n, 10, 1024, &v) != 0)
        FAIL("field 'mem_width': expected the bytes per lane (0 = no memory access), got %s",
             show(t, n, sb, sizeof sb));
    out->mem_width = (uint32_t)v;
    if (out->mem_width) {
        n = next_tok(&p, &t);
        if (tok_uint(t, n, 10, 2, &v) != 0)
            FAIL("field 'address mode': expected 0 (list), 1 (base+stride) or 2 (base+deltas), got %s",
                 show(t, n, sb, sizeof sb));
        out->addr_mode = (uint8_t)v;
        unsigned active = (unsigned)__builtin_popcount(out->mask), k = 0;
        uint64_t base = 0;
        int64_t step = 0;
        if (out->addr_mode != TRACE_ADDR_LIST) {
            n = next_tok(&p, &t);
            if (tok_uint(t, n, 16, UINT64_MAX, &base) != 0)
                FAIL("field 'base address': expected a hexadecimal address, got %s",
                     show(t, n, sb, sizeof sb));
        }
        if (out->addr_mode == TRACE_ADDR_STRIDE) {
            n = next_tok(&p, &t);
            if (tok_int(t, n, INT32_MAX, &step) != 0)
                FAIL("field 'stride': expected a decimal stride, got %s", show(t, n, sb, sizeof sb));
        }
        /* lanes in order: the k-th active lane's address */
        uint64_t prev = base;
        for (unsigned l = 0; l < TRACE_WARP_SIZE; l++) {
            if (!((out->mask >> l) & 1)) {
                out->addr[l] = 0;
                continue;
            }
            switch (out->addr_mode) {
            case TRACE_ADDR_LIST:
                n = next_tok(&p, &t);
                if (tok_uint(t, n, 16, UINT64_MAX, &out->addr[l]) != 0)
                    FAIL("field 'addresses' (%u of %u, lane %u): expected a hexadecimal address, got %s",
                         k + 1, active, l, show(t, n, sb, sizeof sb));
                break;
            case TRACE_ADDR_STRIDE:
                out->addr[l] = base + (uint64_t)((int64_t)k * step);
                break;
            default:   /* base + deltas: one delta per active lane after the first */
                if (k > 0) {
                    int64_t d;
                    n = next_tok(&p, &t);
                    if (tok_int(t, n, INT64_MAX, &d) != 0)
                        FAIL("field 'deltas' (%u of %u, lane %u): expected a decimal delta, got %s",
                             k, active - 1, l, show(t, n, sb, sizeof sb));
                    prev += (uint64_t)d;
                }
                out->addr[l] = prev;
                break;
            }
            k++;
        }
    } else {
        memset(out->addr, 0, sizeof out->addr);
    }
    /* an optional trailing immediate (later tracers), then nothing */
    n = next_tok(&p, &t);
    if (n) {
        int64_t imm;
        uint64_t uimm;
        if (tok_int(t, n, INT64_MAX, &imm) != 0 && tok_uint(t, n, 16, UINT64_MAX, &uimm) != 0)
            FAIL("unexpected %s after the %s", show(t, n, sb, sizeof sb),
                 out->mem_width ? "addresses" : "'mem_width' field");
        n = next_tok(&p, &t);
        if (n)
            FAIL("unexpected %s after the immediate", show(t, n, sb, sizeof sb));
    }
    return 0;
}

/* ---- kernelslist.g ------------------------------------------------------------ */

#undef FAIL
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

static char *dir_join(const char *list_path, const char *name)
{
    const char *slash = strrchr(list_path, '/');
    size_t dl = slash ? (size_t)(slash - list_path + 1) : 0;
    size_t n = dl + strlen(name) + 1;
    char *s = malloc(n);
    if (s) {
        memcpy(s, list_path, dl);
        strcpy(s + dl, name);
    }
    return s;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

int trace_list_load(const char *path, trace_list *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    trace_file *f = trace_file_open(path, err, errlen);
    if (!f)
        return -1;
    const char *line;
    int r;
    uint32_t cap = 0;
    while ((r = trace_file_line(f, &line, err, errlen)) == 1) {
        unsigned ln = (unsigned)trace_file_lineno(f);
        while (*line == ' ' || *line == '\t')
            line++;
        if (!*line || line[0] == '#')
            continue;
        trace_cmd c;
        memset(&c, 0, sizeof c);
        c.line = ln;
        if (strncmp(line, "MemcpyHtoD,", 11) == 0) {
            const char *a = line + 11, *comma = strchr(a, ',');
            if (!comma || tok_uint(a, (size_t)(comma - a), 16, UINT64_MAX, &c.addr) != 0)
                FAIL("%s:%u: field 'address' of MemcpyHtoD: expected a hexadecimal address", path, ln);
            if (tok_uint(comma + 1, strlen(comma + 1), 10, UINT64_MAX, &c.bytes) != 0)
                FAIL("%s:%u: field 'bytes' of MemcpyHtoD: expected a decimal byte count", path, ln);
            c.kind = TRACE_CMD_MEMCPY_HTOD;
        } else if (strncmp(line, "MemcpyDtoH", 10) == 0) {
            continue;            /* device-to-host copies do not change the GPU */
        } else if (ends_with(line, ".traceg") || ends_with(line, ".traceg.xz")) {
            if (strchr(line, ' ') || strchr(line, ','))
                FAIL("%s:%u: field 'kernel trace file': '%s' is not a file name", path, ln, line);
            c.kind = TRACE_CMD_KERNEL;
            if (!(c.path = line[0] == '/' ? strdup(line) : dir_join(path, line)))
                FAIL("%s:%u: out of host memory", path, ln);
            out->nkernels++;
        } else {
            FAIL("%s:%u: expected 'MemcpyHtoD,ADDR,BYTES' or a kernel trace file "
                 "(kernel-N.traceg[.xz]), got '%.60s'", path, ln, line);
        }
        if (out->n == cap) {
            cap = cap ? cap * 2 : 16;
            trace_cmd *nc = realloc(out->cmd, cap * sizeof *nc);
            if (!nc) {
                free(c.path);
                FAIL("%s: out of host memory", path);
            }
            out->cmd = nc;
        }
        out->cmd[out->n++] = c;
    }
    if (r < 0)
        goto fail;
    trace_file_close(f);
    if (out->nkernels == 0) {
        snprintf(err, errlen, "%s: no kernel trace file listed", path);
        trace_list_free(out);
        return -1;
    }
    return 0;
fail:
    trace_file_close(f);
    trace_list_free(out);
    return -1;
}

void trace_list_free(trace_list *l)
{
    for (uint32_t i = 0; i < l->n; i++)
        free(l->cmd[i].path);
    free(l->cmd);
    memset(l, 0, sizeof *l);
}

/* ---- a kernel's trace ------------------------------------------------------------ */

struct trace_kernel {
    trace_file   *f;
    trace_header  h;
    uint32_t      nwarps;            /* warps per block */
    uint64_t      nctas;
    trace_static *st;
    uint32_t      nst, capst;
    uint32_t     *hash;              /* pc -> static index + 1 (open addressing) */
    uint32_t      hcap;
    uint8_t      *seen;              /* blocks read so far: [nctas / 8] bits, or NULL */
};

const trace_header *trace_kernel_header(const trace_kernel *k) { return &k->h; }
const char *trace_kernel_path(const trace_kernel *k) { return trace_file_path(k->f); }
uint32_t trace_kernel_nstatic(const trace_kernel *k) { return k->nst; }
const trace_static *trace_kernel_static(const trace_kernel *k, uint32_t i)
{
    return i < k->nst ? &k->st[i] : NULL;
}

/* "(x,y,z)" with each in 1..max */
static int parse_dim3(const char *s, uint32_t d[3])
{
    unsigned long long a, b, c;
    char extra;
    while (*s == ' ')
        s++;
    if (sscanf(s, "(%llu,%llu,%llu)%c", &a, &b, &c, &extra) != 3)
        return -1;
    if (!a || !b || !c || a > UINT32_MAX || b > 65535 || c > 65535)
        return -1;
    d[0] = (uint32_t)a; d[1] = (uint32_t)b; d[2] = (uint32_t)c;
    return 0;
}

/* A header value as a number (base 0: 0x for hex) */
static int parse_num(const char *s, uint64_t max, uint64_t *out)
{
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        n--;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return tok_uint(s, n, 16, max, out);
    return tok_uint(s, n, 10, max, out);
}

trace_kernel *trace_kernel_open(const char *path, char *err, size_t errlen)
{
    trace_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        snprintf(err, errlen, "%s: out of host memory", path);
        return NULL;
    }
    if (!(k->f = trace_file_open(path, err, errlen))) {
        free(k);
        return NULL;
    }
    enum { H_NAME, H_GRID, H_BLOCK, H_SHMEM, H_NREGS, H_BIN, H_TRACER, H_COUNT };
    static const char *const required[H_COUNT] = {
        "kernel name", "grid dim", "block dim", "shmem", "nregs", "binary version",
        "accelsim tracer version",
    };
    int have[H_COUNT] = { 0 };
    const char *line;
    int r;
    while ((r = trace_file_line(k->f, &line, err, errlen)) == 1) {
        unsigned ln = (unsigned)trace_file_lineno(k->f);
        if (!*line)
            continue;
        if (line[0] == '#')
            break;       /* "#traces format = ..." or "#BEGIN_TB": the header is over */
        if (line[0] != '-')
            FAIL("%s:%u: expected a header line '-key = value' or '#', got '%.60s'", path, ln, line);
        const char *eq = strchr(line, '=');
        if (!eq)
            FAIL("%s:%u: header line without '=': '%.60s'", path, ln, line);
        char key[64];
        size_t kl = (size_t)(eq - line - 1);
        while (kl && line[kl] == ' ')
            kl--;
        if (kl >= sizeof key)
            kl = sizeof key - 1;
        memcpy(key, line + 1, kl);
        key[kl] = '\0';
        const char *val = eq + 1;
        uint64_t v;
        if (strcmp(key, "kernel name") == 0) {
            while (*val == ' ')
                val++;
            if (!*val)
                FAIL("%s:%u: field 'kernel name': empty", path, ln);
            free(k->h.name);
            if (!(k->h.name = strdup(val)))
                FAIL("%s: out of host memory", path);
            have[H_NAME] = 1;
        } else if (strcmp(key, "kernel id") == 0) {
            if (parse_num(val, UINT32_MAX, &v) != 0)
                FAIL("%s:%u: field 'kernel id': expected a number", path, ln);
            k->h.kernel_id = (uint32_t)v;
        } else if (strcmp(key, "grid dim") == 0) {
            if (parse_dim3(val, k->h.grid) != 0)
                FAIL("%s:%u: field 'grid dim': expected (X,Y,Z) with X in 1..2^32-1, Y, Z in 1..65535",
                     path, ln);
            have[H_GRID] = 1;
        } else if (strcmp(key, "block dim") == 0) {
            if (parse_dim3(val, k->h.block) != 0 ||
                (uint64_t)k->h.block[0] * k->h.block[1] * k->h.block[2] > 1024)
                FAIL("%s:%u: field 'block dim': expected (X,Y,Z) of at most 1024 threads", path, ln);
            have[H_BLOCK] = 1;
        } else if (strcmp(key, "shmem") == 0) {
            if (parse_num(val, UINT32_MAX, &v) != 0)
                FAIL("%s:%u: field 'shmem': expected bytes of shared memory", path, ln);
            k->h.shmem = (uint32_t)v;
            have[H_SHMEM] = 1;
        } else if (strcmp(key, "nregs") == 0) {
            if (parse_num(val, 255, &v) != 0)
                FAIL("%s:%u: field 'nregs': expected 0..255 registers per thread", path, ln);
            k->h.nregs = (uint32_t)v;
            have[H_NREGS] = 1;
        } else if (strcmp(key, "binary version") == 0) {
            if (parse_num(val, 1000, &v) != 0)
                FAIL("%s:%u: field 'binary version': expected the SM version (e.g. 61)", path, ln);
            k->h.binary_version = (uint32_t)v;
            have[H_BIN] = 1;
        } else if (strcmp(key, "accelsim tracer version") == 0) {
            if (parse_num(val, 1000, &v) != 0)
                FAIL("%s:%u: field 'accelsim tracer version': expected a number", path, ln);
            if (v < 3 || v > 5)
                FAIL("%s:%u: field 'accelsim tracer version': version %llu is not supported (3..5)",
                     path, ln, (unsigned long long)v);
            k->h.tracer_version = (uint32_t)v;
            have[H_TRACER] = 1;
        } else if (strcmp(key, "cuda stream id") == 0) {
            if (parse_num(val, UINT64_MAX, &v) != 0)
                FAIL("%s:%u: field 'cuda stream id': expected a number", path, ln);
            k->h.stream_id = v;
        } else if (strcmp(key, "shmem base_addr") == 0) {
            if (parse_num(val, UINT64_MAX, &k->h.shmem_base) != 0)
                FAIL("%s:%u: field 'shmem base_addr': expected a hexadecimal address", path, ln);
        } else if (strcmp(key, "local mem base_addr") == 0) {
            if (parse_num(val, UINT64_MAX, &k->h.local_base) != 0)
                FAIL("%s:%u: field 'local mem base_addr': expected a hexadecimal address", path, ln);
        } else if (strcmp(key, "enable lineinfo") == 0) {
            if (parse_num(val, 1, &v) != 0)
                FAIL("%s:%u: field 'enable lineinfo': expected 0 or 1", path, ln);
            k->h.lineinfo = (uint32_t)v;
        } else if (strcmp(key, "nvbit version") == 0) {
            while (*val == ' ')
                val++;
            snprintf(k->h.nvbit_version, sizeof k->h.nvbit_version, "%s", val);
        }
        /* other keys: later tracers' additions, ignored */
    }
    if (r < 0)
        goto fail;
    for (int i = 0; i < H_COUNT; i++)
        if (!have[i])
            FAIL("%s: header field '-%s' is missing", path, required[i]);
    if (r == 1)
        trace_file_unread(k->f);   /* the '#' line that ended the header */
    uint32_t threads = k->h.block[0] * k->h.block[1] * k->h.block[2];
    k->nwarps = (threads + TRACE_WARP_SIZE - 1) / TRACE_WARP_SIZE;
    k->nctas = (uint64_t)k->h.grid[0] * k->h.grid[1] * k->h.grid[2];
    if (k->nctas > UINT32_MAX)
        FAIL("%s: field 'grid dim': more than 2^32-1 blocks", path);
    return k;
fail:
    trace_kernel_close(k);
    return NULL;
}

void trace_kernel_close(trace_kernel *k)
{
    if (!k)
        return;
    trace_file_close(k->f);
    free(k->h.name);
    free(k->st);
    free(k->hash);
    free(k->seen);
    free(k);
}

/* ---- the static table: pc -> trace_static ---------------------------------- */

static uint32_t pc_hash(uint64_t pc, uint32_t cap)
{
    return (uint32_t)((pc * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

static int hash_grow(trace_kernel *k)
{
    uint32_t nc = k->hcap ? k->hcap * 2 : 1024;
    uint32_t *h = calloc(nc, sizeof *h);
    if (!h)
        return -1;
    for (uint32_t i = 0; i < k->nst; i++) {
        uint32_t j = pc_hash(k->st[i].pc, nc);
        while (h[j])
            j = (j + 1) & (nc - 1);
        h[j] = i + 1;
    }
    free(k->hash);
    k->hash = h;
    k->hcap = nc;
    return 0;
}

/* The static index of the line's instruction (added when new). -1 with a
 * message when out of memory or when the pc was seen with other contents. */
static int64_t intern(trace_kernel *k, const trace_inst *in, uint32_t line, char *err, size_t errlen)
{
    if ((k->nst + 1) * 2 > k->hcap && hash_grow(k) != 0) {
        snprintf(err, errlen, "%s: out of host memory", trace_file_path(k->f));
        return -1;
    }
    uint32_t j = pc_hash(in->pc, k->hcap);
    while (k->hash[j]) {
        const trace_static *s = &k->st[k->hash[j] - 1];
        if (s->pc == in->pc) {
            if (strcmp(s->opcode, in->opcode) != 0 || s->ndst != in->ndst || s->nsrc != in->nsrc ||
                memcmp(s->dst, in->dst, in->ndst * sizeof *in->dst) != 0 ||
                memcmp(s->src, in->src, in->nsrc * sizeof *in->src) != 0 ||
                s->mem_width != in->mem_width) {
                snprintf(err, errlen, "%s:%u: field 'opcode'/registers: pc 0x%04" PRIx64 " is '%s' "
                         "with %u destination and %u source registers here but '%s' with %u and %u "
                         "at line %u", trace_file_path(k->f), line, in->pc, in->opcode, in->ndst,
                         in->nsrc, s->opcode, s->ndst, s->nsrc, s->line);
                return -1;
            }
            return k->hash[j] - 1;
        }
        j = (j + 1) & (k->hcap - 1);
    }
    if (k->nst == k->capst) {
        uint32_t nc = k->capst ? k->capst * 2 : 256;
        trace_static *n = realloc(k->st, nc * sizeof *n);
        if (!n) {
            snprintf(err, errlen, "%s: out of host memory", trace_file_path(k->f));
            return -1;
        }
        k->st = n;
        k->capst = nc;
    }
    trace_static *s = &k->st[k->nst];
    memset(s, 0, sizeof *s);
    s->pc = in->pc;
    memcpy(s->opcode, in->opcode, sizeof s->opcode);
    s->ndst = in->ndst;
    s->nsrc = in->nsrc;
    memcpy(s->dst, in->dst, sizeof s->dst);
    memcpy(s->src, in->src, sizeof s->src);
    s->mem_width = in->mem_width;
    s->line = line;
    k->hash[j] = ++k->nst;
    return k->nst - 1;
}

/* ---- thread blocks -------------------------------------------------------------- */

void trace_tb_free(trace_tb *tb)
{
    if (tb->inst)
        for (uint32_t w = 0; w < tb->nwarps; w++)
            free(tb->inst[w]);
    free(tb->inst);
    free(tb->ninst);
    free(tb->addr);
    memset(tb, 0, sizeof *tb);
}

/* "key = value" where the line starts with key (the value's text) */
static const char *keyed(const char *line, const char *key)
{
    size_t n = strlen(key);
    if (strncmp(line, key, n) != 0)
        return NULL;
    const char *s = line + n;
    while (*s == ' ')
        s++;
    if (*s != '=')
        return NULL;
    return s + 1;
}

int trace_kernel_next_tb(trace_kernel *k, trace_tb *tb, char *err, size_t errlen)
{
    const char *path = trace_file_path(k->f);
    memset(tb, 0, sizeof *tb);
    const char *line;
    int r;
    trace_inst in;
    /* find #BEGIN_TB */
    for (;;) {
        if ((r = trace_file_line(k->f, &line, err, errlen)) != 1)
            return r;    /* 0: end of file between blocks */
        if (strcmp(line, "#BEGIN_TB") == 0)
            break;
        if (!*line || line[0] == '#')
            continue;    /* comments ("#traces format = ...") */
        snprintf(err, errlen, "%s:%llu: expected '#BEGIN_TB', got '%.60s'", path,
                 (unsigned long long)trace_file_lineno(k->f), line);
        return -1;
    }
    unsigned begin = (unsigned)trace_file_lineno(k->f);
    tb->nwarps = k->nwarps;
    tb->ninst = calloc(k->nwarps, sizeof *tb->ninst);
    tb->inst = calloc(k->nwarps, sizeof *tb->inst);
    uint8_t *warp_seen = calloc(k->nwarps, 1);
    uint32_t *cap = calloc(k->nwarps, sizeof *cap);
    if (!tb->ninst || !tb->inst || !warp_seen || !cap)
        FAIL("%s: out of host memory", path);
    int have_id = 0;
    int64_t warp = -1;          /* the warp whose lines come now */
    uint64_t expect = 0;        /* its "insts = N" */
    for (;;) {
        if ((r = trace_file_line(k->f, &line, err, errlen)) < 0)
            goto fail;
        unsigned ln = (unsigned)trace_file_lineno(k->f);
        if (r == 0)
            FAIL("%s:%u: end of file inside the thread block that starts at line %u (no '#END_TB')",
                 path, ln, begin);
        if (!*line)
            continue;
        const char *v;
        if (warp >= 0 && expect != UINT64_MAX && tb->ninst[warp] < expect) {
            /* an instruction line of the current warp */
            /* (an instruction line starts with a digit: the keys are
             * looked for only in a line that starts with a letter) */
            if (line[0] == '#' || (!hex_val1[(unsigned char)line[0]] &&
                                   (keyed(line, "warp") || keyed(line, "insts") ||
                                    keyed(line, "thread block"))))
                FAIL("%s:%u: field 'insts': warp %lld has %u instruction lines, not %llu, before '%.40s'",
                     path, ln, (long long)warp, tb->ninst[warp], (unsigned long long)expect, line);
            char e2[256];
            if (trace_parse_inst(line, k->h.lineinfo, &in, e2, sizeof e2) != 0)
                FAIL("%s:%u: %s", path, ln, e2);
            int64_t sidx = intern(k, &in, ln, err, errlen);
            if (sidx < 0)
                goto fail;
            uint32_t w = (uint32_t)warp;
            if (tb->ninst[w] == cap[w]) {
                uint32_t nc = cap[w] ? cap[w] * 2 : 64;
                if (nc > expect)
                    nc = (uint32_t)expect;
                trace_dyn *nd = realloc(tb->inst[w], nc * sizeof *nd);
                if (!nd)
                    FAIL("%s:%u: out of host memory", path, ln);
                tb->inst[w] = nd;
                cap[w] = nc;
            }
            trace_dyn *d = &tb->inst[w][tb->ninst[w]++];
            d->sidx = (uint32_t)sidx;
            d->mask = in.mask;
            d->line = ln;
            d->addr = UINT32_MAX;
            if (in.mem_width) {
                if (tb->naddr + TRACE_WARP_SIZE > tb->capaddr) {
                    uint32_t nc = tb->capaddr ? tb->capaddr * 2 : 1024;
                    uint64_t *na = realloc(tb->addr, nc * sizeof *na);
                    if (!na)
                        FAIL("%s:%u: out of host memory", path, ln);
                    tb->addr = na;
                    tb->capaddr = nc;
                }
                d->addr = tb->naddr;
                memcpy(tb->addr + tb->naddr, in.addr, sizeof in.addr);
                tb->naddr += TRACE_WARP_SIZE;
            }
            tb->total++;
            continue;
        }
        if (strcmp(line, "#END_TB") == 0) {
            if (!have_id)
                FAIL("%s:%u: thread block without a 'thread block = X,Y,Z' line", path, ln);
            break;
        }
        if (strcmp(line, "#BEGIN_TB") == 0)
            FAIL("%s:%u: '#BEGIN_TB' inside the thread block that starts at line %u", path, ln, begin);
        if ((v = keyed(line, "thread block"))) {
            unsigned long long x, y, z;
            char extra;
            if (have_id)
                FAIL("%s:%u: field 'thread block': given twice", path, ln);
            if (sscanf(v, " %llu,%llu,%llu%c", &x, &y, &z, &extra) != 3)
                FAIL("%s:%u: field 'thread block': expected X,Y,Z", path, ln);
            if (x >= k->h.grid[0] || y >= k->h.grid[1] || z >= k->h.grid[2])
                FAIL("%s:%u: field 'thread block': %llu,%llu,%llu is outside the grid (%u,%u,%u)",
                     path, ln, x, y, z, k->h.grid[0], k->h.grid[1], k->h.grid[2]);
            tb->id[0] = (uint32_t)x; tb->id[1] = (uint32_t)y; tb->id[2] = (uint32_t)z;
            have_id = 1;
        } else if ((v = keyed(line, "warp"))) {
            uint64_t w;
            if (!have_id)
                FAIL("%s:%u: 'warp' before the 'thread block' line", path, ln);
            if (parse_num(v, UINT32_MAX, &w) != 0 || w >= k->nwarps)
                FAIL("%s:%u: field 'warp': expected a warp number 0..%u (block of %u threads)", path,
                     ln, k->nwarps - 1, k->h.block[0] * k->h.block[1] * k->h.block[2]);
            if (warp_seen[w])
                FAIL("%s:%u: field 'warp': warp %llu given twice in this thread block", path, ln,
                     (unsigned long long)w);
            warp_seen[w] = 1;
            warp = (int64_t)w;
            expect = UINT64_MAX;   /* until "insts = N" */
        } else if ((v = keyed(line, "insts"))) {
            if (warp < 0 || expect != UINT64_MAX)
                FAIL("%s:%u: 'insts' without a 'warp' line before it", path, ln);
            if (parse_num(v, UINT32_MAX, &expect) != 0)
                FAIL("%s:%u: field 'insts': expected a number of instructions", path, ln);
        } else if (warp >= 0 && expect == UINT64_MAX) {
            FAIL("%s:%u: expected 'insts = N' after 'warp = %lld', got '%.60s'", path, ln,
                 (long long)warp, line);
        } else {
            FAIL("%s:%u: expected 'warp = W', 'insts = N' or '#END_TB'%s, got '%.60s'", path, ln,
                 warp >= 0 ? " (the warp's instruction lines are complete)" : "", line);
        }
    }
    free(warp_seen);
    free(cap);
    return 1;
fail:
    free(warp_seen);
    free(cap);
    trace_tb_free(tb);
    return -1;
}
