/*
 * cmd_run.c — `smcosim run [options] -- PROGRAM [ARGS...]`
 *
 * Runs an unmodified CUDA program (built with nvcc --cudart shared) on the
 * simulator: the child gets the project's libcudart.so.13 first on
 * LD_LIBRARY_PATH and a statistics file named in SMCOSIM_STATS_FILE, which
 * the runtime fills at exit (csrc/runtime/runtime.c, docs/runtime.md). After
 * the program ends, the per-kernel instruction counts are printed on stderr
 * (the program's own stdout stays clean) and, with --report, written to a
 * file. The exit status is the program's (128+N when killed by signal N).
 *
 * Options are a table so that later issues can add --config, --sched,
 * --policy: an option with a value is forwarded to the runtime as an
 * environment variable.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "smcosim.h"
#ifdef SMC_HAVE_TRACE
#include "timing.h"
#include "trace_run.h"
#endif

#define RUN_USAGE \
    "usage: smcosim run [options] -- PROGRAM [ARGS...]\n" \
    "       smcosim run [options] --bench NAME... [smcosim-bench options] [options]\n" \
    "       smcosim run [options] --trace DIR/kernelslist.g\n" \
    "  Runs a CUDA program (nvcc --cudart shared), or a benchmark's C driver, on\n" \
    "  the timing model and prints each kernel's statistics on stderr, then\n" \
    "  per-kernel instruction counts. With --bench, run options may also follow the\n" \
    "  benchmark names; --seed there, and everything after --, is smcosim-bench's.\n" \
    "  --trace LIST         run an Accel-Sim trace (kernelslist.g) instead of a program:\n" \
    "                       every kernel on the timing model (docs/traces.md)\n" \
    "  --report FILE        also write the instruction-count table to FILE\n" \
    "  --config X[,Y...]    presets / config files, in order (SMCOSIM_CONFIG)\n" \
    "  --set key=value      override one configuration key (repeatable; SMCOSIM_SET)\n" \
    "  --sched c|rtl|lockstep|offload[:TRANSPORT]  scheduler back end (SMCOSIM_SCHED;\n" \
    "                       offload: the core on a device, docs/offload.md)\n" \
    "  --check-rtl offload[:TRANSPORT][:K]  replay check: the run's scheduler tokens\n" \
    "                       go to the offload transport K cycles at a time and the\n" \
    "                       first difference fails the run (SMCOSIM_CHECK_RTL)\n" \
    "  --policy P           lrr, gto, two-level[:POOL], swl:N, oaws-static[:SMR], oaws-dyn, ccws, mascar, owl (SMCOSIM_POLICY)\n" \
    "  --json FILE          all timing statistics as JSON, rewritten after every\n" \
    "                       kernel (SMCOSIM_JSON)\n" \
    "  --functional         functional emulation only, no timing (SMCOSIM_MODE)\n" \
    "  --fst FILE           waveform of SM 0: the scheduler core (every RTL signal with\n" \
    "                       rtl|lockstep, its ports with c) and the C side, one time\n" \
    "                       axis (FILE.gtkw for GTKWave)\n" \
    "  --fst-window A:B     cycles A..B-1 of each kernel (default 0:20000)\n" \
    "  --mismatch-window W  lockstep: on a mismatch at cycle C, re-run the launch and\n" \
    "                       write cycles C-W..C of that SM to JSON.mismatch.fst\n" \
    "                       (default 200, 0 = off; SMCOSIM_MISMATCH_WINDOW)\n" \
    "  --seed N             seed for anything randomised (SMCOSIM_SEED)\n" \
    "  --locality K=H[,...] locality hint H (0-3, seed 000 Table 6.1) for kernel K,\n" \
    "                       mangled or demangled name (SMCOSIM_LOCALITY)\n" \
    "  Ctrl-C stops the running kernel, prints its statistics so far and writes the JSON.\n"

typedef struct run_options {
    const char *report;    /* --report FILE or NULL */
    const char *trace;     /* --trace LIST or NULL */
} run_options;

