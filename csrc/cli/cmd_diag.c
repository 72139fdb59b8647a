/*
 * cmd_diag.c — `smcosim diag`: GPUDIAG (seed 002_12a24766197dacea, Table 3.1)
 * run on the simulator itself. The seven microbenchmarks of
 * bench/microbench/gpudiag.c run in dependency order through smcosim's device
 * API on the committed PTX of the generated kernels (no nvcc needed); the
 * report sets every recovered parameter beside the configured value, as
 * Markdown on stdout plus JSON, and gnuplot plots of Figs. 4.2-4.4.
 * docs/gpudiag.md.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "smcosim.h"
#include "timing.h"
#include "../ptx/ptx.h"
#include "../../bench/microbench/gpudiag.h"

#define DIAG_USAGE \
    "usage: smcosim diag [--config PRESET|FILE[,...]] [--set key=value]... [--policy P]\n" \
    "                    [--sched c|rtl|lockstep] [--quick] [--json FILE] [--plots DIR]\n" \
    "                    [--ptx FILE] [--check]\n" \
    "  Runs the GPUDIAG microbenchmarks (seed 002 Table 3.1) on the timing model and\n" \
    "  prints each recovered parameter beside the configured one (Markdown).\n" \
    "  --quick        reduced sweeps (what make test runs)\n" \
    "  --json FILE    every measurement as JSON\n" \
    "  --plots DIR    gnuplot data, script and (when gnuplot exists) PNGs of Figs. 4.2-4.4\n" \
    "  --ptx FILE     the kernels (default bench/microbench/gd_kernels.ptx of the\n" \
    "                 source tree this smcosim was built in, else of the current directory)\n" \
    "  --check        exit 1 unless every compared parameter is recovered exactly\n" \
    "  --no-model     skip the analytical model's check against the cycle model\n"

#define DIAG_OUT_WORDS (1u << 20)
/* The watchdog is GPUDIAG's deadlock detector on the simulator (docs/gpudiag.md):
 * warp-instructions one warp executes while no warp exits, no barrier
 * completes and no CTA starts. A polling warp of Fig. 3.4 executes about 40
 * per poll (with its back-off). Measured over the 516 launches of a quick
 * run that finish (kepler-k20x): no warp executed more than 337 between two
 * progress events (gd_policy's %clock reads; the functional-unit kernels
 * 189), and no semaphore wait more than 18 after the last CTA started. So
 * 1000 is a deadlock after about 25 polls, three times the longest warp
 * that finishes. Each deadlocked launch runs every resident block's polling
 * warp to this count, so it sets most of a run's time (4000 before: the
 * quick run 176 s, now 54 s, with the same results). (A cycle budget would
 * also stop the long functional-unit kernels, which have no progress event
 * until their warps exit.) */
#define DIAG_WATCHDOG_INSTS 1000

typedef struct diag_be {
    smc_device *dev;
    smc_module *mod;
    uint64_t out, sync;
} diag_be;

static int diag_alloc(diag_be *d)
{
    return smc_malloc(d->dev, DIAG_OUT_WORDS * sizeof(uint64_t), SMC_MEM_DEVICE, &d->out) != SMC_OK ||
           smc_malloc(d->dev, 64, SMC_MEM_DEVICE, &d->sync) != SMC_OK;
}

