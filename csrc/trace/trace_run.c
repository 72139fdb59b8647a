/*
 * trace_run.c — trace-driven mode: every kernel of a kernelslist.g runs, in
 * order, on a timing model through the trace instruction source
 * (trace_source.c), with the statistics, JSON, progress lines and Ctrl-C
 * handling of program runs (docs/traces.md, "Trace-driven mode").
 */
#include "trace_run.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_source.h"

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) { (void)sig; interrupted = 1; }

int trace_run(const char *list_path, timing_gpu *g, const char *json_path, int print_stats,
              timing_stats **stats_out, uint32_t *nstats_out)
{
    *stats_out = NULL;
    *nstats_out = 0;
    char err[1024];
    trace_list list;
    if (trace_list_load(list_path, &list, err, sizeof err) != 0) {
        fprintf(stderr, "smcosim: trace: %s\n", err);
        return 2;
    }
    timing_stats *ts = calloc(list.nkernels, sizeof *ts);
    if (!ts) {
        fprintf(stderr, "smcosim: trace: out of host memory\n");
        trace_list_free(&list);
        return 1;
    }
    /* HAWS needs the program (hints from its PTX, hinted instructions run
     * out of order): refused here, once, before any kernel runs */
    if (timing_config(g)->haws != GPU_HAWS_OFF) {
        fprintf(stderr, "smcosim: trace: sched.haws=%s needs the program itself (hints come from "
                "its PTX); a trace has none: run %s with sched.haws=off\n",
                gpu_haws_name(timing_config(g)->haws), list_path);
        free(ts);
        trace_list_free(&list);
        return 2;
    }
    fprintf(stderr, "smcosim: trace mode: %s, %u kernels\n", list_path, list.nkernels);
    uint32_t n = 0, memcpys = 0;
    int rc = 0;
    for (uint32_t i = 0; i < list.n && rc == 0; i++) {
        const trace_cmd *c = &list.cmd[i];
        if (c->kind == TRACE_CMD_MEMCPY_HTOD) {
            memcpys++;   /* no data in a trace: copies take no simulated time */
            continue;
        }
        trace_source *src = trace_source_open(c->path, err, sizeof err);
        if (!src) {
            fprintf(stderr, "smcosim: trace: %s:%u: %s\n", list_path, c->line, err);
            rc = 1;
            break;
        }
        const trace_header *h = trace_source_header(src);
        timing_kernel_req req = trace_source_req(src);
        inst_source is = trace_source_get(src);
        smc_dim3 grid = { h->grid[0], h->grid[1], h->grid[2] };
        smc_dim3 block = { h->block[0], h->block[1], h->block[2] };
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        interrupted = 0;
        sigaction(SIGINT, &sa, &old);
        char msg[1024];
        smc_status st = timing_run_source(g, &is, h->name, &req, grid, block, &interrupted,
                                          &ts[n], msg, sizeof msg);
        sigaction(SIGINT, &old, NULL);
        n++;
        if (print_stats)
            timing_stats_print(&ts[n - 1], stderr);
        if (json_path && timing_stats_write_json(ts, n, json_path, err, sizeof err) != 0) {
            fprintf(stderr, "smcosim: statistics: %s\n", err);
            rc = 1;
        }
        if (st != SMC_OK) {
            fprintf(stderr, "smcosim: trace: kernel %s (%s): %s\n", h->name, c->path,
                    msg[0] ? msg : smc_status_name(st));
            rc = 1;
        }
        trace_source_close(src);
        if (st == SMC_ERR_INTERRUPTED) {
            trace_list_free(&list);
            *stats_out = ts;
            *nstats_out = n;
            raise(SIGINT);   /* statistics are out: now the signal does what it would */
            return 1;
        }
    }
    if (memcpys)
        fprintf(stderr, "smcosim: trace: %u MemcpyHtoD commands (not timed: a trace has no data)\n",
                memcpys);
    trace_list_free(&list);
    *stats_out = ts;
    *nstats_out = n;
    return rc;
}
