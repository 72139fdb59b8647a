/*
 * cmd_teg.c — `smcosim teg`: TEG, the analytical timing estimator of seed
 * 003 (docs/teg.md), on an Accel-Sim trace, beside the cycle model with
 * --compare; and its tools: `teg params` (a parameter set in Table 3.1's
 * layout), `teg bound` (the SGEMM upper bound, ch. 4), `teg regbank` (the
 * kepler4 register-bank conflicts of a trace, per opcode).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "../config/gpu_config.h"
#include "../teg/teg.h"
#include "../teg/teg_bound.h"
#include "../../bench/microbench/teg/teg_calib.h"
#include "../teg/teg_report.h"
#include "../../bench/microbench/teg/teg_validate.h"
#include "../trace/trace.h"
#include "../trace/trace_source.h"

#define TEG_USAGE \
    "usage: smcosim teg [options] --trace LIST\n" \
    "       smcosim teg [options] [--trace-out DIR] --bench NAME [benchmark options]\n" \
    "       smcosim teg [options] [--trace-out DIR] -- PROGRAM [ARGS]\n" \
    "  options: [--params gt200|from-config|FILE] [--config P] [--set k=v]... [--param teg.k=v]...\n" \
    "           [--policy lrr|gto] [--what-if W[,W...]] [--compare] [--json F] [--pc-trace F.csv]\n" \
    "           [--load F.csv [--load-every N]]\n" \
    "       smcosim teg params [--params gt200|from-config|FILE] [--config P] [--set k=v]... [--keys]\n" \
    "       smcosim teg bound [--arch gtx580|gtx680] [--json F]\n" \
    "       smcosim teg regbank --trace LIST\n" \
    "       smcosim teg validate --kernel K --warps W [--config P] [teg options]   (validate --help)\n" \
    "       smcosim teg calibrate [--config P] [--set k=v]... [--quick] [--out F] [--json F]\n" \
    "  Estimates each kernel of an Accel-Sim trace (kernelslist.g) with TEG (seed 003 ch. 3): issue\n" \
    "  engines, units with execution, accept and same-warp latencies, shared-memory bank passes,\n" \
    "  global bytes in flight (docs/teg.md). With --bench or a PROGRAM, the trace is exported first\n" \
    "  (`smcosim trace-export`, functional; the program's output goes to stderr) into a temporary\n" \
    "  folder, or into --trace-out DIR, which is kept.\n" \
    "  --params: gt200 (Table 3.1; the default without --config), from-config (the --config\n" \
    "            preset's units and memory; the default with --config), or a file of teg.* keys\n" \
    "  --what-if: smem-conflict-free, coalesced, no-channel-skew, regbank\n" \
    "  --compare: also run the cycle model (--config, --set; as `smcosim run --trace`) on the same\n" \
    "             trace and print the error (TEG - model) / TEG\n" \
    "  --load: SM 0's warp-instructions in flight per unit every N cycles (default 1), one block\n" \
    "          per kernel (the thesis's Figs. 3.9-3.15)\n"

typedef struct teg_cli {
    const char *trace, *params, *config, *json, *pc_trace, *policy, *trace_out, *load;
    uint32_t whatif, load_every;
    int compare, keys;
    int prog_at;              /* argv index of --bench or --, 0: none */
} teg_cli;

static int parse_whatif(const char *s, uint32_t *out)
{
    static const char *const names[] = { "smem-conflict-free", "coalesced", "no-channel-skew", "regbank" };
    while (*s) {
        size_t n = strcspn(s, ",");
        int found = 0;
        for (unsigned b = 0; b < 4; b++)
            if (strlen(names[b]) == n && !strncmp(s, names[b], n)) {
                *out |= 1u << b;
                found = 1;
            }
        if (!found) {
            fprintf(stderr, "smcosim teg: --what-if: unknown '%.*s' (smem-conflict-free, coalesced, "
                    "no-channel-skew, regbank)\n", (int)n, s);
            return -1;
        }
        s += n;
        if (*s == ',') s++;
    }
    return 0;
}

