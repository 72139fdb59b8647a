/* cli.h — subcommands of the `smcosim` command-line tool.
 *
 * To add a subcommand: write csrc/cli/<name>.c defining
 *     int cli_<name>(int argc, char **argv);   (argv[0] is the subcommand)
 * and add one X(...) line below. Return 0 on success, 1 on failure, and 2
 * (after printing usage) on bad arguments. */
#ifndef SMC_CLI_H
#define SMC_CLI_H

#define SMC_SUBCOMMANDS(X) \
    X(ptx_info, "ptx-info", "[--hints] [--set k=v]... FILE.ptx...   kernels, registers, sizes (like ptxas -v); --hints: HAWS hints") \
    X(run, "run", "[options] -- PROGRAM [ARGS]   run a CUDA program on the timing model (run --help)") \
    X(trace_export, "trace-export", "--out DIR [run options] -- PROGRAM   write an Accel-Sim trace of a program's kernels") \
    X(diag, "diag", "[--config PRESET|FILE] [--policy P] [--quick] [--json F] [--plots DIR]   GPUDIAG: recover the configuration (diag --help)") \
    X(teg, "teg", "--trace LIST [--params gt200|from-config|FILE] [--compare] ...   TEG estimate; teg params|bound|regbank|validate|calibrate (teg --help)") \
    X(config, "config", "[--config PRESET|FILE] [--set k=v]... [--markdown]   print the GPU configuration")

#define X(fn, name, help) int cli_##fn(int argc, char **argv);
SMC_SUBCOMMANDS(X)
#undef X

#include <stddef.h>

/* A file the repository ships, `rel` from its root (e.g.
 * "bench/microbench/gd_kernels.ptx"): beside the tree of this executable
 * (build/bin/smcosim or build/asan/bin/smcosim) when it is there, written
 * into buf; else `rel` itself, relative to the current directory
 * (cli_files.c). */
const char *cli_repo_file(const char *rel, char *buf, size_t len);
/* A new folder $TMPDIR/PREFIX-XXXXXX (else under /tmp), its path in buf: 0,
 * or -1. cli_remove_dir removes such a folder of plain files. */
int  cli_temp_dir(const char *prefix, char *buf, size_t len);
void cli_remove_dir(const char *dir);

#endif
