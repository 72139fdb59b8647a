/*
 * parse.c — PTX text to ptx_module.
 *
 * A hand-written lexer and recursive-descent parser for the subset of PTX
 * that nvcc 13 emits (see docs/emulator.md). Every allocation goes to an
 * arena owned by the module, and every error longjmps out of the parser with
 * a "file:line:col: error: ... 'token'" message, after which the arena is
 * freed: malformed input can neither crash the parser nor leak memory.
 */
#include "ptx.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tables --------------------------------------------------------------- */
const uint8_t ptx_type_size[PT_COUNT] = {
    [PT_PRED] = 1, [PT_B8] = 1, [PT_B16] = 2, [PT_B32] = 4, [PT_B64] = 8,
    [PT_U8] = 1, [PT_U16] = 2, [PT_U32] = 4, [PT_U64] = 8,
    [PT_S8] = 1, [PT_S16] = 2, [PT_S32] = 4, [PT_S64] = 8,
    [PT_F16] = 2, [PT_F16X2] = 4, [PT_BF16] = 2, [PT_F32] = 4, [PT_F64] = 8,
};
const uint8_t ptx_type_class[PT_COUNT] = {
    [PT_PRED] = TC_PRED, [PT_B8] = TC_BITS, [PT_B16] = TC_BITS,
    [PT_B32] = TC_BITS, [PT_B64] = TC_BITS, [PT_U8] = TC_UINT,
    [PT_U16] = TC_UINT, [PT_U32] = TC_UINT, [PT_U64] = TC_UINT,
    [PT_S8] = TC_SINT, [PT_S16] = TC_SINT, [PT_S32] = TC_SINT,
    [PT_S64] = TC_SINT, [PT_F16] = TC_FLOAT, [PT_F16X2] = TC_BITS,
    [PT_BF16] = TC_FLOAT, [PT_F32] = TC_FLOAT, [PT_F64] = TC_FLOAT,
};
const char *const ptx_type_name[PT_COUNT] = {
    "", "pred", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
    "s8", "s16", "s32", "s64", "f16", "f16x2", "bf16", "f32", "f64",
};
const char *const ptx_space_name[SP_COUNT] = {
    "generic", "global", "shared", "local", "param", "const",
};
const char *const ptx_op_name[OP_COUNT] = {
#define X(e, s) s,
    PTX_OPCODES(X)
#undef X
};

static const char *const sreg_name[SR_COUNT] = {
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid",
    "%clock", "%clock_hi", "%clock64", "%globaltimer", "%globaltimer_lo",
    "%globaltimer_hi", "%lanemask_eq", "%lanemask_le", "%lanemask_lt",
    "%lanemask_ge", "%lanemask_gt", "%dynamic_smem_size", "%total_smem_size",
    "%envreg0", "%envreg1", "%envreg2", "%envreg3", "%envreg4", "%envreg5",
    "%envreg6", "%envreg7", "%envreg8", "%envreg9", "%envreg10", "%envreg11",
    "%envreg12", "%envreg13", "%envreg14", "%envreg15", "%envreg16", "%envreg17",
    "%envreg18", "%envreg19", "%envreg20", "%envreg21", "%envreg22", "%envreg23",
    "%envreg24", "%envreg25", "%envreg26", "%envreg27", "%envreg28", "%envreg29",
    "%envreg30", "%envreg31",
};

/* ---- arena ---------------------------------------------------------------- */
struct ptx_arena { struct ptx_arena *next; size_t used, cap; };

ptx_arena *ptx_arena_new(void) { return calloc(1, sizeof(ptx_arena)); }

void ptx_arena_free(ptx_arena *a) {
    if (!a) return;
    ptx_arena *b = a->next;
    while (b) { ptx_arena *n = b->next; free(b); b = n; }
    free(a);
}

void *ptx_arena_alloc(ptx_arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    ptx_arena *blk = a->next;
    if (!blk || blk->cap - blk->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        blk = malloc(sizeof(ptx_arena) + 16 + cap);
        if (!blk) return NULL;
        blk->cap = cap; blk->used = 0; blk->next = a->next;
        a->next = blk;
    }
    char *base = (char *)blk + ((sizeof(ptx_arena) + 15) & ~(size_t)15);
    void *p = base + blk->used;
    blk->used += n;
    memset(p, 0, n);
    return p;
}

char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t n) {
    char *p = ptx_arena_alloc(a, n + 1);
    if (p) { memcpy(p, s, n); p[n] = 0; }
    return p;
}

/* ---- lexer ---------------------------------------------------------------- */
enum { TK_EOF, TK_WORD, TK_NUM, TK_STR, TK_PUNCT };

typedef struct token {
    int kind;
    const char *p;
    uint32_t n, line, col;
} token;

typedef struct parser {
    const char *name, *src;
    size_t len, pos;
    uint32_t line, col;
    token tok;            /* current token */
    ptx_arena *arena;
    jmp_buf fail;
    char *err; size_t errlen;
    ptx_module *mod;
    /* growable module arrays */
    uint32_t vars_cap, funcs_cap;
    uint32_t relocs_cap;  /* of the variable whose initializer is being parsed */
    /* function being parsed */
    ptx_func *fn;
    uint32_t code_cap, regs_cap, fvars_cap;
    struct regdecl { const char *prefix; uint32_t plen; uint32_t count; int32_t base; bool range; } *decls;
    uint32_t ndecls, decls_cap;
    uint32_t scope_depth;
    /* body variables visible in the current scope: name -> index in fn->vars */
    struct scoped_var { const char *name; uint32_t idx; } *svars;
    uint32_t nsvars, svars_cap;
} parser;

static void perr_at(parser *P, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 4, 5)));
static void perr_at(parser *P, uint32_t line, uint32_t col, const char *fmt, ...) {
    int k = snprintf(P->err, P->errlen, "%s:%u:%u: error: ", P->name, line, col);
    if (k < 0) k = 0;
    if ((size_t)k < P->errlen) {
        va_list ap; va_start(ap, fmt);
        vsnprintf(P->err + k, P->errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    longjmp(P->fail, 1);
}

/* Printable, bounded copy of the current token for messages. */
static const char *tokstr(parser *P, const token *t, char *buf, size_t n) {
    (void)P;
    if (t->kind == TK_EOF) return "end of file";
    size_t m = t->n < n - 1 ? t->n : n - 1;
    for (size_t i = 0; i < m; i++) buf[i] = isprint((unsigned char)t->p[i]) ? t->p[i] : '?';
    buf[m] = 0;
    return buf;
}

#define PERR_TOK(P, t, what) do { char tb_[64]; \
    perr_at(P, (t)->line, (t)->col, "%s '%s'", what, tokstr(P, t, tb_, sizeof tb_)); } while (0)

static void *P_alloc(parser *P, size_t n) {
    void *p = ptx_arena_alloc(P->arena, n);
    if (!p) perr_at(P, P->line, P->col, "out of memory");
    return p;
}

/* Grow an arena array: returns a copy with room for more elements. */
static void *grow(parser *P, void *old, uint32_t n, uint32_t *cap, size_t elem) {
    if (n < *cap) return old;
    uint32_t ncap = *cap ? *cap * 2 : 16;
    if (ncap > (1u << 26)) perr_at(P, P->line, P->col, "too many items");
    void *p = P_alloc(P, (size_t)ncap * elem);
    if (old) memcpy(p, old, (size_t)n * elem);
    *cap = ncap;
    return p;
}

static bool is_word_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static bool is_word_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '%' || c == '.'; }

static void advance_char(parser *P) {
    if (P->src[P->pos] == '\n') { P->line++; P->col = 1; } else P->col++;
    P->pos++;
}

