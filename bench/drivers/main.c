/*
 * smcosim-bench — run the benchmark suite's kernels from their committed PTX
 * through the public device API, without nvcc and without the CUDA runtime.
 *
 *   smcosim-bench [options] [NAME...]
 *     --list                 list the benchmarks (and why any is left out)
 *     --names                the default suite's names, one per line
 *     --size small|default|large|paper   problem-size preset (default:
 *                            default; paper: docs/benchmarks.md "Paper sizes")
 *     -n N, -i ITERS         override the preset's sizes (one benchmark)
 *     --seed S               input seed instead of the preset's
 *     --inputs default|general   general: full-precision float inputs,
 *                            sizes that are not multiples of the block size,
 *                            bit-exact references and guard zones after
 *                            every device buffer (docs/testing.md,
 *                            "Detection power"); opt-in, the default inputs
 *                            are what the golden statistics are made of
 *     --ptx-dir DIR          where NAME.ptx lives (default: bench/ptx,
 *                            else <exe>/../../bench/ptx)
 *     --table                print the speed table of `make bench`
 *
 * Without NAME it runs the default suite. Each benchmark prints one line
 * with PASS/FAIL, kernel launches, warp- and thread-instructions (active
 * lanes summed) and wall time; the last line is "benchmarks: N passed,
 * M failed". Exit 0 when all passed, 1 when any failed, 2 on bad arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: smcosim-bench [--list|--names] [--size " BENCH_SIZE_USAGE "] [-n N] [-i ITERS]\n"
            "                     [--seed S] [--inputs default|general] [--ptx-dir DIR] [--table]\n"
            "                     [NAME...]\n");
}

static const bench_entry *find_bench(const char *name)
{
    for (size_t i = 0; i < bench_registry_len; i++)
        if (strcmp(bench_registry[i].name, name) == 0)
            return &bench_registry[i];
    return NULL;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* bench/ptx relative to the working directory, else to the executable
 * (build/bin/smcosim-bench -> ../../bench/ptx). */
static const char *default_ptx_dir(void)
{
    static char buf[4096];
    char exe[4000];
    ssize_t len;
    if (is_dir("bench/ptx"))
        return "bench/ptx";
    len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        char *slash;
        exe[len] = '\0';
        slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(buf, sizeof buf, "%s/../../bench/ptx", exe);
            if (is_dir(buf))
                return buf;
        }
    }
    return "bench/ptx";
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Warp-instructions per CPU second inside smc_launch: on a shared machine
 * the wall time includes waiting for a core, the CPU time does not. */
static double rate(const bench_stats *st)
{
    return st->launch_cpu_seconds > 0 ? (double)st->warp_insts / st->launch_cpu_seconds : 0;
}