/* The configuration of --config and --set (the cycle model's, and the
 * from-config set's). */
static int load_config(int argc, char **argv, const char *spec, gpu_config *cfg)
{
    char err[512];
    if (gpu_config_load_spec(cfg, spec, err, sizeof err) != 0) {
        fprintf(stderr, "smcosim teg: %s\n", err);
        return -1;
    }
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--set") && i + 1 < argc) {
            if (gpu_config_apply(cfg, argv[++i], err, sizeof err) != 0) {
                fprintf(stderr, "smcosim teg: --set: %s\n", err);
                return -1;
            }
        }
    if (gpu_config_check(cfg, err, sizeof err) != 0) {
        fprintf(stderr, "smcosim teg: %s\n", err);
        return -1;
    }
    return 0;
}

/* The parameter set: --params, then each --param and --policy in order. */
static int load_params(int argc, char **argv, const teg_cli *o, const gpu_config *cfg, teg_params *p)
{
    char err[512];
    const char *which = o->params ? o->params : (o->config ? "from-config" : "gt200");
    if (!strcmp(which, "gt200")) {
        teg_params_gt200(p);
    } else if (!strcmp(which, "from-config")) {
        teg_params_from_config(p, cfg);
    } else {
        teg_params_gt200(p);   /* a file changes the GT200 set's keys it names */
        if (teg_params_load_file(p, which, err, sizeof err) != 0) {
            fprintf(stderr, "smcosim teg: --params: %s\n", err);
            return -1;
        }
    }
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--param") && i + 1 < argc) {
            if (teg_params_apply(p, argv[++i], err, sizeof err) != 0) {
                fprintf(stderr, "smcosim teg: --param: %s\n", err);
                return -1;
            }
        }
    if (o->policy) {
        char a[64];
        snprintf(a, sizeof a, "policy=%s", o->policy);
        if (teg_params_apply(p, a, err, sizeof err) != 0) {
            fprintf(stderr, "smcosim teg: --policy: %s\n", err);
            return -1;
        }
    }
    if (teg_params_check(p, err, sizeof err) != 0) {
        fprintf(stderr, "smcosim teg: parameters %s: %s\n", p->name, err);
        return -1;
    }
    return 0;
}

static int parse_args(int argc, char **argv, int first, teg_cli *o)
{
    memset(o, 0, sizeof *o);
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--trace") && more) o->trace = argv[++i];
        else if (!strcmp(a, "--params") && more) o->params = argv[++i];
        else if (!strcmp(a, "--config") && more) o->config = argv[++i];
        else if (!strcmp(a, "--set") && more) i++;
        else if (!strcmp(a, "--param") && more) i++;
        else if (!strcmp(a, "--policy") && more) o->policy = argv[++i];
        else if (!strcmp(a, "--json") && more) o->json = argv[++i];
        else if (!strcmp(a, "--pc-trace") && more) o->pc_trace = argv[++i];
        else if (!strcmp(a, "--load") && more) o->load = argv[++i];
        else if (!strcmp(a, "--load-every") && more) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v == 0 || v > UINT32_MAX) {
                fprintf(stderr, "smcosim teg: --load-every: '%s' is not a number of cycles >= 1\n", argv[i]);
                return 2;
            }
            o->load_every = (uint32_t)v;
        }
        else if (!strcmp(a, "--what-if") && more) {
            if (parse_whatif(argv[++i], &o->whatif) != 0) return 2;
        } else if (!strcmp(a, "--compare")) o->compare = 1;
        else if (!strcmp(a, "--keys")) o->keys = 1;
        else if (!strcmp(a, "--trace-out") && more) o->trace_out = argv[++i];
        else if ((!strcmp(a, "--bench") && more) || (!strcmp(a, "--") && more)) {
            o->prog_at = i;   /* the rest is the program's (or the benchmark's) */
            break;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(TEG_USAGE, stdout);
            return 1;
        } else {
            fprintf(stderr, "smcosim teg: bad argument '%s'\n" TEG_USAGE, a);
            return 2;
        }
    }
    return 0;
}

static volatile sig_atomic_t no_stop;