/* An option: either stored in run_options (field set) or forwarded to the
 * runtime through an environment variable (env set). */
typedef struct run_option_def {
    const char *name;
    const char *env;
    size_t      field;     /* offsetof into run_options when env is NULL */
} run_option_def;

static const run_option_def run_option_table[] = {
    { "--report", NULL, offsetof(run_options, report) },
    { "--trace",  NULL, offsetof(run_options, trace) },
    { "--config", "SMCOSIM_CONFIG", 0 },
    { "--seed",   "SMCOSIM_SEED", 0 },
    { "--sched",  "SMCOSIM_SCHED", 0 },
    { "--check-rtl", "SMCOSIM_CHECK_RTL", 0 },
    { "--policy", "SMCOSIM_POLICY", 0 },
    { "--json",   "SMCOSIM_JSON", 0 },
    { "--fst",    "SMCOSIM_FST", 0 },
    { "--fst-window", "SMCOSIM_FST_WINDOW", 0 },
    { "--mismatch-window", "SMCOSIM_MISMATCH_WINDOW", 0 },
    { "--locality", "SMCOSIM_LOCALITY", 0 },   /* KERNEL=HINT,... (docs/locality.md) */
};

/* --set accumulates: SMCOSIM_SET holds "k=v;k=v" in command-line order. */
static int add_set(const char *assignment)
{
    if (strchr(assignment, ';') || !strchr(assignment, '=')) {
        fprintf(stderr, "smcosim run: --set '%s': expected key=value\n", assignment);
        return -1;
    }
    const char *old = getenv("SMCOSIM_SET");
    size_t n = strlen(assignment) + (old ? strlen(old) : 0) + 2;
    char *v = malloc(n);
    if (!v)
        return -1;
    snprintf(v, n, "%s%s%s", old && *old ? old : "", old && *old ? ";" : "", assignment);
    setenv("SMCOSIM_SET", v, 1);
    free(v);
    return 0;
}

/* ---- statistics ---------------------------------------------------------- */

typedef struct kernel_total {
    char name[128];
    unsigned long long launches, warp_insts, thread_insts;
} kernel_total;

typedef struct run_stats {
    kernel_total *k;
    size_t n;
    char faults[16][1024];     /* the first 16 device faults */
    unsigned n_faults;
    int any;               /* the file had the runtime's header */
} run_stats;

static int read_stats(const char *path, run_stats *st)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (lineno == 1) {
            st->any = strcmp(line, "# smcosim launch statistics v1") == 0;
            if (!st->any)
                break;
            continue;
        }
        if (strncmp(line, "fault\t", 6) == 0) {
            if (st->n_faults < sizeof st->faults / sizeof st->faults[0])
                snprintf(st->faults[st->n_faults++], sizeof st->faults[0], "%s",
                         line + 6);
            continue;
        }
        char name[128], grid[64], block[64];
        unsigned long long w, t;
        if (sscanf(line, "launch\t%127[^\t]\t%63[^\t]\t%63[^\t]\t%llu\t%llu",
                   name, grid, block, &w, &t) != 5) {
            fprintf(stderr, "smcosim run: %s:%u: malformed statistics line\n",
                    path, lineno);
            continue;
        }
        size_t i;
        for (i = 0; i < st->n; i++)
            if (strcmp(st->k[i].name, name) == 0)
                break;
        if (i == st->n) {
            kernel_total *p = realloc(st->k, (st->n + 1) * sizeof *p);
            if (!p)
                break;
            st->k = p;
            memset(&st->k[st->n], 0, sizeof *p);
            snprintf(st->k[st->n].name, sizeof st->k[st->n].name, "%s", name);
            st->n++;
        }
        st->k[i].launches++;
        st->k[i].warp_insts += w;
        st->k[i].thread_insts += t;
    }
    fclose(f);
    return 0;
}

