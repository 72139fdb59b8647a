/*
 * timing_lockstep.c — the waveform of a lockstep mismatch (--sched lockstep).
 *
 * The simulation is deterministic, so a launch that stopped on a lockstep
 * mismatch is re-run exactly from a snapshot of device memory taken before
 * it, on a fresh timing model that traces the mismatching SM for the cycles
 * [cycle - W, cycle + 8). The device layer takes the snapshot when the back
 * end is lockstep and asks for the re-run after a mismatch (it names the
 * output file: JSON.mismatch.fst); everything else is here.
 *
 * Known limit: the snapshot restores the contents of the allocations that
 * existed before the launch. A kernel that called free() on a device-heap
 * block during the first run changes the allocation table; the re-run then
 * starts from a slightly different memory, and the note says when it did not
 * reproduce the mismatch.
 */
#include "timing.h"

#include <stdlib.h>
#include <string.h>

#include "../device/devmem.h"

struct timing_snapshot {
    uint32_t  n;
    uint64_t *start, *size;   /* the allocations, by address */
    uint8_t **bytes;
};

void timing_snapshot_free(timing_snapshot *s)
{
    if (!s) return;
    for (uint32_t i = 0; i < s->n; i++) free(s->bytes[i]);
    free(s->bytes); free(s->start); free(s->size);
    free(s);
}

timing_snapshot *timing_snapshot_take(const devmem *m)
{
    timing_snapshot *s = calloc(1, sizeof *s);
    uint32_t n = m->n ? m->n : 1;
    if (!s || !(s->bytes = calloc(n, sizeof *s->bytes)) || !(s->start = calloc(n, sizeof *s->start)) ||
        !(s->size = calloc(n, sizeof *s->size))) {
        timing_snapshot_free(s);
        return NULL;
    }
    for (uint32_t i = 0; i < m->n; i++, s->n++) {
        if (!(s->bytes[i] = malloc(m->a[i].size ? m->a[i].size : 1))) { timing_snapshot_free(s); return NULL; }
        memcpy(s->bytes[i], (const void *)(uintptr_t)m->a[i].start, m->a[i].size);
        s->start[i] = m->a[i].start;
        s->size[i] = m->a[i].size;
    }
    return s;
}

/* Put the snapshot's bytes back into the allocations that still exist at the
 * same address with the same size. */
static void snapshot_restore(const timing_snapshot *s, devmem *m)
{
    for (uint32_t i = 0; i < s->n; i++) {
        int32_t j = devmem_find(m, s->start[i], s->size[i] ? s->size[i] : 1);
        if (j >= 0 && m->a[j].start == s->start[i] && m->a[j].size == s->size[i])
            memcpy((void *)(uintptr_t)s->start[i], s->bytes[i], s->size[i]);
    }
}

void timing_mismatch_rerun(const gpu_config *cfg, devmem *mem, const timing_snapshot *snap,
                           const emu_kernel *ek, const emu_launch_desc *d, const char *kernel_name,
                           const timing_kernel_req *req, smc_dim3 grid, smc_dim3 block,
                           uint32_t sm, uint64_t cycle, uint64_t window, const char *path,
                           char *note, size_t notelen)
{
    char err[512];
    timing_trace tr = { path, cycle > window ? cycle - window : 0, cycle + 8, sm };
    timing_gpu *g = timing_create(cfg, &tr, err, sizeof err);
    if (!g) {
        snprintf(note, notelen, "; no mismatch waveform: %s", err);
        return;
    }
    snapshot_restore(snap, mem);
    emu_launch_desc d2 = *d;
    d2.clock_ctx = g;
    emu_launch *l2 = emu_launch_create(&d2);
    timing_stats ts;
    char msg[512];
    smc_status st = SMC_ERR_OUT_OF_MEMORY;
    uint32_t sm2 = 0;
    uint64_t c2 = 0;
    if (l2) {
        st = timing_run(g, ek, l2, kernel_name, req, grid, block, NULL, &ts, msg, sizeof msg);
        timing_stats_free(&ts);
    }
    int same = st != SMC_OK && timing_lockstep_mismatch(g, &sm2, &c2) && sm2 == sm && c2 == cycle;
    emu_launch_destroy(l2);
    int wr = timing_destroy(g, err, sizeof err);
    if (wr < 0)
        snprintf(note, notelen, "; no mismatch waveform: %s", err);
    else if (wr == 0)
        snprintf(note, notelen, "; no mismatch waveform: the re-run ended before cycle %llu",
                 (unsigned long long)tr.from);
    else
        snprintf(note, notelen, "; waveform of SM %u, cycles %llu..%llu: %.1000s (GTKWave: %.1000s.gtkw)%s",
                 sm, (unsigned long long)tr.from, (unsigned long long)cycle, path, path,
                 same ? "" : " (the re-run did not reproduce the mismatch)");
}
