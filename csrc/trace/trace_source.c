/*
 * trace_source.c — an Accel-Sim kernel trace as an instruction source
 * (trace_source.h, csrc/timing/inst_source.h).
 *
 * Static view: every distinct SASS pc of the kernel becomes one
 * emu_inst_info, numbered densely in order of first appearance (that number
 * is the "pc" the pipeline and the scheduler core see); its operation class,
 * unit and latency come from the opcode table of the trace's architecture
 * (sass_ops.c). The table grows as thread blocks are read, in chunks, so
 * the pointers the pipeline keeps stay valid.
 *
 * Dynamic view: a CTA is a thread block of the trace; each warp replays its
 * instruction lines in order. Executing one returns the recorded active mask
 * and addresses; nothing is computed. A warp has exited after its last line;
 * BAR (not .ARV, with lanes active) waits for every live warp of the CTA.
 *
 * Thread blocks are read from the file one at a time when the dispatcher
 * asks for them; a block asked for before it appears in the file makes the
 * blocks before it wait in memory (the tracer writes blocks in the order
 * they finished, usually near the launch order).
 */
#include "trace_source.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sass_ops.h"
#include "trace_export.h"
#include "../ptx/ptx.h"

#define CHUNK 1024                       /* static instructions per chunk */
#define GENERIC_WINDOW UINT64_C(0x1000000)   /* 16 MiB: ASSUMED size of the
                                              shared / local windows of generic
                                              addresses (docs/traces.md) */

typedef struct tr_static {
    emu_inst_info info;
    uint8_t flags;                       /* enum sass_flag */
    char name[64];                       /* full opcode */
} tr_static;

typedef struct tr_cta tr_cta;

struct trace_source {
    trace_kernel *k;
    const sass_arch *arch;
    char *path;
    tr_static **chunk;                   /* [nchunk][CHUNK] */
    uint32_t nchunk, nstatic;
    /* thread blocks read but not started yet, by linear id (open addressing) */
    trace_tb **wait;
    uint32_t nwait, capwait;
    uint8_t *started;                    /* [nctas bits] */
    uint32_t nctas;
    int eof;
    smc_fault fault;
    uint64_t warp_insts, thread_insts, progress;
};

struct tr_cta {
    trace_source *s;
    trace_tb tb;
    uint32_t linear, smid;
    uint32_t *cur;                       /* per warp: next line */
    uint8_t *bar, *done;                 /* per warp: waiting at a barrier, exited */
    uint64_t *idle;                      /* per warp: instructions since the last progress */
    uint32_t live, waiting;
};

static trace_source *S(void *ctx) { return ctx; }
static tr_cta *C(inst_cta *c) { return (tr_cta *)c; }
static const tr_cta *CC(const inst_cta *c) { return (const tr_cta *)c; }

static const tr_static *st_at(const trace_source *s, uint32_t i)
{
    return i < s->nstatic ? &s->chunk[i / CHUNK][i % CHUNK] : NULL;
}

static void set_fault(trace_source *s, smc_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_fault(trace_source *s, smc_status st, const char *fmt, ...)
{
    if (s->fault.status != SMC_OK)
        return;
    s->fault.status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->fault.message, sizeof s->fault.message, fmt, ap);
    va_end(ap);
}

/* Build the emu_inst_info of the reader's new static instructions. 0, or -1
 * with the fault set (unknown opcode, out of memory). */