static void print_table(FILE *out, const run_stats *st)
{
    unsigned long long l = 0, w = 0, t = 0;
    fprintf(out, "%-40s %9s %18s %18s\n", "kernel", "launches",
            "warp-insts", "thread-insts");
    for (size_t i = 0; i < st->n; i++) {
        const kernel_total *k = &st->k[i];
        fprintf(out, "%-40s %9llu %18llu %18llu\n", k->name, k->launches,
                k->warp_insts, k->thread_insts);
        l += k->launches;
        w += k->warp_insts;
        t += k->thread_insts;
    }
    fprintf(out, "%-40s %9llu %18llu %18llu\n", "total", l, w, t);
    for (unsigned i = 0; i < st->n_faults; i++)
        fprintf(out, "device fault: %s\n", st->faults[i]);
}

static int write_report(const char *path, const run_stats *st)
{
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fprintf(stderr, "smcosim run: --report %s: path too long\n", path);
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "smcosim run: --report %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    print_table(f, st);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "smcosim run: --report %s: %s\n", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

/* ---- locating the runtime -------------------------------------------------- */

/* Directory holding libcudart.so.13: $SMCOSIM_CUDART_DIR, else ../lib next to
 * this executable (build/bin/smcosim -> build/lib). */
static int find_runtime_dir(char *dir, size_t len)
{
    const char *env = getenv("SMCOSIM_CUDART_DIR");
    if (env && *env) {
        snprintf(dir, len, "%s", env);
    } else {
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) {
            fprintf(stderr, "smcosim run: cannot locate this executable: %s\n",
                    strerror(errno));
            return -1;
        }
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        if (snprintf(dir, len, "%s/../lib", exe) >= (int)len) {
            fprintf(stderr, "smcosim run: path of this executable too long\n");
            return -1;
        }
    }
    char lib[PATH_MAX + 32];
    snprintf(lib, sizeof lib, "%s/libcudart.so.13", dir);
    struct stat sb;
    if (stat(lib, &sb) != 0) {
        fprintf(stderr, "smcosim run: %s not found: build it with `make` "
                "(needs the CUDA headers) or set SMCOSIM_CUDART_DIR\n", lib);
        return -1;
    }
    return 0;
}

/* ---- checks before anything starts -------------------------------------------- */

/* The configuration the program's device will get (--config, --set,
 * --policy, --sched, --fst, --fst-window, the mode), checked by creating the
 * same device here, before the program starts: a bad key is reported once,
 * by the device's own message naming it, instead of by every CUDA call of a
 * program that has already started. The waveform and JSON of this trial
 * device go to a scratch directory. Returns 0, or -1 (already reported). */
static int check_configuration(void)
{
    char dir[PATH_MAX], fst[PATH_MAX + 16], json[PATH_MAX + 16];
    if (cli_temp_dir("smcosim-check", dir, sizeof dir) != 0) {
        fprintf(stderr, "smcosim run: cannot create a scratch directory: %s\n", strerror(errno));
        return -1;
    }
    snprintf(fst, sizeof fst, "%s/check.fst", dir);
    snprintf(json, sizeof json, "%s/check.json", dir);
    smc_device_opts o;
    memset(&o, 0, sizeof o);
    o.print_stats = -1;
    if (getenv("SMCOSIM_FST") && *getenv("SMCOSIM_FST"))
        o.fst = fst;
    if (getenv("SMCOSIM_JSON") && *getenv("SMCOSIM_JSON"))
        o.json = json;
    smc_device *dev = NULL;
    smc_status s = smc_device_create(&o, &dev);   /* prints what is wrong */
    if (s == SMC_OK)
        smc_device_destroy(dev);
    cli_remove_dir(dir);
    return s == SMC_OK ? 0 : -1;
}

/* A requested output file must be writable where it is to be written: the
 * device writes it to PATH.tmp and renames it (docs/statistics.md), so the
 * directory must take a new file. Returns 0, or -1 with the reason printed. */
