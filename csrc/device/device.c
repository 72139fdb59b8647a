/*
 * device.c — the smcosim.h API: devices, modules, kernels, memory, launches,
 * faults and per-launch statistics, on top of the PTX loader (csrc/ptx/),
 * device memory (devmem.c) and the functional emulator (csrc/emu/).
 */
#include "smcosim.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <signal.h>

#include "devmem.h"
#include "locality.h"
#include "../emu/emu.h"
#include "../../hints/haws_pass.h"
#include "../timing/timing.h"
#include "../ptx/link.h"
#include "../ptx/ptx.h"
#include "../trace/trace_export.h"

struct smc_kernel {
    smc_module *mod;
    emu_kernel *ek;
    smc_kernel_info info;
};

struct smc_module {
    smc_device *dev;
    ptx_module *pm;
    smc_kernel *kernels; uint32_t nkernels;
    uint64_t *var_addr;          /* per module variable (global/const), 0 otherwise */
    smc_module *next;
};

struct smc_device {
    devmem mem;
    smc_device_props props;
    smc_device_opts opts;
    char msg[1024];
    smc_fault fault;
    smc_launch_stats *stats; uint32_t nstats, stats_cap;
    smc_module *mods;
    /* timing mode (issue 5): see the "timing mode" section below */
    gpu_config cfg;
    timing_gpu *tm;              /* NULL in functional mode */
    timing_stats *tstats; uint32_t ntstats, tstats_cap;
    char *json_path;
    int print_stats;
    char *fst_path;
    uint64_t fst_from, fst_to;
    locality_map loc;            /* per-kernel locality hints (locality.h) */
    trace_export *texport;       /* SMCOSIM_TRACE_EXPORT: Accel-Sim trace of functional launches */
};

