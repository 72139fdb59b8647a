/*
 * sched_ctrace.c -- the C model with an FST trace of its interface ports
 * (sched_cmodel_create_traced, issue 3 "tracing off and on").
 *
 * A thin back end around an ordinary C model (sched_cmodel_create): every
 * reset and step goes to the inner model, then the ports are written to an
 * FST file exactly as the Verilated RTL's trace shows them (cosim/
 * vsched_shim.cpp), so the two files can be opened side by side and compared
 * signal for signal:
 *
 *   - scope `sched_core` with clk_i, rst_ni and every port of
 *     rtl/sched_core.sv, same names and widths, flat vectors packed as the
 *     shim packs them (field of port s at bits [s*width +: width]); the
 *     nested scope `sched_core.sched_core` holds the same ports (aliases) and
 *     the six parameters, as Verilator writes them;
 *   - time 2 units per cycle from the last reset: time 0 after reset
 *     (clk_i 0, rst_ni 1, idle inputs), the rising edge ending cycle t at
 *     2t+1 (the inputs of cycle t and the outputs of cycle t+1), the falling
 *     edge at 2t+2 (only clk_i changes); a second reset continues after the
 *     last written time;
 *   - the window [start, end) in cycles (time / 2); at `end` the file is
 *     closed and renamed into place, otherwise at destroy.
 *
 * The untraced C model is untouched: tracing costs nothing unless asked for.
 * Only the ports are traced (not the model's internal state).
 *
 * fstapi comes from the Verilator runtime in libsmc_vsched.a (compiled there
 * from verilated_fst_c.cpp), so this file lives in that library too.
 */
#include "sched_if.h"
#include "sched_ports.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtkwave/fstapi.h"

