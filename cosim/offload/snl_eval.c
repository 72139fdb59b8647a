/*
 * snl_eval.c -- netlist program files: loading and checking them, token <->
 * bit-slice transposes, and the bit-parallel C reference evaluator (snl.h).
 * netlist.cl's kernel is the same evaluation in OpenCL C.
 */
#include "snl.h"
#include "offload_token.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* header: "SNL1", version, 8 params, 64 + 64 chars, 9 counts */
#define SNL_HDR_WORDS (1 + 1 + 8 + 16 + 16 + 9)

static uint32_t rd32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

void snl_default_path(const sched_params *p, const char *dir, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%u_%u_%u_%u_%u_%u_%u_%u.snl", dir, p->num_warps, p->num_schedulers,
             p->reg_id_width, p->ibuf_depth, p->sb_entries, p->wb_ports, p->rcu_depth,
             p->ren_entries);
}

void snl_free(snl_program *prog)
{
    if (!prog)
        return;
    free(prog->file);
    free(prog);
}

/* Every slot an op, flip-flop or map names must exist; an op may read only
 * slots written before it in its cycle (constants, flip-flops, inputs, ops
 * before it), so evaluation in file order is well defined. */
static int check_program(const snl_program *g, char *err, size_t errlen)
{
    uint32_t first_in = SNL_SLOT_FF0 + g->n_ff;
    if (g->op_base != first_in + g->n_in_used || g->n_slots != g->op_base + g->n_ops ||
        g->n_s_ops > g->n_ops) {
        snprintf(err, errlen, "inconsistent counts in the header");
        return -1;
    }
    static const unsigned nargs[SNL_NUM_OPS] = { 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4 };
    for (uint32_t i = 0; i < g->n_ops; i++) {
        const uint32_t *o = g->ops + 4 * i;
        unsigned code = o[0] >> 24;
        uint32_t a[4] = { o[0] & 0xffffffu, o[1], o[2], o[3] };
        if (code >= SNL_NUM_OPS) {
            snprintf(err, errlen, "op %u: unknown code %u", i, code);
            return -1;
        }
        for (unsigned k = 0; k < nargs[code]; k++)
            if (a[k] >= g->op_base + i || a[k] == SNL_SLOT_SCRATCH ||
                (i < g->n_s_ops && a[k] >= first_in && a[k] < g->op_base)) {
                snprintf(err, errlen, "op %u: operand %u reads slot %u, not yet written", i, k,
                         a[k]);
                return -1;
            }
    }
    for (uint32_t f = 0; f < g->n_ff; f++) {
        const uint32_t *r = g->ffs + 4 * f;
        if (r[0] >= g->n_slots || r[1] >= g->n_slots || r[2] > 2 ||
            (r[0] >= SNL_SLOT_FF0 && r[0] < first_in) || (r[1] >= SNL_SLOT_FF0 && r[1] < first_in)) {
            snprintf(err, errlen, "flip-flop %u: bad d/enable slot or reset kind", f);
            return -1;
        }
    }
    for (uint32_t b = 0; b < g->in_bits; b++)
        if (g->in_map[b] != SNL_SLOT_SCRATCH &&
            (g->in_map[b] < first_in || g->in_map[b] >= g->op_base)) {
            snprintf(err, errlen, "input bit %u: slot %u is not an input slot", b, g->in_map[b]);
            return -1;
        }
    for (uint32_t b = 0; b < g->out_bits; b++)
        if (g->out_map[b] >= g->n_slots || g->out_map[b] == SNL_SLOT_SCRATCH) {
            snprintf(err, errlen, "output bit %u: bad slot %u", b, g->out_map[b]);
            return -1;
        }
    return 0;
}

snl_program *snl_load(const char *path, const sched_params *p, const char *rtl_sha256,
                      char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "program file %s: %s%s", path, strerror(errno),
                 errno == ENOENT ? " (make builds build/offload/<set>.snl; "
                                   "scripts/offload/netlist_gen.py writes one)" : "");
        return NULL;
    }
    snl_program *g = calloc(1, sizeof *g);
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    fclose(f);
    if (!g || !buf) {
        free(g);
        free(buf);
        snprintf(err, errlen, "program file %s: out of memory", path);
        return NULL;
    }
    g->file = buf;
    g->file_len = len;