int main(int argc, char **argv)
{
    bench_opts o;
    const bench_entry *selected[64];
    size_t nselected = 0;
    int list = 0, names = 0, table = 0;

    memset(&o, 0, sizeof o);
    o.size = BENCH_SIZE_DEFAULT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--list") == 0) {
            list = 1;
        } else if (strcmp(a, "--names") == 0) {
            names = 1;
        } else if (strcmp(a, "--table") == 0) {
            table = 1;
        } else if (strcmp(a, "--size") == 0 && v) {
            if ((o.size = bench_size_from_name(v)) < 0) {
                fprintf(stderr, "smcosim-bench: unknown --size '%s' (" BENCH_SIZE_LIST ")\n", v);
                return 2;
            }
            i++;
        } else if (strcmp(a, "-n") == 0 && v) {
            if (bench_parse_int(v, &o.n)) {
                fprintf(stderr, "smcosim-bench: -n wants a positive integer, got '%s'\n", v);
                return 2;
            }
            i++;
        } else if (strcmp(a, "-i") == 0 && v) {
            if (bench_parse_int(v, &o.iters)) {
                fprintf(stderr, "smcosim-bench: -i wants a positive integer, got '%s'\n", v);
                return 2;
            }
            i++;
        } else if (strcmp(a, "--seed") == 0 && v) {
            char *end;
            errno = 0;
            o.seed = strtoull(v, &end, 10);
            if (*v == '\0' || *end != '\0' || errno) {
                fprintf(stderr, "smcosim-bench: --seed wants an integer, got '%s'\n", v);
                return 2;
            }
            o.have_seed = 1;
            i++;
        } else if (strcmp(a, "--inputs") == 0 && v) {
            if ((o.inputs = bench_inputs_from_name(v)) < 0) {
                fprintf(stderr, "smcosim-bench: unknown --inputs '%s' (default, general)\n", v);
                return 2;
            }
            i++;
        } else if (strcmp(a, "--ptx-dir") == 0 && v) {
            o.ptx_dir = v;
            i++;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "smcosim-bench: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            const bench_entry *e = find_bench(a);
            if (!e) {
                fprintf(stderr, "smcosim-bench: unknown benchmark '%s' (see --list)\n", a);
                return 2;
            }
            if (nselected == sizeof selected / sizeof selected[0]) {
                fprintf(stderr, "smcosim-bench: too many benchmark names\n");
                return 2;
            }
            selected[nselected++] = e;
        }
    }

    if (names) {
        for (size_t i = 0; i < bench_registry_len; i++)
            if (!bench_registry[i].excluded)
                printf("%s\n", bench_registry[i].name);
        return 0;
    }
    if (list) {
        for (size_t i = 0; i < bench_registry_len; i++) {
            const bench_entry *e = &bench_registry[i];
            if (e->excluded)
                printf("%-11s %s  [not in the default suite: %s]\n", e->name, e->what,
                       e->excluded);
            else
                printf("%-11s %s\n", e->name, e->what);
        }
        return 0;
    }
    if ((o.n || o.iters) && nselected != 1) {
        fprintf(stderr, "smcosim-bench: -n/-i apply to one benchmark; name exactly one\n");
        return 2;
    }
    if (nselected == 0)
        for (size_t i = 0; i < bench_registry_len; i++)
            if (!bench_registry[i].excluded)
                selected[nselected++] = &bench_registry[i];
    if (!o.ptx_dir)
        o.ptx_dir = default_ptx_dir();

    smc_device *dev = NULL;
    smc_device_opts dopts;
    memset(&dopts, 0, sizeof dopts);
    smc_status s = smc_device_create(&dopts, &dev);
    if (s != SMC_OK) {
        /* SMC_ERR_UNSUPPORTED: the device has printed what is wrong with the
         * configuration (naming the key); say nothing more misleading */
        if (s != SMC_ERR_UNSUPPORTED)
            fprintf(stderr, "smcosim-bench: cannot create the device: %s\n", smc_status_string(s));
        return 1;
    }

    if (table)
        printf("%-11s %8s %12s %9s %9s %12s  %s\n", "benchmark", "launches", "warp-insts",
               "cpu-s", "wall-s", "warp-inst/s", "result");
    int passed = 0, failed = 0;
    bench_stats total;
    memset(&total, 0, sizeof total);
    for (size_t i = 0; i < nselected; i++) {
        bench_stats st;
        char why[512];
        memset(&st, 0, sizeof st);
        o.stats = &st;
        o.why = why;
        o.whylen = sizeof why;
        double t0 = now_seconds();
        int r = selected[i]->run(dev, &o);
        double wall = now_seconds() - t0;
        const char *verdict = r == BENCH_PASS ? "PASS" : r == BENCH_FAIL ? "FAIL" : "ERROR";
        if (r == BENCH_PASS) passed++; else failed++;
        total.launches += st.launches;
        total.warp_insts += st.warp_insts;
        total.launch_seconds += st.launch_seconds;
        total.launch_cpu_seconds += st.launch_cpu_seconds;
        if (table)
            printf("%-11s %8u %12llu %9.3f %9.3f %12.0f  %s\n", selected[i]->name, st.launches,
                   (unsigned long long)st.warp_insts, st.launch_cpu_seconds, st.launch_seconds,
                   rate(&st), verdict);
        else
            printf("%s: %s  launches=%u warp-insts=%llu thread-insts=%llu kernel-cpu=%.3fs "
                   "kernel-wall=%.3fs wall=%.3fs (%.2f M warp-inst/s)\n",
                   selected[i]->name, verdict, st.launches, (unsigned long long)st.warp_insts,
                   (unsigned long long)st.thread_insts, st.launch_cpu_seconds,
                   st.launch_seconds, wall, rate(&st) / 1e6);
        if (r != BENCH_PASS) {
            printf("%s: %s (%s)\n", selected[i]->name, verdict, why);
            smc_device_reset(dev);   /* a guest fault is sticky; clear it for the next one */
        }
        fflush(stdout);
    }
    if (table)
        printf("%-11s %8u %12llu %9.3f %9.3f %12.0f\n", "total", total.launches,
               (unsigned long long)total.warp_insts, total.launch_cpu_seconds,
               total.launch_seconds, rate(&total));
    printf("benchmarks: %d passed, %d failed\n", passed, failed);
    smc_device_destroy(dev);
    return failed ? 1 : 0;
}