/* `smcosim trace-export --out DIR [--config P] [--set k=v]... (--bench NAME
 * ... | -- PROGRAM ...)` in a child process (its stdout goes to stderr, so
 * that the estimate is all of stdout). 0, or the export's failure. */
static int export_trace(int argc, char **argv, const teg_cli *o, const char *dir)
{
    char **xargv = calloc((size_t)argc + 8, sizeof *xargv);
    if (!xargv) return 1;
    int n = 0;
    xargv[n++] = "trace-export";
    xargv[n++] = "--out";
    xargv[n++] = (char *)dir;
    if (o->config) {
        xargv[n++] = "--config";
        xargv[n++] = (char *)o->config;
    }
    for (int i = 1; i < o->prog_at; i++)
        if (!strcmp(argv[i], "--set") && i + 1 < o->prog_at) {
            xargv[n++] = argv[i];
            xargv[n++] = argv[++i];
        }
    for (int i = o->prog_at; i < argc; i++) xargv[n++] = argv[i];
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        free(xargv);
        fprintf(stderr, "smcosim teg: cannot start the trace export\n");
        return 1;
    }
    if (pid == 0) {
        dup2(STDERR_FILENO, STDOUT_FILENO);
        int rc = cli_trace_export(n, xargv);
        fflush(NULL);
        _exit(rc);
    }
    free(xargv);
    int status = 0;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "smcosim teg: the trace export failed (%s); no estimate\n",
                WIFEXITED(status) ? "the program or benchmark failed" : "it was killed");
        return 1;
    }
    return 0;
}

/* TEG (and the cycle model with --compare) on every kernel of the list. */
static int estimate_list(int argc, char **argv, const teg_cli *o);

static int estimate(int argc, char **argv, teg_cli *o)
{
    if (o->prog_at && o->trace) {
        fprintf(stderr, "smcosim teg: --trace and a program (--bench, --) exclude each other\n");
        return 2;
    }
    if (!o->prog_at) {
        if (!o->trace) {
            fprintf(stderr, "smcosim teg: --trace LIST, --bench NAME or -- PROGRAM is required\n" TEG_USAGE);
            return 2;
        }
        return estimate_list(argc, argv, o);
    }
    char tmp[4096], list[4200];
    const char *dir = o->trace_out;
    if (!dir) {
        if (cli_temp_dir("smcosim-teg", tmp, sizeof tmp) != 0) {
            fprintf(stderr, "smcosim teg: cannot make a temporary folder %s\n", tmp);
            return 1;
        }
        dir = tmp;
    }
    int rc = export_trace(argc, argv, o, dir);
    if (rc == 0) {
        snprintf(list, sizeof list, "%s/kernelslist.g", dir);
        o->trace = list;
        rc = estimate_list(o->prog_at, argv, o);   /* the program's arguments are not ours */
        o->trace = NULL;
    }
    if (!o->trace_out) cli_remove_dir(dir);
    return rc;
}