static enum gd_rc diag_launch(void *ctx, const char *name, uint32_t grid, uint32_t block,
                              uint32_t smem, uint32_t nblocks, uint32_t arg, uint64_t timeout,
                              uint64_t *host_out, size_t nout)
{
    diag_be *d = ctx;
    smc_kernel *k;
    if (smc_module_get_kernel(d->mod, name, &k) != SMC_OK) {
        fprintf(stderr, "smcosim diag: kernel %s not in the PTX\n", name);
        return GD_FAILED;
    }
    if (smc_memset(d->dev, d->sync, 0, 64) != SMC_OK ||
        smc_memset(d->dev, d->out, 0, nout * sizeof(uint64_t)) != SMC_OK)
        return GD_FAILED;
    /* (u64 *out, unsigned *sync, unsigned nblocks, u64 timeout, unsigned arg) */
    unsigned char params[64];
    memset(params, 0, sizeof params);
    const void *vals[5] = { &d->out, &d->sync, &nblocks, &timeout, &arg };
    for (uint32_t i = 0; i < 5; i++) {
        uint32_t off, sz;
        if (smc_kernel_param(k, i, &off, &sz) != SMC_OK || off + sz > sizeof params) return GD_FAILED;
        memcpy(params + off, vals[i], sz);
    }
    smc_kernel_info info;
    smc_kernel_get_info(k, &info);
    smc_status s = smc_launch(d->dev, k, (smc_dim3){ grid, 1, 1 }, (smc_dim3){ block, 1, 1 }, smem, 0,
                              params, info.param_bytes, NULL);
    switch (s) {
    case SMC_OK: break;
    case SMC_ERR_INVALID_CONFIGURATION:
    case SMC_ERR_LAUNCH_OUT_OF_RESOURCES:
    case SMC_ERR_INVALID_VALUE:
        return GD_REJECTED;
    case SMC_ERR_LAUNCH_TIMEOUT:
        /* the watchdog saw a deadlock: sticky, as on a GPU; reset */
        smc_device_reset(d->dev);
        if (diag_alloc(d)) return GD_FAILED;
        return GD_HUNG;
    default:
        fprintf(stderr, "smcosim diag: %s: %s\n", name, smc_last_message(d->dev));
        return GD_FAILED;
    }
    if (smc_memcpy_dtoh(d->dev, host_out, d->out, nout * sizeof(uint64_t)) != SMC_OK) return GD_FAILED;
    return GD_OK;
}

static uint64_t diag_last_cycles(void *ctx)
{
    diag_be *d = ctx;
    smc_launch_stats st;
    uint32_t n = smc_launch_count(d->dev);
    return n && smc_launch_get_stats(d->dev, n - 1, &st) == SMC_OK ? st.cycles : 0;
}

static int diag_regs(void *ctx, const char *name, uint32_t *regs)
{
    diag_be *d = ctx;
    smc_kernel *k;
    if (smc_module_get_kernel(d->mod, name, &k) != SMC_OK) return -1;
    smc_kernel_info info;
    smc_kernel_get_info(k, &info);
    *regs = info.regs_per_thread;
    return 0;
}

/* ---- the report ------------------------------------------------------------ */

typedef struct row { const char *name, *test; double got, want; int compare; const char *note; double tol; } row;

static uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* Throughput of a unit kind the configuration implies (docs/gpudiag.md):
 * one issue per scheduler per cycle, the units' initiation interval, and the
 * writeback ports. */
static double want_thrput(const gpu_config *c, unsigned kind, unsigned ii)
{
    const gpu_unit_config *u = &c->unit[kind];
    double units = (double)(c->num_schedulers * u->private_units + u->shared_units) / ii;
    double t = c->num_schedulers;
    if (units < t) t = units;
    if (c->wb_ports < t) t = c->wb_ports;
    return t;
}

