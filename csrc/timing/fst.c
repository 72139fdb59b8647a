/*
 * fst.c — one waveform for the RTL and the C side (issue 5, `--fst`).
 *
 * The Verilated RTL of SM 0's scheduler core writes its own FST (every
 * signal, cosim/vsched_shim.cpp) for the cycle window. While it runs, this
 * file records the timing model's state of SM 0 for exactly the cycles the
 * RTL dumps (it mirrors the shim's time rule: 2 time units per cycle, the
 * state of cycle c at 2c, a later launch continuing after the last dumped
 * time). At the end the RTL's file is read back with fstapi's reader and
 * written again together with the recorded C-side variables into the final
 * file (temporary name, then rename), plus a GTKWave save file FILE.gtkw
 * with signal groups. docs/timing-model.md lists the C-side signals.
 *
 * fstapi comes from the Verilator runtime in libsmc_vsched.a (compiled there
 * from verilated_fst_c.cpp), so this object is linked only into programs that
 * link the RTL (TIMING_RTL_LINK in csrc/timing/module.mk).
 */
#include "timing_fst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtkwave/fstapi.h"

typedef struct tf_var {
    char     name[48];
    char     scope[24];
    uint32_t width;
    uint64_t last;
    int      seen;
} tf_var;

typedef struct tf_change {          /* one value change, C side */
    uint64_t time;
    uint32_t var;
    uint64_t value;
} tf_change;

struct tm_fst {
    char    *path;
    uint64_t from, to;
    /* mirror of the shim's dump rule */
    uint64_t base, last_time;
    int      dumped, closed;
    tf_var  *vars; uint32_t nvars;
    tf_change *ch; size_t nch, capch;
};

int tm_fst_var(tm_fst *f, const char *scope, const char *name, uint32_t width)
{
    tf_var *n = realloc(f->vars, (f->nvars + 1) * sizeof *n);
    if (!n)
        return -1;
    f->vars = n;
    tf_var *v = &f->vars[f->nvars];
    memset(v, 0, sizeof *v);
    snprintf(v->scope, sizeof v->scope, "%s", scope);
    snprintf(v->name, sizeof v->name, "%s", name);
    v->width = width;
    return (int)f->nvars++;
}

tm_fst *tm_fst_create(const char *path, uint64_t from, uint64_t to, char *err, size_t errlen)
{
    tm_fst *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    f->from = from;
    f->to = to;
    return f;
}

const char *tm_fst_rtl_path(const tm_fst *f, char *buf, size_t len)
{
    snprintf(buf, len, "%s.rtl", f->path);
    return buf;
}

/* The shim's dump(time): returns 1 when the RTL writes this time. */
static int mirror_dump(tm_fst *f, uint64_t time)
{
    if (f->closed)
        return 0;
    uint64_t c = time / 2;
    if (c < f->from)
        return 0;
    if (f->to != 0 && c >= f->to) {
        f->closed = 1;
        return 0;
    }
    f->last_time = f->base + time;
    f->dumped = 1;
    return 1;
}

int tm_fst_reset(tm_fst *f)
{
    if (f->dumped)
        f->base = f->last_time + 2;
    return mirror_dump(f, 0);
}

int tm_fst_step(tm_fst *f, uint64_t cycle)
{
    mirror_dump(f, 2 * cycle + 1);
    return mirror_dump(f, 2 * (cycle + 1));
}

int tm_fst_sample(tm_fst *f, uint32_t var, uint64_t value)
{
    tf_var *v = &f->vars[var];
    if (v->width < 64)
        value &= (UINT64_C(1) << v->width) - 1;
    if (v->seen && v->last == value)
        return 0;
    v->seen = 1;
    v->last = value;
    if (f->nch == f->capch) {
        size_t nc = f->capch ? f->capch * 2 : 4096;
        tf_change *n = realloc(f->ch, nc * sizeof *n);
        if (!n)
            return -1;
        f->ch = n;
        f->capch = nc;
    }
    f->ch[f->nch++] = (tf_change){ f->last_time, var, value };
    return 0;
}

/* ---- merge ----------------------------------------------------------------- */

typedef struct rtl_change {
    uint64_t time;
    uint32_t handle;                /* in the new file */
    uint32_t off;                   /* value string in the arena */
} rtl_change;

typedef struct merge_ctx {
    fstHandle *map;  uint32_t nmap;
    rtl_change *ch;  size_t nch, capch;
    char *arena;     size_t narena, caparena;
    int oom;
} merge_ctx;

