/*
 * sched_stim.h -- seeded random *legal* stimulus for the scheduler core.
 *
 * A small stand-in for the SM timing model: it launches and finishes warps,
 * pushes random decoded instructions into the warps the core asks to refill,
 * returns writebacks for issued instructions after a random latency (short
 * or long), toggles unit availability and barrier waits, and changes the
 * policy, warp limit and pool size from time to time. It obeys every rule of
 * docs/sched-interface.md, so any output difference between two back ends
 * driven by it is a bug. Deterministic: same params, seed and options give
 * the same input sequence.
 */
#ifndef SMCOSIM_SCHED_STIM_H
#define SMCOSIM_SCHED_STIM_H

#include "sched_if.h"

typedef struct sched_stim sched_stim;

typedef struct sched_stim_opts {
    uint64_t seed;
    int      policy;          /* fixed policy, or -1 to switch at random */
    unsigned reg_range;       /* register ids drawn from 0..reg_range-1 (0 = 12) */
} sched_stim_opts;

sched_stim *sched_stim_create(const sched_params *p, const sched_stim_opts *o);
/* Inputs for the current cycle, from the current outputs. */
void        sched_stim_next(sched_stim *st, const sched_outputs *out, sched_inputs *in);
void        sched_stim_destroy(sched_stim *st);

#endif