static int sync_static(trace_source *s)
{
    uint32_t n = trace_kernel_nstatic(s->k);
    for (; s->nstatic < n; s->nstatic++) {
        uint32_t i = s->nstatic;
        if (i / CHUNK == s->nchunk) {
            tr_static **nc = realloc(s->chunk, (s->nchunk + 1) * sizeof *nc);
            if (!nc || !(nc[s->nchunk] = calloc(CHUNK, sizeof **nc))) {
                if (nc)
                    s->chunk = nc;
                set_fault(s, SMC_ERR_OUT_OF_MEMORY, "out of host memory");
                return -1;
            }
            s->chunk = nc;
            s->nchunk++;
        }
        const trace_static *t = trace_kernel_static(s->k, i);
        tr_static *x = &s->chunk[i / CHUNK][i % CHUNK];
        memset(x, 0, sizeof *x);
        snprintf(x->name, sizeof x->name, "%s", t->opcode);
        emu_inst_info *in = &x->info;
        in->pc = i;
        in->ptx_line = t->line;          /* the trace line it was first seen on */
        if (!s->arch) {
            /* PTX-level (smcosim trace-export): what the emulator would say;
             * unit and latency from the configuration, as for programs */
            if (trace_ptx_opcode_parse(t->opcode, in) != 0) {
                set_fault(s, SMC_ERR_ILLEGAL_INSTRUCTION, "%s:%u: field 'opcode': '%s' is not a "
                          "PTX-level opcode OP.CLASS[.SPACE] (binary version 0)", s->path, t->line,
                          t->opcode);
                return -1;
            }
            in->access_size = (uint8_t)(in->op_class == EC_MEM ? (t->mem_width > 255 ? 255 : t->mem_width) : 0);
        } else {
            sass_op op;
            if (sass_op_lookup(s->arch, t->opcode, &op) != 0) {
                set_fault(s, SMC_ERR_ILLEGAL_INSTRUCTION, "%s:%u: field 'opcode': unknown SASS opcode "
                          "'%.*s' for %s (binary version %u)", s->path, t->line,
                          (int)strcspn(t->opcode, "."), t->opcode, s->arch->name,
                          trace_kernel_header(s->k)->binary_version);
                return -1;
            }
            x->flags = op.flags;
            in->op = 0;                  /* no PTX op: unit and latency are given */
            in->op_class = op.op_class;
            in->unit = (uint8_t)(op.unit + 1);
            in->latency = op.latency;
            in->mem_space = op.space;
            in->is_load = (op.flags & SASS_LOAD) != 0;
            in->is_store = (op.flags & SASS_STORE) != 0;
            in->is_atomic = (op.flags & SASS_ATOMIC) != 0;
            in->is_branch = (op.flags & SASS_BRANCH) != 0;
            in->is_barrier = (op.flags & SASS_BARRIER) != 0;
            in->is_exit = (op.flags & SASS_EXIT) != 0;
            in->access_size = (uint8_t)(op.op_class == EC_MEM ? (t->mem_width > 255 ? 255 : t->mem_width) : 0);
            /* long latency: loads (and atomics) from global or local memory */
            in->long_latency = op.op_class == EC_MEM && (op.flags & SASS_LOAD) &&
                               (op.space == SP_GLOBAL || op.space == SP_LOCAL);
        }
        /* registers: R255 (RZ) is no dependency */
        for (unsigned j = 0; j < t->ndst && in->ndst < 8; j++)
            if (t->dst[j] != TRACE_RZ)
                in->dst[in->ndst++] = t->dst[j];
        for (unsigned j = 0; j < t->nsrc && in->nsrc < 16; j++)
            if (t->src[j] != TRACE_RZ)
                in->src[in->nsrc++] = t->src[j];
        in->name = x->name;
    }
    return 0;
}

/* ---- waiting thread blocks, by linear id ------------------------------------ */

static uint32_t lin_hash(uint32_t l, uint32_t cap) { return (l * 2654435761u) & (cap - 1); }

static int wait_put(trace_source *s, trace_tb *tb, uint32_t linear)
{
    if ((s->nwait + 1) * 2 > s->capwait) {
        uint32_t nc = s->capwait ? s->capwait * 2 : 64;
        trace_tb **n = calloc(nc, sizeof *n);
        if (!n)
            return -1;
        for (uint32_t i = 0; i < s->capwait; i++)
            if (s->wait[i]) {
                const trace_tb *t = s->wait[i];
                uint32_t l = t->id[0] + t->id[1] * trace_kernel_header(s->k)->grid[0] +
                             t->id[2] * trace_kernel_header(s->k)->grid[0] * trace_kernel_header(s->k)->grid[1];
                uint32_t j = lin_hash(l, nc);
                while (n[j])
                    j = (j + 1) & (nc - 1);
                n[j] = s->wait[i];
            }
        free(s->wait);
        s->wait = n;
        s->capwait = nc;
    }
    uint32_t j = lin_hash(linear, s->capwait);
    while (s->wait[j])
        j = (j + 1) & (s->capwait - 1);
    s->wait[j] = tb;
    s->nwait++;
    return 0;
}

