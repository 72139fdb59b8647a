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
#define _XOPEN_SOURCE 700   /* realpath */
#include "timing_fst.h"
#include "sched_ports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtkwave/fstapi.h"

/* Final-file time units (100 ps) per time unit of the back end's axis (half
 * a cycle): cycle c is at c ns, the rising edge ending it at c.5 ns. */
#define TM_TIME_SCALE 5
#define TM_TIMESCALE  (-10)         /* 10^-10 s */

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
    /* the back end's file of the current launch (segment) */
    uint64_t seg_base;              /* the launch's time 0 on the final axis */
    int      pending;               /* the segment has dumped times */
    int      written, failed;       /* the final file exists / a merge failed */
    /* the back end's hierarchy, noted from the first segment */
    uint32_t nrtl;                  /* its variables (the C side's follow) */
    char   **ports; uint32_t nports;/* its second-level variables */
    char     top[256];              /* its second-level scope, e.g. TOP.sched_core */
    char     core[16];              /* "RTL" or "C model": who wrote the core's signals */
    sched_params params;            /* the core's parameters: its port layout */
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

tm_fst *tm_fst_create(const char *path, const char *core, const sched_params *p,
                      uint64_t from, uint64_t to, char *err, size_t errlen)
{
    tm_fst *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(f->core, sizeof f->core, "%s", core);
    f->params = *p;
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
    f->pending = 1;
    return 1;
}