#define FAIL(...)                                                                         \
    do {                                                                                  \
        char m_[256];                                                                     \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                             \
        snprintf(err, errlen, "program file %s: %s", path, m_);                           \
        snl_free(g);                                                                      \
        return NULL;                                                                      \
    } while (0)
    if (len < 4 * SNL_HDR_WORDS || memcmp(buf, "SNL1", 4) != 0)
        FAIL("not a netlist program (no SNL1 header)");
    if (rd32(buf + 4) != SNL_FORMAT_VERSION)
        FAIL("format version %u, this program reads %u; rebuild it", rd32(buf + 4),
             SNL_FORMAT_VERSION);
    for (int i = 0; i < 8; i++)
        g->params[i] = rd32(buf + 8 + 4 * i);
    memcpy(g->rtl_sha256, buf + 40, 64);
    g->rtl_sha256[64] = 0;
    memcpy(g->yosys, buf + 104, 64);
    g->yosys[64] = 0;
    const unsigned char *c = buf + 168;
    uint32_t *cnt[9] = { &g->in_bits, &g->out_bits, &g->n_slots, &g->n_ff, &g->n_ops,
                         &g->n_s_ops, &g->op_base, &g->depth, &g->n_in_used };
    for (int i = 0; i < 9; i++)
        *cnt[i] = rd32(c + 4 * i);
    if (p) {
        uint32_t want[8] = { p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth,
                             p->sb_entries, p->wb_ports, p->rcu_depth, p->ren_entries };
        if (memcmp(want, g->params, sizeof want) != 0)
            FAIL("built for parameter set %u_%u_%u_%u_%u_%u_%u_%u, not the requested "
                 "%u_%u_%u_%u_%u_%u_%u_%u (W_S_R_D_E_P_RCU_REN)",
                 g->params[0], g->params[1], g->params[2], g->params[3], g->params[4],
                 g->params[5], g->params[6], g->params[7], want[0], want[1], want[2], want[3],
                 want[4], want[5], want[6], want[7]);
        if (g->in_bits != offload_in_bits(p) || g->out_bits != offload_out_bits(p))
            FAIL("token sizes %u/%u bits, this program's port table says %u/%u "
                 "(sched_ports.def changed: rebuild it)", g->in_bits, g->out_bits,
                 offload_in_bits(p), offload_out_bits(p));
    }
    if (rtl_sha256 && strcmp(rtl_sha256, g->rtl_sha256) != 0)
        FAIL("stale: built from RTL with sha256 %.12s..., this program's RTL is %.12s... "
             "(rtl/ changed since; rebuild it with make)", g->rtl_sha256, rtl_sha256);
    /* sizes before any array is touched (64-bit arithmetic: no overflow) */
    uint64_t words = SNL_HDR_WORDS + 4 * (uint64_t)g->n_ops + 4 * (uint64_t)g->n_ff +
                     g->in_bits + (uint64_t)g->out_bits;
    if (words * 4 != len)
        FAIL("%zu bytes, the header's counts need %llu (truncated or damaged)", len,
             (unsigned long long)(words * 4));
    if (((uintptr_t)buf & 3) != 0)
        FAIL("misaligned buffer");
    g->ops = (uint32_t *)(void *)(buf + 4 * SNL_HDR_WORDS);
    g->ffs = g->ops + 4 * (size_t)g->n_ops;
    g->in_map = g->ffs + 4 * (size_t)g->n_ff;
    g->out_map = g->in_map + g->in_bits;
    /* the arrays are little-endian on disk; so is every host this builds on
     * (checked here rather than swapped) */
    if (rd32((const unsigned char *)&(uint32_t){ 1 }) != 1)
        FAIL("big-endian host: not supported");
    char e2[200];
    if (check_program(g, e2, sizeof e2) != 0)
        FAIL("%s", e2);
#undef FAIL
    return g;
}

/* Transpose a 64 x 64 bit matrix in place: bit j of m[i] <-> bit i of m[j]
 * (Hacker's Delight 7-3, on 64-bit rows). */
static void transpose64(uint64_t m[64])
{
    uint64_t mask = 0x00000000ffffffffull;
    for (unsigned j = 32; j != 0; j >>= 1, mask ^= mask << j)
        for (unsigned k = 0; k < 64; k = (k + j + 1) & ~j) {
            uint64_t t = ((m[k] >> j) ^ m[k + j]) & mask;
            m[k] ^= t << j;
            m[k + j] ^= t;
        }
}

void snl_tokens_to_slices(unsigned bits, unsigned lanes, unsigned nw, const uint64_t *tokens,
                          uint64_t *slices)
{
    unsigned tw = offload_words(bits);
    uint64_t m[64];
    for (unsigned w = 0; w < nw; w++)
        for (unsigned t = 0; t < tw; t++) {
            /* m[l] = word t of lane 64w + l's token */
            for (unsigned l = 0; l < 64; l++) {
                unsigned lane = 64 * w + l;
                m[l] = lane < lanes ? tokens[(size_t)lane * tw + t] : 0;
            }
            transpose64(m);   /* m[b] = bit 64t + b of every lane */
            for (unsigned b = 0; b < 64 && 64 * t + b < bits; b++)
                slices[(size_t)(64 * t + b) * nw + w] = m[b];
        }
}

void snl_slices_to_tokens(unsigned bits, unsigned lanes, unsigned nw, const uint64_t *slices,
                          uint64_t *tokens)
{
    unsigned tw = offload_words(bits);
    uint64_t m[64];
    for (unsigned w = 0; w < nw; w++)
        for (unsigned t = 0; t < tw; t++) {
            for (unsigned b = 0; b < 64; b++)
                m[b] = 64 * t + b < bits ? slices[(size_t)(64 * t + b) * nw + w] : 0;
            transpose64(m);
            for (unsigned l = 0; l < 64 && 64 * w + l < lanes; l++)
                tokens[(size_t)(64 * w + l) * tw + t] = m[l];
        }
}

