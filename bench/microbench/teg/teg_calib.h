/*
 * teg_calib.h — `smcosim teg calibrate`: TEG's calibration microbenchmarks
 * (seed 003; ../shared/design/teg.md §5.5, G19, G26, R5; docs/teg.md,
 * "Calibration"). The generated kernels of teg_kernels.cu
 * (gen_teg_kernels.py, committed PTX teg_kernels.ptx) run on the cycle
 * model through smcosim's device API, as `smcosim diag` runs GPUDIAG's;
 * per TEG class the exec, accept and warp_busy they imply, the shared and
 * global memory numbers, and the F_T of the FFMA : LDS mixes are set
 * beside the from-config set of the same configuration (the R5 table,
 * Markdown), and written as a TEG parameter file (--out) and JSON (--json).
 */
#ifndef TEG_CALIB_H
#define TEG_CALIB_H

#include <stdio.h>

/* argv[0] is "calibrate". The report goes to `out`, messages to stderr.
 * Returns 0 (ok; also --help), 1 (a failure: a launch, a file), 2 (a bad
 * argument, usage on stderr). */
int teg_calibrate_cli(int argc, char **argv, FILE *out);

#endif