static int print_report(const gd_result *r, const gpu_config *c, const char *cfgname, FILE *f)
{
    static const unsigned kinds[4] = { GPU_UNIT_SP, GPU_UNIT_INT, GPU_UNIT_DPU, GPU_UNIT_SFU };
    /* the opcode each fu kernel chains (bench/microbench/gen_kernels.py) */
    static const unsigned ops[4][2] = { { OP_ADD, GPU_OPT_FP32 }, { OP_MUL, GPU_OPT_INT },
                                        { OP_ADD, GPU_OPT_FP64 }, { OP_SIN, GPU_OPT_FP32 } };
    row rows[64];
    int n = 0, bad = 0;
    /* a block that does not fit an SM does not launch either (Eq. 3.3 = 0) */
    uint32_t smem_fit = umin(c->max_smem_per_block, c->smem_per_sm) / c->smem_alloc_unit * c->smem_alloc_unit;
    rows[n++] = (row){ "L(T/B) threads per block", "kernel limits", r->l_tb, c->max_threads_per_block, 1, "block.max_threads", 0 };
    rows[n++] = (row){ "L(T/G) blocks per grid", "kernel limits", (double)r->l_tg_blocks, 2147483647.0, 0,
                       r->l_tg_capped ? "searched up to the cap only" : "grid limit of the device API", 0 };
    rows[n++] = (row){ "L(S/B) bytes", "kernel limits", r->l_sb, smem_fit, 1, "min(block.max_smem, sm.smem), in units of sm.smem_alloc_unit", 0 };
    rows[n++] = (row){ "L(R/T) registers per thread", "kernel limits", r->l_rt, c->max_regs_per_thread, !r->l_rt_capped,
                       r->l_rt_capped ? "every kernel of the family launched" : "thread.max_regs", 0 };
    rows[n++] = (row){ "L(R/B) registers per block", "kernel limits", r->l_rb, umin(c->max_regs_per_block, c->regs_per_sm), 1,
                       "min(block.max_regs, sm.regs): a block that does not fit an SM does not launch", 0 };
    for (int i = 0; i < 4; i++) {
        const gd_fu *fu = &r->fu[i];
        static char nm[4][2][48];
        snprintf(nm[i][0], sizeof nm[i][0], "%s latency (P_1, ILP 1)", fu->op);
        snprintf(nm[i][1], sizeof nm[i][1], "%s throughput (Eq. 3.7)", fu->op);
        unsigned kind = kinds[i], lat = c->unit[kind].latency, ii = c->unit[kind].ii;
        if (c->opcode_latency == GPU_OPLAT_G321) {
            gpu_g321_op(c, ops[i][0], ops[i][1], &kind, &lat, &ii);
        }
        int g = c->opcode_latency == GPU_OPLAT_G321;
        rows[n++] = (row){ nm[i][0], "functional units", fu->latency, lat, 1,
                           g ? "GPGPU-Sim 3.2.1's latency of the kernel's opcode + unit.issue_stages" : "unit.*.latency", 0 };
        rows[n++] = (row){ nm[i][1], "functional units", fu->thrput, want_thrput(c, kind, ii), 1,
                           g ? "as below, with the opcode's unit and initiation interval (unit.opcode_latency = g321); to 5 %"
                             : "min(sched.num, (sched.num x private + shared) / ii, sched.wb_ports); to 5 % (docs/gpudiag.md)", 0.05 };
    }
    /* the buffered LD/ST path's three stages come first (ldst.*;
     * docs/timing-model.md, "The LD/ST path") */
    rows[n++] = (row){ "smem latency (P_1, ILP 1)", "functional units", r->fu[4].latency,
                       c->mem.smem_latency + (c->ldst_id_oc ? 3u : 0u), 1,
                       "smem.latency, + 3 with the buffered LD/ST path (ldst.id_oc > 0)", 0 };
    rows[n++] = (row){ "smem throughput (Eq. 3.7)", "functional units", r->fu[4].thrput, 0, 0, "one LD/ST unit per SM", 0 };
    rows[n++] = (row){ "n_mp", "num mp", r->n_mp, c->mem.num_sms, 1, "mem.num_sms", 0 };
    rows[n++] = (row){ "N1 block slots", "warpslot buffer", r->n1, c->max_ctas_per_sm, 1, "sm.max_ctas", 0 };
    rows[n++] = (row){ "N2 warp slots", "warpslot buffer", r->n2, umin(c->max_warps_per_sm, c->max_threads_per_sm / 32), 1,
                       "min(sm.max_warps, sm.max_threads / 32)", 0 };
    rows[n++] = (row){ "S shared memory bytes", "shmem buffer", r->S, c->smem_per_sm, 1, "sm.smem", 0 };
    rows[n++] = (row){ "s_min", "shmem buffer", r->s_min, c->smem_alloc_unit, 1, "sm.smem_alloc_unit", 0 };
    rows[n++] = (row){ "R registers", "regfile buffer", r->R, c->regs_per_sm, 1, "sm.regs", 0 };
    rows[n++] = (row){ "r_min registers per warp", "regfile buffer", r->r_min, c->reg_alloc_unit, 1, "sm.reg_alloc_unit", 0 };

    fprintf(f, "# GPUDIAG on smcosim (%s, policy %s)\n\n", cfgname, gpu_policy_name(c->policy));
    fprintf(f, "| parameter | test (Table 3.1) | recovered | configured | match | configured as |\n");
    fprintf(f, "|---|---|---:|---:|---|---|\n");
    for (int i = 0; i < n; i++) {
        const row *w = &rows[i];
        /* throughputs come from differences of finite runs: 5 % */
        int exact = w->compare ? (w->got == w->want || (w->tol && w->got > 0 && w->want > 0 &&
                                  w->got / w->want > 1 - w->tol && w->got / w->want < 1 + w->tol)) : 0;
        if (w->compare && !exact) bad++;
        fprintf(f, "| %s | %s | %.6g | %.6g | %s | %s |\n", w->name, w->test, w->got, w->want,
                w->compare ? (exact ? "yes" : "**NO**") : "-", w->note);
    }
    int pol_ok = !strcmp(r->policy, gpu_policy_name(c->policy));
    if (!pol_ok) bad++;
    fprintf(f, "| warp scheduling policy | warpsched policy | %s | %s | %s | sched.policy (%u of %u warps issued before the first finished; median gap %.0f cycles) |\n",
            r->policy, gpu_policy_name(c->policy), pol_ok ? "yes" : "**NO**", r->pol_active, r->pol_warps, r->pol_gap);
    fprintf(f, "\nfu(c) (relative period, Eq. 3.4) at c =");
    for (uint32_t cc = 1; cc <= r->fu[0].cmax; cc++) if (r->fu[0].fu[cc] > 0) fprintf(f, " %u", cc);
    fprintf(f, "\n\n| mix | P_1 (4 chains) |");
    for (uint32_t cc = 1; cc <= r->fu[0].cmax; cc++) if (r->fu[0].fu[cc] > 0) fprintf(f, " %u |", cc);
    fprintf(f, "\n|---|---:|");
    for (uint32_t cc = 1; cc <= r->fu[0].cmax; cc++) if (r->fu[0].fu[cc] > 0) fprintf(f, "---:|");
    fprintf(f, "\n");
    for (int u = 0; u < GD_NUM_FU; u++) {
        fprintf(f, "| %s | %.2f |", r->fu[u].op, r->fu[u].p1);
        for (uint32_t cc = 1; cc <= r->fu[u].cmax; cc++) if (r->fu[u].fu[cc] > 0) fprintf(f, " %.2f |", r->fu[u].fu[cc]);
        fprintf(f, "\n");
    }
    fprintf(f, "\n%u launches, %u of them deadlocked on purpose (N_slot probes). %s\n",
            r->launches, r->hangs, bad ? "MISMATCHES: see **NO** above." : "Every compared parameter recovered exactly.");
    return bad;
}

