/*
 * bench/drivers/bench.c — the bench_ctx helpers of bench.h: sticky errors,
 * device allocations owned by the context, and launches whose parameter
 * block is laid out from smc_kernel_param(); and the driver that benchmarks
 * of one shape share (bench_run_abc).
 */
#include "bench.h"
#include "../ref/polybench.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void ctx_error(bench_ctx *c, const char *fmt, ...)
{
    va_list ap;
    if (bench_failed(c))
        return;
    c->status = BENCH_ERROR;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
}

/* An smc_* call failed: name the call, the status and the device's message
 * (and the fault report when there is one). */
static void ctx_device_error(bench_ctx *c, const char *what, smc_status s)
{
    smc_fault f;
    smc_device_fault(c->dev, &f);
    if (f.status != SMC_OK && f.message[0])
        ctx_error(c, "%s: %s", what, f.message);   /* the report names the status */
    else
        ctx_error(c, "%s: %s: %s", what, smc_status_name(s), smc_last_message(c->dev));
}

int bench_begin(bench_ctx *c, smc_device *dev, const bench_opts *o,
                const char *name, const bench_params presets[BENCH_SIZE_COUNT],
                bench_check_fn check, bench_params *p)
{
    char path[1024], why[160];
    smc_status s;

    memset(c, 0, sizeof *c);
    c->dev = dev;
    c->o = o;
    c->name = name;
    if (o->size < BENCH_SIZE_SMALL || o->size >= BENCH_SIZE_COUNT) {
        ctx_error(c, "unknown size class %d", o->size);
        return -1;
    }
    *p = presets[o->size];
    if (o->n > 0) p->n = o->n;
    if (o->iters > 0) p->iters = o->iters;
    if (o->have_seed) p->seed = o->seed;
    if (check && check(p, why, sizeof why)) {
        ctx_error(c, "bad size: %s", why);
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s.ptx", o->ptx_dir ? o->ptx_dir : "bench/ptx", name);
    s = smc_module_load_ptx_file(dev, path, &c->mod);
    if (s != SMC_OK) {
        ctx_device_error(c, path, s);
        return -1;
    }
    return 0;
}

int bench_general_size(bench_ctx *c, bench_params *p, int n, int iters,
                       bench_check_fn check)
{
    char why[160];
    if (!bench_general(c->o) || bench_failed(c))
        return bench_failed(c);
    if (n > 0 && c->o->n <= 0) p->n = n;
    if (iters > 0 && c->o->iters <= 0) p->iters = iters;
    if (check && check(p, why, sizeof why)) {
        ctx_error(c, "bad size: %s", why);
        return -1;
    }
    return 0;
}

static uint64_t ctx_track(bench_ctx *c, uint64_t d, size_t bytes)
{
    if (c->nallocs == BENCH_MAX_ALLOCS) {
        smc_free(c->dev, d);
        ctx_error(c, "more than %d device allocations in one benchmark", BENCH_MAX_ALLOCS);
        return 0;
    }
    c->sizes[c->nallocs] = bytes;
    c->allocs[c->nallocs++] = d;
    return d;
}

uint64_t bench_alloc(bench_ctx *c, size_t bytes)
{
    uint64_t d = 0;
    smc_status s;
    size_t guard = bench_general(c->o) ? BENCH_GUARD_BYTES : 0;
    if (bench_failed(c))
        return 0;
    s = smc_malloc(c->dev, (bytes ? bytes : 1) + guard, SMC_MEM_DEVICE, &d);
    if (s != SMC_OK) {
        ctx_device_error(c, "smc_malloc", s);
        return 0;
    }
    d = ctx_track(c, d, bytes ? bytes : 1);
    bench_memset(c, d, 0, bytes ? bytes : 1);
    if (guard && d)
        bench_memset(c, d + (bytes ? bytes : 1), BENCH_GUARD_BYTE, guard);
    return d;
}

/* --inputs general: is every allocation's guard zone untouched? */
static void check_guards(bench_ctx *c)
{
    unsigned char g[BENCH_GUARD_BYTES];
    for (int i = 0; i < c->nallocs && !bench_failed(c); i++) {
        bench_read(c, g, c->allocs[i] + c->sizes[i], sizeof g);
        for (size_t k = 0; k < sizeof g && !bench_failed(c); k++)
            if (g[k] != BENCH_GUARD_BYTE) {
                c->status = BENCH_FAIL;
                snprintf(c->msg, sizeof c->msg,
                         "device buffer %d (%zu bytes) written past its end, at byte +%zu",
                         i, c->sizes[i], k);
            }
    }
}

uint64_t bench_upload(bench_ctx *c, const void *host, size_t bytes)
{
    uint64_t d = bench_alloc(c, bytes);
    bench_write(c, d, host, bytes);
    return d;
}

void bench_write(bench_ctx *c, uint64_t dst, const void *host, size_t bytes)
{
    smc_status s;
    if (bench_failed(c) || bytes == 0)
        return;
    if ((s = smc_memcpy_htod(c->dev, dst, host, bytes)) != SMC_OK)
        ctx_device_error(c, "smc_memcpy_htod", s);
}

void bench_read(bench_ctx *c, void *host, uint64_t src, size_t bytes)
{
    smc_status s;
    if (bench_failed(c) || bytes == 0)
        return;
    if ((s = smc_memcpy_dtoh(c->dev, host, src, bytes)) != SMC_OK)
        ctx_device_error(c, "smc_memcpy_dtoh", s);
}

void bench_memset(bench_ctx *c, uint64_t dst, int value, size_t bytes)
{
    smc_status s;
    if (bench_failed(c) || bytes == 0)
        return;
    if ((s = smc_memset(c->dev, dst, value, bytes)) != SMC_OK)
        ctx_device_error(c, "smc_memset", s);
}

void bench_write_symbol(bench_ctx *c, const char *symbol, const void *host,
                        size_t bytes)
{
    uint64_t d = 0;
    size_t size = 0;
    smc_status s;
    if (bench_failed(c))
        return;
    if ((s = smc_module_get_global(c->mod, symbol, &d, &size)) != SMC_OK) {
        ctx_device_error(c, symbol, s);
        return;
    }
    if (bytes > size) {
        ctx_error(c, "symbol %s has %zu bytes, %zu written", symbol, size, bytes);
        return;
    }
    bench_write(c, d, host, bytes);
}

static double clock_seconds(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void bench_launch(bench_ctx *c, const char *kernel, smc_dim3 grid,
                  smc_dim3 block, uint32_t dyn_smem, const bench_arg *args,
                  uint32_t nargs)
{
    smc_kernel *k;
    smc_kernel_info info;
    smc_launch_ext ext;
    unsigned char params[4096];
    smc_status s;
    double t0, cpu0;

    if (bench_failed(c))
        return;
    if ((s = smc_module_get_kernel(c->mod, kernel, &k)) != SMC_OK) {
        ctx_device_error(c, kernel, s);
        return;
    }
    smc_kernel_get_info(k, &info);
    if (info.num_params != nargs) {
        ctx_error(c, "%s: the PTX declares %u parameters, the driver passes %u",
                  kernel, info.num_params, nargs);
        return;
    }
    if (info.param_bytes > sizeof params) {
        ctx_error(c, "%s: parameter block of %u bytes is too large", kernel, info.param_bytes);
        return;
    }
    memset(params, 0, sizeof params);
    for (uint32_t i = 0; i < nargs; i++) {
        uint32_t off, size;
        if ((s = smc_kernel_param(k, i, &off, &size)) != SMC_OK) {
            ctx_device_error(c, kernel, s);
            return;
        }
        if (size != args[i].size || (uint64_t)off + size > info.param_bytes) {
            ctx_error(c, "%s: parameter %u is %u bytes at offset %u, the driver passes %u",
                      kernel, i, size, off, args[i].size);
            return;
        }
        memcpy(params + off, args[i].ptr, size);
    }
    memset(&ext, 0, sizeof ext);
    t0 = clock_seconds(CLOCK_MONOTONIC);
    cpu0 = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
    s = smc_launch(c->dev, k, grid, block, dyn_smem, 0, params, info.param_bytes, &ext);
    if (c->o->stats) {
        c->o->stats->launch_cpu_seconds += clock_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu0;
        c->o->stats->launch_seconds += clock_seconds(CLOCK_MONOTONIC) - t0;
    }
    if (s != SMC_OK) {
        ctx_device_error(c, kernel, s);
        return;
    }
    if (c->o->stats) {
        smc_launch_stats ls;
        uint32_t count = smc_launch_count(c->dev);
        c->o->stats->launches++;
        if (count > 0 && smc_launch_get_stats(c->dev, count - 1, &ls) == SMC_OK) {
            c->o->stats->warp_insts += ls.warp_insts;
            c->o->stats->thread_insts += ls.thread_insts;
        }
    }
}

int bench_end(bench_ctx *c, int bad, const char *why)
{
    int status = c->status;
    if (status == BENCH_PASS && bad) {
        status = BENCH_FAIL;
        snprintf(c->msg, sizeof c->msg, "%s", why ? why : "wrong result");
    }
    if (status == BENCH_PASS && c->o && bench_general(c->o)) {
        check_guards(c);
        status = c->status;
    }
    for (int i = 0; i < c->nallocs; i++)
        smc_free(c->dev, c->allocs[i]);
    c->nallocs = 0;
    if (c->o && c->o->why && c->o->whylen)
        snprintf(c->o->why, c->o->whylen, "%s", status == BENCH_PASS ? "" : c->msg);
    return status;
}

int bench_run_abc(smc_device *dev, const bench_opts *o, const bench_abc_kernel *k)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "", what[64];
    int bad = 0;
    if (bench_begin(&c, dev, o, k->name, k->presets, k->check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, k->check))   /* not a multiple of 32 or 8 */
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *cm = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    if (bench_general(o)) {
        k->inputs_general(&p, a, b, cm);
        k->reference_exact(n, a, b, cm, want);
    } else {
        k->inputs(&p, a, b, cm);
        k->reference(n, a, b, cm, want);
    }
    uint64_t da = bench_upload(&c, a, bytes), db = bench_upload(&c, b, bytes);
    uint64_t dc = bench_upload(&c, cm, bytes);
    BENCH_LAUNCH(&c, k->name, DIM2(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y)),
                 DIM2(POLY_BLOCK_X, POLY_BLOCK_Y), 0, BARG(da), BARG(db), BARG(dc), BARG(n));
    bench_read(&c, cm, dc, bytes);
    snprintf(what, sizeof what, "%s: c", k->name);
    if (!bench_failed(&c))
        bad = bench_compare_float(what, cm, want, (size_t)n * n, bench_general(o) ? 0.0 : 1e-6, why, sizeof why);
    free(a); free(b); free(cm); free(want);
    return bench_end(&c, bad, why);
}