static void next(parser *P) {
    const char *s = P->src;
    for (;;) {
        while (P->pos < P->len && isspace((unsigned char)s[P->pos])) advance_char(P);
        if (P->pos + 1 < P->len && s[P->pos] == '/' && s[P->pos + 1] == '/') {
            while (P->pos < P->len && s[P->pos] != '\n') advance_char(P);
            continue;
        }
        if (P->pos + 1 < P->len && s[P->pos] == '/' && s[P->pos + 1] == '*') {
            uint32_t l = P->line, c = P->col;
            advance_char(P); advance_char(P);
            while (P->pos + 1 < P->len && !(s[P->pos] == '*' && s[P->pos + 1] == '/')) advance_char(P);
            if (P->pos + 1 >= P->len) perr_at(P, l, c, "unterminated comment");
            advance_char(P); advance_char(P);
            continue;
        }
        break;
    }
    token *t = &P->tok;
    t->line = P->line; t->col = P->col; t->p = s + P->pos; t->n = 0;
    if (P->pos >= P->len) { t->kind = TK_EOF; return; }
    unsigned char c = (unsigned char)s[P->pos];
    if (c == 0) perr_at(P, P->line, P->col, "NUL byte in PTX text");
    size_t start = P->pos;
    if (is_word_start(c)) {
        t->kind = TK_WORD;
        while (P->pos < P->len) {
            unsigned char d = (unsigned char)s[P->pos];
            if (is_word_char(d)) { advance_char(P); continue; }
            /* cache-policy qualifiers such as .L1::evict_last */
            if (d == ':' && P->pos + 1 < P->len && s[P->pos + 1] == ':') {
                advance_char(P); advance_char(P); continue;
            }
            break;
        }
    } else if (isdigit(c)) {
        t->kind = TK_NUM;
        bool hex = P->pos + 1 < P->len && (s[P->pos + 1] == 'x' || s[P->pos + 1] == 'X' ||
                                           s[P->pos + 1] == 'f' || s[P->pos + 1] == 'F' ||
                                           s[P->pos + 1] == 'd' || s[P->pos + 1] == 'D');
        while (P->pos < P->len) {
            unsigned char d = (unsigned char)s[P->pos];
            if (isalnum(d) || d == '.' || d == '_') { advance_char(P); continue; }
            if ((d == '+' || d == '-') && !hex && (s[P->pos - 1] == 'e' || s[P->pos - 1] == 'E')) {
                advance_char(P); continue;
            }
            break;
        }
    } else if (c == '"') {
        t->kind = TK_STR;
        advance_char(P);
        while (P->pos < P->len && s[P->pos] != '"' && s[P->pos] != '\n') advance_char(P);
        if (P->pos >= P->len || s[P->pos] != '"') perr_at(P, t->line, t->col, "unterminated string");
        advance_char(P);
    } else if (strchr(",;{}[]()+-<>|!=:@", c)) {
        t->kind = TK_PUNCT;
        advance_char(P);
    } else {
        perr_at(P, P->line, P->col, "unexpected character '%c'", isprint(c) ? c : '?');
    }
    t->n = (uint32_t)(P->pos - start);
}

static bool is_punct(parser *P, char c) { return P->tok.kind == TK_PUNCT && P->tok.p[0] == c; }
static bool is_word(parser *P, const char *w) {
    return P->tok.kind == TK_WORD && P->tok.n == strlen(w) && !memcmp(P->tok.p, w, P->tok.n);
}
static void expect_punct2(parser *P, char c) {
    if (!is_punct(P, c)) {
        char tb[64];
        perr_at(P, P->tok.line, P->tok.col, "expected '%c' but found '%s'", c, tokstr(P, &P->tok, tb, sizeof tb));
    }
    next(P);
}

static const char *word_dup(parser *P, const token *t) { return ptx_arena_strndup(P->arena, t->p, t->n); }

/* Parse an integer literal (decimal, 0x, 0b, octal, optional U suffix). */
static bool parse_int_text(const char *p, uint32_t n, uint64_t *out) {
    char buf[80];
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, p, n); buf[n] = 0;
    if (buf[n - 1] == 'U' || buf[n - 1] == 'u') buf[--n] = 0;
    if (n == 0) return false;
    int base = 10; const char *q = buf;
    if (n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) { base = 16; q = buf + 2; }
    else if (n > 2 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) { base = 2; q = buf + 2; }
    else if (n > 1 && buf[0] == '0') { base = 8; q = buf + 1; }
    errno = 0;
    char *end;
    unsigned long long v = strtoull(q, &end, base);
    if (errno || *end || end == q) return false;
    *out = v;
    return true;
}

/* A numeric literal token, possibly preceded by '-' (already consumed, neg).
 * Returns fimm kind: 0 int, 1 f32 bits, 2 f64 bits. */
static int parse_number(parser *P, bool neg, uint64_t *out) {
    token t = P->tok;
    if (t.kind != TK_NUM) PERR_TOK(P, &t, "expected a number but found");
    next(P);
    if (t.n > 2 && t.p[0] == '0' && (t.p[1] == 'f' || t.p[1] == 'F')) {
        uint64_t v;
        char buf[24];
        if (t.n != 10) PERR_TOK(P, &t, "a 0f float literal needs exactly 8 hex digits:");
        memcpy(buf, "0x", 2); memcpy(buf + 2, t.p + 2, 8); buf[10] = 0;
        if (!parse_int_text(buf, 10, &v)) PERR_TOK(P, &t, "bad float literal");
        if (neg) v ^= 0x80000000u;
        *out = v; return 1;
    }
    if (t.n > 2 && t.p[0] == '0' && (t.p[1] == 'd' || t.p[1] == 'D')) {
        uint64_t v;
        char buf[24];
        if (t.n != 18) PERR_TOK(P, &t, "a 0d double literal needs exactly 16 hex digits:");
        memcpy(buf, "0x", 2); memcpy(buf + 2, t.p + 2, 16); buf[18] = 0;
        if (!parse_int_text(buf, 18, &v)) PERR_TOK(P, &t, "bad double literal");
        if (neg) v ^= 0x8000000000000000ull;
        *out = v; return 2;
    }
    bool is_float = false;
    bool hex = t.n > 1 && (t.p[1] == 'x' || t.p[1] == 'X');
    for (uint32_t i = 0; i < t.n && !hex; i++)
        if (t.p[i] == '.' || t.p[i] == 'e' || t.p[i] == 'E') is_float = true;
    if (is_float) {
        char buf[80];
        if (t.n >= sizeof buf) PERR_TOK(P, &t, "number too long:");
        memcpy(buf, t.p, t.n); buf[t.n] = 0;
        char *end; errno = 0;
        double d = strtod(buf, &end);
        if (*end) PERR_TOK(P, &t, "bad floating-point literal");
        if (neg) d = -d;
        memcpy(out, &d, 8);
        return 2;
    }
    uint64_t v;
    if (!parse_int_text(t.p, t.n, &v)) PERR_TOK(P, &t, "bad or out-of-range integer literal");
    *out = neg ? (uint64_t)0 - v : v;
    return 0;
}

/* Small unsigned integer (array sizes, alignment, versions). */
static uint64_t parse_uint(parser *P, uint64_t max, const char *what) {
    token t = P->tok;
    uint64_t v;
    if (parse_number(P, false, &v) != 0 || v > max) {
        char tb[64];
        perr_at(P, t.line, t.col, "bad %s '%s' (expected an integer <= %llu)", what,
                tokstr(P, &t, tb, sizeof tb), (unsigned long long)max);
    }
    return v;
}

/* ---- modifiers ------------------------------------------------------------ */
static int lookup(const char *const *tab, int n, const char *s, uint32_t len) {
    for (int i = 0; i < n; i++)
        if (tab[i] && strlen(tab[i]) == len && !memcmp(tab[i], s, len)) return i;
    return -1;
}
static int type_of(const char *s, uint32_t n) {
    int k = lookup(ptx_type_name, PT_COUNT, s, n);
    return k > 0 ? k : -1;
}