static smc_status fail(smc_device *dev, smc_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static smc_status fail(smc_device *dev, smc_status st, const char *fmt, ...) {
    if (dev) {
        va_list ap; va_start(ap, fmt);
        vsnprintf(dev->msg, sizeof dev->msg, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* Sticky guest fault: every later call that touches the device reports it. */
static smc_status sticky(smc_device *dev) {
    if (dev->fault.status == SMC_OK) return SMC_OK;
    snprintf(dev->msg, sizeof dev->msg, "device has a sticky fault (reset it): %s", dev->fault.message);
    return dev->fault.status;
}

/* ---- device ------------------------------------------------------------------ */
static void default_props(smc_device_props *p) {
    /* Kepler K20X-like, seed 000 Table 4.1 (14 SMs, 64 warps/SM, 2048
     * threads/SM, 16 CTAs/SM, 65536 registers/SM, 1536 KB L2) and ch. 4.4
     * (732 MHz shader clock). Table 4.1 lists 16 KB of shared memory per SM
     * (the K20X L1/shared split); we report the 48 KB split so that CUDA
     * programs written for 48 KB per block launch (see docs/emulator.md). */
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "smcosim kepler-k20x");
    p->num_sms = 14;
    p->warp_size = 32;
    p->max_threads_per_block = 1024;
    p->max_block_dim[0] = 1024; p->max_block_dim[1] = 1024; p->max_block_dim[2] = 64;
    p->max_grid_dim[0] = 0x7FFFFFFF; p->max_grid_dim[1] = 65535; p->max_grid_dim[2] = 65535;
    p->max_threads_per_sm = 2048;
    p->max_warps_per_sm = 64;
    p->max_ctas_per_sm = 16;
    p->regs_per_sm = 65536;
    p->max_regs_per_block = 65536;
    p->smem_per_sm = 48 * 1024;
    p->smem_per_block = 48 * 1024;
    p->const_bytes = 64 * 1024;
    p->l2_bytes = 1536 * 1024;
    p->clock_khz = 732000;
    p->global_mem_bytes = 6ull << 30;
    p->cc_major = 7; p->cc_minor = 5;
}

/* ---- timing mode (issue 5) ---------------------------------------------------
 * The device's configuration (csrc/config/) is resolved once at creation from
 * the options, or the SMCOSIM_* environment variables when an option is unset
 * (docs/timing-model.md). In timing mode every launch runs on the timing model
 * (csrc/timing/), which executes the same emulator cycle by cycle. */
static const char *opt_or_env(const char *v, const char *env) {
    if (v && *v) return v;
    const char *e = getenv(env);
    return e && *e ? e : NULL;
}

static int device_config(smc_device *dev, const smc_device_opts *o, int *timing, char *err, size_t errlen) {
    gpu_config *c = &dev->cfg;
    if (gpu_config_load_spec(c, opt_or_env(o ? o->config : NULL, "SMCOSIM_CONFIG"), err, errlen) != 0) return -1;
    const char *set = opt_or_env(o ? o->set : NULL, "SMCOSIM_SET");
    if (set) {
        char *copy = strdup(set), *save = NULL;
        if (!copy) { snprintf(err, errlen, "out of memory"); return -1; }
        int rc = 0;
        for (char *a = strtok_r(copy, ";", &save); a && rc == 0; a = strtok_r(NULL, ";", &save))
            rc = gpu_config_apply(c, a, err, errlen);
        free(copy);
        if (rc) return -1;
    }
    const char *pol = opt_or_env(o ? o->policy : NULL, "SMCOSIM_POLICY");
    if (pol && gpu_config_set_policy(c, pol, err, errlen) != 0) return -1;
    const char *sch = opt_or_env(o ? o->sched : NULL, "SMCOSIM_SCHED");
    if (sch && gpu_config_set_backend(c, sch, err, errlen) != 0) return -1;
    const char *chk = getenv("SMCOSIM_CHECK_RTL");   /* smcosim run --check-rtl */
    if (chk && *chk && gpu_config_set_check(c, chk, err, errlen) != 0) return -1;
    if (gpu_config_check(c, err, errlen) != 0) return -1;
    int mode = o ? o->mode : SMC_MODE_DEFAULT;
    if (mode == SMC_MODE_DEFAULT) {
        const char *m = getenv("SMCOSIM_MODE");
        if (m && !strcmp(m, "timing")) mode = SMC_MODE_TIMING;
        else if (m && *m && strcmp(m, "functional")) { snprintf(err, errlen, "SMCOSIM_MODE '%s': expected functional or timing", m); return -1; }
    }
    *timing = mode == SMC_MODE_TIMING;
    const char *json = opt_or_env(o ? o->json : NULL, "SMCOSIM_JSON");
    if (json && !(dev->json_path = strdup(json))) { snprintf(err, errlen, "out of memory"); return -1; }
    const char *fst = opt_or_env(o ? o->fst : NULL, "SMCOSIM_FST");
    if (fst) {
        const char *win = opt_or_env(o ? o->fst_window : NULL, "SMCOSIM_FST_WINDOW");
        unsigned long long a = 0, b = 20000;
        char extra;
        if (win && (sscanf(win, "%llu:%llu%c", &a, &b, &extra) != 2 || b <= a)) {
            snprintf(err, errlen, "--fst-window '%s': expected FROM:TO cycles with FROM < TO", win);
            return -1;
        }
        if (!(dev->fst_path = strdup(fst))) { snprintf(err, errlen, "out of memory"); return -1; }
        dev->fst_from = a;
        dev->fst_to = b;
    }
    const char *mw = getenv("SMCOSIM_MISMATCH_WINDOW");
    if (mw && *mw) {
        char *end;
        strtoull(mw, &end, 10);
        if (*end || *mw == '-') {
            snprintf(err, errlen, "--mismatch-window '%s' (SMCOSIM_MISMATCH_WINDOW): expected a number of cycles", mw);
            return -1;
        }
    }
    if (locality_map_parse(&dev->loc, opt_or_env(o ? o->locality : NULL, "SMCOSIM_LOCALITY"),
                           err, errlen) != 0) return -1;
    int ps = o ? o->print_stats : 0;
    if (ps == 0) { const char *e = getenv("SMCOSIM_PRINT_STATS"); ps = e && !strcmp(e, "1") ? 1 : -1; }
    dev->print_stats = ps > 0;
    return 0;
}

/* Device properties from the configuration. */
static void config_props(smc_device_props *p, const gpu_config *c) {
    snprintf(p->name, sizeof p->name, "smcosim %s", c->preset);
    p->num_sms = c->mem.num_sms;
    p->max_threads_per_block = c->max_threads_per_block;
    p->max_block_dim[0] = p->max_block_dim[1] = c->max_threads_per_block < 1024 ? c->max_threads_per_block : 1024;
    p->max_threads_per_sm = c->max_threads_per_sm;
    p->max_warps_per_sm = c->max_warps_per_sm;
    p->max_ctas_per_sm = c->max_ctas_per_sm;
    p->regs_per_sm = c->regs_per_sm;
    p->max_regs_per_block = c->max_regs_per_block;
    p->smem_per_sm = c->smem_per_sm;
    p->smem_per_block = c->max_smem_per_block;
    p->l2_bytes = c->mem.l2_partitions * c->mem.l2_sets * c->mem.l2_ways * c->mem.l2_line_bytes;
    p->clock_khz = c->clock_mhz * 1000;
}

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) { (void)sig; interrupted = 1; }

smc_status smc_device_create(const smc_device_opts *opts, smc_device **out) {
    if (!out) return SMC_ERR_INVALID_VALUE;
    *out = NULL;
    smc_device *dev = calloc(1, sizeof *dev);
    if (!dev) return SMC_ERR_OUT_OF_MEMORY;
    if (opts) dev->opts = *opts;
    dev->opts.config = dev->opts.sched = dev->opts.policy = dev->opts.set = dev->opts.json = NULL;
    dev->opts.fst = dev->opts.fst_window = NULL;
    dev->opts.locality = NULL;
    default_props(&dev->props);
    char err[512];
    int timing = 0;
    if (device_config(dev, opts, &timing, err, sizeof err) != 0) {
        /* no device to keep the message in: the caller only gets the status */
        fprintf(stderr, "smcosim: configuration: %s\n", err);
        free(dev->json_path);
        free(dev->fst_path);
        free(dev);
        return SMC_ERR_UNSUPPORTED;
    }
    config_props(&dev->props, &dev->cfg);
    timing_trace tr = { dev->fst_path, dev->fst_from, dev->fst_to, 0 };
    if (dev->fst_path && !timing) {
        fprintf(stderr, "smcosim: --fst needs timing mode\n");
        free(dev->json_path); free(dev->fst_path); free(dev);
        return SMC_ERR_UNSUPPORTED;
    }
    if (timing && !(dev->tm = timing_create(&dev->cfg, &tr, err, sizeof err))) {
        fprintf(stderr, "smcosim: timing model: %s\n", err);
        free(dev->json_path);
        free(dev->fst_path);
        free(dev);
        return SMC_ERR_UNSUPPORTED;
    }
    if (devmem_init(&dev->mem, dev->msg, sizeof dev->msg) != 0) {
        timing_destroy(dev->tm, NULL, 0); free(dev->json_path); free(dev->fst_path); free(dev);
        return SMC_ERR_OUT_OF_MEMORY;
    }
    if (dev->cfg.malloc_layout == GPU_MALLOC_GPGPUSIM)
        devmem_set_packed(&dev->mem);
    /* `smcosim trace-export` (docs/traces.md): functional launches are
     * written as an Accel-Sim trace into this folder */
    const char *tx = getenv("SMCOSIM_TRACE_EXPORT");
    if (tx && *tx) {
        if (timing) {
            fprintf(stderr, "smcosim: SMCOSIM_TRACE_EXPORT needs functional mode\n");
            smc_device_destroy(dev);
            return SMC_ERR_UNSUPPORTED;
        }
        if (!(dev->texport = trace_export_open(tx, err, sizeof err))) {
            fprintf(stderr, "smcosim: trace export: %s\n", err);
            smc_device_destroy(dev);
            return SMC_ERR_UNSUPPORTED;
        }
    }
    *out = dev;
    return SMC_OK;
}

timing_gpu *smc_device_timing_model(smc_device *dev) { return dev ? dev->tm : NULL; }

const timing_stats *smc_device_timing(const smc_device *dev, uint32_t i) {
    return dev && i < dev->ntstats ? &dev->tstats[i] : NULL;
}

/* ---- lockstep mismatch waveform (timing mode, --sched lockstep) ----------
 * A launch that stopped on a lockstep mismatch is re-run from a snapshot of
 * device memory (csrc/timing/timing_lockstep.c), tracing the mismatching SM
 * for W cycles before the mismatch (W: SMCOSIM_MISMATCH_WINDOW, default 200)
 * into JSON.mismatch.fst (or smcosim.mismatch.fst without --json) with its
 * .gtkw; the launch's message names it. */
static uint64_t env_window(void) {
    const char *e = getenv("SMCOSIM_MISMATCH_WINDOW");
    char *end;
    unsigned long long v = e && *e ? strtoull(e, &end, 10) : 200;
    return e && *e && *end ? 200 : v;   /* checked at device creation */
}

/* Run one launch on the timing model; keeps and reports its statistics. */
static smc_status timed_launch(smc_device *dev, smc_kernel *k, emu_launch *l, const emu_launch_desc *d,
                               smc_dim3 grid, smc_dim3 block, uint32_t dyn_smem, uint32_t hint,
                               uint64_t *cycles) {
    const smc_kernel_info *in = &k->info;
    timing_kernel_req req = {
        (uint32_t)((uint64_t)block.x * block.y * block.z), in->regs_per_thread,
        in->static_smem_bytes + dyn_smem, emu_launch_num_ctas(l), hint, 0, 0,
    };
    /* HAWS: the hint pass (or the hint file) over this kernel, validated,
     * installed once per kernel and options (hints/haws_pass.h); the
     * renaming pool counts against occupancy unless haws.rename_occupancy=0 */
    if (dev->cfg.haws != GPU_HAWS_OFF) {
        haws_opts ho;
        char herr[512];
        haws_opts_from_config(&ho, &dev->cfg);
        if (haws_prepare_kernel(k->ek, &ho, herr, sizeof herr) != 0)
            return fail(dev, SMC_ERR_INVALID_PTX, "HAWS: %s", herr);
        req.regs_per_thread_own = in->regs_per_thread;
        req.regs_per_thread_haws = emu_kernel_regs_haws(k->ek);
        if (dev->cfg.haws_rename_occupancy)
            req.regs_per_thread = req.regs_per_thread_haws;
    }
    if (dev->ntstats == dev->tstats_cap) {
        uint32_t nc = dev->tstats_cap ? dev->tstats_cap * 2 : 8;
        timing_stats *n = realloc(dev->tstats, nc * sizeof *n);
        if (!n) return fail(dev, SMC_ERR_OUT_OF_MEMORY, "out of host memory");
        dev->tstats = n; dev->tstats_cap = nc;
    }
    timing_stats *ts = &dev->tstats[dev->ntstats];
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &sa, &old);
    char msg[1024];
    timing_snapshot *snap = NULL;
    if (dev->cfg.backend == GPU_SCHED_LOCKSTEP && env_window() > 0 &&
        !(snap = timing_snapshot_take(&dev->mem)))
        fprintf(stderr, "smcosim: no memory snapshot for a mismatch waveform (out of host memory)\n");
    smc_status st = timing_run(dev->tm, k->ek, l, in->name, &req, grid, block, &interrupted, ts, msg, sizeof msg);
    sigaction(SIGINT, &old, NULL);
    uint32_t mm_sm; uint64_t mm_cycle;
    if (st != SMC_OK && snap && timing_lockstep_mismatch(dev->tm, &mm_sm, &mm_cycle)) {
        char path[1024], note[2600];
        snprintf(path, sizeof path, "%s.mismatch.fst", dev->json_path ? dev->json_path : "smcosim");
        timing_mismatch_rerun(&dev->cfg, &dev->mem, snap, k->ek, d, in->name, &req, grid, block,
                              mm_sm, mm_cycle, env_window(), path, note, sizeof note);
        snprintf(dev->msg, sizeof dev->msg, "%s", msg);
        size_t used = strlen(dev->msg);
        snprintf(dev->msg + used, sizeof dev->msg - used, "%.*s", (int)(sizeof dev->msg - used - 1), note);
        snprintf(msg, sizeof msg, "%s", dev->msg);
        fprintf(stderr, "smcosim: %s\n", msg);
    }
    timing_snapshot_free(snap);
    dev->ntstats++;
    *cycles = ts->cycles;
    if (dev->print_stats) timing_stats_print(ts, stderr);
    if (dev->json_path) {
        char err[512];
        if (timing_stats_write_json(dev->tstats, dev->ntstats, dev->json_path, err, sizeof err) != 0)
            fprintf(stderr, "smcosim: statistics: %s\n", err);
    }
    if (st != SMC_OK && msg[0]) snprintf(dev->msg, sizeof dev->msg, "%s", msg);
    if (st == SMC_ERR_INTERRUPTED) {
        /* statistics are out: now let the signal do what it would have done */
        fprintf(stderr, "smcosim: %s\n", msg);
        raise(SIGINT);
    }
    return st;
}

static void module_free(smc_module *m);

void smc_device_destroy(smc_device *dev) {
    if (!dev) return;
    while (dev->mods) { smc_module *n = dev->mods->next; module_free(dev->mods); dev->mods = n; }
    devmem_fini(&dev->mem);
    free(dev->stats);
    trace_export_close(dev->texport);
    char err[512];
    int wr = timing_destroy(dev->tm, err, sizeof err);
    if (wr < 0)
        fprintf(stderr, "smcosim: waveform: %s\n", err);
    else if (wr == 0 && dev->fst_path && dev->ntstats > 0)
        fprintf(stderr, "smcosim: waveform: no launch reached cycle %llu of --fst-window; "
                "%s not written\n", (unsigned long long)dev->fst_from, dev->fst_path);
    else if (wr > 0 && dev->fst_path)
        fprintf(stderr, "smcosim: waveform written to %s (GTKWave: gtkwave %s.gtkw)\n",
                dev->fst_path, dev->fst_path);
    free(dev->fst_path);
    for (uint32_t i = 0; i < dev->ntstats; i++) timing_stats_free(&dev->tstats[i]);
    free(dev->tstats);
    free(dev->json_path);
    free(dev);
}

const char *smc_last_message(const smc_device *dev) { return dev ? dev->msg : ""; }

/* No device: all zero, so that a caller never reads uninitialised fields. */
void smc_device_get_props(const smc_device *dev, smc_device_props *out) {
    if (!out) return;
    if (dev) *out = dev->props;
    else memset(out, 0, sizeof *out);
}

/* ---- modules ------------------------------------------------------------------ */
static void module_free(smc_module *m) {
    if (!m) return;
    for (uint32_t i = 0; i < m->nkernels; i++) emu_kernel_destroy(m->kernels[i].ek);
    if (m->pm) for (uint32_t i = 0; i < m->pm->nvars; i++) if (m->var_addr[i]) devmem_free(&m->dev->mem, m->var_addr[i]);
    free(m->kernels); free(m->var_addr);
    ptx_module_free(m->pm);
    free(m);
}

static uint64_t var_addr_cb(void *ctx, const ptx_var *v) {
    smc_module *m = ctx;
    return m->var_addr[v - m->pm->vars];
}

smc_status smc_module_load_ptx(smc_device *dev, const char *name, const char *text, size_t len, smc_module **out) {
    if (!dev || !text || !out) return fail(dev, SMC_ERR_INVALID_VALUE, "smc_module_load_ptx: NULL argument");
    *out = NULL;
    if (!name) name = "<ptx>";
    char err[512];
    ptx_module *pm = ptx_parse(name, text, len, err, sizeof err);
    if (!pm) return fail(dev, SMC_ERR_INVALID_PTX, "%s", err);
    smc_module *m = calloc(1, sizeof *m);
    if (!m) { ptx_module_free(pm); return fail(dev, SMC_ERR_OUT_OF_MEMORY, "out of host memory"); }
    m->dev = dev; m->pm = pm;
    m->var_addr = calloc(pm->nvars + 1, sizeof *m->var_addr);
    uint32_t nent = 0;
    for (uint32_t i = 0; i < pm->nfuncs; i++) nent += pm->funcs[i].is_entry && pm->funcs[i].has_body;
    m->kernels = calloc(nent + 1, sizeof *m->kernels);
    if (!m->var_addr || !m->kernels) { module_free(m); return fail(dev, SMC_ERR_OUT_OF_MEMORY, "out of host memory"); }
    /* module-scope .global/.const variables live in device memory */
    for (uint32_t i = 0; i < pm->nvars; i++) {
        const ptx_var *v = &pm->vars[i];
        if (v->space != SP_GLOBAL && v->space != SP_CONST) continue;
        uint64_t a = devmem_alloc_bytes(&dev->mem, v->size ? v->size : 1, DM_MODULE);
        if (!a) { module_free(m); return fail(dev, SMC_ERR_OUT_OF_MEMORY, "%s: no device memory for variable '%s'", name, v->name); }
        m->var_addr[i] = a;
    }
    /* initial values once every variable has its address: initializers may
     * hold addresses of variables and functions (vtables, pointer tables) */
    for (uint32_t i = 0; i < pm->nvars; i++) {
        const ptx_var *v = &pm->vars[i];
        if (!m->var_addr[i] || !v->has_init) continue;
        if (ptx_var_init(pm, v, var_addr_cb, m, (uint8_t *)(uintptr_t)m->var_addr[i], err, sizeof err) != 0) {
            module_free(m);
            return fail(dev, SMC_ERR_INVALID_PTX, "%s", err);
        }
    }
    for (uint32_t i = 0; i < pm->nfuncs; i++) {
        const ptx_func *f = &pm->funcs[i];
        if (!f->is_entry || !f->has_body) continue;
        ptx_kernel *k = ptx_link(pm, f, var_addr_cb, m, err, sizeof err);
        if (!k) { module_free(m); return fail(dev, SMC_ERR_INVALID_PTX, "%s", err); }
        smc_kernel *sk = &m->kernels[m->nkernels];
        sk->ek = emu_kernel_create(k);
        if (!sk->ek) { ptx_kernel_free(k); module_free(m); return fail(dev, SMC_ERR_OUT_OF_MEMORY, "out of host memory"); }
        m->nkernels++;
        sk->mod = m;
        smc_kernel_info *in = &sk->info;
        in->name = k->name;
        in->regs_per_thread = k->regs_per_thread;
        in->pred_regs = k->pred_regs;
        in->static_smem_bytes = k->static_smem;
        in->local_bytes = k->local_bytes;
        in->const_bytes = k->const_bytes;
        in->param_bytes = k->param_bytes;
        in->num_params = k->nparams;
        in->max_threads_per_block = k->maxntid[0] ? k->maxntid[0] * k->maxntid[1] * k->maxntid[2] : 0;
    }
    m->next = dev->mods;
    dev->mods = m;
    *out = m;
    return SMC_OK;
}

smc_status smc_module_load_ptx_file(smc_device *dev, const char *path, smc_module **out) {
    if (!dev || !path || !out) return fail(dev, SMC_ERR_INVALID_VALUE, "smc_module_load_ptx_file: NULL argument");
    FILE *f = fopen(path, "rb");
    if (!f) return fail(dev, SMC_ERR_NOT_FOUND, "%s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
        if (n == cap) {
            if (cap > (1u << 30)) { free(buf); buf = NULL; break; }
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb; cap *= 2;
        }
    }
    bool err = ferror(f);
    fclose(f);
    if (!buf) return fail(dev, SMC_ERR_OUT_OF_MEMORY, "%s: file too large", path);
    if (err) { free(buf); return fail(dev, SMC_ERR_INVALID_VALUE, "%s: read error", path); }
    smc_status st = smc_module_load_ptx(dev, path, buf, n, out);
    free(buf);
    return st;
}

void smc_module_unload(smc_module *mod) {
    if (!mod) return;
    smc_device *dev = mod->dev;
    for (smc_module **p = &dev->mods; *p; p = &(*p)->next)
        if (*p == mod) { *p = mod->next; break; }
    module_free(mod);
}

uint32_t smc_module_kernel_count(const smc_module *mod) { return mod ? mod->nkernels : 0; }
smc_kernel *smc_module_kernel_at(smc_module *mod, uint32_t i) {
    return mod && i < mod->nkernels ? &mod->kernels[i] : NULL;
}

smc_status smc_module_get_kernel(smc_module *mod, const char *name, smc_kernel **out) {
    if (!mod || !name || !out) return SMC_ERR_INVALID_VALUE;
    for (uint32_t i = 0; i < mod->nkernels; i++)
        if (!strcmp(mod->kernels[i].info.name, name)) { *out = &mod->kernels[i]; return SMC_OK; }
    *out = NULL;
    return fail(mod->dev, SMC_ERR_NOT_FOUND, "kernel '%s' not found in module %s", name, mod->pm->name);
}

smc_status smc_module_get_global(smc_module *mod, const char *name, uint64_t *dptr, size_t *bytes) {
    if (!mod || !name) return SMC_ERR_INVALID_VALUE;
    for (uint32_t i = 0; i < mod->pm->nvars; i++) {
        const ptx_var *v = &mod->pm->vars[i];
        if (strcmp(v->name, name) || !mod->var_addr[i]) continue;
        if (dptr) *dptr = mod->var_addr[i];
        if (bytes) *bytes = v->size;
        return SMC_OK;
    }
    return fail(mod->dev, SMC_ERR_NOT_FOUND, "global '%s' not found in module %s", name, mod->pm->name);
}

/* No kernel: all zero, so that a caller never reads uninitialised fields. */
void smc_kernel_get_info(const smc_kernel *k, smc_kernel_info *out) {
    if (!out) return;
    if (k) *out = k->info;
    else memset(out, 0, sizeof *out);
}

void smc_device_set_heap_limit(smc_device *dev, uint64_t bytes) { if (dev) dev->mem.heap_limit = bytes; }
uint64_t smc_device_bytes_in_use(const smc_device *dev) { return dev ? dev->mem.bytes_in_use : 0; }

uint32_t smc_kernel_occupancy(const smc_device *dev, const smc_kernel *k,
                              uint32_t block_threads, uint32_t dyn_smem) {
    if (!dev || !k || block_threads == 0) return 0;
    if (k->info.max_threads_per_block && block_threads > k->info.max_threads_per_block) return 0;
    timing_kernel_req req = { .threads_per_cta = block_threads,
                              .regs_per_thread = k->info.regs_per_thread,
                              .smem_per_cta = k->info.static_smem_bytes + dyn_smem,
                              .num_ctas = 1 };
    timing_occupancy occ;
    char why[256];
    if (timing_occupancy_compute(&dev->cfg, &req, &occ, why, sizeof why) != SMC_OK) return 0;
    return occ.ctas_per_sm;
}

smc_status smc_kernel_param(const smc_kernel *k, uint32_t i, uint32_t *offset, uint32_t *size) {
    if (!k) return SMC_ERR_INVALID_VALUE;
    const ptx_kernel *pk = emu_kernel_ptx(k->ek);
    if (i >= pk->nparams) return SMC_ERR_INVALID_VALUE;
    if (offset) *offset = pk->params[i].offset;
    if (size) *size = pk->params[i].size;
    return SMC_OK;
}

const emu_kernel *smc_kernel_emu(const smc_kernel *k) { return k ? k->ek : NULL; }
devmem *smc_device_mem(smc_device *dev) { return dev ? &dev->mem : NULL; }

/* ---- memory ---------------------------------------------------------------- */
smc_status smc_malloc(smc_device *dev, size_t bytes, smc_mem_kind kind, uint64_t *dptr) {
    if (!dev || !dptr || (unsigned)kind > SMC_MEM_HOST) return fail(dev, SMC_ERR_INVALID_VALUE, "smc_malloc: bad argument");
    *dptr = 0;
    smc_status st = sticky(dev);
    if (st) return st;
    if (bytes == 0) return SMC_OK;     /* like cudaMalloc(0): a null pointer */
    if (bytes > dev->props.global_mem_bytes - dev->mem.bytes_in_use || bytes > dev->props.global_mem_bytes)
        return fail(dev, SMC_ERR_OUT_OF_MEMORY, "smc_malloc: %zu bytes exceed the free device memory", bytes);
    uint64_t a = devmem_alloc_bytes(&dev->mem, bytes, (uint8_t)kind);
    if (!a) return fail(dev, SMC_ERR_OUT_OF_MEMORY, "smc_malloc: cannot allocate %zu bytes", bytes);
    *dptr = a;
    return SMC_OK;
}

smc_status smc_free(smc_device *dev, uint64_t dptr) {
    if (!dev) return SMC_ERR_INVALID_VALUE;
    if (dptr == 0) return SMC_OK;
    int32_t i = devmem_find(&dev->mem, dptr, 1);
    if (i < 0 || dev->mem.a[i].start != dptr || dev->mem.a[i].kind == DM_MODULE)
        return fail(dev, SMC_ERR_INVALID_DEVICE_PTR, "smc_free: 0x%llx is not the start of an allocation", (unsigned long long)dptr);
    devmem_free(&dev->mem, dptr);
    return SMC_OK;
}

void *smc_host_ptr(smc_device *dev, uint64_t dptr, size_t bytes) {
    if (!dev) return NULL;
    if (devmem_find(&dev->mem, dptr, bytes ? bytes : 1) < 0) return NULL;
    return (void *)(uintptr_t)dptr;
}

uint64_t smc_device_addr_of(smc_device *dev, const void *host) {
    if (!dev || !host) return 0;
    uint64_t a = (uint64_t)(uintptr_t)host;
    return devmem_find(&dev->mem, a, 1) >= 0 ? a : 0;
}

static smc_status check_range(smc_device *dev, uint64_t a, size_t n, const char *what) {
    if (n == 0) return SMC_OK;
    if (devmem_find(&dev->mem, a, n) < 0)
        return fail(dev, SMC_ERR_INVALID_DEVICE_PTR, "%s: [0x%llx, +%zu) is not inside one device allocation",
                    what, (unsigned long long)a, n);
    return SMC_OK;
}

smc_status smc_memcpy_htod(smc_device *dev, uint64_t dst, const void *src, size_t n) {
    if (!dev || (!src && n)) return fail(dev, SMC_ERR_INVALID_VALUE, "smc_memcpy_htod: NULL argument");
    smc_status st = sticky(dev);
    if (st || (st = check_range(dev, dst, n, "smc_memcpy_htod"))) return st;
    if (n) memmove((void *)(uintptr_t)dst, src, n);
    if (dev->texport) trace_export_memcpy(dev->texport, dst, n);
    return SMC_OK;
}

smc_status smc_memcpy_dtoh(smc_device *dev, void *dst, uint64_t src, size_t n) {
    if (!dev || (!dst && n)) return fail(dev, SMC_ERR_INVALID_VALUE, "smc_memcpy_dtoh: NULL argument");
    smc_status st = sticky(dev);
    if (st || (st = check_range(dev, src, n, "smc_memcpy_dtoh"))) return st;
    if (n) memmove(dst, (void *)(uintptr_t)src, n);
    return SMC_OK;
}

smc_status smc_memcpy_dtod(smc_device *dev, uint64_t dst, uint64_t src, size_t n) {
    if (!dev) return SMC_ERR_INVALID_VALUE;
    smc_status st = sticky(dev);
    if (st || (st = check_range(dev, src, n, "smc_memcpy_dtod")) || (st = check_range(dev, dst, n, "smc_memcpy_dtod")))
        return st;
    if (n) memmove((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
    return SMC_OK;
}

smc_status smc_memset(smc_device *dev, uint64_t dst, int value, size_t n) {
    if (!dev) return SMC_ERR_INVALID_VALUE;
    smc_status st = sticky(dev);
    if (st || (st = check_range(dev, dst, n, "smc_memset"))) return st;
    if (n) memset((void *)(uintptr_t)dst, value, n);
    return SMC_OK;
}

/* ---- launch ------------------------------------------------------------------ */
smc_status smc_launch(smc_device *dev, smc_kernel *k, smc_dim3 grid, smc_dim3 block,
                      uint32_t dyn_smem_bytes, smc_stream stream, const void *params,
                      size_t param_bytes, const smc_launch_ext *ext) {
    (void)stream;
    if (!dev || !k) return fail(dev, SMC_ERR_INVALID_VALUE, "smc_launch: NULL device or kernel");
    smc_status st = sticky(dev);
    if (st) return st;
    const smc_device_props *p = &dev->props;
    const smc_kernel_info *in = &k->info;
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z ||
        grid.x > p->max_grid_dim[0] || grid.y > p->max_grid_dim[1] || grid.z > p->max_grid_dim[2] ||
        block.x > p->max_block_dim[0] || block.y > p->max_block_dim[1] || block.z > p->max_block_dim[2])
        return fail(dev, SMC_ERR_INVALID_CONFIGURATION, "smc_launch %s: bad grid (%u,%u,%u) or block (%u,%u,%u)",
                    in->name, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (threads > p->max_threads_per_block)
        return fail(dev, SMC_ERR_INVALID_CONFIGURATION, "smc_launch %s: %llu threads per block exceed %u",
                    in->name, (unsigned long long)threads, p->max_threads_per_block);
    if ((uint64_t)grid.x * grid.y * grid.z > 0xFFFFFFFFull)
        return fail(dev, SMC_ERR_INVALID_CONFIGURATION, "smc_launch %s: grid too large", in->name);
    const ptx_kernel *pk = emu_kernel_ptx(k->ek);
    if (pk->reqntid[0] && (block.x != pk->reqntid[0] || block.y != pk->reqntid[1] || block.z != pk->reqntid[2]))
        return fail(dev, SMC_ERR_INVALID_CONFIGURATION, "smc_launch %s: block must be (%u,%u,%u) (.reqntid)",
                    in->name, pk->reqntid[0], pk->reqntid[1], pk->reqntid[2]);
    if (in->max_threads_per_block && threads > in->max_threads_per_block)
        return fail(dev, SMC_ERR_LAUNCH_OUT_OF_RESOURCES, "smc_launch %s: %llu threads exceed .maxntid %u",
                    in->name, (unsigned long long)threads, in->max_threads_per_block);
    if ((uint64_t)in->static_smem_bytes + dyn_smem_bytes > p->smem_per_block)
        return fail(dev, SMC_ERR_LAUNCH_OUT_OF_RESOURCES, "smc_launch %s: %u static + %u dynamic shared bytes exceed %u",
                    in->name, in->static_smem_bytes, dyn_smem_bytes, p->smem_per_block);
    uint64_t warps = (threads + 31) / 32;
    if ((uint64_t)in->regs_per_thread * warps * 32 > p->max_regs_per_block)
        return fail(dev, SMC_ERR_LAUNCH_OUT_OF_RESOURCES, "smc_launch %s: %u registers x %llu threads exceed %u",
                    in->name, in->regs_per_thread, (unsigned long long)(warps * 32), p->max_regs_per_block);
    if (param_bytes < in->param_bytes || (in->param_bytes && !params))
        return fail(dev, SMC_ERR_INVALID_VALUE, "smc_launch %s: %zu parameter bytes given, kernel takes %u",
                    in->name, param_bytes, in->param_bytes);
    /* locality hint (seed 000 Table 6.1): the launch's own, else the device's
     * per-kernel map (--locality); gpu.locality_hint may override both in
     * the timing model (csrc/timing/dispatch.c) */
    uint32_t hint = ext ? ext->locality_hint : 0;
    if (hint > 3)
        return fail(dev, SMC_ERR_INVALID_VALUE, "smc_launch %s: locality hint %u is not one of 0..3 "
                    "(seed 000 Table 6.1)", in->name, hint);
    _Static_assert(LOCALITY_AUTO == TIMING_LOCALITY_AUTO, "--locality KERNEL=auto reaches the timing model");
    if (!hint) locality_map_lookup(&dev->loc, in->name, &hint);
    uint64_t coop_ws = 0;
    if (ext && ext->cooperative) {
        uint64_t nctas = (uint64_t)grid.x * grid.y * grid.z;
        uint64_t fit = (uint64_t)smc_kernel_occupancy(dev, k, (uint32_t)threads, dyn_smem_bytes) * p->num_sms;
        if (nctas > fit)
            return fail(dev, SMC_ERR_COOPERATIVE_TOO_LARGE, "smc_launch %s: cooperative grid of %llu CTAs "
                        "exceeds the %llu that fit co-resident (%u SMs)", in->name,
                        (unsigned long long)nctas, (unsigned long long)fit, p->num_sms);
        /* the grid barrier of cooperative_groups: nvcc's code reads the
         * address from %envreg1:%envreg2 and counts arrivals at +4 */
        coop_ws = devmem_alloc_bytes(&dev->mem, 8, SMC_MEM_DEVICE);
        if (!coop_ws) return fail(dev, SMC_ERR_OUT_OF_MEMORY, "smc_launch %s: no memory for the grid barrier", in->name);
        memset((void *)(uintptr_t)coop_ws, 0, 8);
    }
    emu_launch_desc d = {
        .kernel = k->ek, .grid = grid, .block = block, .dyn_smem = dyn_smem_bytes,
        .params = params, .param_bytes = (uint32_t)(param_bytes < in->param_bytes ? param_bytes : in->param_bytes),
        .mem = &dev->mem, .num_sms = p->num_sms, .max_warps_per_sm = p->max_warps_per_sm,
        /* smc_device_opts.watchdog (SMCOSIM_WATCHDOG under the runtime), when
         * set, is the same budget as gpu.watchdog_insts and wins over it */
        .watchdog = dev->opts.watchdog ? dev->opts.watchdog : dev->cfg.watchdog_insts,
    };
    const char *vr = getenv("SMC_VERIFY_REGALLOC");
    d.verify_regalloc = vr && vr[0] == '1';
    if (coop_ws) {
        d.cooperative = true;
        d.envreg[1] = (uint32_t)(coop_ws >> 32);
        d.envreg[2] = (uint32_t)coop_ws;
    }
    if (dev->tm) {
        timing_occupancy occ;
        timing_kernel_req req = { (uint32_t)threads, in->regs_per_thread, in->static_smem_bytes + dyn_smem_bytes,
                                  (uint64_t)grid.x * grid.y * grid.z, hint, 0, 0 };
        char why[256];
        st = timing_occupancy_compute(&dev->cfg, &req, &occ, why, sizeof why);
        if (st != SMC_OK) {
            if (coop_ws) devmem_free(&dev->mem, coop_ws);
            return fail(dev, st, "smc_launch %s: %s", in->name, why);
        }
        d.clock = timing_clock;
        d.clock_ctx = dev->tm;
    }
    emu_launch *l = emu_launch_create(&d);
    if (!l) {
        if (coop_ws) devmem_free(&dev->mem, coop_ws);
        return fail(dev, SMC_ERR_OUT_OF_MEMORY, "smc_launch: out of host memory");
    }
    uint64_t cycles = 0;
    if (dev->tm)
        st = timed_launch(dev, k, l, &d, grid, block, dyn_smem_bytes, hint, &cycles);
    else if (dev->texport)
        st = trace_export_launch(dev->texport, l, k->ek, in->name, grid, block,
                                 in->static_smem_bytes + dyn_smem_bytes, in->regs_per_thread,
                                 dev->msg, sizeof dev->msg);
    else
        st = emu_run_functional(l);
    if (dev->nstats >= dev->stats_cap) {
        uint32_t nc = dev->stats_cap ? dev->stats_cap * 2 : 16;
        smc_launch_stats *ns = realloc(dev->stats, nc * sizeof *ns);
        if (ns) { dev->stats = ns; dev->stats_cap = nc; }
    }
    if (dev->nstats < dev->stats_cap) {
        smc_launch_stats *s = &dev->stats[dev->nstats++];
        memset(s, 0, sizeof *s);
        snprintf(s->kernel, sizeof s->kernel, "%s", in->name);
        s->warp_insts = emu_launch_warp_insts(l);
        s->thread_insts = emu_launch_thread_insts(l);
        s->cycles = cycles;
    }
    if (st != SMC_OK) {
        dev->fault = *emu_launch_fault(l);
        if (dev->fault.status == SMC_OK) {      /* timing model: hang, interruption, back end */
            dev->fault.status = st;
            snprintf(dev->fault.kernel, sizeof dev->fault.kernel, "%s", in->name);
            snprintf(dev->fault.message, sizeof dev->fault.message, "%.255s", dev->msg);
        }
        snprintf(dev->msg, sizeof dev->msg, "%s", dev->fault.message);
    }
    emu_launch_destroy(l);
    if (coop_ws) devmem_free(&dev->mem, coop_ws);
    return st;
}

/* ---- faults and statistics ---------------------------------------------- */
void smc_device_fault(const smc_device *dev, smc_fault *out) {
    if (!out) return;
    if (!dev) { memset(out, 0, sizeof *out); return; }
    *out = dev->fault;
}

void smc_device_reset(smc_device *dev) {
    if (!dev) return;
    memset(&dev->fault, 0, sizeof dev->fault);
    /* free user allocations; module variables stay */
    for (uint32_t i = dev->mem.n; i-- > 0;)
        if (dev->mem.a[i].kind != DM_MODULE) devmem_free(&dev->mem, dev->mem.a[i].start);
    dev->msg[0] = 0;
}

uint32_t smc_launch_count(const smc_device *dev) { return dev ? dev->nstats : 0; }

smc_status smc_launch_get_stats(const smc_device *dev, uint32_t i, smc_launch_stats *out) {
    if (!dev || !out || i >= dev->nstats) return SMC_ERR_INVALID_VALUE;
    *out = dev->stats[i];
    return SMC_OK;
}