/* Widest port: counters_o, 8 schedulers x 7 counters x 32 bits ... */
#define CT_MAX_WORDS ((SCHED_MAX_SCHEDULERS * SCHED_NUM_REASONS * 32 + 63) / 64)
/* ... checked for every port of sched_ports.def at the parameters' maxima. */
#define NumWarps      SCHED_MAX_WARPS
#define NumSchedulers SCHED_MAX_SCHEDULERS
#define RegIdWidth    SCHED_MAX_REG_ID_WIDTH
#define WbPorts       SCHED_MAX_WB_PORTS
#define SCHED_PORT(name, dir, rep, per, width, ...) \
    _Static_assert(SCHED_REP_##rep * (per) * (width) <= CT_MAX_WORDS * 64, #name ": wider than CT_MAX_WORDS");
#include "sched_ports.def"
#undef NumWarps
#undef NumSchedulers
#undef RegIdWidth
#undef WbPorts

/* The signals: clock, reset and every port of sched_ports.def, in the RTL's
 * port order (CT_clk_i, CT_rst_ni, CT_policy_i, ...). */
enum ct_signal {
#define SCHED_CLOCK_PORT(name, doc) CT_##name,
#define SCHED_PORT(name, ...) CT_##name,
#include "sched_ports.def"
    CT_NUM_SIGNALS
};

static const char *const ct_names[CT_NUM_SIGNALS] = {
#define SCHED_CLOCK_PORT(name, doc) #name,
#define SCHED_PORT(name, ...) #name,
#include "sched_ports.def"
};

#define CT_DIR_IN  FST_VD_INPUT
#define CT_DIR_OUT FST_VD_OUTPUT
static const enum fstVarDir ct_dirs[CT_NUM_SIGNALS] = {
#define SCHED_CLOCK_PORT(name, doc) FST_VD_INPUT,
#define SCHED_PORT(name, dir, ...) CT_DIR_##dir,
#include "sched_ports.def"
};

typedef struct ctrace {
    sched_backend  base;
    sched_backend *cm;            /* the untraced C model doing the work */
    void          *fst;           /* fstWriter context; NULL once closed */
    char          *path, *tmp;
    uint64_t       start, end;
    uint64_t       time_base, last_time;
    int            dumped;        /* anything written yet */
    int            clk;
    int            rise_dumped;   /* the last rising edge was written */
    sched_inputs   in;            /* inputs shown on the ports */
    uint32_t       width[CT_NUM_SIGNALS];
    fstHandle      handle[CT_NUM_SIGNALS];
    uint64_t       cur[CT_NUM_SIGNALS][CT_MAX_WORDS];
    uint64_t       last[CT_NUM_SIGNALS][CT_MAX_WORDS];
    fstHandle      param_handle[8];   /* NumWarps .. WbPorts, RcuDepth, RenEntries */
    unsigned       param_value[8];
    char           byte_chars[256][8];  /* "00000000" .. "11111111", MSB first */
} ctrace;

/* Put the low `width` bits of v at bit `pos` of the little-endian word vector w. */
static void put(uint64_t *w, unsigned pos, unsigned width, uint64_t v)
{
    if (width < 64) v &= (1ull << width) - 1;
    w[pos / 64] |= v << (pos % 64);
    if (pos % 64 != 0 && pos % 64 + width > 64) w[pos / 64 + 1] |= v >> (64 - pos % 64);
}

/* All signal values from the current clock, inputs and outputs. */
static void ct_sample(ctrace *t)
{
    const sched_params *p = &t->base.params;
    const sched_inputs *in = &t->in;
    const sched_outputs *o = &t->base.out;
    SCHED_PORT_PARAMS(p);
    for (unsigned k = 0; k < CT_NUM_SIGNALS; k++)
        memset(t->cur[k], 0, (t->width[k] + 63) / 64 * sizeof(uint64_t));
    t->cur[CT_clk_i][0] = (uint64_t)t->clk;
    t->cur[CT_rst_ni][0] = 1;
    /* field k of group g at [(g*per + k)*width +: width]; a group whose gate
     * is 0 (an idle push or writeback port) stays zero, as in the shim */
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc)          \
    for (unsigned g = 0; g < SCHED_REP_##rep; g++)                              \
        if (gate)                                                               \
            for (unsigned k = 0; k < (per); k++)                                \
                put(t->cur[CT_##name], (width) * ((per) * g + k), (width), (uint64_t)(value));
#include "sched_ports.def"
}

static void ct_close(ctrace *t)
{
    if (!t->fst) return;
    fstWriterClose(t->fst);
    t->fst = NULL;
    rename(t->tmp, t->path);
}

/* Signal k's current value as '0'/'1' characters, MSB first. (Not
 * fstWriterEmitValueChangeVec64: in this fstapi it drops the upper half of
 * every 64-bit word.) */
static void emit(ctrace *t, unsigned k)
{
    char bits[CT_MAX_WORDS * 64 + 1];
    const uint32_t n = t->width[k];
    const uint64_t *v = t->cur[k];
    char *o = bits;
    uint32_t bit = n;
    for (; bit % 8 != 0; bit--)               /* the top bits above a whole byte */
        *o++ = (char)('0' + ((v[(bit - 1) / 64] >> ((bit - 1) % 64)) & 1));
    for (; bit > 0; bit -= 8, o += 8) {       /* then a byte at a time */
        unsigned byte = (unsigned)(v[(bit - 8) / 64] >> ((bit - 8) % 64)) & 0xFF;
        memcpy(o, t->byte_chars[byte], 8);
    }
    *o = '\0';
    fstWriterEmitValueChange(t->fst, t->handle[k], bits);
}

/* The shim's dump(time): write the signals that changed, inside the window. */
static void ct_dump(ctrace *t, uint64_t time)
{
    if (!t->fst) return;
    uint64_t c = time / 2;
    if (c < t->start) return;
    if (t->end != 0 && c >= t->end) {
        ct_close(t);
        return;
    }
    t->last_time = t->time_base + time;
    fstWriterEmitTimeChange(t->fst, t->last_time);
    if (t->clk == 0 && t->rise_dumped) {
        /* a falling edge after a written rising edge changes only the clock
         * (outputs are registers, inputs are held until the next rising edge) */
        t->cur[CT_clk_i][0] = t->last[CT_clk_i][0] = 0;
        emit(t, CT_clk_i);
        return;
    }
    ct_sample(t);
    if (!t->dumped)               /* the parameters never change: once, first */
        for (unsigned k = 0; k < 8; k++)
            fstWriterEmitValueChange32(t->fst, t->param_handle[k], 32, t->param_value[k]);
    for (unsigned k = 0; k < CT_NUM_SIGNALS; k++) {
        size_t bytes = (t->width[k] + 63) / 64 * sizeof(uint64_t);
        if (t->dumped && memcmp(t->cur[k], t->last[k], bytes) == 0) continue;
        emit(t, k);
        memcpy(t->last[k], t->cur[k], bytes);
    }
    t->dumped = 1;
}

static void ct_reset(sched_backend *b)
{
    ctrace *t = (ctrace *)b;
    sched_reset(t->cm);
    b->out = t->cm->out;
    if (t->dumped) t->time_base = t->last_time + 2;
    memset(&t->in, 0, sizeof t->in);
    t->clk = 0;
    t->rise_dumped = 0;
    ct_dump(t, 0);
}

static int ct_checked_step(sched_backend *b, const sched_inputs *in)
{
    ctrace *t = (ctrace *)b;
    if (sched_step(t->cm, in) != 0) {
        snprintf(b->error, sizeof b->error, "%s", sched_error(t->cm));
        return -1;
    }
    b->out = t->cm->out;
    t->in = *in;
    t->rise_dumped = 0;
    t->clk = 1;
    ct_dump(t, 2 * b->cycle + 1);
    t->clk = 0;
    ct_dump(t, 2 * b->cycle + 2);
    return 0;
}

static void ct_step(sched_backend *b, const sched_inputs *in) { (void)ct_checked_step(b, in); }

static void ct_destroy(sched_backend *b)
{
    ctrace *t = (ctrace *)b;
    ct_close(t);
    sched_destroy(t->cm);
    free(t->path);
    free(t->tmp);
    free(t);
}

static const sched_backend_ops ctrace_ops = {
    "cmodel (traced)", ct_reset, ct_step, ct_destroy, ct_checked_step
};

/* Scope `sched_core` with every port, then `sched_core.sched_core` with the
 * parameters and the same ports as aliases, as in the RTL's trace. */
static void ct_declare(ctrace *t)
{
    const sched_params *p = &t->base.params;
    SCHED_PORT_PARAMS(p);
    const uint32_t width[CT_NUM_SIGNALS] = {
#define SCHED_CLOCK_PORT(name, doc) 1,
#define SCHED_PORT(name, dir, rep, per, width, ...) SCHED_REP_##rep * (per) * (width),
#include "sched_ports.def"
    };
    memcpy(t->width, width, sizeof width);
    fstWriterSetTimescaleFromString(t->fst, "1ps");
    fstWriterSetScope(t->fst, FST_ST_VCD_MODULE, "sched_core", NULL);
    char name[CT_NUM_SIGNALS][48];
    for (unsigned k = 0; k < CT_NUM_SIGNALS; k++) {
        /* Verilator names a vector "name [msb:0]" */
        if (t->width[k] > 1)
            snprintf(name[k], sizeof name[k], "%s [%u:0]", ct_names[k], (unsigned)t->width[k] - 1);
        else
            snprintf(name[k], sizeof name[k], "%s", ct_names[k]);
        t->handle[k] = fstWriterCreateVar(t->fst, FST_VT_VCD_WIRE, ct_dirs[k], t->width[k], name[k], 0);
    }
    fstWriterSetScope(t->fst, FST_ST_VCD_MODULE, "sched_core", NULL);
    const char *pnames[8] = { "NumWarps", "NumSchedulers", "RegIdWidth", "IbufDepth", "SbEntries",
                              "WbPorts", "RcuDepth", "RenEntries" };
    const unsigned pvals[8] = { p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth,
                                p->sb_entries, p->wb_ports, p->rcu_depth, p->ren_entries };
    for (unsigned k = 0; k < 8; k++) {
        char pn[32];
        snprintf(pn, sizeof pn, "%s [31:0]", pnames[k]);
        t->param_value[k] = pvals[k];
        t->param_handle[k] =
            fstWriterCreateVar(t->fst, FST_VT_VCD_PARAMETER, FST_VD_IMPLICIT, 32, pn, 0);
    }
    for (unsigned k = 0; k < CT_NUM_SIGNALS; k++) {
        fstWriterCreateVar(t->fst, FST_VT_VCD_WIRE, ct_dirs[k], t->width[k], name[k], t->handle[k]);
    }
    fstWriterSetUpscope(t->fst);
    fstWriterSetUpscope(t->fst);
}

sched_backend *sched_cmodel_create_traced(const sched_params *p, const sched_trace_opts *trace,
                                          char *err, size_t errlen)
{
    if (!trace || !trace->path) return sched_cmodel_create(p, err, errlen);
    if (sched_params_check(p, err, errlen) != 0) return NULL;
    ctrace *t = calloc(1, sizeof *t);
    size_t n = strlen(trace->path) + 5;
    if (t) t->path = strdup(trace->path);
    if (t) t->tmp = malloc(n);
    if (!t || !t->path || !t->tmp) goto oom;
    snprintf(t->tmp, n, "%s.tmp", trace->path);
    t->base.ops = &ctrace_ops;
    t->base.params = *p;
    for (unsigned b = 0; b < 256; b++)
        for (unsigned i = 0; i < 8; i++) t->byte_chars[b][i] = (char)('0' + ((b >> (7 - i)) & 1));
    t->start = trace->start;
    t->end = trace->end;
    /* fstWriterCreate() says nothing useful when it fails: try the file first */
    FILE *probe = fopen(t->tmp, "wb");
    if (!probe) {
        snprintf(err, errlen, "trace file %s: cannot open %s for writing: %s", t->path, t->tmp,
                 strerror(errno));
        goto fail;
    }
    fclose(probe);
    t->fst = fstWriterCreate(t->tmp, 1);
    if (!t->fst) {
        snprintf(err, errlen, "trace file %s: cannot open %s for writing", t->path, t->tmp);
        remove(t->tmp);
        goto fail;
    }
    ct_declare(t);
    t->cm = sched_cmodel_create(p, err, errlen);
    if (!t->cm) {
        fstWriterClose(t->fst);
        remove(t->tmp);
        goto fail;
    }
    sched_reset(&t->base);
    return &t->base;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    if (t) {
        free(t->path);
        free(t->tmp);
        free(t);
    }
    return NULL;
}