static void on_change(void *user, uint64_t time, fstHandle facidx, const unsigned char *value)
{
    merge_ctx *m = user;
    if (m->oom || facidx >= m->nmap || !m->map[facidx])
        return;
    size_t len = strlen((const char *)value) + 1;
    if (m->narena + len > m->caparena) {
        size_t nc = (m->caparena + len) * 2;
        char *n = realloc(m->arena, nc);
        if (!n) { m->oom = 1; return; }
        m->arena = n;
        m->caparena = nc;
    }
    if (m->nch == m->capch) {
        size_t nc = m->capch ? m->capch * 2 : 4096;
        rtl_change *n = realloc(m->ch, nc * sizeof *n);
        if (!n) { m->oom = 1; return; }
        m->ch = n;
        m->capch = nc;
    }
    memcpy(m->arena + m->narena, value, len);
    m->ch[m->nch++] = (rtl_change){ time, m->map[facidx], (uint32_t)m->narena };
    m->narena += len;
}

static void write_gtkw(const tm_fst *f, const char *rtl_top, char **rtl_sigs, uint32_t nrtl)
{
    char p[4096];
    snprintf(p, sizeof p, "%s.gtkw", f->path);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", p);
    FILE *g = fopen(tmp, "w");
    if (!g)
        return;
    const char *base = strrchr(f->path, '/');
    fprintf(g, "[dumpfile] \"%s\"\n[timestart] 0\n[size] 1600 900\n", base ? base + 1 : f->path);
    /* groups: RTL outputs, RTL inputs, then one per C-side scope */
    const char *groups[2] = { "RTL scheduler core outputs", "RTL scheduler core inputs" };
    const char *suffix[2] = { "_o", "_i" };
    for (int k = 0; k < 2; k++) {
        fprintf(g, "@800200\n-%s\n@22\n", groups[k]);
        for (uint32_t i = 0; i < nrtl; i++) {
            size_t n = strlen(rtl_sigs[i]);
            const char *br = strchr(rtl_sigs[i], '[');
            size_t stem = br ? (size_t)(br - rtl_sigs[i]) : n;
            while (stem > 0 && rtl_sigs[i][stem - 1] == ' ')
                stem--;
            if (stem >= 2 && !strncmp(rtl_sigs[i] + stem - 2, suffix[k], 2))
                fprintf(g, "%s.%.*s%s\n", rtl_top, (int)stem, rtl_sigs[i], br ? br : "");
        }
        fprintf(g, "@1000200\n-%s\n", groups[k]);
    }
    const char *last = "";
    for (uint32_t i = 0; i < f->nvars; i++) {
        if (strcmp(f->vars[i].scope, last)) {
            if (*last)
                fprintf(g, "@1000200\n-C model: %s\n", last);
            last = f->vars[i].scope;
            fprintf(g, "@800200\n-C model: %s\n@22\n", last);
        }
        if (f->vars[i].width > 1)
            fprintf(g, "cmodel.%s.%s[%u:0]\n", f->vars[i].scope, f->vars[i].name, f->vars[i].width - 1);
        else
            fprintf(g, "cmodel.%s.%s\n", f->vars[i].scope, f->vars[i].name);
    }
    if (*last)
        fprintf(g, "@1000200\n-C model: %s\n", last);
    if (fclose(g) == 0)
        rename(tmp, p);
    else
        remove(tmp);
}

