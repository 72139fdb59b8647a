/*
 * runner.c — the functional runner (emu_run_functional): a grid run to
 * completion without the timing model, deterministic.
 */
#include "exec_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- functional runner ----------------------------------------------------- */
#define QUANTUM 4096   /* warp-instructions per warp turn */

/* A cooperative grid: every CTA is created first (the device has checked
 * that they fit co-resident), then the warps of all CTAs take turns of
 * COOP_QUANTUM warp-instructions each, CTA by CTA, warp by warp, in a fixed
 * order: deterministic, and a warp spinning on a grid-wide barrier in global
 * memory lets the other CTAs arrive. */
#define COOP_QUANTUM 64
static smc_status run_cooperative(emu_launch *l) {
    emu_cta **cs = calloc(l->nctas ? l->nctas : 1, sizeof *cs);
    smc_status st = SMC_OK;
    if (!cs) {
        l->fault.status = SMC_ERR_OUT_OF_MEMORY;
        snprintf(l->fault.message, sizeof l->fault.message, "SMC_ERR_OUT_OF_MEMORY: cannot allocate the CTAs of kernel %.60s", l->k->name);
        return l->fault.status;
    }
    for (uint32_t i = 0; i < l->nctas; i++) {
        cs[i] = emu_cta_create(l, i, i % (l->d.num_sms ? l->d.num_sms : 1));
        if (!cs[i]) {
            l->fault.status = st = SMC_ERR_OUT_OF_MEMORY;
            snprintf(l->fault.message, sizeof l->fault.message, "SMC_ERR_OUT_OF_MEMORY: cannot allocate CTA %u of kernel %.60s", i, l->k->name);
            goto out;
        }
    }
    for (uint32_t live = l->nctas; live > 0;) {
        bool progress = false;
        live = 0;
        for (uint32_t i = 0; i < l->nctas; i++) {
            emu_cta *c = cs[i];
            if (emu_cta_done(c)) continue;
            for (uint32_t w = 0; w < c->nwarps; w++) {
                for (int q = 0; q < COOP_QUANTUM && emu_warp_ready(c, w); q++) {
                    int rs = emu_warp_execute(c, w, NULL);
                    progress = true;
                    if (rs == EMU_FAULT) { st = l->fault.status; goto out; }
                    if (rs != EMU_OK) break;
                }
            }
            if (!emu_cta_done(c)) live++;
        }
        if (!progress && live) {
            uint32_t i = 0;
            while (emu_cta_done(cs[i])) i++;
            emu_cta *c = cs[i];
            uint32_t w0 = 0;
            while (w0 < c->nwarps && c->w[w0].state != W_BAR) w0++;
            uint32_t pc = w0 < c->nwarps ? c->w[w0].bar_pc : 0;
            emu_fault(c, w0, 0, pc, SMC_ERR_LAUNCH_TIMEOUT, 0,
                  "deadlock: every live warp waits at a barrier that cannot complete");
            st = l->fault.status;
            goto out;
        }
    }
out:
    for (uint32_t i = 0; i < l->nctas; i++)
        if (cs[i]) emu_cta_destroy(cs[i]);
    free(cs);
    return st;
}

smc_status emu_run_functional(emu_launch *l) {
    if (l->d.cooperative) return run_cooperative(l);
    for (uint32_t i = 0; i < l->nctas; i++) {
        emu_cta *c = emu_cta_create(l, i, i % (l->d.num_sms ? l->d.num_sms : 1));
        if (!c) {
            l->fault.status = SMC_ERR_OUT_OF_MEMORY;
            snprintf(l->fault.message, sizeof l->fault.message, "SMC_ERR_OUT_OF_MEMORY: cannot allocate CTA %u of kernel %.60s", i, l->k->name);
            return l->fault.status;
        }
        while (!emu_cta_done(c)) {
            bool progress = false;
            for (uint32_t w = 0; w < c->nwarps; w++) {
                for (int q = 0; q < QUANTUM && emu_warp_ready(c, w); q++) {
                    int st = emu_warp_execute(c, w, NULL);
                    progress = true;
                    if (st == EMU_FAULT) { emu_cta_destroy(c); return l->fault.status; }
                    if (st != EMU_OK) break;
                }
            }
            if (!progress && !emu_cta_done(c)) {
                uint32_t w0 = 0;
                while (w0 < c->nwarps && c->w[w0].state != W_BAR) w0++;
                /* (deadlock_check reports this as it happens; kept as a net) */
                uint32_t pc = w0 < c->nwarps ? c->w[w0].bar_pc : 0;
                emu_fault(c, w0, 0, pc, SMC_ERR_LAUNCH_TIMEOUT, 0,
                      "deadlock: every live warp waits at a barrier that cannot complete");
                emu_cta_destroy(c);
                return l->fault.status;
            }
        }
        emu_cta_destroy(c);
    }
    return SMC_OK;
}
