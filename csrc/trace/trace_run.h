/*
 * trace_run.h — trace-driven mode: run an Accel-Sim kernelslist.g on a
 * timing model (`smcosim run --trace LIST`, docs/traces.md).
 */
#ifndef SMC_TRACE_RUN_H
#define SMC_TRACE_RUN_H

#include <stdint.h>

#include "timing.h"

/* Run every kernel of the list on g, in order. Each kernel's statistics are
 * printed on stderr (print_stats) and all of them rewritten to json_path
 * (may be NULL) after every kernel. *stats_out (caller frees, with
 * timing_stats_free on each) receives the kernels that ran. Returns 0, 1
 * when a kernel failed (message on stderr; the run stops there), 2 when the
 * list cannot be read. */
int trace_run(const char *list_path, timing_gpu *g, const char *json_path, int print_stats,
              timing_stats **stats_out, uint32_t *nstats_out);

#endif