int tm_fst_finish(tm_fst *f, char *err, size_t errlen)
{
    char rtl[4096], tmp[4200];
    tm_fst_rtl_path(f, rtl, sizeof rtl);
    snprintf(tmp, sizeof tmp, "%s.tmp", f->path);
    void *r = fstReaderOpen(rtl);
    if (!r) {
        snprintf(err, errlen, "%s: cannot read the RTL waveform", rtl);
        return -1;
    }
    void *w = fstWriterCreate(tmp, 1);
    if (!w) {
        fstReaderClose(r);
        snprintf(err, errlen, "%s: cannot create", tmp);
        return -1;
    }
    fstWriterSetTimescale(w, fstReaderGetTimescale(r));
    merge_ctx m;
    memset(&m, 0, sizeof m);
    m.nmap = (uint32_t)fstReaderGetMaxHandle(r) + 1;
    m.map = calloc(m.nmap, sizeof *m.map);
    char **sigs = NULL;
    uint32_t nsigs = 0;
    char top[256] = "";
    int depth = 0;
    /* the RTL's hierarchy, copied */
    struct fstHier *h;
    fstReaderIterateHierRewind(r);
    while (m.map && (h = fstReaderIterateHier(r))) {
        switch (h->htyp) {
        case FST_HT_SCOPE:
            fstWriterSetScope(w, (enum fstScopeType)h->u.scope.typ, h->u.scope.name, h->u.scope.component);
            depth++;
            if (depth <= 2) {   /* TOP.sched_core */
                size_t l = strlen(top);
                snprintf(top + l, sizeof top - l, "%s%s", l ? "." : "", h->u.scope.name);
            }
            break;
        case FST_HT_UPSCOPE:
            fstWriterSetUpscope(w);
            depth--;
            break;
        case FST_HT_VAR: {
            fstHandle nh = fstWriterCreateVar(w, (enum fstVarType)h->u.var.typ,
                                              (enum fstVarDir)h->u.var.direction, h->u.var.length,
                                              h->u.var.name,
                                              h->u.var.is_alias ? m.map[h->u.var.handle] : 0);
            if (!h->u.var.is_alias && h->u.var.handle < m.nmap)
                m.map[h->u.var.handle] = nh;
            if (depth == 2) {
                char **ns = realloc(sigs, (nsigs + 1) * sizeof *ns);
                if (ns) {
                    sigs = ns;
                    sigs[nsigs++] = strdup(h->u.var.name);
                }
            }
            break;
        }
        default:
            break;
        }
    }
    /* the C side, in scope cmodel.<scope> */
    fstHandle *ch = calloc(f->nvars + 1, sizeof *ch);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "cmodel", NULL);
    const char *cur = NULL;
    for (uint32_t i = 0; ch && i < f->nvars; i++) {
        if (!cur || strcmp(cur, f->vars[i].scope)) {
            if (cur)
                fstWriterSetUpscope(w);
            cur = f->vars[i].scope;
            fstWriterSetScope(w, FST_ST_VCD_MODULE, cur, NULL);
        }
        ch[i] = fstWriterCreateVar(w, f->vars[i].width > 1 ? FST_VT_VCD_REG : FST_VT_VCD_WIRE,
                                   FST_VD_IMPLICIT, f->vars[i].width, f->vars[i].name, 0);
    }
    if (cur)
        fstWriterSetUpscope(w);
    fstWriterSetUpscope(w);
    /* RTL value changes, then both streams merged in time order */
    fstReaderSetFacProcessMaskAll(r);
    fstReaderIterBlocks(r, on_change, &m, NULL);
    fstReaderClose(r);
    int rc = 0;
    if (!m.map || !ch || m.oom) {
        snprintf(err, errlen, "%s: out of memory while merging", f->path);
        rc = -1;
    } else {
        size_t i = 0, j = 0;
        uint64_t now = UINT64_MAX;
        char bits[65];
        while (i < m.nch || j < f->nch) {
            int take_rtl = j >= f->nch || (i < m.nch && m.ch[i].time <= f->ch[j].time);
            uint64_t t = take_rtl ? m.ch[i].time : f->ch[j].time;
            if (t != now) {
                fstWriterEmitTimeChange(w, t);
                now = t;
            }
            if (take_rtl) {
                fstWriterEmitValueChange(w, m.ch[i].handle, m.arena + m.ch[i].off);
                i++;
            } else {
                const tf_change *c = &f->ch[j++];
                uint32_t wd = f->vars[c->var].width;
                for (uint32_t b = 0; b < wd; b++)
                    bits[b] = (char)('0' + ((c->value >> (wd - 1 - b)) & 1));
                bits[wd] = 0;
                fstWriterEmitValueChange(w, ch[c->var], bits);
            }
        }
    }
    fstWriterClose(w);
    if (rc == 0 && rename(tmp, f->path) != 0) {
        snprintf(err, errlen, "%s: cannot rename", f->path);
        rc = -1;
    }
    if (rc != 0)
        remove(tmp);
    else
        write_gtkw(f, top, sigs, nsigs);
    remove(rtl);
    for (uint32_t i = 0; i < nsigs; i++)
        free(sigs[i]);
    free(sigs);
    free(ch);
    free(m.map);
    free(m.ch);
    free(m.arena);
    return rc;
}

void tm_fst_destroy(tm_fst *f)
{
    if (!f)
        return;
    free(f->path);
    free(f->vars);
    free(f->ch);
    free(f);
}
