/*
 * haws_file.c — hand-written hint files (docs/haws.md, "Hint files").
 *
 * One hint word per line, '#' starts a comment, blank lines are ignored:
 *
 *   KERNEL PC WORD                              WORD: the 24-bit word in hex (0x optional)
 *   KERNEL PC offset=N [rename=R | dst=D]       format 1 (entry or non-branch member)
 *   KERNEL PC branch=direct taken=N             format 2, direct branch
 *   KERNEL PC branch=cond taken=N fall=M        format 2, conditional branch
 *
 * PC is smcosim's pc (the PTX instruction index `smcosim ptx-info --hints`
 * prints), offsets are from the chain's stall point (0 = end of chain). A
 * kernel the file names takes all its words from the file (pcs not listed
 * get 0); other kernels keep the pass's hints.
 */
#include "haws_rules.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csrc/util/fail.h"

typedef struct hf_entry {
    char    *kernel;
    uint32_t pc, line;
    uint32_t word;
} hf_entry;

struct haws_file {
    char     *source;
    hf_entry *e;
    uint32_t  n, cap;
};

void haws_file_free(haws_file *f)
{
    if (!f) return;
    for (uint32_t i = 0; i < f->n; i++) free(f->e[i].kernel);
    free(f->e); free(f->source); free(f);
}

/* A signed decimal number (or 0x hex) in [lo, hi]. */
static int num(const char *s, long lo, long hi, long *out)
{
    if (!*s) return -1;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 0);
    if (errno || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

#define PERR(...) do { char m_[256]; snprintf(m_, sizeof m_, __VA_ARGS__); \
    smc_fail(err, errlen, "%s:%u: %s", source, lineno, m_); goto fail; } while (0)

haws_file *haws_file_parse(const char *text, const char *source, char *err, size_t errlen)
{
    haws_file *f = calloc(1, sizeof *f);
    if (!f || !(f->source = strdup(source))) { free(f); smc_fail(err, errlen, "%s: out of memory", source); return NULL; }
    uint32_t lineno = 0;
    const char *p = text;
    while (*p) {
        lineno++;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char buf[512];
        if (len >= sizeof buf) PERR("line too long");
        memcpy(buf, p, len);
        buf[len] = '\0';
        p += len + (nl ? 1 : 0);
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        char *tok[8];
        uint32_t nt = 0;
        for (char *save = NULL, *t = strtok_r(buf, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
            if (nt == 8) PERR("too many fields (at most KERNEL PC and 3 fields)");
            tok[nt++] = t;
        }
        if (nt == 0) continue;
        if (nt < 3) PERR("expected 'KERNEL PC WORD' or 'KERNEL PC field=value...', got %u field%s",
                         nt, nt == 1 ? "" : "s");
        long pc;
        if (num(tok[1], 0, 0x7FFFFFFF, &pc)) PERR("field 'pc': '%s' is not an instruction index", tok[1]);
        uint32_t word = 0;
        if (!strchr(tok[2], '=')) {
            if (nt != 3) PERR("a raw WORD line has exactly 3 fields");
            const char *h = tok[2];
            if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) h += 2;
            char *end;
            errno = 0;
            unsigned long v = *h && isxdigit((unsigned char)*h) ? strtoul(h, &end, 16) : 0;
            if (!*h || !isxdigit((unsigned char)*h) || errno || *end || v > HAWS_HINT_MASK)
                PERR("field 'word': '%s' is not a 24-bit hex word", tok[2]);
            word = (uint32_t)v;
        } else {
            long off = 0, ren = -1, dst = -1, taken = 0, fall = 0;
            int branch = -1, have_off = 0, have_taken = 0, have_fall = 0;
            for (uint32_t i = 2; i < nt; i++) {
                char *eq = strchr(tok[i], '=');
                if (!eq) PERR("field '%s': expected name=value", tok[i]);
                *eq = '\0';
                const char *k = tok[i], *val = eq + 1;
                if (!strcmp(k, "offset")) {
                    if (num(val, HAWS_OFFSET_MIN, HAWS_OFFSET_MAX, &off)) PERR("field 'offset': '%s' is not in [%d, %d]", val, HAWS_OFFSET_MIN, HAWS_OFFSET_MAX);
                    have_off = 1;
                } else if (!strcmp(k, "rename")) {
                    if (num(val, 0, 255, &ren)) PERR("field 'rename': '%s' is not a register id 0..255", val);
                } else if (!strcmp(k, "dst")) {
                    if (num(val, 0, 255, &dst)) PERR("field 'dst': '%s' is not a register id 0..255", val);
                } else if (!strcmp(k, "branch")) {
                    if (!strcmp(val, "direct")) branch = 1;
                    else if (!strcmp(val, "cond")) branch = 0;
                    else PERR("field 'branch': '%s' is not direct or cond", val);
                } else if (!strcmp(k, "taken")) {
                    if (num(val, HAWS_OFFSET_MIN, HAWS_OFFSET_MAX, &taken)) PERR("field 'taken': '%s' is not in [%d, %d]", val, HAWS_OFFSET_MIN, HAWS_OFFSET_MAX);
                    have_taken = 1;
                } else if (!strcmp(k, "fall")) {
                    if (num(val, HAWS_OFFSET_MIN, HAWS_OFFSET_MAX, &fall)) PERR("field 'fall': '%s' is not in [%d, %d]", val, HAWS_OFFSET_MIN, HAWS_OFFSET_MAX);
                    have_fall = 1;
                } else {
                    PERR("field '%s': unknown (offset, rename, dst, branch, taken, fall)", k);
                }
            }
            if (branch >= 0) {
                if (have_off || ren >= 0 || dst >= 0) PERR("field 'branch': a branch line takes taken= and fall= only");
                if (!have_taken) PERR("field 'taken': missing");
                if (branch == 1 && have_fall) PERR("field 'fall': a direct branch has no fall-through side");
                word = haws_hint_f2((unsigned)branch, (int)taken, (int)fall);
            } else {
                if (have_taken || have_fall) PERR("field '%s': only with branch=", have_taken ? "taken" : "fall");
                if (!have_off) PERR("field 'offset': missing");
                if (ren >= 0 && dst >= 0) PERR("field 'dst': give rename= or dst=, not both");
                word = ren >= 0 ? haws_hint_f1((int)off, 1, (unsigned)ren)
                                : haws_hint_f1((int)off, 0, dst >= 0 ? (unsigned)dst : 0);
            }
        }
        for (uint32_t i = 0; i < f->n; i++)
            if (f->e[i].pc == (uint32_t)pc && !strcmp(f->e[i].kernel, tok[0]))
                PERR("kernel %s pc %ld is given twice (first at line %u)", tok[0], pc, f->e[i].line);
        if (f->n == f->cap) {
            uint32_t cap = f->cap ? 2 * f->cap : 16;
            hf_entry *e = realloc(f->e, cap * sizeof *e);
            if (!e) PERR("out of memory");
            f->e = e; f->cap = cap;
        }
        hf_entry *e = &f->e[f->n];
        if (!(e->kernel = strdup(tok[0]))) PERR("out of memory");
        e->pc = (uint32_t)pc; e->line = lineno; e->word = word;
        f->n++;
    }
    return f;
fail:
    haws_file_free(f);
    return NULL;
}

