/*
 * offload_check.h -- replay/check: the boundary tokens of a run driven by
 * another back end (the C model), sent to an offload transport in batches
 * of k cycles x all lanes, the device's outputs compared with the driver's
 * (docs/offload.md, "Back end and modes").
 *
 * The driver reports, per lane, its resets and its steps (inputs and the
 * outputs after the edge) and closes each cycle. Cycles in which nothing
 * happened are not queued. When k cycles are queued they go to the device
 * in one exchange; the first difference (cycle, then lane order) is the
 * first divergence, because every input before it was the same on both
 * sides, so it does not depend on k. Once failed, the checker stays failed.
 */
#ifndef SMCOSIM_OFFLOAD_CHECK_H
#define SMCOSIM_OFFLOAD_CHECK_H

#include "offload_transport.h"

typedef struct offload_check offload_check;

/* The first difference. */
typedef struct offload_check_fail {
    unsigned lane;
    uint64_t tag;          /* the caller's cycle of the step (end_cycle's tag) */
    uint64_t lane_cycle;   /* the lane's cycle since its reset, of the outputs */
    char     msg[256];     /* "offload check mismatch at cycle N: SIGNAL: c=0x.. offload=0x.." */
} offload_check_fail;

/* Host memory the queue of k cycles x lanes needs may not exceed this. */
#define OFFLOAD_CHECK_MAX_BYTES (UINT64_C(1) << 30)

/* spec: the transport "name[:arg]"; k >= 1; driver: the driving back
 * end's name, for messages ("c"). NULL with a message in err. */
offload_check *offload_check_open(const char *spec, const sched_params *p, unsigned lanes,
                                  unsigned k, const char *driver, char *err, size_t errlen);
void offload_check_close(offload_check *c);

/* Lane `lane` was reset; reset_out: its outputs now. */
void offload_check_reset(offload_check *c, unsigned lane, const sched_outputs *reset_out);
/* Lane `lane` stepped in the current cycle with in; out: its outputs after. */
void offload_check_record(offload_check *c, unsigned lane, const sched_inputs *in,
                          const sched_outputs *out);
/* Close the current cycle (tag: the caller's number for it); exchanges and
 * compares when k cycles are queued. 0, or -1 with *f. */
int  offload_check_end_cycle(offload_check *c, uint64_t tag, offload_check_fail *f);
/* Exchange and compare whatever is queued. 0, or -1 with *f. */
int  offload_check_sync(offload_check *c, offload_check_fail *f);

/* Test hook: fn sees lane `lane`'s device outputs (with the lane's cycle
 * since reset) before they are compared. */
void offload_check_set_mutator(offload_check *c, unsigned lane, sched_mutator fn, void *ctx);

/* Exchanges done so far (for the bench). */
uint64_t offload_check_exchanges(const offload_check *c);

#endif