static int estimate_list(int argc, char **argv, const teg_cli *o)
{
    gpu_config cfg;
    if (load_config(argc, argv, o->config, &cfg) != 0) return 1;
    teg_params p;
    if (load_params(argc, argv, o, &cfg, &p) != 0) return 1;
    char err[1024];
    trace_list list;
    if (trace_list_load(o->trace, &list, err, sizeof err) != 0) {
        fprintf(stderr, "smcosim teg: %s\n", err);
        return 2;
    }
    teg_result *res = calloc(list.nkernels ? list.nkernels : 1, sizeof *res);
    uint64_t *ref = calloc(list.nkernels ? list.nkernels : 1, sizeof *ref);
    FILE *pc = NULL, *load = NULL;
    timing_gpu *g = NULL;
    int rc = 0;
    size_t n = 0;
    if (!res || !ref) {
        fprintf(stderr, "smcosim teg: out of host memory\n");
        rc = 1;
        goto out;
    }
    if (o->pc_trace) {
        pc = fopen(o->pc_trace, "w");
        if (!pc) {
            fprintf(stderr, "smcosim teg: --pc-trace: cannot write %s\n", o->pc_trace);
            rc = 1;
            goto out;
        }
        fprintf(pc, "cycle,sm,warp,pc\n");
    }
    if (o->compare && !(g = timing_create(&cfg, NULL, err, sizeof err))) {
        fprintf(stderr, "smcosim teg: --compare: %s\n", err);
        rc = 1;
        goto out;
    }
    if (o->load && !(load = fopen(o->load, "w"))) {
        fprintf(stderr, "smcosim teg: --load: cannot write %s\n", o->load);
        rc = 1;
        goto out;
    }
    teg_opts opts = { o->whatif, pc, load, o->load_every };
    for (uint32_t i = 0; i < list.n && rc == 0; i++) {
        const trace_cmd *c = &list.cmd[i];
        if (c->kind != TRACE_CMD_KERNEL) continue;
        for (int pass = 0; pass < (o->compare ? 2 : 1) && rc == 0; pass++) {
            trace_source *src = trace_source_open(c->path, err, sizeof err);
            if (!src) {
                fprintf(stderr, "smcosim teg: %s:%u: %s\n", o->trace, c->line, err);
                rc = 1;
                break;
            }
            const trace_header *h = trace_source_header(src);
            timing_kernel_req req = trace_source_req(src);
            inst_source is = trace_source_get(src);
            smc_dim3 grid = { h->grid[0], h->grid[1], h->grid[2] };
            smc_dim3 block = { h->block[0], h->block[1], h->block[2] };
            if (pass == 0) {
                if (teg_run_source(&p, &opts, &is, h->name, &req, grid, block, &res[n], err,
                                   sizeof err) != 0) {
                    fprintf(stderr, "smcosim teg: kernel %s (%s): %s\n", h->name, c->path, err);
                    rc = 1;
                }
            } else {
                timing_stats ts;
                char msg[1024] = "";
                smc_status st = timing_run_source(g, &is, h->name, &req, grid, block, &no_stop, &ts,
                                                  msg, sizeof msg);
                if (st != SMC_OK) {
                    fprintf(stderr, "smcosim teg: --compare: kernel %s (%s): %s\n", h->name, c->path,
                            msg[0] ? msg : smc_status_name(st));
                    rc = 1;
                }
                ref[n] = ts.cycles;
                timing_stats_free(&ts);
            }
            trace_source_close(src);
        }
        if (rc == 0) n++;
    }
    if (rc == 0) {
        teg_report_markdown(&p, res, n, o->compare ? ref : NULL, stdout);
        if (o->json && teg_report_json(&p, o->whatif, res, n, o->compare ? ref : NULL, o->json, err,
                                       sizeof err) != 0) {
            fprintf(stderr, "smcosim teg: --json: %s\n", err);
            rc = 1;
        }
    }
out:
    if (load && fclose(load) != 0 && rc == 0) {
        fprintf(stderr, "smcosim teg: --load: write failed\n");
        rc = 1;
    }
    if (pc && fclose(pc) != 0 && rc == 0) {
        fprintf(stderr, "smcosim teg: --pc-trace: write failed\n");
        rc = 1;
    }
    if (g) timing_destroy(g, err, sizeof err);
    free(res);
    free(ref);
    trace_list_free(&list);
    return rc;
}

/* `teg regbank`: every executed instruction the kepler4 rule applies to,
 * by opcode, with its 2-way and 3-way shares (Fig. 4.8's measure). */
typedef struct rb_row { char op[64]; uint64_t n, d2, d3; } rb_row;