static const char *const cmp_names[] = {
    NULL, "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
    "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};

/* vadd2/4, vsub2/4, vabsdiff2/4, vmin2/4, vmax2/4: .dtype.atype.btype. */
static bool is_simd_video(int op) {
    switch (op) {
    case OP_VADD2: case OP_VADD4: case OP_VSUB2: case OP_VSUB4: case OP_VABSDIFF2:
    case OP_VABSDIFF4: case OP_VMIN2: case OP_VMIN4: case OP_VMAX2: case OP_VMAX4:
        return true;
    default:
        return false;
    }
}

/* Apply one opcode modifier (text without the dot) to insn. */
static void apply_mod(parser *P, ptx_insn *in, const char *m, uint32_t n, uint32_t col) {
    int k;
#define IS(s) (n == sizeof(s) - 1 && !memcmp(m, s, n))
    int op = in->op;
    if ((k = type_of(m, n)) > 0) {
        if (in->type == PT_NONE) in->type = (uint8_t)k;
        else if (in->type2 == PT_NONE) in->type2 = (uint8_t)k;
        else if (is_simd_video(op) && (k == PT_S32 || k == PT_U32)) {
            if (k == PT_S32) in->flags |= F_BSIGNED;   /* .dtype.atype.btype */
        } else goto bad;
        return;
    }
    if (is_simd_video(op) && IS("add")) { in->mode = MD_ADD; return; }
    if (IS("global")) { in->space = SP_GLOBAL; return; }
    if (IS("shared") || IS("shared::cta")) { in->space = SP_SHARED; return; }
    if (IS("local")) { in->space = SP_LOCAL; return; }
    if (IS("param")) { in->space = SP_PARAM; return; }
    if (IS("const")) { in->space = SP_CONST; return; }
    if (IS("v2")) { in->vec = 2; return; }
    if (IS("v4")) { in->vec = 4; return; }
    /* volatile and strong (memory-model ordered) accesses: no functional
     * effect here, but the HAWS hint pass never moves them (F_VOLATILE) */
    if ((op == OP_LD || op == OP_ST) &&
        (IS("volatile") || IS("relaxed") || IS("acquire") || IS("release") || IS("acq_rel"))) {
        in->flags |= F_VOLATILE;
        return;
    }
    /* cache operators, memory-model qualifiers and scopes: no functional effect */
    if (IS("ca") || IS("cg") || IS("cs") || IS("lu") || IS("cv") || IS("wb") || IS("wt") ||
        IS("volatile") || IS("relaxed") || IS("acquire") || IS("release") || IS("acq_rel") ||
        IS("sc") || IS("weak") || IS("cta") || IS("gpu") || IS("sys") || IS("cluster") ||
        IS("aligned") || IS("sync") || IS("L2") || memchr(m, ':', n)) {
        if (IS("sync") && op == OP_BAR) in->mode = MD_SYNC;
        return;
    }
    if (IS("nc")) { in->flags |= F_NC; return; }
    if (IS("uni") && op != OP_VOTE) { in->flags |= F_UNI; return; }
    if (IS("sat")) { in->flags |= F_SAT; return; }
    if (IS("ftz")) { in->flags |= F_FTZ; return; }
    if (IS("approx")) { in->flags |= F_APPROX; return; }
    if (IS("full")) { in->flags |= F_FULL; return; }
    if (IS("cc")) { in->flags |= F_CC; return; }
    if (IS("rn")) { in->rnd = RND_RN; return; }
    if (IS("rz")) { in->rnd = RND_RZ; return; }
    if (IS("rm")) { in->rnd = RND_RM; return; }
    if (IS("rp")) { in->rnd = RND_RP; return; }
    if (IS("rni")) { in->rnd = RND_RNI; return; }
    if (IS("rzi")) { in->rnd = RND_RZI; return; }
    if (IS("rmi")) { in->rnd = RND_RMI; return; }
    if (IS("rpi")) { in->rnd = RND_RPI; return; }
    if (IS("to") && op == OP_CVTA) { in->mode = MD_TO; return; }
    if (op == OP_MUL || op == OP_MAD || op == OP_MUL24 || op == OP_MAD24 || op == OP_MADC) {
        if (IS("lo")) { in->mode = MD_LO; return; }
        if (IS("hi")) { in->mode = MD_HI; return; }
        if (IS("wide")) { in->mode = MD_WIDE; return; }
    }
    if (op == OP_SETP || op == OP_SET) {
        if (in->cmp == CMP_NONE && (k = lookup(cmp_names, 19, m, n)) > 0) { in->cmp = (uint8_t)k; return; }
        if (IS("and")) { in->boolop = MD_AND; return; }
        if (IS("or")) { in->boolop = MD_OR; return; }
        if (IS("xor")) { in->boolop = MD_XOR; return; }
    }
    if ((op == OP_ATOM || op == OP_RED) && IS("noftz")) return;   /* f16 atomics never flush */
    if (op == OP_ATOM || op == OP_RED) {
        static const char *const a[] = { "add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas" };
        static const uint8_t am[] = { MD_ADD, MD_MIN, MD_MAX, MD_INC, MD_DEC, MD_AND, MD_OR, MD_XOR, MD_EXCH, MD_CAS };
        if ((k = lookup(a, 10, m, n)) >= 0) { in->mode = am[k]; return; }
    }
    if (op == OP_BAR || op == OP_BARRIER) {
        if (IS("arrive")) { in->mode = MD_ARRIVE; return; }
        if (IS("red")) { in->mode = MD_RED; return; }
        if (IS("popc")) { in->boolop = MD_POPC; return; }
        if (IS("and")) { in->boolop = MD_AND; return; }
        if (IS("or")) { in->boolop = MD_OR; return; }
        if (IS("warp")) { in->flags |= F_WRAP; return; }  /* bar.warp.sync */
    }
    if (op == OP_SHFL) {
        if (IS("up")) { in->mode = MD_UP; return; }
        if (IS("down")) { in->mode = MD_DOWN; return; }
        if (IS("bfly")) { in->mode = MD_BFLY; return; }
        if (IS("idx")) { in->mode = MD_IDX; return; }
    }
    if (op == OP_MATCH) {
        if (IS("all")) { in->mode = MD_ALL; return; }
        if (IS("any")) { in->mode = MD_ANY; return; }
    }
    if (op == OP_VOTE) {
        if (IS("all")) { in->mode = MD_ALL; return; }
        if (IS("any")) { in->mode = MD_ANY; return; }
        if (IS("uni")) { in->mode = MD_UNI; return; }
        if (IS("ballot")) { in->mode = MD_BALLOT; return; }
    }
    if (op == OP_BMSK || op == OP_SZEXT) {
        if (IS("wrap")) { in->flags |= F_WRAP; return; }
        if (IS("clamp")) { in->flags |= F_CLAMP; return; }
    }
    if (op == OP_DP2A) {
        if (IS("lo")) { in->mode = MD_LO; return; }
        if (IS("hi")) { in->mode = MD_HI; return; }
    }
    if (op == OP_SHF) {
        if (IS("l")) { in->mode = MD_L; return; }
        if (IS("r")) { in->mode = MD_R; return; }
        if (IS("wrap")) { in->flags |= F_WRAP; return; }
        if (IS("clamp")) { in->flags |= F_CLAMP; return; }
    }
    if (op == OP_TESTP) {
        static const char *const a[] = { "finite", "infinite", "number", "notanumber", "normal", "subnormal" };
        if ((k = lookup(a, 6, m, n)) >= 0) { in->mode = (uint8_t)(MD_FINITE + k); return; }
    }
    if (op == OP_PRMT) {
        static const char *const a[] = { "f4e", "b4e", "rc8", "ecl", "ecr", "rc16" };
        if ((k = lookup(a, 6, m, n)) >= 0) { in->mode = (uint8_t)(MD_F4E + k); return; }
    }
    if (op == OP_SLCT || op == OP_BFIND) {
        if (IS("shiftamt")) { in->flags |= F_SHIFTAMT; return; }
    }
    if (op == OP_PREFETCH && (IS("L1") || IS("L2"))) return;
    if ((op == OP_FENCE || op == OP_MEMBAR) && (IS("proxy") || IS("alias") || IS("async") || IS("gl"))) return;
bad:;
    char buf[64];
    size_t c = n < sizeof buf - 1 ? n : sizeof buf - 1;
    memcpy(buf, m, c); buf[c] = 0;
    perr_at(P, P->tok.line, col, "unsupported modifier '.%s' for '%s'", buf, ptx_op_name[op]);
#undef IS
}

/* ---- registers ------------------------------------------------------------ */
static int32_t new_reg(parser *P, uint8_t type, const char *name) {
    ptx_func *f = P->fn;
    if (f->nregs >= (1u << 24)) perr_at(P, P->tok.line, P->tok.col, "too many registers");
    if (f->nregs >= P->regs_cap) {
        uint32_t c1 = P->regs_cap, c2 = P->regs_cap;
        f->reg_type = grow(P, f->reg_type, f->nregs, &c1, 1);
        f->reg_name = grow(P, f->reg_name, f->nregs, &c2, sizeof(char *));
        P->regs_cap = c1;
    }
    f->reg_type[f->nregs] = type;
    f->reg_name[f->nregs] = name;
    return (int32_t)f->nregs++;
}

/* Look a %name up in the scoped declarations; -1 when unknown. */
static int32_t find_reg(parser *P, const char *s, uint32_t n) {
    uint32_t d = n;
    while (d > 0 && isdigit((unsigned char)s[d - 1])) d--;
    for (uint32_t i = P->ndecls; i-- > 0;) {
        struct regdecl *r = &P->decls[i];
        if (!r->range) {
            if (r->plen == n && !memcmp(r->prefix, s, n)) return r->base;
        } else if (r->plen == d && d < n && !memcmp(r->prefix, s, d)) {
            if (n - d > 9) continue;
            if (s[d] == '0' && n - d > 1) continue;   /* %r01 is not %r1 */
            uint64_t idx = strtoull(s + d, NULL, 10);
            if (idx < r->count) return r->base + (int32_t)idx;
        }
    }
    return -1;
}

static void parse_reg_decl(parser *P) {
    /* .reg [.v2|.v4] .type name[<N>] {, name[<N>]} ;
     * The lexer keeps dotted words together, so ".reg.b32" (as cuda_fp16.hpp's
     * inline asm writes it) is one token: its type is the part after ".reg". */
    token tt = P->tok;
    if (tt.n > 4) { tt.p += 4; tt.n -= 4; }
    else { next(P); tt = P->tok; }
    if ((tt.n >= 3 && !memcmp(tt.p, ".v2", 3)) || (tt.n >= 3 && !memcmp(tt.p, ".v4", 3)))
        PERR_TOK(P, &tt, "vector register declarations are not supported:");
    if (tt.kind != TK_WORD || tt.p[0] != '.' ) PERR_TOK(P, &tt, "expected a register type after .reg, found");
    int ty = type_of(tt.p + 1, tt.n - 1);
    if (ty < 0) PERR_TOK(P, &tt, "unsupported register type (supported: .pred .b8-.b64 .u8-.u64 .s8-.s64 .f16 .f16x2 .bf16 .f32 .f64):");
    next(P);
    for (;;) {
        token t = P->tok;
        if (t.kind != TK_WORD || t.p[0] == '.') PERR_TOK(P, &t, "expected a register name, found");
        next(P);
        if (P->ndecls >= P->decls_cap)
            P->decls = grow(P, P->decls, P->ndecls, &P->decls_cap, sizeof *P->decls);
        struct regdecl *r = &P->decls[P->ndecls];
        r->prefix = word_dup(P, &t); r->plen = t.n;
        if (is_punct(P, '<')) {
            next(P);
            uint64_t cnt = parse_uint(P, 1u << 20, "register count");
            expect_punct2(P, '>');
            r->range = true; r->count = (uint32_t)cnt;
            r->base = (int32_t)P->fn->nregs;
            for (uint32_t i = 0; i < cnt; i++) new_reg(P, (uint8_t)ty, r->prefix);
        } else {
            r->range = false; r->count = 1;
            r->base = new_reg(P, (uint8_t)ty, r->prefix);
        }
        P->ndecls++;
        if (is_punct(P, ',')) { next(P); continue; }
        break;
    }
    expect_punct2(P, ';');
}

/* ---- variables ------------------------------------------------------------ */
static void store_init(parser *P, ptx_var *v, uint64_t idx, uint64_t bits, int fk, const token *t) {
    uint32_t es = ptx_type_size[v->type];
    if ((idx + 1) * es > v->size) {
        char tb[64];
        perr_at(P, t->line, t->col, "too many initializers for '%s' at '%s'", v->name, tokstr(P, t, tb, sizeof tb));
    }
    if (ptx_type_class[v->type] == TC_FLOAT) {
        double d;
        if (fk == 0) d = (double)(int64_t)bits;
        else if (fk == 1) { float f; uint32_t b = (uint32_t)bits; memcpy(&f, &b, 4); d = f; }
        else memcpy(&d, &bits, 8);
        if (v->type == PT_F32) { float f = (float)d; memcpy(&bits, &f, 4); }
        else if (v->type == PT_F64) memcpy(&bits, &d, 8);
        else perr_at(P, t->line, t->col, "initializers of type .%s are not supported", ptx_type_name[v->type]);
    } else if (fk != 0) {
        perr_at(P, t->line, t->col, "floating-point initializer for integer variable '%s'", v->name);
    }
    for (uint32_t i = 0; i < es; i++) v->init[idx * es + i] = (uint8_t)(bits >> (8 * i));
}

/* One address element of an initializer: `sym`, `generic(sym)`, either
 * followed by `+N` or `-N`; with a byte mask (`0xFF00(...)`) when mask != 0.
 * A generic address of a .global/.const variable is its device address (the
 * global window is the identity, docs/emulator.md), so `generic` changes
 * nothing but is checked for its parentheses. The address itself is filled
 * in at load (ptx_var_init), when every variable has its place. */
static void parse_addr_init(parser *P, ptx_var *v, uint64_t idx, uint64_t mask, const token *t) {
    bool generic = is_word(P, "generic");
    if (generic) { next(P); expect_punct2(P, '('); }
    token s = P->tok;
    if (s.kind != TK_WORD || s.p[0] == '.' || s.p[0] == '%')
        PERR_TOK(P, &s, "expected a variable or function name in an address initializer, found");
    next(P);
    if (generic) expect_punct2(P, ')');
    int64_t addend = 0;
    if (is_punct(P, '+') || is_punct(P, '-')) {
        bool minus = is_punct(P, '-');
        next(P);
        uint64_t a; token nt = P->tok;
        if (parse_number(P, false, &a) != 0 || a > (uint64_t)INT64_MAX) PERR_TOK(P, &nt, "bad offset in an address initializer:");
        addend = minus ? -(int64_t)a : (int64_t)a;
    }
    uint32_t es = ptx_type_size[v->type];
    if (ptx_type_class[v->type] == TC_FLOAT || (mask == 0 && es != 8))
        perr_at(P, t->line, t->col, "an address initializer needs 64-bit integer elements (.u64/.b64/.s64) "
                "or a byte mask; '%s' is .%s", v->name, ptx_type_name[v->type]);
    if ((idx + 1) * es > v->size) {
        char tb[64];
        perr_at(P, t->line, t->col, "too many initializers for '%s' at '%s'", v->name, tokstr(P, t, tb, sizeof tb));
    }
    v->relocs = grow(P, v->relocs, v->nrelocs, &P->relocs_cap, sizeof *v->relocs);
    v->relocs[v->nrelocs++] = (ptx_reloc){ .offset = idx * es, .mask = mask, .addend = addend,
                                           .sym = word_dup(P, &s), .line = s.line, .col = s.col,
                                           .size = (uint8_t)es };
}

static void parse_init_list(parser *P, ptx_var *v, uint64_t *idx) {
    if (is_punct(P, '{')) {
        next(P);
        for (;;) {
            parse_init_list(P, v, idx);
            if (is_punct(P, ',')) { next(P); continue; }
            break;
        }
        expect_punct2(P, '}');
        return;
    }
    token t = P->tok;
    bool neg = false;
    if (is_punct(P, '-')) { neg = true; next(P); t = P->tok; }
    if (t.kind == TK_WORD && !neg) { parse_addr_init(P, v, (*idx)++, 0, &t); return; }
    uint64_t bits;
    int fk = parse_number(P, neg, &bits);
    if (is_punct(P, '(') && fk == 0 && !neg) {    /* 0xFF00(generic(a)+8): bytes of an address */
        if (bits == 0) PERR_TOK(P, &t, "empty byte mask in an address initializer:");
        next(P);
        parse_addr_init(P, v, (*idx)++, bits, &t);
        expect_punct2(P, ')');
        return;
    }
    store_init(P, v, (*idx)++, bits, fk, &t);
}

/* Parse after the state-space word: [.align N] [.vN] .type name[dims] [= init] ;
 * The caller has set space / is_extern. */
static void parse_var_rest(parser *P, ptx_var *v) {
    uint32_t vecn = 1;
    v->align = 0;
    for (;;) {
        if (is_word(P, ".align")) {
            next(P);
            uint64_t a = parse_uint(P, 4096, "alignment");
            if (a == 0 || (a & (a - 1))) perr_at(P, P->tok.line, P->tok.col, "alignment must be a power of two");
            v->align = (uint32_t)a;
            continue;
        }
        if (is_word(P, ".attribute")) {            /* .attribute(.managed): __managed__ */
            next(P);
            expect_punct2(P, '(');
            if (!is_word(P, ".managed")) PERR_TOK(P, &P->tok, "unsupported variable attribute (supported: .managed):");
            next(P);
            expect_punct2(P, ')');
            v->managed = 1;
            continue;
        }
        if (is_word(P, ".v2")) { vecn = 2; next(P); continue; }
        if (is_word(P, ".v4")) { vecn = 4; next(P); continue; }
        if (is_word(P, ".ptr") || is_word(P, ".global") || is_word(P, ".shared") || is_word(P, ".const") || is_word(P, ".local")) {
            next(P); continue;    /* .ptr.space qualifiers on kernel params */
        }
        break;
    }
    if (P->tok.kind != TK_WORD || P->tok.p[0] != '.') PERR_TOK(P, &P->tok, "expected a type, found");
    int ty = type_of(P->tok.p + 1, P->tok.n - 1);
    if (ty < 0 || ty == PT_PRED) PERR_TOK(P, &P->tok, "unsupported variable type:");
    v->type = (uint8_t)ty;
    next(P);
    if (P->tok.kind != TK_WORD) PERR_TOK(P, &P->tok, "expected a variable name, found");
    v->name = word_dup(P, &P->tok);
    v->line = P->tok.line;
    next(P);
    uint64_t count = vecn;
    bool unsized = false;
    while (is_punct(P, '[')) {
        next(P);
        if (is_punct(P, ']')) { unsized = true; next(P); continue; }
        uint64_t d = parse_uint(P, 1ull << 32, "array size");
        expect_punct2(P, ']');
        if (d == 0 || count > (1ull << 34) / d) perr_at(P, P->tok.line, P->tok.col, "array '%s' too large", v->name);
        count *= d;
    }
    uint32_t es = ptx_type_size[ty];
    if (v->align == 0) v->align = es * vecn;
    v->size = unsized ? 0 : count * es;
    if (is_punct(P, '=')) {
        token eq = P->tok;
        next(P);
        if (v->space != SP_GLOBAL && v->space != SP_CONST)
            perr_at(P, eq.line, eq.col, "initializer on a .%s variable is not allowed", ptx_space_name[v->space]);
        if (unsized) {
            /* size from the initializer: count elements on a scratch pass */
            v->size = 1ull << 20;
        }
        v->init = P_alloc(P, v->size ? v->size : 1);
        v->has_init = 1;
        P->relocs_cap = 0;
        uint64_t idx = 0;
        parse_init_list(P, v, &idx);
        if (unsized) v->size = idx * es;
    } else if (unsized && !v->is_extern) {
        perr_at(P, P->tok.line, P->tok.col, "array '%s' has no size", v->name);
    }
}

/* ---- operands --------------------------------------------------------------- */
/* A body variable name as the linker knows it: block-scoped declarations
 * that reuse a name (nvcc's `param0` in every call block) are renamed
 * "name#index" when declared, and uses resolve to the innermost one. */
static const char *scoped_name(parser *P, const token *t) {
    for (uint32_t i = P->nsvars; i-- > 0;)
        if (strlen(P->svars[i].name) == t->n && !memcmp(P->svars[i].name, t->p, t->n))
            return P->fn->vars[P->svars[i].idx].name;
    return word_dup(P, t);
}

static int sreg_of(const char *s, uint32_t n) { return lookup(sreg_name, SR_COUNT, s, n); }

static void parse_reg_operand(parser *P, ptx_operand *o) {
    token t = P->tok;
    if (t.kind != TK_WORD || t.p[0] == '.') PERR_TOK(P, &t, "expected a register, found");
    next(P);
    int32_t r = find_reg(P, t.p, t.n);
    if (r >= 0) { o->kind = OK_REG; o->reg = r; return; }
    int s = sreg_of(t.p, t.n);
    if (s >= 0) { o->kind = OK_SREG; o->reg = s; return; }
    PERR_TOK(P, &t, "undeclared register");
}

static void parse_operand(parser *P, ptx_operand *o) {
    o->reg = -1; o->reg2 = -1;
    token t = P->tok;
    if (is_punct(P, '[')) {
        next(P);
        o->kind = OK_ADDR;
        if (P->tok.kind == TK_WORD && P->tok.p[0] == '%') {
            token rt = P->tok;
            int32_t r = find_reg(P, rt.p, rt.n);
            if (r < 0) PERR_TOK(P, &rt, "undeclared register");
            o->reg = r; next(P);
        } else if (P->tok.kind == TK_WORD && find_reg(P, P->tok.p, P->tok.n) >= 0) {
            o->reg = find_reg(P, P->tok.p, P->tok.n); next(P);
        } else if (P->tok.kind == TK_WORD) {
            o->sym = scoped_name(P, &P->tok); next(P);
        } else if (P->tok.kind == TK_NUM) {
            uint64_t v;
            if (parse_number(P, false, &v) != 0) PERR_TOK(P, &t, "bad address");
            o->imm = v;
        } else PERR_TOK(P, &P->tok, "bad address operand:");
        if (is_punct(P, '+') || is_punct(P, '-')) {
            bool neg = is_punct(P, '-');
            next(P);
            if (is_punct(P, '-')) { neg = !neg; next(P); }
            uint64_t v;
            token nt = P->tok;
            if (parse_number(P, neg, &v) != 0) PERR_TOK(P, &nt, "bad address offset");
            o->imm += v;
        }
        expect_punct2(P, ']');
        return;
    }
    if (is_punct(P, '{')) {
        next(P);
        o->kind = OK_VEC;
        for (;;) {
            if (o->nvec >= 4) PERR_TOK(P, &P->tok, "too many vector elements at");
            if (is_word(P, "_")) { o->vec[o->nvec++] = -1; next(P); }
            else if (P->tok.kind == TK_NUM || is_punct(P, '-')) {
                /* An immediate element, as in `mov.b32 %f1, {0, %rs1};`
                 * (nvcc's bf16 -> f32 conversion): it becomes a hidden
                 * register set by a mov emitted just before this
                 * instruction (a label on this instruction lands on the mov,
                 * so a branch to it still sets the register first). */
                ptx_insn mv;
                memset(&mv, 0, sizeof mv);
                mv.op = OP_MOV; mv.guard = -1; mv.vec = 1; mv.nops = 2;
                mv.line = P->tok.line; mv.col = P->tok.col;
                bool neg = false;
                if (is_punct(P, '-')) { neg = true; next(P); }
                ptx_operand *imm = &mv.ops[1];
                imm->kind = OK_IMM; imm->reg = -1; imm->reg2 = -1;
                imm->fimm = (uint8_t)parse_number(P, neg, &imm->imm);
                mv.type = imm->fimm == 1 ? PT_B32 : PT_B64;
                int32_t r = new_reg(P, mv.type, "(vector immediate)");
                mv.ops[0].kind = OK_REG; mv.ops[0].reg = r; mv.ops[0].reg2 = -1;
                P->fn->code = grow(P, P->fn->code, P->fn->ncode, &P->code_cap, sizeof mv);
                P->fn->code[P->fn->ncode++] = mv;
                o->vec[o->nvec++] = r;
            } else {
                ptx_operand e = { 0 };
                parse_reg_operand(P, &e);
                if (e.kind != OK_REG) PERR_TOK(P, &t, "vector elements must be registers:");
                o->vec[o->nvec++] = e.reg;
            }
            if (is_punct(P, ',')) { next(P); continue; }
            break;
        }
        expect_punct2(P, '}');
        return;
    }
    if (is_punct(P, '!')) {
        next(P);
        parse_reg_operand(P, o);
        if (o->kind != OK_REG || P->fn->reg_type[o->reg] != PT_PRED) PERR_TOK(P, &t, "'!' applies only to predicates:");
        o->neg = 1;
        return;
    }
    if (is_punct(P, '-') || P->tok.kind == TK_NUM) {
        bool neg = false;
        if (is_punct(P, '-')) { neg = true; next(P); }
        o->kind = OK_IMM;
        o->fimm = (uint8_t)parse_number(P, neg, &o->imm);
        return;
    }
    if ((P->tok.kind == TK_WORD && P->tok.p[0] == '%') ||
        (P->tok.kind == TK_WORD && P->tok.p[0] != '.' && find_reg(P, P->tok.p, P->tok.n) >= 0)) {
        /* A register, with or without '%' (inline asm in CUDA headers and
         * CUB declares `.reg .pred p;`), and the second destination of
         * `d|p` forms (setp, shfl, ...). */
        if (P->tok.p[0] == '%') parse_reg_operand(P, o);
        else { o->kind = OK_REG; o->reg = find_reg(P, P->tok.p, P->tok.n); next(P); }
        if (is_punct(P, '|')) {
            next(P);
            ptx_operand q = { 0 };
            if (P->tok.kind == TK_WORD && P->tok.p[0] != '%' && find_reg(P, P->tok.p, P->tok.n) >= 0) {
                q.kind = OK_REG; q.reg = find_reg(P, P->tok.p, P->tok.n); next(P);
            } else parse_reg_operand(P, &q);
            if (q.kind != OK_REG) PERR_TOK(P, &t, "expected a predicate after '|' in");
            o->reg2 = q.reg;
        }
        return;
    }
    if (is_word(P, "WARP_SZ")) {
        /* PTX's predefined constant for the warp size (what `warpSize`
         * compiles to): 32 threads, the only warp size PTX knows. */
        o->kind = OK_IMM;
        o->imm = 32;
        next(P);
        return;
    }
    if (P->tok.kind == TK_WORD && P->tok.p[0] != '.') {
        o->kind = OK_SYM;
        o->sym = scoped_name(P, &P->tok);
        next(P);
        if (is_punct(P, '+')) {
            next(P);
            uint64_t v; token nt = P->tok;
            if (parse_number(P, false, &v) != 0) PERR_TOK(P, &nt, "bad symbol offset");
            o->imm = v;
        }
        return;
    }
    PERR_TOK(P, &t, "bad operand");
}

/* (a, b, c) list of parameter names for call. */
static uint32_t parse_name_list(parser *P, const char ***out) {
    expect_punct2(P, '(');
    const char **v = NULL; uint32_t n = 0, cap = 0;
    while (!is_punct(P, ')')) {
        if (P->tok.kind != TK_WORD) PERR_TOK(P, &P->tok, "expected a parameter name in call, found");
        v = grow(P, v, n, &cap, sizeof *v);
        v[n++] = scoped_name(P, &P->tok);
        next(P);
        if (is_punct(P, ',')) next(P);
        else if (!is_punct(P, ')')) PERR_TOK(P, &P->tok, "expected ',' or ')' in call, found");
    }
    next(P);
    *out = v;
    return n;
}

static int op_of(const char *s, uint32_t n) { return lookup(ptx_op_name, OP_COUNT, s, n); }

/* Every instruction name of the PTX ISA 9.0 (its chapter 9.7, "Instructions",
 * by base name: the part before the first '.'), implemented or not. An opcode
 * outside this list is an unknown instruction, always an error of the input;
 * one inside it that op_of() does not know is a PTX instruction the emulator
 * does not implement, reported as "not supported" (docs/isa-coverage.md says
 * which). The ISA tests skip only on the second kind, and every such skip is
 * listed in tests/expected-skips.txt. */
static const char *const ptx_isa_opcodes[] = {
    "abs", "activemask", "add", "addc", "alloca", "and", "applypriority", "atom",
    "bar", "barrier", "bfe", "bfi", "bfind", "bmsk", "bra", "brev", "brkpt", "brx",
    "call", "clusterlaunchcontrol", "clz", "cnot", "copysign", "cos", "cp",
    "createpolicy", "cvt", "cvta", "discard", "div", "dp2a", "dp4a", "elect", "ex2",
    "exit", "fence", "fma", "fns", "getctarank", "griddepcontrol", "isspacep",
    "istypeof", "ld", "ldmatrix", "ldu", "lg2", "lop3", "mad", "mad24", "madc", "mapa",
    "match", "max", "mbarrier", "membar", "min", "mma", "mov", "movmatrix", "mul",
    "mul24", "multimem", "nanosleep", "neg", "not", "or", "pmevent", "popc",
    "prefetch", "prefetchu", "prmt", "rcp", "red", "redux", "rem", "ret", "rsqrt",
    "sad", "selp", "set", "setmaxnreg", "setp", "shf", "shfl", "shl", "shr", "sin",
    "slct", "sqrt", "st", "stackrestore", "stacksave", "stmatrix", "sub", "subc",
    "suld", "suq", "sured", "sust", "szext", "tanh", "tcgen05", "tensormap", "testp",
    "tex", "tld4", "trap", "txq", "vabsdiff", "vabsdiff2", "vabsdiff4", "vadd",
    "vadd2", "vadd4", "vavrg2", "vavrg4", "vmad", "vmax", "vmax2", "vmax4", "vmin",
    "vmin2", "vmin4", "vote", "vset", "vset2", "vset4", "vshl", "vshr", "vsub",
    "vsub2", "vsub4", "wgmma", "wmma", "xor",
};

/* Instructions that need a newer target than sm_75 (PTX ISA 9.0, each
 * instruction's "Target ISA notes"): a kernel using one was built for that
 * target, and the simulator, which models compute capability 7.5, says so
 * instead of only "not supported". */
static const struct { const char *op; const char *target; } newer_target[] = {
    { "redux", "sm_80" }, { "cp", "sm_80 (cp.async) or sm_90 (bulk copies)" },
    { "mbarrier", "sm_80" }, { "stmatrix", "sm_90" },
    { "elect", "sm_90" }, { "griddepcontrol", "sm_90" }, { "multimem", "sm_90" },
    { "setmaxnreg", "sm_90a" }, { "getctarank", "sm_90" }, { "mapa", "sm_90" },
    { "wgmma", "sm_90a" }, { "tcgen05", "sm_100a" }, { "clusterlaunchcontrol", "sm_100" },
    { "tensormap", "sm_90" }, { "applypriority", "sm_80" }, { "discard", "sm_80" },
    { "createpolicy", "sm_80" },
};

static const char *needs_newer_target(const char *s, uint32_t n)
{
    for (size_t i = 0; i < sizeof newer_target / sizeof newer_target[0]; i++)
        if (strlen(newer_target[i].op) == n && !memcmp(newer_target[i].op, s, n))
            return newer_target[i].target;
    return NULL;
}

static int is_ptx_isa_opcode(const char *s, uint32_t n)
{
    return lookup(ptx_isa_opcodes, (int)(sizeof ptx_isa_opcodes / sizeof ptx_isa_opcodes[0]), s, n) >= 0;
}

/* Minimum/maximum operand counts per opcode (0,0 = not checked here). */
static void check_nops(parser *P, const ptx_insn *in, const token *opt) {
    int lo = 0, hi = 0;
    switch (in->op) {
    case OP_EXIT: case OP_RET: case OP_TRAP: case OP_BRKPT: lo = 0; hi = 0; break;
    case OP_FENCE: case OP_MEMBAR: lo = 0; hi = 0; break;
    case OP_BRA: lo = 1; hi = 1; break;
    case OP_ACTIVEMASK: lo = 1; hi = 1; break;
    case OP_MOV: case OP_ABS: case OP_NEG: case OP_NOT: case OP_CNOT: case OP_POPC:
    case OP_CLZ: case OP_BREV: case OP_CVT: case OP_CVTA: case OP_RCP: case OP_SQRT:
    case OP_RSQRT: case OP_SIN: case OP_COS: case OP_LG2: case OP_EX2: case OP_TANH:
    case OP_BFIND: case OP_TESTP: case OP_ISSPACEP: case OP_LD: case OP_LDU: case OP_ST:
        lo = 2; hi = 2; break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_REM: case OP_AND:
    case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR: case OP_MIN: case OP_MAX:
    case OP_ADDC: case OP_SUBC: case OP_COPYSIGN: case OP_MUL24:
        lo = 3; hi = 3; break;
    case OP_RED: lo = 2; hi = 2; break;
    case OP_MAD: case OP_FMA: case OP_MADC: case OP_MAD24: case OP_SAD: case OP_SELP:
    case OP_SLCT: case OP_BFE: case OP_PRMT: case OP_SHF:
        lo = 4; hi = 4; break;
    case OP_SETP: case OP_SET: lo = 3; hi = 4; break;
    case OP_BFI: lo = 5; hi = 5; break;
    case OP_BMSK: case OP_SZEXT: lo = 3; hi = 3; break;
    case OP_DP2A: case OP_DP4A: lo = 4; hi = 4; break;
    case OP_LOP3: lo = 5; hi = 5; break;
    case OP_ATOM: lo = 3; hi = 4; break;
    case OP_SHFL: lo = 5; hi = 5; break;
    case OP_VOTE: lo = 2; hi = 3; break;
    case OP_MATCH: lo = 3; hi = 3; break;
    case OP_FNS: lo = 4; hi = 4; break;
    case OP_PMEVENT: lo = 1; hi = 1; break;
    case OP_VADD2: case OP_VADD4: case OP_VSUB2: case OP_VSUB4: case OP_VABSDIFF2:
    case OP_VABSDIFF4: case OP_VMIN2: case OP_VMIN4: case OP_VMAX2: case OP_VMAX4:
        lo = 4; hi = 4; break;
    case OP_BAR: case OP_BARRIER: lo = 0; hi = 4; break;
    case OP_PREFETCH: lo = 1; hi = 1; break;
    case OP_NANOSLEEP: lo = 1; hi = 1; break;
    default: return;
    }
    if (in->nops < lo || in->nops > hi) {
        char tb[64];
        if (lo == hi)
            perr_at(P, opt->line, opt->col, "'%s' takes %d operands, found %u", tokstr(P, opt, tb, sizeof tb), lo, in->nops);
        perr_at(P, opt->line, opt->col, "'%s' takes %d to %d operands, found %u",
                tokstr(P, opt, tb, sizeof tb), lo, hi, in->nops);
    }
}

/* Register operands of plain arithmetic/logic must have the instruction's
 * size (ptxas: "Arguments mismatch"); wide forms double the destination. */
static void check_operand_sizes(parser *P, const ptx_insn *in, const token *opt) {
    switch (in->op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_MIN: case OP_MAX: case OP_AND:
    case OP_OR: case OP_XOR: case OP_NOT: case OP_NEG: case OP_ABS: case OP_DIV: case OP_REM:
    case OP_FMA: case OP_ADDC: case OP_SUBC: case OP_MADC:
        break;
    default:
        return;
    }
    if (in->type == PT_NONE) return;
    uint32_t ts = in->type == PT_PRED ? 0 : ptx_type_size[in->type];
    for (uint32_t i = 0; i < in->nops; i++) {
        const ptx_operand *o = &in->ops[i];
        if (o->kind != OK_REG) continue;
        uint8_t rt = P->fn->reg_type[o->reg];
        uint32_t want = (i == 0 && in->mode == MD_WIDE) || (i == 3 && in->mode == MD_WIDE) ? 2 * ts : ts;
        uint32_t have = rt == PT_PRED ? 0 : ptx_type_size[rt];
        if (have != want) {
            char tb[64];
            perr_at(P, opt->line, opt->col, "operand %u of '%s' is a .%s register; the instruction needs %u-bit operands",
                    i + 1, tokstr(P, opt, tb, sizeof tb), ptx_type_name[rt], want * 8);
        }
    }
}

static void parse_instruction(parser *P) {
    ptx_func *f = P->fn;
    ptx_insn in;
    memset(&in, 0, sizeof in);
    in.guard = -1; in.vec = 1;
    in.line = P->tok.line; in.col = P->tok.col;
    if (is_punct(P, '@')) {
        next(P);
        if (is_punct(P, '!')) { in.guard_neg = 1; next(P); }
        ptx_operand g = { 0 };
        token gt = P->tok;
        parse_reg_operand(P, &g);
        if (g.kind != OK_REG || f->reg_type[g.reg] != PT_PRED) PERR_TOK(P, &gt, "guard must be a predicate register:");
        in.guard = g.reg;
    }
    token opt = P->tok;
    if (opt.kind != TK_WORD) PERR_TOK(P, &opt, "expected an instruction, found");
    const char *dot = memchr(opt.p, '.', opt.n);
    uint32_t bn = dot ? (uint32_t)(dot - opt.p) : opt.n;
    int op = op_of(opt.p, bn);
    if (op < 0) {
        char tb[64];
        const char *newer = needs_newer_target(opt.p, bn);
        if (newer)
            perr_at(P, opt.line, opt.col, "PTX instruction '%s' is not supported by the emulator: it needs "
                    "%s, and the simulator models compute capability 7.5 (build the kernel for compute_75)",
                    tokstr(P, &opt, tb, sizeof tb), newer);
        if (is_ptx_isa_opcode(opt.p, bn))
            perr_at(P, opt.line, opt.col, "PTX instruction '%s' is not supported by the emulator "
                    "(docs/isa-coverage.md lists what is)", tokstr(P, &opt, tb, sizeof tb));
        perr_at(P, opt.line, opt.col, "unknown instruction '%s' (not an instruction of PTX ISA 9.0)",
                tokstr(P, &opt, tb, sizeof tb));
    }
    in.op = (uint8_t)op;
    uint32_t i = bn;
    while (i < opt.n) {
        uint32_t s = i + 1, e = s;
        while (e < opt.n && opt.p[e] != '.') e++;
        if (e == s) perr_at(P, opt.line, opt.col + i, "empty modifier in '%.*s'", (int)opt.n, opt.p);
        apply_mod(P, &in, opt.p + s, e - s, opt.col + s);
        i = e;
    }
    next(P);
    if (op == OP_CALL) {
        ptx_call *c = P_alloc(P, sizeof *c);
        if (is_punct(P, '(')) {
            c->nrets = parse_name_list(P, &c->rets);
            expect_punct2(P, ',');
        }
        if (P->tok.kind != TK_WORD || P->tok.p[0] == '.')
            PERR_TOK(P, &P->tok, "expected a function name or a register in call, found");
        /* a declared register: an indirect call through a function address,
         * which names its prototype (`.callprototype`) last */
        c->callee_reg = find_reg(P, P->tok.p, P->tok.n);
        if (c->callee_reg < 0 && P->tok.p[0] == '%') PERR_TOK(P, &P->tok, "undeclared register");
        if (c->callee_reg >= 0 && ptx_type_size[P->fn->reg_type[c->callee_reg]] != 8)
            PERR_TOK(P, &P->tok, "the address of an indirect call needs a 64-bit register, found");
        if (c->callee_reg < 0) c->callee = word_dup(P, &P->tok);
        next(P);
        if (c->callee_reg >= 0) {
            /* the prototype label last; its parameter list says what the
             * argument slots say (their sizes are checked at the call) */
            static const char *const need = "an indirect call needs a prototype label (`call %rd, (args), proto;`), found";
            if (!is_punct(P, ',')) PERR_TOK(P, &P->tok, need);
            next(P);
            if (is_punct(P, '(')) {
                c->nargs = parse_name_list(P, &c->args);
                if (!is_punct(P, ',')) PERR_TOK(P, &P->tok, need);
                next(P);
            }
            if (P->tok.kind != TK_WORD || P->tok.p[0] == '.' || P->tok.p[0] == '%') PERR_TOK(P, &P->tok, need);
            next(P);
        } else if (is_punct(P, ',')) {
            next(P);
            c->nargs = parse_name_list(P, &c->args);
            if (is_punct(P, ',')) PERR_TOK(P, &P->tok, "a direct call takes no prototype or target list:");
        }
        in.call = c;
    } else {
        while (!is_punct(P, ';')) {
            if (in.nops >= PTX_MAX_OPS) PERR_TOK(P, &P->tok, "too many operands at");
            parse_operand(P, &in.ops[in.nops++]);
            if (is_punct(P, ',')) { next(P); if (is_punct(P, ';')) PERR_TOK(P, &P->tok, "missing operand before"); continue; }
            if (!is_punct(P, ';')) PERR_TOK(P, &P->tok, "expected ',' or ';' after operand, found");
        }
        check_nops(P, &in, &opt);
    check_operand_sizes(P, &in, &opt);
    if ((op == OP_VOTE || op == OP_MATCH || op == OP_SHFL || op == OP_ATOM || op == OP_RED) && in.mode == MD_NONE)
        perr_at(P, opt.line, opt.col, "'%.*s' needs an operation modifier", (int)(opt.n < 60 ? opt.n : 60), opt.p);
    }
    expect_punct2(P, ';');
    f->code = grow(P, f->code, f->ncode, &P->code_cap, sizeof in);
    f->code[f->ncode++] = in;
}

/* ---- labels: stored as pseudo-instructions? No: a side table. ------------- */
typedef struct label { const char *name; uint32_t pc; uint32_t line, col; } label;

static void skip_to_semicolon(parser *P) {
    while (P->tok.kind != TK_EOF && !is_punct(P, ';')) next(P);
    expect_punct2(P, ';');
}

/* Debug directives (.loc, .file) end at the end of their line. */
static void skip_line(parser *P) {
    uint32_t line = P->tok.line;
    while (P->tok.kind != TK_EOF && P->tok.line == line) next(P);
}

/* Body-scope variable declaration (.local/.shared/.param). */
static void parse_body_var(parser *P, uint8_t space) {
    ptx_func *f = P->fn;
    f->vars = grow(P, f->vars, f->nvars, &P->fvars_cap, sizeof(ptx_var));
    ptx_var *v = &f->vars[f->nvars];
    memset(v, 0, sizeof *v);
    v->space = space;
    next(P);
    parse_var_rest(P, v);
    const char *plain = v->name;
    for (uint32_t i = 0; i < f->nvars; i++)
        if (!strcmp(f->vars[i].name, plain)) {
            char *nn = P_alloc(P, strlen(plain) + 16);
            sprintf(nn, "%s#%u", plain, f->nvars);
            v->name = nn;
            break;
        }
    P->svars = grow(P, P->svars, P->nsvars, &P->svars_cap, sizeof *P->svars);
    P->svars[P->nsvars].name = plain;
    P->svars[P->nsvars].idx = f->nvars;
    P->nsvars++;
    f->nvars++;
    expect_punct2(P, ';');
}

static void parse_body(parser *P) {
    /* the opening '{' is current */
    ptx_func *f = P->fn;
    label *labels = NULL; uint32_t nlabels = 0, lcap = 0;
    uint32_t depth = 0;
    struct { uint32_t ndecls, nsvars; } scopes[64];
    for (;;) {
        token t = P->tok;
        if (t.kind == TK_EOF) perr_at(P, t.line, t.col, "unexpected end of file inside the body of '%s'", f->name);
        if (is_punct(P, '{')) {
            if (depth >= 64) PERR_TOK(P, &t, "blocks nested too deeply at");
            scopes[depth].ndecls = P->ndecls;
            scopes[depth++].nsvars = P->nsvars;
            next(P);
            continue;
        }
        if (is_punct(P, '}')) {
            next(P);
            if (depth == 0) PERR_TOK(P, &t, "unbalanced");
            depth--;
            P->ndecls = scopes[depth].ndecls;
            P->nsvars = scopes[depth].nsvars;
            if (depth == 0) break;
            continue;
        }
        if (t.kind == TK_WORD && t.p[0] == '.') {
            if (is_word(P, ".reg") || (t.n > 5 && !memcmp(t.p, ".reg.", 5))) { parse_reg_decl(P); continue; }
            if (is_word(P, ".local")) { parse_body_var(P, SP_LOCAL); continue; }
            if (is_word(P, ".shared")) { parse_body_var(P, SP_SHARED); continue; }
            if (is_word(P, ".param")) { parse_body_var(P, SP_PARAM); continue; }
            if (is_word(P, ".pragma")) { skip_to_semicolon(P); continue; }
            if (is_word(P, ".loc") || is_word(P, ".file")) { skip_line(P); continue; }
            PERR_TOK(P, &t, "unsupported directive in a function body (supported: .reg .local .shared .param .pragma .loc):");
        }
        if (t.kind == TK_WORD && t.p[0] != '%') {
            /* label? */
            size_t save_pos = P->pos; uint32_t sl = P->line, sc = P->col;
            next(P);
            if (is_punct(P, ':')) {
                next(P);
                if (is_word(P, ".callprototype")) { skip_to_semicolon(P); continue; }
                for (uint32_t i = 0; i < nlabels; i++)
                    if (strlen(labels[i].name) == t.n && !memcmp(labels[i].name, t.p, t.n))
                        PERR_TOK(P, &t, "duplicate label");
                labels = grow(P, labels, nlabels, &lcap, sizeof *labels);
                labels[nlabels].name = word_dup(P, &t);
                labels[nlabels].pc = f->ncode;
                labels[nlabels].line = t.line; labels[nlabels].col = t.col;
                nlabels++;
                continue;
            }
            /* not a label: rewind and parse as an instruction */
            P->pos = save_pos; P->line = sl; P->col = sc; P->tok = t;
        }
        parse_instruction(P);
    }
    /* resolve branch targets to instruction indices */
    for (uint32_t i = 0; i < f->ncode; i++) {
        ptx_insn *in = &f->code[i];
        if (in->op != OP_BRA) continue;
        if (in->ops[0].kind != OK_SYM) perr_at(P, in->line, in->col, "bra needs a label (indirect branches are not supported)");
        uint32_t k;
        for (k = 0; k < nlabels; k++) if (!strcmp(labels[k].name, in->ops[0].sym)) break;
        if (k == nlabels) perr_at(P, in->line, in->ops[0].kind ? in->col : in->col, "undefined label '%s'", in->ops[0].sym);
        in->target = labels[k].pc;
    }
}

/* Parameter list: ( .param .type name, ... ) */
static uint32_t parse_params(parser *P, ptx_var **out) {
    expect_punct2(P, '(');
    ptx_var *v = NULL; uint32_t n = 0, cap = 0;
    while (!is_punct(P, ')')) {
        if (!is_word(P, ".param") && !is_word(P, ".reg")) PERR_TOK(P, &P->tok, "expected .param in parameter list, found");
        if (is_word(P, ".reg")) PERR_TOK(P, &P->tok, ".reg parameters are not supported:");
        v = grow(P, v, n, &cap, sizeof *v);
        memset(&v[n], 0, sizeof *v);
        v[n].space = SP_PARAM;
        next(P);
        parse_var_rest(P, &v[n]);
        if (v[n].size == 0) perr_at(P, P->tok.line, P->tok.col, "unsized parameter '%s'", v[n].name);
        n++;
        if (is_punct(P, ',')) next(P);
        else if (!is_punct(P, ')')) PERR_TOK(P, &P->tok, "expected ',' or ')' in parameter list, found");
    }
    next(P);
    *out = v;
    return n;
}

static void parse_function(parser *P, bool is_entry) {
    ptx_module *m = P->mod;
    m->funcs = grow(P, m->funcs, m->nfuncs, &P->funcs_cap, sizeof(ptx_func));
    ptx_func *f = &m->funcs[m->nfuncs];
    memset(f, 0, sizeof *f);
    f->is_entry = is_entry;
    f->line = P->tok.line;
    next(P);
    if (!is_entry && is_punct(P, '(')) f->nrets = parse_params(P, &f->rets);
    if (P->tok.kind != TK_WORD) PERR_TOK(P, &P->tok, "expected a function name, found");
    f->name = word_dup(P, &P->tok);
    next(P);
    if (is_punct(P, '(')) f->nparams = parse_params(P, &f->params);
    for (;;) {
        if (is_word(P, ".maxntid") || is_word(P, ".reqntid")) {
            uint32_t *d = is_word(P, ".maxntid") ? f->maxntid : f->reqntid;
            next(P);
            d[0] = d[1] = d[2] = 1;
            for (int i = 0; i < 3; i++) {
                d[i] = (uint32_t)parse_uint(P, 1u << 20, "thread count");
                if (!is_punct(P, ',')) break;
                next(P);
            }
            continue;
        }
        if (is_word(P, ".minnctapersm") || is_word(P, ".maxnreg") || is_word(P, ".maxnctapersm")) {
            bool mn = is_word(P, ".minnctapersm");
            next(P);
            uint32_t v = (uint32_t)parse_uint(P, 1u << 20, "count");
            if (mn) f->minnctapersm = v;
            continue;
        }
        if (is_word(P, ".noreturn")) { next(P); continue; }
        if (is_word(P, ".pragma")) { skip_to_semicolon(P); continue; }
        break;
    }
    m->nfuncs++;
    if (is_punct(P, ';')) { next(P); return; }      /* declaration only */
    for (uint32_t i = 0; i + 1 < m->nfuncs; i++)
        if (m->funcs[i].has_body && !strcmp(m->funcs[i].name, f->name))
            perr_at(P, f->line, 1, "duplicate definition of '%s' (first at line %u)", f->name, m->funcs[i].line);
    if (!is_punct(P, '{')) PERR_TOK(P, &P->tok, "expected '{' or ';' after function header, found");
    P->fn = f;
    P->code_cap = P->regs_cap = P->fvars_cap = 0;
    P->ndecls = 0;
    P->nsvars = 0;
    f->has_body = true;
    parse_body(P);
    P->fn = NULL;
}

static void parse_module(parser *P) {
    ptx_module *m = P->mod;
    next(P);
    while (P->tok.kind != TK_EOF) {
        token t = P->tok;
        if (is_word(P, ".version")) {
            next(P);
            token vt = P->tok;
            if (vt.kind != TK_NUM) PERR_TOK(P, &vt, "bad .version");
            next(P);
            char buf[16]; size_t n = vt.n < 15 ? vt.n : 15;
            memcpy(buf, vt.p, n); buf[n] = 0;
            unsigned a = 0, b = 0;
            if (sscanf(buf, "%u.%u", &a, &b) != 2) PERR_TOK(P, &vt, "bad .version");
            if (a < 6 || a > 9) PERR_TOK(P, &vt, "unsupported PTX ISA version (supported: 6.0 to 9.x):");
            m->version_major = a; m->version_minor = b;
            continue;
        }
        if (is_word(P, ".target")) {
            next(P);
            for (;;) {
                token tt = P->tok;
                if (tt.kind != TK_WORD) PERR_TOK(P, &tt, "bad .target");
                if (tt.n > 3 && !memcmp(tt.p, "sm_", 3)) {
                    unsigned sm = (unsigned)strtoul(tt.p + 3, NULL, 10);
                    if (sm < 30) PERR_TOK(P, &tt, "unsupported target (supported: sm_30 and newer):");
                    m->target_sm = sm;
                } else if (!(tt.n == 8 && !memcmp(tt.p, "texmode_", 8)) && memcmp(tt.p, "texmode", 7) && memcmp(tt.p, "debug", 5)) {
                    PERR_TOK(P, &tt, "unsupported target:");
                }
                next(P);
                if (!is_punct(P, ',')) break;
                next(P);
            }
            continue;
        }
        if (is_word(P, ".address_size")) {
            next(P);
            token at = P->tok;
            uint64_t v = parse_uint(P, 64, "address size");
            if (v != 64) PERR_TOK(P, &at, "only .address_size 64 is supported, found");
            m->address_size = 64;
            continue;
        }
        if (is_word(P, ".file") || is_word(P, ".loc")) { skip_line(P); continue; }
        if (is_word(P, ".section")) {
            /* debug sections: skip the braced block */
            next(P);
            while (P->tok.kind != TK_EOF && !is_punct(P, '{')) next(P);
            int d = 0;
            do {
                if (is_punct(P, '{')) d++;
                if (is_punct(P, '}')) d--;
                if (P->tok.kind == TK_EOF) PERR_TOK(P, &t, "unterminated .section");
                next(P);
            } while (d > 0);
            continue;
        }
        if (is_word(P, ".pragma")) { skip_to_semicolon(P); continue; }
        bool is_extern = false;
        while (is_word(P, ".visible") || is_word(P, ".extern") || is_word(P, ".weak") || is_word(P, ".common")) {
            if (is_word(P, ".extern")) is_extern = true;
            next(P);
        }
        if (is_word(P, ".entry") || is_word(P, ".func")) { parse_function(P, is_word(P, ".entry")); continue; }
        uint8_t sp = is_word(P, ".global") ? SP_GLOBAL : is_word(P, ".const") ? SP_CONST :
                     is_word(P, ".shared") ? SP_SHARED : 0;
        if (sp) {
            m->vars = grow(P, m->vars, m->nvars, &P->vars_cap, sizeof(ptx_var));
            ptx_var *v = &m->vars[m->nvars];
            memset(v, 0, sizeof *v);
            v->space = sp; v->is_extern = is_extern;
            next(P);
            parse_var_rest(P, v);
            if (is_extern && sp != SP_SHARED) perr_at(P, v->line, 1, "extern .%s variable '%s' is not supported", ptx_space_name[sp], v->name);
            for (uint32_t i = 0; i < m->nvars; i++)
                if (!strcmp(m->vars[i].name, v->name)) perr_at(P, v->line, 1, "duplicate variable '%s'", v->name);
            m->nvars++;
            expect_punct2(P, ';');
            continue;
        }
        PERR_TOK(P, &t, "unsupported module-level directive (supported: .version .target .address_size .global .const .shared .entry .func .file .section .pragma):");
    }
    if (!m->version_major) perr_at(P, 1, 1, "missing .version directive");
    if (!m->target_sm) perr_at(P, 1, 1, "missing .target directive");
}

ptx_module *ptx_parse(const char *name, const char *text, size_t len, char *err, size_t errlen) {
    char dummy[4];
    if (!err || !errlen) { err = dummy; errlen = sizeof dummy; }
    err[0] = 0;
    ptx_arena *a = ptx_arena_new();
    if (!a) { snprintf(err, errlen, "%s: out of memory", name); return NULL; }
    parser *P = calloc(1, sizeof *P);
    if (!P) { ptx_arena_free(a); snprintf(err, errlen, "%s: out of memory", name); return NULL; }
    P->name = name ? name : "<ptx>"; P->src = text; P->len = len;
    P->line = 1; P->col = 1; P->arena = a; P->err = err; P->errlen = errlen;
    ptx_module *m = ptx_arena_alloc(a, sizeof *m);
    if (!m) { free(P); ptx_arena_free(a); snprintf(err, errlen, "%s: out of memory", name); return NULL; }
    m->arena = a;
    m->name = ptx_arena_strndup(a, P->name, strlen(P->name));
    P->mod = m;
    if (setjmp(P->fail)) {
        free(P);
        ptx_arena_free(a);
        return NULL;
    }
    parse_module(P);
    free(P);
    return m;
}

void ptx_module_free(ptx_module *m) { if (m) ptx_arena_free(m->arena); }

const ptx_func *ptx_find_func(const ptx_module *m, const char *name) {
    /* prefer a definition over a declaration */
    const ptx_func *decl = NULL;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (!strcmp(m->funcs[i].name, name)) {
            if (m->funcs[i].has_body) return &m->funcs[i];
            decl = &m->funcs[i];
        }
    return decl;
}

const ptx_var *ptx_find_var(const ptx_module *m, const char *name) {
    for (uint32_t i = 0; i < m->nvars; i++)
        if (!strcmp(m->vars[i].name, name)) return &m->vars[i];
    return NULL;
}