haws_file *haws_file_load(const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) { smc_fail(err, errlen, "%s: cannot open hint file: %s", path, strerror(errno)); return NULL; }
    size_t cap = 4096, len = 0, n;
    char *text = malloc(cap);
    while (text && (n = fread(text + len, 1, cap - len - 1, fp)) > 0) {
        len += n;
        if (cap - len <= 1) {
            char *b = realloc(text, cap * 2);
            if (!b) { free(text); text = NULL; break; }
            text = b; cap *= 2;
        }
    }
    int bad = ferror(fp);
    fclose(fp);
    if (!text) { smc_fail(err, errlen, "%s: out of memory", path); return NULL; }
    if (bad) { free(text); smc_fail(err, errlen, "%s: read error", path); return NULL; }
    text[len] = '\0';
    if (memchr(text, '\0', len)) { free(text); smc_fail(err, errlen, "%s: not a text file", path); return NULL; }
    haws_file *f = haws_file_parse(text, path, err, errlen);
    free(text);
    return f;
}

int haws_file_has_kernel(const haws_file *f, const char *kernel)
{
    for (uint32_t i = 0; i < f->n; i++)
        if (!strcmp(f->e[i].kernel, kernel)) return 1;
    return 0;
}

int haws_file_words(const haws_file *f, const emu_kernel *ek, uint32_t *hint, char *err, size_t errlen)
{
    const ptx_kernel *k = emu_kernel_ptx(ek);
    for (uint32_t pc = 0; pc < k->ncode; pc++) hint[pc] = 0;
    for (uint32_t i = 0; i < f->n; i++) {
        const hf_entry *e = &f->e[i];
        if (strcmp(e->kernel, k->name)) continue;
        if (e->pc >= k->ncode)
            return smc_fail(err, errlen, "%s:%u: field 'pc': %u is outside kernel %s (pcs 0..%u)",
                            f->source, e->line, e->pc, k->name, k->ncode ? k->ncode - 1 : 0);
        hint[e->pc] = e->word;
    }
    return 0;
}