int tm_fst_reset(tm_fst *f)
{
    if (f->dumped)
        f->base = f->last_time + 2;
    f->seg_base = f->base;
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

/* ---- merge -----------------------------------------------------------------
 *
 * After every launch that dumped something (tm_fst_pending) the back end's
 * segment (that launch's cycles, times counted from the launch's reset) is
 * merged into the final file: the previous final file, if any, is copied
 * (its hierarchy and every value change), then the segment's changes, moved
 * to the launch's place on the time axis, are written interleaved with the
 * C-side changes recorded during the launch. Everything streams from the
 * readers into the writer in time order; nothing is held in memory but the
 * C side of one launch. The hierarchy of the first segment (plus the C-side
 * scope) is the final file's; later segments come from the same model, so
 * their variables map onto it by position. */

typedef struct merge_ctx {
    void      *w;                   /* the writer */
    fstHandle *map;  uint32_t nmap; /* reader handle -> writer handle */
    /* segment pass: the reader's time t goes to t + shift on the final
     * axis, but not before floor (see tm_fst_finish) */
    int        seg;
    int64_t    shift;
    uint64_t   floor;
    uint64_t   now;                 /* last time emitted (UINT64_MAX: none) */
    /* C-side changes to interleave (segment pass only) */
    const tm_fst *f;
    const fstHandle *cvar;          /* writer handle of each C-side variable */
    size_t     next;                /* next C-side change to write */
} merge_ctx;

static void emit_time(merge_ctx *m, uint64_t t)
{
    if (t != m->now) {
        fstWriterEmitTimeChange(m->w, t);
        m->now = t;
    }
}

/* C-side changes before `limit` (all of them for UINT64_MAX). */
static void emit_c_until(merge_ctx *m, uint64_t limit)
{
    const tm_fst *f = m->f;
    char bits[65];
    for (; f && m->next < f->nch && f->ch[m->next].time * TM_TIME_SCALE < limit; m->next++) {
        const tf_change *c = &f->ch[m->next];
        uint32_t wd = f->vars[c->var].width;
        for (uint32_t b = 0; b < wd; b++)
            bits[b] = (char)('0' + ((c->value >> (wd - 1 - b)) & 1));
        bits[wd] = 0;
        emit_time(m, c->time * TM_TIME_SCALE);
        fstWriterEmitValueChange(m->w, m->cvar[c->var], bits);
    }
}

static void on_change(void *user, uint64_t time, fstHandle facidx, const unsigned char *value)
{
    merge_ctx *m = user;
    if (facidx >= m->nmap || !m->map[facidx])
        return;
    uint64_t t = time;
    if (m->seg)                     /* onto the axis, then into final-file units */
        t = TM_TIME_SCALE * ((int64_t)time + m->shift < (int64_t)m->floor ? m->floor :
                             (uint64_t)((int64_t)time + m->shift));
    emit_c_until(m, t);             /* at equal times the RTL's change first */
    emit_time(m, t);
    fstWriterEmitValueChange(m->w, m->map[facidx], value);
}

/* The first rising edge of the back end's clock in a segment. */
typedef struct first_rise { uint64_t time; int found; } first_rise;

static void on_clock(void *user, uint64_t time, fstHandle facidx, const unsigned char *value)
{
    first_rise *fr = user;
    (void)facidx;
    if (!fr->found && value[0] == '1') {
        fr->time = time;
        fr->found = 1;
    }
}

static int segment_first_rise(void *r, uint64_t *time)
{
    struct fstHier *h;
    fstHandle clk = 0;
    fstReaderIterateHierRewind(r);
    while (!clk && (h = fstReaderIterateHier(r)))
        if (h->htyp == FST_HT_VAR && !strcmp(h->u.var.name, "clk_i"))
            clk = h->u.var.handle;
    if (!clk)
        return 0;
    first_rise fr = { 0, 0 };
    fstReaderClrFacProcessMaskAll(r);
    fstReaderSetFacProcessMask(r, clk);
    fstReaderIterBlocks(r, on_clock, &fr, NULL);
    *time = fr.time;
    return fr.found;
}

/* ---- the GTKWave save file ---------------------------------------------------
 *
 * FILE.gtkw opens the waveform as a designer reads it: one group per
 * scheduler with its fields of the core's packed ports (issue_warp_o of all
 * schedulers is one vector; field s of it is shown as "s1.issue_warp", built
 * with GTKWave's #{name} (bit)vector syntax) next to the C side's view of
 * that scheduler, one group per writeback port, the whole ports (closed
 * groups), the SM's C-side state and one closed group per warp. Enumerated
 * values are shown by name through translate filter files written beside it
 * (FILE.gtkw.stall_reason, .op_class, .warp_state: "value name" lines). The
 * time axis is 1 ns per cycle (see TM_TIME_SCALE), and the view opens on the
 * first cycles of the window at a zoom where values can be read. */

typedef struct gtkw_filter { const char *suffix; const char *names[8]; unsigned n; } gtkw_filter;
enum { FILTER_STALL, FILTER_OP, FILTER_STATE, FILTER_COUNT };
static const gtkw_filter gtkw_filters[FILTER_COUNT] = {
    { "stall_reason", {
#define SCHED_REASON(id, code, name, ts, stat, doc) [code] = name,
#include "sched_reasons.def"
      }, SCHED_NUM_REASONS },
    { "op_class", { [SCHED_OP_SP] = "sp", [SCHED_OP_SFU] = "sfu", [SCHED_OP_LDST] = "ldst",
                    [SCHED_OP_DP] = "dp" }, 4 },
    { "warp_state", { "free", "running", "barrier", "draining" }, 4 },
};

/* Write the filter files; their absolute names into names[] ("" when one
 * could not be written: that signal is then shown as a number). */
static void write_filters(const tm_fst *f, char names[FILTER_COUNT][4200])
{
    char dir[4096] = ".";
    const char *slash = strrchr(f->path, '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - f->path), f->path);
    char absdir[4096];
    if (!realpath(dir[0] ? dir : "/", absdir))
        snprintf(absdir, sizeof absdir, "%s", dir);
    const char *base = slash ? slash + 1 : f->path;
    for (int k = 0; k < FILTER_COUNT; k++) {
        const gtkw_filter *fl = &gtkw_filters[k];
        char tmp[4300];
        snprintf(names[k], 4200, "%.2000s/%.2000s.gtkw.%s", absdir, base, fl->suffix);
        snprintf(tmp, sizeof tmp, "%.4190s.tmp", names[k]);
        FILE *o = fopen(tmp, "w");
        int ok = o != NULL;
        for (unsigned v = 0; ok && v < fl->n; v++)
            fprintf(o, "%X %s\n", v, fl->names[v]);     /* the trace's hex value */
        if (o && fclose(o) != 0)
            ok = 0;
        if (!ok || rename(tmp, names[k]) != 0) {
            remove(tmp);
            names[k][0] = '\0';
        }
    }
}

/* One trace line: flags, optional filter, then the signal. */
#define GTKW_HEX   0x22             /* TR_HEX | TR_RJUSTIFY */
#define GTKW_DEC   0x24             /* TR_DEC | TR_RJUSTIFY */
#define GTKW_BIN   0x28             /* TR_BIN | TR_RJUSTIFY */
#define GTKW_FTRANS 0x2000          /* TR_FTRANSLATED: through the file filter */
static void gtkw_flags(FILE *g, unsigned *cur, unsigned flags, const char *filter)
{
    if (filter && filter[0]) {
        fprintf(g, "^1 %s\n", filter);  /* filter slot 1 is this file from here on */
        flags |= GTKW_FTRANS;
    }
    if (flags != *cur || (flags & GTKW_FTRANS))
        fprintf(g, "@%x\n", flags);
    *cur = flags;
}

static void gtkw_group(FILE *g, unsigned *cur, const char *name, int closed)
{
    fprintf(g, "@%x\n-%s\n", closed ? 0xc00200 : 0x800200, name);  /* TR_GRP_BEGIN|TR_BLANK (|TR_CLOSED) */
    *cur = 0;
}

static void gtkw_end(FILE *g, unsigned *cur, const char *name)
{
    fprintf(g, "@1000200\n-%s\n", name);   /* TR_GRP_END|TR_BLANK */
    *cur = 0;
}

/* The full name of port `port` ("issue_warp_o") as the file names it, or NULL. */
static const char *gtkw_port(const tm_fst *f, const char *port, char *buf, size_t len)
{
    size_t pl = strlen(port);
    for (uint32_t i = 0; i < f->nports; i++) {
        const char *sig = f->ports[i];
        if (strncmp(sig, port, pl) || (sig[pl] && sig[pl] != ' ' && sig[pl] != '['))
            continue;
        const char *br = strchr(sig, '[');
        snprintf(buf, len, "%s.%s%s", f->top, port, br ? br : "");
        return buf;
    }
    return NULL;
}

/* Field [lsb, lsb + width) of port `port` as a trace named `alias`. */
static void gtkw_field(FILE *g, unsigned *cur, const tm_fst *f, const char *alias,
                       const char *port, unsigned lsb, unsigned width, unsigned flags,
                       const char *filter)
{
    char full[512];
    if (!gtkw_port(f, port, full, sizeof full))
        return;
    if (width == 1 && !filter)
        flags = GTKW_BIN;
    /* GTKWave's (i)vector names the i-th bit from the left (the MSB) */
    const char *br = strchr(full, '[');
    unsigned hi = br ? (unsigned)strtoul(br + 1, NULL, 10) : 0;
    if (lsb + width - 1 > hi)
        return;
    gtkw_flags(g, cur, flags, filter);
    fprintf(g, "#{%s}", alias);
    for (unsigned b = lsb + width; b-- > lsb;)
        fprintf(g, " (%u)%s", hi - b, full);    /* bit b of the packed vector */
    fprintf(g, "\n");
}

/* The C side's variable scope.name (if declared), shown as "C name" (the
 * timing model's view, beside the core's fields) or, in its own scope's
 * group, as "name". */
static void gtkw_cvar(FILE *g, unsigned *cur, const tm_fst *f, const char *scope, const char *name,
                      unsigned flags, const char *filter)
{
    const char *pre = strncmp(scope, "sched", 5) ? "" : "C ";
    for (uint32_t i = 0; i < f->nvars; i++) {
        const tf_var *v = &f->vars[i];
        if (strcmp(v->scope, scope) || strcmp(v->name, name))
            continue;
        gtkw_flags(g, cur, v->width == 1 && !filter ? GTKW_BIN : flags, filter);
        if (v->width > 1)
            fprintf(g, "+{%s%s} cmodel.%s.%s[%u:0]\n", pre, name, scope, name, v->width - 1);
        else
            fprintf(g, "+{%s%s} cmodel.%s.%s\n", pre, name, scope, name);
        return;
    }
}

static void write_gtkw(const tm_fst *f)
{
    char p[4096];
    snprintf(p, sizeof p, "%s.gtkw", f->path);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", p);
    char filt[FILTER_COUNT][4200];
    write_filters(f, filt);
    FILE *g = fopen(tmp, "w");
    if (!g)
        return;
    const sched_params *sp = &f->params;
    SCHED_PORT_PARAMS(sp);
    const char *base = strrchr(f->path, '/');
    /* open on the window's first cycles, about 24 pixels per cycle (GTKWave's
     * zoom is log2 of pixels per time unit, its unit being 1 ps here) */
    fprintf(g, "[dumpfile] \"%s\"\n[timestart] %llu\n[size] 1600 900\n[signals_width] 300\n"
            "[sst_expanded] 1\n*-12.000000 -1\n", base ? base + 1 : f->path,
            (unsigned long long)(f->from * 2 * TM_TIME_SCALE));
    unsigned cur = 0;
    char full[512], alias[96], grp[96];
    if (gtkw_port(f, "clk_i", full, sizeof full)) {
        gtkw_flags(g, &cur, GTKW_BIN, NULL);
        fprintf(g, "+{clk} %s\n", full);
    }
    char smsc[24] = "sm0";
    for (uint32_t i = 0; i < f->nvars; i++)
        if (!strcmp(f->vars[i].name, "cycle"))
            snprintf(smsc, sizeof smsc, "%s", f->vars[i].scope);
    gtkw_cvar(g, &cur, f, smsc, "cycle", GTKW_DEC, NULL);
    /* per scheduler: the core's fields, then the C side's view */
    for (unsigned s = 0; s < NumSchedulers; s++) {
        snprintf(grp, sizeof grp, "scheduler %u", s);
        gtkw_group(g, &cur, grp, 0);
#define FIELD(port, name, w, flags, filter)                                       \
        snprintf(alias, sizeof alias, "s%u %s", s, name);                         \
        gtkw_field(g, &cur, f, alias, port, s * (w), (w), flags, filter)
        FIELD("issue_valid_o", "issue_valid", 1, GTKW_BIN, NULL);
        FIELD("issue_warp_o", "issue_warp", 6, GTKW_DEC, NULL);
        FIELD("issue_pc_o", "issue_pc", 32, GTKW_DEC, NULL);
        FIELD("issue_op_o", "issue_op", 2, GTKW_HEX, filt[FILTER_OP]);
        FIELD("stall_reason_o", "stall_reason", 3, GTKW_HEX, filt[FILTER_STALL]);
        FIELD("fetch_valid_o", "fetch_valid", 1, GTKW_BIN, NULL);
        FIELD("fetch_warp_o", "fetch_warp", 6, GTKW_DEC, NULL);
        FIELD("push_valid_i", "push_valid", 1, GTKW_BIN, NULL);
        FIELD("push_warp_i", "push_warp", 6, GTKW_DEC, NULL);
        FIELD("push_pc_i", "push_pc", 32, GTKW_DEC, NULL);
        FIELD("push_op_i", "push_op", 2, GTKW_HEX, filt[FILTER_OP]);
        FIELD("unit_avail_i", "unit_avail", 4, GTKW_BIN, NULL);
#undef FIELD
        char sc[24];
        snprintf(sc, sizeof sc, "sched%u", s);
        gtkw_cvar(g, &cur, f, sc, "issue_valid", GTKW_BIN, NULL);
        gtkw_cvar(g, &cur, f, sc, "issue_warp", GTKW_DEC, NULL);
        gtkw_cvar(g, &cur, f, sc, "issue_pc", GTKW_DEC, NULL);
        gtkw_cvar(g, &cur, f, sc, "stall_reason", GTKW_HEX, filt[FILTER_STALL]);
        gtkw_end(g, &cur, grp);
    }
    for (unsigned w = 0; w < WbPorts; w++) {
        snprintf(grp, sizeof grp, "writeback port %u", w);
        gtkw_group(g, &cur, grp, 1);
        snprintf(alias, sizeof alias, "wb%u.valid", w);
        gtkw_field(g, &cur, f, alias, "wb_valid_i", w, 1, GTKW_BIN, NULL);
        snprintf(alias, sizeof alias, "wb%u.warp", w);
        gtkw_field(g, &cur, f, alias, "wb_warp_i", w * 6, 6, GTKW_DEC, NULL);
        snprintf(alias, sizeof alias, "wb%u.reg", w);
        gtkw_field(g, &cur, f, alias, "wb_reg_i", w * RegIdWidth, RegIdWidth, GTKW_DEC, NULL);
        gtkw_end(g, &cur, grp);
    }
    /* the SM's C-side state */
    const char *last = "";
    for (uint32_t i = 0; i < f->nvars; i++) {
        const tf_var *v = &f->vars[i];
        if (!strncmp(v->scope, "sched", 5))
            continue;              /* shown with its scheduler above */
        if (strcmp(v->scope, last)) {
            if (*last)
                gtkw_end(g, &cur, grp);
            last = v->scope;
            snprintf(grp, sizeof grp, "C side: %s", last);
            gtkw_group(g, &cur, grp, strncmp(last, "warp", 4) == 0);
        }
        int state = !strcmp(v->name, "state");
        gtkw_cvar(g, &cur, f, v->scope, v->name,
                  state ? GTKW_HEX : GTKW_DEC,
                  state ? filt[FILTER_STATE] : NULL);
    }
    if (*last)
        gtkw_end(g, &cur, grp);
    /* every port whole (closed groups): outputs, then inputs */
    const char *groups[2] = { "scheduler core outputs", "scheduler core inputs" };
    const char *suffix[2] = { "_o", "_i" };
    for (int k = 0; k < 2; k++) {
        snprintf(grp, sizeof grp, "%s %s", f->core, groups[k]);
        gtkw_group(g, &cur, grp, 1);
        gtkw_flags(g, &cur, GTKW_HEX, NULL);
        for (uint32_t i = 0; i < f->nports; i++) {
            const char *sig = f->ports[i];
            size_t n = strlen(sig);
            const char *br = strchr(sig, '[');
            size_t stem = br ? (size_t)(br - sig) : n;
            while (stem > 0 && sig[stem - 1] == ' ')
                stem--;
            if (stem >= 2 && !strncmp(sig + stem - 2, suffix[k], 2))
                fprintf(g, "%s.%.*s%s\n", f->top, (int)stem, sig, br ? br : "");
        }
        gtkw_end(g, &cur, grp);
    }
    if (fclose(g) == 0)
        rename(tmp, p);
    else
        remove(tmp);
}

/* Copy the hierarchy of reader r into writer w; map[reader handle] = writer
 * handle. With `first` (the first segment) it also notes the top scope, the
 * ports (variables of the second level, for the .gtkw) and the number of
 * variables; otherwise r must have `expect` variables. Returns 0, or -1 when out of memory or the
 * hierarchy differs. */
static int copy_hier(tm_fst *f, void *r, void *w, fstHandle *map, uint32_t nmap, int first,
                     uint32_t expect)
{
    struct fstHier *h;
    int depth = 0;
    uint32_t pos = 0;
    fstReaderIterateHierRewind(r);
    while ((h = fstReaderIterateHier(r))) {
        switch (h->htyp) {
        case FST_HT_SCOPE:
            if (w)
                fstWriterSetScope(w, (enum fstScopeType)h->u.scope.typ, h->u.scope.name,
                                  h->u.scope.component);
            depth++;
            if (first && depth <= 2) {   /* TOP.sched_core */
                size_t l = strlen(f->top);
                snprintf(f->top + l, sizeof f->top - l, "%s%s", l ? "." : "", h->u.scope.name);
            }
            break;
        case FST_HT_UPSCOPE:
            if (w)
                fstWriterSetUpscope(w);
            depth--;
            break;
        case FST_HT_VAR: {
            fstHandle nh = 0;
            if (w) {
                nh = fstWriterCreateVar(w, (enum fstVarType)h->u.var.typ,
                                        (enum fstVarDir)h->u.var.direction, h->u.var.length,
                                        h->u.var.name,
                                        h->u.var.is_alias && h->u.var.handle < nmap ?
                                        map[h->u.var.handle] : 0);
            }
            if (!h->u.var.is_alias && h->u.var.handle < nmap)
                map[h->u.var.handle] = nh;
            if (first) {
                if (depth == 2) {
                    char **ns = realloc(f->ports, (f->nports + 1) * sizeof *ns);
                    if (!ns || !(ns[f->nports] = strdup(h->u.var.name))) {
                        if (ns)
                            f->ports = ns;
                        return -1;
                    }
                    f->ports = ns;
                    f->nports++;
                }
                f->nrtl++;
            }
            pos++;
            break;
        }
        default:
            break;
        }
    }
    return first || pos == expect ? 0 : -1;
}

/* The writer handle of every variable of the final file in hierarchy order
 * (the back end's first, then the C side), from the file just copied. */
static int collect_handles(void *r, const fstHandle *map, uint32_t nmap, fstHandle *out, uint32_t n)
{
    struct fstHier *h;
    uint32_t pos = 0;
    fstReaderIterateHierRewind(r);
    while ((h = fstReaderIterateHier(r)))
        if (h->htyp == FST_HT_VAR) {
            if (pos >= n || h->u.var.handle >= nmap)
                return -1;
            out[pos++] = map[h->u.var.handle];
        }
    return pos == n ? 0 : -1;
}

int tm_fst_finish(tm_fst *f, char *err, size_t errlen)
{
    char seg[4096], tmp[4200];
    tm_fst_rtl_path(f, seg, sizeof seg);
    if (!f->pending) {              /* nothing dumped: the segment is empty */
        remove(seg);
        return 0;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", f->path);
    int rc = -1;
    void *prev = NULL, *r = NULL, *w = NULL;
    fstHandle *pmap = NULL, *smap = NULL, *all = NULL, *pos = NULL;
    r = fstReaderOpen(seg);
    if (!r) {
        snprintf(err, errlen, "%s: cannot read the back end's waveform", seg);
        goto out;
    }
    if (f->written && !(prev = fstReaderOpen(f->path))) {
        snprintf(err, errlen, "%s: cannot read the waveform of the earlier launches", f->path);
        goto out;
    }
    if (!(w = fstWriterCreate(tmp, 1))) {
        snprintf(err, errlen, "%s: cannot create", tmp);
        goto out;
    }
    fstWriterSetTimescale(w, TM_TIMESCALE);
    uint32_t nseg = (uint32_t)fstReaderGetMaxHandle(r) + 1;
    uint32_t nall = f->nrtl + f->nvars;   /* known after the first segment */
    smap = calloc(nseg, sizeof *smap);
    if (!smap)
        goto oom;
    merge_ctx m = { .w = w, .now = UINT64_MAX };
    if (!prev) {
        /* first launch: the segment's hierarchy, then the C side's scope */
        if (copy_hier(f, r, w, smap, nseg, 1, 0) != 0)
            goto oom;
        nall = f->nrtl + f->nvars;
        if (!(pos = calloc(nall + 1, sizeof *pos)))
            goto oom;
        if (collect_handles(r, smap, nseg, pos, f->nrtl) != 0)
            goto bad;
        fstWriterSetScope(w, FST_ST_VCD_MODULE, "cmodel", NULL);
        const char *cur = NULL;
        for (uint32_t i = 0; i < f->nvars; i++) {
            if (!cur || strcmp(cur, f->vars[i].scope)) {
                if (cur)
                    fstWriterSetUpscope(w);
                cur = f->vars[i].scope;
                fstWriterSetScope(w, FST_ST_VCD_MODULE, cur, NULL);
            }
            pos[f->nrtl + i] = fstWriterCreateVar(w, f->vars[i].width > 1 ? FST_VT_VCD_REG :
                                                  FST_VT_VCD_WIRE, FST_VD_IMPLICIT,
                                                  f->vars[i].width, f->vars[i].name, 0);
        }
        if (cur)
            fstWriterSetUpscope(w);
        fstWriterSetUpscope(w);
    } else {
        /* later launches: the final file's hierarchy and changes, copied */
        uint32_t nprev = (uint32_t)fstReaderGetMaxHandle(prev) + 1;
        if (!(pmap = calloc(nprev, sizeof *pmap)) || !(pos = calloc(nall + 1, sizeof *pos)) ||
            !(all = calloc(nseg, sizeof *all)))
            goto oom;
        if (copy_hier(f, prev, w, pmap, nprev, 0, nall) != 0 ||
            collect_handles(prev, pmap, nprev, pos, nall) != 0)
            goto bad;
        /* the segment's variables, by position, onto the final file's */
        if (copy_hier(f, r, NULL, all, nseg, 0, f->nrtl) != 0)
            goto bad;
        uint32_t p = 0;
        struct fstHier *h;
        fstReaderIterateHierRewind(r);
        while ((h = fstReaderIterateHier(r)))
            if (h->htyp == FST_HT_VAR) {
                if (!h->u.var.is_alias && h->u.var.handle < nseg)
                    smap[h->u.var.handle] = pos[p];
                p++;
            }
        m.map = pmap;
        m.nmap = nprev;
        fstReaderSetFacProcessMaskAll(prev);
        fstReaderIterBlocks(prev, on_change, &m, NULL);
    }
    /* This launch: the segment, with the C side. The back end counts its
     * time from its own resets, and creating it resets it once or twice
     * before the launch does (lockstep: twice), each reset dumped when the
     * window starts at cycle 0. So the segment is placed by its first rising
     * edge, which is the launch's first dumped edge (cycle `from`, or 0);
     * what the back end dumped before the launch's reset (the idle state
     * after creation) is put at the launch's first time and overwritten
     * there by the launch's reset. (Not by its end: a lockstep mismatch
     * stops the launch after the back end has dumped the mismatching edge,
     * which the C side has not.) */
    uint64_t rise_in;
    if (!segment_first_rise(r, &rise_in))
        rise_in = 0;                /* no edge: a launch without a cycle */
    m.map = smap;
    m.nmap = nseg;
    m.seg = 1;
    m.shift = (int64_t)(f->seg_base + 2 * f->from + 1) - (int64_t)rise_in;
    m.floor = f->seg_base;
    m.f = f;
    m.cvar = pos + f->nrtl;
    m.next = 0;
    fstReaderSetFacProcessMaskAll(r);
    fstReaderIterBlocks(r, on_change, &m, NULL);
    emit_c_until(&m, UINT64_MAX);
    rc = 0;
    goto out;
oom:
    snprintf(err, errlen, "%s: out of memory while merging", f->path);
    goto out;
bad:
    snprintf(err, errlen, "%s: the back end's waveform of this launch has other signals "
             "than the earlier launches'", f->path);
out:
    if (w)
        fstWriterClose(w);
    if (r)
        fstReaderClose(r);
    if (prev)
        fstReaderClose(prev);
    if (rc == 0 && rename(tmp, f->path) != 0) {
        snprintf(err, errlen, "%s: cannot rename", f->path);
        rc = -1;
    }
    if (rc != 0) {
        remove(tmp);
        f->failed = 1;
    } else {
        f->written = 1;
        write_gtkw(f);
    }
    remove(seg);
    f->pending = 0;
    f->nch = 0;
    free(pmap);
    free(smap);
    free(all);
    free(pos);
    return rc;
}

int tm_fst_pending(const tm_fst *f) { return f->pending && !f->failed; }
int tm_fst_closed(const tm_fst *f) { return f->closed || f->failed; }
int tm_fst_written(const tm_fst *f) { return f->written; }

void tm_fst_destroy(tm_fst *f)
{
    if (!f)
        return;
    char seg[4096];
    remove(tm_fst_rtl_path(f, seg, sizeof seg));   /* a segment never merged */
    for (uint32_t i = 0; i < f->nports; i++)
        free(f->ports[i]);
    free(f->ports);
    free(f->path);
    free(f->vars);
    free(f->ch);
    free(f);
}