snl_state *snl_state_create(const snl_program *prog, unsigned lanes)
{
    snl_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->prog = prog;
    s->lanes = lanes;
    s->nw = (lanes + 63) / 64;
    s->vals = calloc((size_t)prog->n_slots * s->nw, sizeof *s->vals);
    uint64_t *all = calloc(s->nw, sizeof *all), *none = calloc(s->nw, sizeof *none);
    uint64_t *in = calloc((size_t)prog->in_bits * s->nw + 1, sizeof *in);
    uint64_t *out = calloc((size_t)prog->out_bits * s->nw + 1, sizeof *out);
    if (!s->vals || !all || !none || !in || !out) {
        free(all), free(none), free(in), free(out);
        snl_state_free(s);
        return NULL;
    }
    for (unsigned w = 0; w < s->nw; w++) {
        s->vals[(size_t)SNL_SLOT_ONE * s->nw + w] = ~0ull;
        all[w] = ~0ull;
    }
    snl_eval_cycle(s, none, all, in, out);
    free(all), free(none), free(in), free(out);
    return s;
}

void snl_state_free(snl_state *s)
{
    if (!s)
        return;
    free(s->vals);
    free(s);
}

/* One op on word w. */
static inline uint64_t eval_op(uint32_t code, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    switch (code) {
    case SNL_BUF:    return a;
    case SNL_NOT:    return ~a;
    case SNL_AND:    return a & b;
    case SNL_NAND:   return ~(a & b);
    case SNL_OR:     return a | b;
    case SNL_NOR:    return ~(a | b);
    case SNL_XOR:    return a ^ b;
    case SNL_XNOR:   return ~(a ^ b);
    case SNL_ANDNOT: return a & ~b;
    case SNL_ORNOT:  return a | ~b;
    case SNL_MUX:    return (a & ~c) | (b & c);
    case SNL_NMUX:   return ~((a & ~c) | (b & c));
    case SNL_AOI3:   return ~((a & b) | c);
    case SNL_OAI3:   return ~((a | b) & c);
    case SNL_AOI4:   return ~((a & b) | (c & d));
    default:         return ~((a | b) & (c | d));   /* SNL_OAI4 (checked at load) */
    }
}

static void eval_ops(const snl_program *g, uint64_t *v, unsigned nw, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to; i++) {
        const uint32_t *o = g->ops + 4 * (size_t)i;
        uint32_t code = o[0] >> 24;
        const uint64_t *a = v + (size_t)(o[0] & 0xffffffu) * nw, *b = v + (size_t)o[1] * nw,
                       *c = v + (size_t)o[2] * nw, *d = v + (size_t)o[3] * nw;
        uint64_t *y = v + (size_t)(g->op_base + i) * nw;
        for (unsigned w = 0; w < nw; w++)
            y[w] = eval_op(code, a[w], b[w], c[w], d[w]);
    }
}

void snl_eval_cycle(snl_state *s, const uint64_t *step, const uint64_t *reset,
                    const uint64_t *in, uint64_t *out)
{
    const snl_program *g = s->prog;
    unsigned nw = s->nw;
    uint64_t *v = s->vals;
    /* 1. asynchronous reset of the lanes in reset, then the state-only ops */
    uint64_t any = 0;
    for (unsigned w = 0; w < nw; w++)
        any |= reset[w];
    if (any) {
        for (uint32_t f = 0; f < g->n_ff; f++) {
            uint64_t *q = v + (size_t)(SNL_SLOT_FF0 + f) * nw;
            for (unsigned w = 0; w < nw; w++)
                q[w] = g->ffs[4 * f + 2] == 1 ? q[w] & ~reset[w]
                     : g->ffs[4 * f + 2] == 2 ? q[w] | reset[w] : q[w];
        }
        eval_ops(g, v, nw, 0, g->n_s_ops);
    }
    /* 2. the input token, then the ops on it */
    for (uint32_t b = 0; b < g->in_bits; b++)
        for (unsigned w = 0; w < nw; w++)
            v[(size_t)g->in_map[b] * nw + w] = in[(size_t)b * nw + w];
    eval_ops(g, v, nw, g->n_s_ops, g->n_ops);
    /* 3. the edge, where enabled and stepped */
    for (uint32_t f = 0; f < g->n_ff; f++) {
        uint64_t *q = v + (size_t)(SNL_SLOT_FF0 + f) * nw;
        const uint64_t *d = v + (size_t)g->ffs[4 * f] * nw, *e = v + (size_t)g->ffs[4 * f + 1] * nw;
        for (unsigned w = 0; w < nw; w++) {
            uint64_t m = e[w] & step[w];
            q[w] = (q[w] & ~m) | (d[w] & m);
        }
    }
    /* 4. the state-only ops; the outputs */
    eval_ops(g, v, nw, 0, g->n_s_ops);
    for (uint32_t b = 0; b < g->out_bits; b++)
        for (unsigned w = 0; w < nw; w++)
            out[(size_t)b * nw + w] = v[(size_t)g->out_map[b] * nw + w];
}