static uint32_t linear_of(const trace_source *s, const trace_tb *tb)
{
    const trace_header *h = trace_kernel_header(s->k);
    return tb->id[0] + tb->id[1] * h->grid[0] + tb->id[2] * h->grid[0] * h->grid[1];
}

static trace_tb *wait_take(trace_source *s, uint32_t linear)
{
    if (!s->capwait)
        return NULL;
    uint32_t j = lin_hash(linear, s->capwait);
    while (s->wait[j]) {
        if (linear_of(s, s->wait[j]) == linear) {
            trace_tb *tb = s->wait[j];
            /* delete with backward-shift (linear probing) */
            s->wait[j] = NULL;
            s->nwait--;
            uint32_t k = (j + 1) & (s->capwait - 1);
            while (s->wait[k]) {
                trace_tb *m = s->wait[k];
                s->wait[k] = NULL;
                uint32_t h = lin_hash(linear_of(s, m), s->capwait);
                while (s->wait[h])
                    h = (h + 1) & (s->capwait - 1);
                s->wait[h] = m;
                k = (k + 1) & (s->capwait - 1);
            }
            return tb;
        }
        j = (j + 1) & (s->capwait - 1);
    }
    return NULL;
}

/* The next thread block of the file, checked (every warp present, not seen
 * before). NULL at the end of the file (s->eof set) or with the fault set. */