static int regbank_report(const teg_cli *o)
{
    if (!o->trace) {
        fprintf(stderr, "smcosim teg regbank: --trace LIST is required\n" TEG_USAGE);
        return 2;
    }
    char err[1024];
    trace_list list;
    if (trace_list_load(o->trace, &list, err, sizeof err) != 0) {
        fprintf(stderr, "smcosim teg regbank: %s\n", err);
        return 2;
    }
    rb_row rows[64];
    size_t nrows = 0;
    int rc = 0;
    for (uint32_t i = 0; i < list.n && rc == 0; i++) {
        const trace_cmd *c = &list.cmd[i];
        if (c->kind != TRACE_CMD_KERNEL) continue;
        trace_source *src = trace_source_open(c->path, err, sizeof err);
        if (!src) {
            fprintf(stderr, "smcosim teg regbank: %s:%u: %s\n", o->trace, c->line, err);
            rc = 1;
            break;
        }
        inst_source is = trace_source_get(src);
        uint32_t nctas = is.ops->num_ctas(is.ctx);
        for (uint32_t k = 0; k < nctas && rc == 0; k++) {
            inst_cta *cta = is.ops->cta_start(is.ctx, k, 0);
            if (!cta) { rc = 1; break; }
            /* warps in turn, one instruction each, so barriers release */
            for (int progress = 1; progress && rc == 0;) {
                progress = 0;
                for (uint32_t w = 0; w < is.ops->cta_warps(cta); w++) {
                    if (!is.ops->ready(cta, w)) continue;
                    const emu_inst_info *in = is.ops->peek(cta, w);
                    if (!in) continue;
                    uint32_t d = teg_regbank_degree(in);
                    emu_exec_info ex;
                    if (is.ops->execute(cta, w, &ex) == EMU_FAULT) {
                        const smc_fault *f = is.ops->fault(is.ctx);
                        fprintf(stderr, "smcosim teg regbank: %s\n", f->message);
                        rc = 1;
                        break;
                    }
                    progress = 1;
                    if (!in->name || (d == 1 && in->nsrc < 2)) continue;
                    size_t r = 0, len = strcspn(in->name, ".");
                    while (r < nrows && (strlen(rows[r].op) != len || strncmp(rows[r].op, in->name, len)))
                        r++;
                    if (r == nrows) {
                        if (nrows == 64) continue;
                        memset(&rows[r], 0, sizeof rows[r]);
                        snprintf(rows[r].op, sizeof rows[r].op, "%.*s", (int)len, in->name);
                        nrows++;
                    }
                    rows[r].n++;
                    rows[r].d2 += d == 2;
                    rows[r].d3 += d >= 3;
                }
            }
            is.ops->cta_finish(cta);
        }
        trace_source_close(src);
    }
    trace_list_free(&list);
    if (rc) return rc;
    printf("Register-bank conflicts (kepler4 rule, 003 L1373), instructions with two or more sources\n\n");
    printf("| opcode | executed | 2-way | 3-way |\n|---|---:|---:|---:|\n");
    for (size_t r = 0; r < nrows; r++) {
        uint64_t m = rows[r].n;
        printf("| %s | %llu | %.1f %% | %.1f %% |\n", rows[r].op, (unsigned long long)m,
               100.0 * (double)rows[r].d2 / (double)m, 100.0 * (double)rows[r].d3 / (double)m);
    }
    return 0;
}

int cli_teg(int argc, char **argv)
{
    const char *sub = argc > 1 ? argv[1] : "";
    teg_cli o;
    if (!strcmp(sub, "bound")) return teg_bound_cli(argc - 1, argv + 1, stdout);
    if (!strcmp(sub, "calibrate")) return teg_calibrate_cli(argc - 1, argv + 1, stdout);
    if (!strcmp(sub, "validate")) return teg_validate_cli(argc - 1, argv + 1, stdout);
    int sub_given = !strcmp(sub, "params") || !strcmp(sub, "regbank");
    int prc = parse_args(argc, argv, sub_given ? 2 : 1, &o);
    if (prc == 1) return 0;   /* --help */
    if (prc) return prc;
    if (!strcmp(sub, "params")) {
        gpu_config cfg;
        if (load_config(argc, argv, o.config, &cfg) != 0) return 1;
        teg_params p;
        if (load_params(argc, argv, &o, &cfg, &p) != 0) return 1;
        if (o.keys) teg_params_print(&p, stdout);
        else teg_params_table(&p, stdout);
        return 0;
    }
    if (!strcmp(sub, "regbank")) return regbank_report(&o);
    return estimate(argc, argv, &o);
}