/* Eq. 3.2 against the cycle model: r and the error per mix (§4.3.3). */
static void print_model(const gd_model *m, FILE *f)
{
    fprintf(f, "\n## The analytical model (Eq. 3.2 with the measured fu(c) and N_slot) against the cycle model\n\n");
    fprintf(f, "%u launches of the generated kernels: r = %.4f, mean |error| = %.1f %%\n\n", m->n, m->r,
            100 * m->mean_abs_err);
    fprintf(f, "| mix | points | r | mean abs error | worst error (G, b) |\n|---|---:|---:|---:|---|\n");
    for (uint32_t i = 0; i < m->n;) {
        uint32_t j = i;
        double xs[GD_MODEL_MAX], ys[GD_MODEL_MAX], err = 0, worst = 0;
        uint32_t wg = 0, wb = 0;
        for (; j < m->n && !strcmp(m->p[j].op, m->p[i].op); j++) {
            xs[j - i] = m->p[j].predicted;
            ys[j - i] = m->p[j].measured;
            double e = (m->p[j].predicted - m->p[j].measured) / m->p[j].measured;
            err += e < 0 ? -e : e;
            if ((e < 0 ? -e : e) > (worst < 0 ? -worst : worst)) { worst = e; wg = m->p[j].G; wb = m->p[j].b; }
        }
        fprintf(f, "| %s | %u | %.4f | %.1f %% | %+.1f %% (%u, %u) |\n", m->p[i].op, j - i,
                gd_pearson(xs, ys, j - i), 100 * err / (j - i), 100 * worst, wg, wb);
        i = j;
    }
    fprintf(f, "\n| mix | G | b | N_slot | measured cycles | predicted | error |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (uint32_t i = 0; i < m->n; i++)
        fprintf(f, "| %s | %u | %u | %u | %.0f | %.0f | %+.1f %% |\n", m->p[i].op, m->p[i].G, m->p[i].b,
                m->p[i].nslot, m->p[i].measured, m->p[i].predicted,
                100 * (m->p[i].predicted - m->p[i].measured) / m->p[i].measured);
}

static int write_plots(const gd_result *r, const char *dir)
{
    mkdir(dir, 0777);
    if (gd_write_plot_data(r, dir)) {
        fprintf(stderr, "smcosim diag: cannot write the plot data in %s\n", dir);
        return -1;
    }
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "smcosim diag: gnuplot not found; data and script are in %s\n", dir);
        return 0;
    }
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot gpudiag.gp", dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "smcosim diag: gnuplot failed in %s\n", dir);
        return -1;
    }
    return 0;
}