static int check_output_path(const char *option, const char *path)
{
    char probe[PATH_MAX];
    if (snprintf(probe, sizeof probe, "%s.smcosim-check-%ld", path, (long)getpid()) >= (int)sizeof probe) {
        fprintf(stderr, "smcosim run: %s %s: path too long\n", option, path);
        return -1;
    }
    FILE *f = fopen(probe, "w");
    if (!f) {
        fprintf(stderr, "smcosim run: %s %s: cannot write there: %s\n", option, path, strerror(errno));
        return -1;
    }
    fclose(f);
    remove(probe);
    return 0;
}

/* ---- trace mode (docs/traces.md) ------------------------------------------------ */

/* `--trace LIST`: no program; the kernels of an Accel-Sim trace run here, on
 * the timing model of a device made from the same options (so a bad key is
 * reported the same way). Returns the exit status. */
static int run_trace(const run_options *opt)
{
#ifdef SMC_HAVE_TRACE
    const char *mode = getenv("SMCOSIM_MODE");
    if (mode && strcmp(mode, "timing") != 0) {
        fprintf(stderr, "smcosim run: --trace needs timing mode (--functional has no program to run)\n");
        return 2;
    }
    setenv("SMCOSIM_MODE", "timing", 1);
    const char *json_out = getenv("SMCOSIM_JSON");
    if (json_out && !*json_out)
        json_out = NULL;
    if ((json_out && check_output_path("--json", json_out) != 0) ||
        (opt->report && check_output_path("--report", opt->report) != 0))
        return 2;
    smc_device_opts o;
    memset(&o, 0, sizeof o);
    o.mode = SMC_MODE_TIMING;
    o.print_stats = -1;
    o.json = NULL;
    unsetenv("SMCOSIM_JSON");   /* the trace runner writes it, not the device */
    smc_device *dev = NULL;
    if (smc_device_create(&o, &dev) != SMC_OK)   /* prints what is wrong */
        return 2;
    timing_stats *ts = NULL;
    uint32_t n = 0;
    int rc = trace_run(opt->trace, smc_device_timing_model(dev), json_out, 1, &ts, &n);
    run_stats st;
    memset(&st, 0, sizeof st);
    for (uint32_t k = 0; k < n; k++) {
        size_t j;
        for (j = 0; j < st.n; j++)
            if (strcmp(st.k[j].name, ts[k].kernel) == 0)
                break;
        if (j == st.n) {
            kernel_total *p = realloc(st.k, (st.n + 1) * sizeof *p);
            if (!p)
                break;
            st.k = p;
            memset(&st.k[st.n], 0, sizeof *p);
            snprintf(st.k[st.n].name, sizeof st.k[st.n].name, "%s", ts[k].kernel);
            st.n++;
        }
        st.k[j].launches++;
        st.k[j].warp_insts += ts[k].warp_insts;
        st.k[j].thread_insts += ts[k].thread_insts;
    }
    if (n) {
        print_table(stderr, &st);
        if (opt->report && write_report(opt->report, &st) != 0 && rc == 0)
            rc = 2;
    }
    for (uint32_t k = 0; k < n; k++)
        timing_stats_free(&ts[k]);
    free(ts);
    free(st.k);
    smc_device_destroy(dev);
    return rc;
#else
    (void)opt;
    fprintf(stderr, "smcosim run: --trace needs the timing model (this build has no scheduler core)\n");
    return 2;
#endif
}

/* ---- the command ------------------------------------------------------------ */

/* Options smcosim-bench has too: after --bench NAME they stay the
 * benchmark driver's (its --seed picks the inputs). */
static int is_bench_option(const char *a)
{
    return strcmp(a, "--seed") == 0;
}