static trace_tb *read_next(trace_source *s)
{
    const trace_header *h = trace_kernel_header(s->k);
    char err[sizeof s->fault.message];
    trace_tb *n = malloc(sizeof *n);
    if (!n) {
        set_fault(s, SMC_ERR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    int r = trace_kernel_next_tb(s->k, n, err, sizeof err);
    if (r <= 0) {
        free(n);
        if (r < 0)
            set_fault(s, SMC_ERR_INVALID_VALUE, "%s", err);
        else
            s->eof = 1;
        return NULL;
    }
    if (sync_static(s) != 0)
        goto bad;
    /* every warp of the block must be in the trace */
    for (uint32_t w = 0; w < n->nwarps; w++)
        if (n->ninst[w] == 0) {
            set_fault(s, SMC_ERR_INVALID_VALUE, "%s: thread block %u,%u,%u: warp %u has no "
                      "instructions (a block of %u threads has %u warps; each must end in EXIT)",
                      s->path, n->id[0], n->id[1], n->id[2], w,
                      h->block[0] * h->block[1] * h->block[2], n->nwarps);
            goto bad;
        }
    uint32_t l = linear_of(s, n);
    trace_tb *dup = wait_take(s, l);
    if ((s->started[l / 8] >> (l % 8)) & 1 || dup) {
        if (dup) {
            trace_tb_free(dup);
            free(dup);
        }
        set_fault(s, SMC_ERR_INVALID_VALUE, "%s: thread block %u,%u,%u appears twice",
                  s->path, n->id[0], n->id[1], n->id[2]);
        goto bad;
    }
    return n;
bad:
    trace_tb_free(n);
    free(n);
    return NULL;
}

/* The thread block `linear`, read from the file if not read yet (blocks
 * before it wait). NULL with the fault set. */
static trace_tb *fetch_tb(trace_source *s, uint32_t linear)
{
    trace_tb *tb = wait_take(s, linear);
    if (tb)
        return tb;
    while (!s->eof) {
        trace_tb *n = read_next(s);
        if (!n) {
            if (s->fault.status != SMC_OK)
                return NULL;
            break;
        }
        if (linear_of(s, n) == linear)
            return n;
        if (wait_put(s, n, linear_of(s, n)) != 0) {
            set_fault(s, SMC_ERR_OUT_OF_MEMORY, "out of host memory");
            trace_tb_free(n);
            free(n);
            return NULL;
        }
    }
    const trace_header *h = trace_kernel_header(s->k);
    uint32_t x = linear % h->grid[0], y = linear / h->grid[0] % h->grid[1],
             z = linear / h->grid[0] / h->grid[1];
    set_fault(s, SMC_ERR_INVALID_VALUE, "%s: thread block %u,%u,%u of the grid (%u,%u,%u) is "
              "not in the trace", s->path, x, y, z, h->grid[0], h->grid[1], h->grid[2]);
    return NULL;
}

/* ---- inst_source_ops ---------------------------------------------------------- */

static uint32_t tr_num_ctas(void *ctx) { return S(ctx)->nctas; }

static const emu_inst_info *tr_inst_at(void *ctx, uint32_t pc)
{
    const tr_static *x = st_at(S(ctx), pc);
    return x ? &x->info : NULL;
}

static uint32_t tr_code_size(void *ctx) { return S(ctx)->nstatic; }
static void tr_mark_joins(void *ctx, uint8_t *join) { (void)ctx; (void)join; }   /* peek_ahead knows */
static const smc_fault *tr_fault(void *ctx) { return &S(ctx)->fault; }
static uint64_t tr_warp_insts(void *ctx) { return S(ctx)->warp_insts; }
static uint64_t tr_thread_insts(void *ctx) { return S(ctx)->thread_insts; }
static uint64_t tr_progress(void *ctx) { return S(ctx)->progress; }

static void cta_free(tr_cta *c)
{
    if (!c)
        return;
    trace_tb_free(&c->tb);
    free(c->cur);
    free(c->bar);
    free(c->done);
    free(c->idle);
    free(c);
}

static inst_cta *tr_cta_start(void *ctx, uint32_t linear, uint32_t smid)
{
    trace_source *s = S(ctx);
    trace_tb *tb = fetch_tb(s, linear);
    if (!tb)
        return NULL;
    tr_cta *c = calloc(1, sizeof *c);
    if (!c) {
        trace_tb_free(tb);
        free(tb);
        set_fault(s, SMC_ERR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    c->s = s;
    c->tb = *tb;
    free(tb);
    c->linear = linear;
    c->smid = smid;
    uint32_t n = c->tb.nwarps;
    c->cur = calloc(n, sizeof *c->cur);
    c->bar = calloc(n, 1);
    c->done = calloc(n, 1);
    c->idle = calloc(n, sizeof *c->idle);
    if (!c->cur || !c->bar || !c->done || !c->idle) {
        cta_free(c);
        set_fault(s, SMC_ERR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    c->live = n;
    s->started[linear / 8] |= (uint8_t)(1u << (linear % 8));
    s->progress++;                        /* a CTA started */
    return (inst_cta *)c;
}

static uint32_t tr_cta_warps(const inst_cta *c) { return CC(c)->tb.nwarps; }
static bool tr_cta_done(const inst_cta *c) { return CC(c)->live == 0; }
static void tr_cta_finish(inst_cta *c) { cta_free(C(c)); }

static const emu_inst_info *peek_n(const tr_cta *c, uint32_t w, uint32_t n)
{
    if (c->done[w] || c->cur[w] + n >= c->tb.ninst[w])
        return NULL;
    return tr_inst_at(c->s, c->tb.inst[w][c->cur[w] + n].sidx);
}

static const emu_inst_info *tr_peek(const inst_cta *c, uint32_t w) { return peek_n(CC(c), w, 0); }
static const emu_inst_info *tr_peek_ahead(const inst_cta *c, uint32_t w, uint32_t n)
{
    return peek_n(CC(c), w, n);
}

/* Release the CTA's barrier when every live warp waits at it. */
static void bar_check(tr_cta *c)
{
    if (c->waiting == 0 || c->waiting < c->live)
        return;
    for (uint32_t w = 0; w < c->tb.nwarps; w++) {
        c->bar[w] = 0;
        c->idle[w] = 0;
    }
    c->waiting = 0;
    c->s->progress++;                     /* a barrier completed */
}

static int tr_execute(inst_cta *ic, uint32_t w, emu_exec_info *out)
{
    tr_cta *c = C(ic);
    trace_source *s = c->s;
    if (c->done[w] || c->bar[w]) {
        set_fault(s, SMC_ERR_LAUNCH_FAILED, "%s: warp %u of thread block %u,%u,%u issued while %s",
                  s->path, w, c->tb.id[0], c->tb.id[1], c->tb.id[2],
                  c->done[w] ? "exited" : "waiting at a barrier");
        return EMU_FAULT;
    }
    const trace_dyn *d = &c->tb.inst[w][c->cur[w]++];
    const tr_static *x = st_at(s, d->sidx);
    const emu_inst_info *in = &x->info;
    out->pc = in->pc;
    out->active = d->mask;
    out->warp_mask = d->mask;
    out->branch_taken = 0;
    out->diverged = 0;
    out->mem_space = in->mem_space;
    out->access_size = in->access_size;
    if (d->addr != UINT32_MAX) {
        const uint64_t *a = &c->tb.addr[d->addr];
        memcpy(out->addr, a, sizeof out->addr);
        if (x->flags & SASS_GENERIC) {
            /* a generic address: the space of its window (first active lane) */
            const trace_header *h = trace_kernel_header(s->k);
            uint64_t a0 = d->mask ? a[__builtin_ctz(d->mask)] : 0, base = 0;
            if (h->shmem_base && a0 >= h->shmem_base && a0 - h->shmem_base < GENERIC_WINDOW) {
                out->mem_space = SP_SHARED;
                base = h->shmem_base;
            } else if (h->local_base && a0 >= h->local_base && a0 - h->local_base < GENERIC_WINDOW) {
                out->mem_space = SP_LOCAL;
                base = h->local_base;
            }
            if (base)
                for (unsigned l = 0; l < 32; l++)
                    if ((d->mask >> l) & 1)
                        out->addr[l] -= base;
        }
    }
    s->warp_insts++;
    s->thread_insts += (uint64_t)__builtin_popcount(d->mask);
    c->idle[w]++;
    if (c->cur[w] >= c->tb.ninst[w]) {   /* the warp's last line: it has exited */
        out->next_pc = PTX_NO_PC;
        out->status = EMU_EXITED;
        c->done[w] = 1;
        c->live--;
        s->progress++;
        bar_check(c);
        return EMU_EXITED;
    }
    out->next_pc = st_at(s, c->tb.inst[w][c->cur[w]].sidx)->info.pc;
    if (in->is_barrier && d->mask && !strstr(x->name, ".ARV")) {
        c->bar[w] = 1;
        c->waiting++;
        bar_check(c);
        out->status = EMU_WAIT_BARRIER;
        return EMU_WAIT_BARRIER;
    }
    out->status = EMU_OK;
    return EMU_OK;
}

static int tr_skip(inst_cta *ic, uint32_t w)
{
    /* HAWS's out-of-order issue needs the static program: off in trace mode */
    tr_cta *c = C(ic);
    set_fault(c->s, SMC_ERR_UNSUPPORTED, "%s: HAWS skip requested in trace mode (hints are off "
              "for traces)", c->s->path);
    (void)w;
    return EMU_FAULT;
}

static bool tr_ready(const inst_cta *c, uint32_t w) { return !CC(c)->done[w] && !CC(c)->bar[w]; }
static bool tr_exited(const inst_cta *c, uint32_t w) { return CC(c)->done[w]; }
static uint64_t tr_idle(const inst_cta *c, uint32_t w) { return CC(c)->idle[w]; }

static void tr_hang(inst_cta *ic, uint32_t w, const char *what)
{
    tr_cta *c = C(ic);
    trace_source *s = c->s;
    uint32_t line = c->cur[w] < c->tb.ninst[w] ? c->tb.inst[w][c->cur[w]].line : 0;
    s->fault.status = SMC_OK;             /* the hang is the report */
    set_fault(s, SMC_ERR_LAUNCH_TIMEOUT, "SMC_ERR_LAUNCH_TIMEOUT: %s in kernel %s: thread block "
              "%u,%u,%u warp %u at %s:%u%s", what, trace_kernel_header(s->k)->name, c->tb.id[0],
              c->tb.id[1], c->tb.id[2], w, s->path, line, c->bar[w] ? " (waiting at a barrier)" : "");
}

static const inst_source_ops trace_source_ops = {
    .name = "trace",
    .num_ctas = tr_num_ctas,
    .inst_at = tr_inst_at,
    .code_size = tr_code_size,
    .mark_joins = tr_mark_joins,
    .fault = tr_fault,
    .warp_insts = tr_warp_insts,
    .thread_insts = tr_thread_insts,
    .progress = tr_progress,
    .cta_start = tr_cta_start,
    .cta_warps = tr_cta_warps,
    .cta_done = tr_cta_done,
    .cta_finish = tr_cta_finish,
    .peek = tr_peek,
    .peek_ahead = tr_peek_ahead,
    .execute = tr_execute,
    .skip = tr_skip,
    .ready = tr_ready,
    .exited = tr_exited,
    .idle_insts = tr_idle,
    .hang = tr_hang,
};

/* ---- open / close ------------------------------------------------------------- */

trace_source *trace_source_open(const char *path, char *err, size_t errlen)
{
    trace_source *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        snprintf(err, errlen, "%s: out of host memory", path);
        return NULL;
    }
    if (!(s->k = trace_kernel_open(path, err, errlen))) {
        free(s->path);
        free(s);
        return NULL;
    }
    const trace_header *h = trace_kernel_header(s->k);
    if (h->binary_version != TRACE_PTX_BINARY_VERSION && !(s->arch = sass_arch_of(h->binary_version))) {
        snprintf(err, errlen, "%s: field 'binary version': no SASS opcode table for %u "
                 "(there are tables for %s, and 0 for PTX-level traces)", path, h->binary_version,
                 sass_arch_versions());
        trace_source_close(s);
        return NULL;
    }
    s->nctas = (uint32_t)((uint64_t)h->grid[0] * h->grid[1] * h->grid[2]);
    /* calloc: pages of a large bitmap are only touched as blocks start */
    if (!(s->started = calloc((size_t)s->nctas / 8 + 1, 1))) {
        snprintf(err, errlen, "%s: out of host memory", path);
        trace_source_close(s);
        return NULL;
    }
    /* Read the first block now: its instructions are then in the static
     * table before the launch starts (the timing model looks for a barrier
     * there: sched.warp_limit), and a file broken from the start fails here */
    trace_tb *first = read_next(s);
    if (!first && s->fault.status != SMC_OK) {
        snprintf(err, errlen, "%s", s->fault.message);
        trace_source_close(s);
        return NULL;
    }
    if (first && wait_put(s, first, linear_of(s, first)) != 0) {
        trace_tb_free(first);
        free(first);
        snprintf(err, errlen, "%s: out of host memory", path);
        trace_source_close(s);
        return NULL;
    }
    return s;
}

const trace_header *trace_source_header(const trace_source *s) { return trace_kernel_header(s->k); }

inst_source trace_source_get(trace_source *s) { return (inst_source){ &trace_source_ops, s }; }

timing_kernel_req trace_source_req(const trace_source *s)
{
    const trace_header *h = trace_kernel_header(s->k);
    timing_kernel_req r;
    memset(&r, 0, sizeof r);
    r.threads_per_cta = h->block[0] * h->block[1] * h->block[2];
    r.regs_per_thread = h->nregs;
    r.smem_per_cta = h->shmem;
    r.num_ctas = s->nctas;
    return r;
}

void trace_source_close(trace_source *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < s->capwait; i++)
        if (s->wait[i]) {
            trace_tb_free(s->wait[i]);
            free(s->wait[i]);
        }
    free(s->wait);
    for (uint32_t i = 0; i < s->nchunk; i++)
        free(s->chunk[i]);
    free(s->chunk);
    free(s->started);
    trace_kernel_close(s->k);
    free(s->path);
    free(s);
}