int cli_diag(int argc, char **argv)
{
    const char *config = NULL, *policy = NULL, *sched = NULL, *json = NULL, *plots = NULL;
    char ptx_buf[PATH_MAX];
    const char *ptx = cli_repo_file("bench/microbench/gd_kernels.ptx", ptx_buf, sizeof ptx_buf);
    int quick = 0, check = 0, do_model = 1;
    char set[4096];
    snprintf(set, sizeof set, "gpu.watchdog_insts=%u", DIAG_WATCHDOG_INSTS);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--config") && more) config = argv[++i];
        else if (!strcmp(a, "--policy") && more) policy = argv[++i];
        else if (!strcmp(a, "--sched") && more) sched = argv[++i];
        else if (!strcmp(a, "--json") && more) json = argv[++i];
        else if (!strcmp(a, "--plots") && more) plots = argv[++i];
        else if (!strcmp(a, "--ptx") && more) ptx = argv[++i];
        else if (!strcmp(a, "--set") && more) {
            size_t l = strlen(set);
            if (l + strlen(argv[i + 1]) + 2 >= sizeof set) { fprintf(stderr, "smcosim diag: too many --set\n"); return 2; }
            snprintf(set + l, sizeof set - l, ";%s", argv[++i]);
        } else if (!strcmp(a, "--quick")) quick = 1;
        else if (!strcmp(a, "--check")) check = 1;
        else if (!strcmp(a, "--no-model")) do_model = 0;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(DIAG_USAGE, stdout); return 0; }
        else { fprintf(stderr, "smcosim diag: bad argument '%s'\n" DIAG_USAGE, a); return 2; }
    }
    if (access(ptx, R_OK) != 0) {
        fprintf(stderr, "smcosim diag: cannot read the kernels %s (--ptx FILE names them)\n", ptx);
        return 2;
    }
    smc_device_opts o;
    memset(&o, 0, sizeof o);
    o.config = config;
    o.mode = SMC_MODE_TIMING;
    o.policy = policy;
    o.sched = sched;
    o.set = set;
    o.print_stats = -1;
    diag_be d = { 0 };
    if (smc_device_create(&o, &d.dev) != SMC_OK) return 2;     /* the message names the key */
    if (smc_module_load_ptx_file(d.dev, ptx, &d.mod) != SMC_OK) {
        fprintf(stderr, "smcosim diag: %s\n", smc_last_message(d.dev));
        smc_device_destroy(d.dev);
        return 1;
    }
    if (diag_alloc(&d)) { fprintf(stderr, "smcosim diag: out of device memory\n"); smc_device_destroy(d.dev); return 1; }
    gpu_config cfg = *timing_config(smc_device_timing_model(d.dev));

    gd_backend be = { &d, diag_launch, diag_regs, DIAG_OUT_WORDS, diag_last_cycles };
    gd_opts go = { quick, 1ull << 40, quick ? 64u : 1024u, stderr };
    static gd_result r;
    int rc = gd_run_all(&be, &go, &r);
    static gd_model model;
    if (!rc && do_model && gd_run_model(&be, &go, &r, &model)) rc = -1;
    smc_device_destroy(d.dev);
    if (rc) return 1;
    char name[256];
    snprintf(name, sizeof name, "%s%s%s", config ? config : cfg.preset, o.set[0] ? ", " : "", o.set);
    int bad = print_report(&r, &cfg, name, stdout);
    if (do_model) print_model(&model, stdout);
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) { fprintf(stderr, "smcosim diag: cannot write %s\n", json); return 1; }
        gd_print_json(&r, f);
        fclose(f);
    }
    if (plots && write_plots(&r, plots)) return 1;
    return check && bad ? 1 : 0;
}