static int is_run_option(const char *a)
{
    static const char *const own[] = { "--set", "--functional", "--bench",
                                       "-h", "--help" };
    for (size_t k = 0; k < sizeof own / sizeof *own; k++)
        if (strcmp(a, own[k]) == 0)
            return 1;
    for (size_t k = 0; k < sizeof run_option_table / sizeof *run_option_table; k++)
        if (strcmp(a, run_option_table[k].name) == 0)
            return 1;
    return 0;
}

int cli_run(int argc, char **argv)
{
    run_options opt = { NULL };
    const char *bench = NULL;
    /* After --bench NAME, the arguments that are not run options, in order,
     * for smcosim-bench: compacted into argv[1..] in place (each is stored
     * at an index no higher than the one it is read from, and everything
     * read later lies above it). */
    char **bench_args = argv + 1;
    int nbench_args = 0;
    /* timing mode and per-kernel statistics unless the caller says otherwise
     * (SMC_HAVE_TIMING: the tree has the scheduler core, csrc/timing/module.mk) */
#ifdef SMC_HAVE_TIMING
    setenv("SMCOSIM_MODE", "timing", 0);
#endif
    setenv("SMCOSIM_PRINT_STATS", "1", 0);
    int i = 1;                       /* argv[0] is "run" */
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (bench && (a[0] != '-' || is_bench_option(a) || !is_run_option(a))) {
            /* a benchmark name, an option of smcosim-bench or its value
             * (the driver checks them) */
            bench_args[nbench_args++] = argv[i];
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(RUN_USAGE, stdout);
            return 0;
        }
        if (strcmp(a, "--functional") == 0) {
            setenv("SMCOSIM_MODE", "functional", 1);
            continue;
        }
        if ((strcmp(a, "--set") == 0 || strcmp(a, "--bench") == 0) && i + 1 >= argc) {
            fprintf(stderr, "smcosim run: %s needs a value\n", a);
            return 2;
        }
        if (strcmp(a, "--set") == 0) {
            if (add_set(argv[++i]) != 0)
                return 2;
            continue;
        }
        if (strcmp(a, "--bench") == 0) {
            if (bench) {
                fprintf(stderr, "smcosim run: --bench given twice (name several "
                        "benchmarks after one --bench)\n");
                return 2;
            }
            bench = argv[++i];
            continue;                /* run options may still follow */
        }
        if (a[0] != '-')
            break;                   /* the program, without "--" */
        const run_option_def *d = NULL;
        for (size_t k = 0; k < sizeof run_option_table / sizeof *run_option_table; k++)
            if (strcmp(a, run_option_table[k].name) == 0)
                d = &run_option_table[k];
        if (!d) {
            fprintf(stderr, "smcosim run: unknown option %s\n" RUN_USAGE, a);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "smcosim run: %s needs a value\n", a);
            return 2;
        }
        const char *value = argv[++i];
        if (d->env)
            setenv(d->env, value, 1);
        else
            *(const char **)((char *)&opt + d->field) = value;
    }
    if (opt.trace) {
        if (bench || i < argc) {
            fprintf(stderr, "smcosim run: --trace runs a trace, not a program: give one or the other\n");
            return 2;
        }
        return run_trace(&opt);
    }
    char **prog = &argv[i];
    char bench_path[PATH_MAX + 32];
    char **bench_argv = NULL;
    if (bench) {
        /* the C drivers: smcosim-bench next to this executable */
        ssize_t n = readlink("/proc/self/exe", bench_path, PATH_MAX - 1);
        if (n <= 0) {
            fprintf(stderr, "smcosim run: cannot locate this executable\n");
            return 2;
        }
        bench_path[n] = '\0';
        char *slash = strrchr(bench_path, '/');
        snprintf(slash ? slash + 1 : bench_path, 32, "smcosim-bench");
        /* after "--": the rest is the driver's, whatever it looks like */
        for (; i < argc; i++)
            bench_args[nbench_args++] = argv[i];
        bench_argv = calloc((size_t)nbench_args + 3, sizeof *bench_argv);
        if (!bench_argv)
            return 2;
        bench_argv[0] = bench_path;
        bench_argv[1] = (char *)bench;
        for (int k = 0; k < nbench_args; k++)
            bench_argv[2 + k] = bench_args[k];
        prog = bench_argv;
    } else if (i >= argc) {
        fprintf(stderr, "smcosim run: no program given\n" RUN_USAGE);
        return 2;
    }

    char libdir[PATH_MAX] = "";
    if (!bench && find_runtime_dir(libdir, sizeof libdir) != 0) {
        free(bench_argv);
        return 2;
    }
    /* Nothing starts with a configuration that cannot work or an output
     * that cannot be written. */
    const char *json_out = getenv("SMCOSIM_JSON");
    if (json_out && !*json_out)
        json_out = NULL;
    if ((json_out && check_output_path("--json", json_out) != 0) ||
        (opt.report && check_output_path("--report", opt.report) != 0) ||
        check_configuration() != 0) {
        free(bench_argv);
        return 2;
    }
    /* "written by this run" below: a new file (the device renames a fresh
     * one into place) or one that was not there before */
    struct stat json_before;
    int json_existed = json_out && stat(json_out, &json_before) == 0;

    const char *tmpdir = getenv("TMPDIR");
    char stats_path[PATH_MAX];
    snprintf(stats_path, sizeof stats_path, "%s/smcosim-run-XXXXXX",
             tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(stats_path);
    if (fd < 0) {
        fprintf(stderr, "smcosim run: cannot create a statistics file in %s: "
                "%s\n", tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
        return 2;
    }
    close(fd);

    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "smcosim run: fork: %s\n", strerror(errno));
        remove(stats_path);
        return 2;
    }
    if (pid == 0) {
        const char *old = getenv("LD_LIBRARY_PATH");
        size_t need = strlen(libdir) + (old ? strlen(old) + 2 : 1);
        char *path = malloc(need);
        if (!path)
            _exit(127);
        snprintf(path, need, "%s%s%s", libdir, old && *old ? ":" : "",
                 old && *old ? old : "");
        if (libdir[0])
            setenv("LD_LIBRARY_PATH", path, 1);
        setenv("SMCOSIM_STATS_FILE", stats_path, 1);
        execvp(prog[0], prog);
        fprintf(stderr, "smcosim run: cannot run %s: %s\n", prog[0],
                strerror(errno));
        _exit(127);
    }

    /* Ctrl-C goes to the whole process group; the child decides. */
    struct sigaction ign, old_int, old_quit;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);

    int code;
    if (WIFEXITED(status)) {
        code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        code = 128 + WTERMSIG(status);
        fprintf(stderr, "smcosim run: %s killed by signal %d\n", prog[0],
                WTERMSIG(status));
    } else {
        code = 1;
    }

    run_stats st;
    memset(&st, 0, sizeof st);
    if (read_stats(stats_path, &st) != 0 || !st.any) {
        if (code != 127 && !bench)   /* 127: exec failed, already reported */
            fprintf(stderr, "smcosim run: no launch statistics: %s did not "
                    "load the smcosim libcudart.so.13 (built with --cudart "
                    "shared?) or did not exit normally\n", prog[0]);
    } else {
        print_table(stderr, &st);
        if (opt.report && write_report(opt.report, &st) != 0 && code == 0)
            code = 2;
    }
    /* Every requested output was written, or the run failed. */
    struct stat jsb;
    if (json_out && (bench || st.any) &&
        (stat(json_out, &jsb) != 0 ||
         (json_existed && jsb.st_ino == json_before.st_ino &&
          jsb.st_mtim.tv_sec == json_before.st_mtim.tv_sec &&
          jsb.st_mtim.tv_nsec == json_before.st_mtim.tv_nsec))) {
        fprintf(stderr, "smcosim run: --json %s was not written\n", json_out);
        if (code == 0)
            code = 2;
    }
    free(st.k);
    free(bench_argv);
    remove(stats_path);
    return code;
}
