/*
 * cmd_trace_export.c — `smcosim trace-export --out DIR [run options] -- PROGRAM [ARGS]`
 * (or `--bench NAME ...`): run a program functionally on the emulator and
 * write every kernel launch as an Accel-Sim trace (kernelslist.g and
 * kernel-N.traceg, PTX-level opcodes; docs/traces.md "Exporting"). It is
 * `smcosim run --functional` with SMCOSIM_TRACE_EXPORT=DIR, which the device
 * reads (csrc/device/device.c, csrc/trace/trace_export.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define EXPORT_USAGE \
    "usage: smcosim trace-export --out DIR [smcosim run options] -- PROGRAM [ARGS...]\n" \
    "       smcosim trace-export --out DIR [smcosim run options] --bench NAME [options]\n" \
    "  Runs the program functionally and writes an Accel-Sim trace of every kernel\n" \
    "  launch into DIR (kernelslist.g, kernel-N.traceg) with PTX-level opcodes;\n" \
    "  `smcosim run --trace DIR/kernelslist.g` times it (docs/traces.md).\n"

int cli_trace_export(int argc, char **argv)
{
    const char *out = NULL;
    char **nargv = calloc((size_t)argc + 2, sizeof *nargv);
    if (!nargv)
        return 2;
    int n = 0;
    nargv[n++] = "run";
    nargv[n++] = "--functional";
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(EXPORT_USAGE, stdout);
            free(nargv);
            return 0;
        }
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--trace") == 0 || strcmp(argv[i], "--functional") == 0) {
            fprintf(stderr, "smcosim trace-export: %s does not apply\n" EXPORT_USAGE, argv[i]);
            free(nargv);
            return 2;
        }
        nargv[n++] = argv[i];
    }
    if (!out || !*out) {
        fprintf(stderr, "smcosim trace-export: --out DIR is required\n" EXPORT_USAGE);
        free(nargv);
        return 2;
    }
    setenv("SMCOSIM_TRACE_EXPORT", out, 1);
    int rc = cli_run(n, nargv);
    free(nargv);
    return rc;
}
