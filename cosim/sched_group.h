/*
 * sched_group.h -- the scheduler cores of all SMs, stepped together: one
 * call per simulated cycle (docs/offload.md, "Group interface").
 *
 * A group holds n instances ("members", one per SM) of one back end kind,
 * all with the same parameters. Each member is also an ordinary
 * sched_backend (a view), so code that reads outputs, counters, errors,
 * names and cycles through sched_if.h keeps working. The cycle protocol:
 *
 *   sched_group_reset(g);                     // every member in cycle 0
 *   for (;;) {
 *       for each SM i: o = sched_get_outputs(sched_group_member(g, i));
 *                      ... decide in[i], and active[i] (0: the SM is idle,
 *                          its core is not clocked this cycle) ...
 *       if (sched_group_step(g, in, active, &bad) != 0) ...   // one edge, all SMs
 *   }
 *   sched_group_sync(g, &bad);                // replay/check: the queued cycles
 *
 * Kinds (sched_open.c's table, the one door): "c", "rtl", "lockstep" loop
 * over one back end per member; "offload[:TRANSPORT]" steps every member
 * in one exchange with a device (offload_transport.h) per cycle. Any
 * looping kind can also be checked against an offload transport in
 * replay: its boundary tokens are queued and sent in batches of k cycles
 * x all members, the device's outputs compared (sched_group_opts.check).
 *
 * A member must not be sched_destroy()ed by its user: the group owns it
 * (sched_group_member_close closes one). sched_reset() and sched_step() on
 * a single member work too (the offload kind then exchanges for that one
 * lane), but the group's cycle count only moves with sched_group_step.
 */
#ifndef SMCOSIM_SCHED_GROUP_H
#define SMCOSIM_SCHED_GROUP_H

#include "sched_if.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sched_group sched_group;

typedef struct sched_group_opts {
    /* trace[i]: member i's FST (as sched_open's trace); NULL entries, or a
     * NULL array, = no tracing. The offload kind refuses a trace. */
    const sched_trace_opts *const *trace;
    /* Replay/check (looping kinds only): the offload transport "name[:arg]"
     * whose outputs are compared with the members'; NULL or "" = none. */
    const char *check;
    /* Cycles per check exchange (>= 1). The first difference is the same
     * whatever k is; only when it is found changes. */
    unsigned    check_k;
} sched_group_opts;

/* kind: "c", "rtl", "lockstep", "offload" or "offload:SPEC" (SPEC a
 * transport "name[:arg]"; "offload" alone is "offload:netlist"). n >= 1
 * members, reset. o may be NULL. NULL with a message in err. */
sched_group *sched_group_open(const char *kind, const sched_params *p, unsigned n,
                              const sched_group_opts *o, char *err, size_t errlen);
void         sched_group_close(sched_group *g);

unsigned       sched_group_size(const sched_group *g);
/* Member i's view (NULL while closed by sched_group_member_close). */
sched_backend *sched_group_member(const sched_group *g, unsigned i);

/* Reset every member; the group's cycle count starts again at 0. */
void sched_group_reset(sched_group *g);

/* One rising edge for every member i with active[i] != 0 (active NULL =
 * all), with inputs in[i] (in has n entries; only the active ones are
 * read). Members not active hold their state and outputs, as an SM whose
 * clock is gated. 0, or -1 with *failed = the first failing member (in
 * member order; with a check, the first difference in cycle, then member
 * order): sched_error() of that member names the cause. Members before it
 * in this cycle have stepped, it and those after it have not (except with
 * a check, where the failure may be found cycles later). A failed group
 * stays failed until sched_group_reset. */
int sched_group_step(sched_group *g, const sched_inputs *in, const uint8_t *active,
                     unsigned *failed);

/* Group steps since the last reset (the cycle the next step ends). */
uint64_t sched_group_cycle(const sched_group *g);
/* After a failure: the group cycle whose edge failed (with a check, the
 * cycle of the first difference, not the one where it was found). */
uint64_t sched_group_failed_cycle(const sched_group *g);

/* Replay/check: exchange and compare every queued cycle now (a launch's
 * end). 0, or -1 as sched_group_step. Without a check: 0 (or -1 when the
 * group has failed). */
int sched_group_sync(sched_group *g, unsigned *failed);

/* Member i: close it (its back end destroyed, so its FST file is
 * complete) / open a fresh one, reset, with trace (NULL = none). The
 * offload kind only resets its lane. 0, or -1 with a message. */
void sched_group_member_close(sched_group *g, unsigned i);
int  sched_group_member_open(sched_group *g, unsigned i, const sched_trace_opts *trace,
                             char *err, size_t errlen);

/* Test hook on member i's checker: the lockstep back end's C model
 * outputs (sched_lockstep_set_mutator), or, with a replay check, the
 * device's outputs of that lane before they are compared. 0, or -1 with a
 * message when the member has no checker. */
int sched_group_set_mutator(sched_group *g, unsigned i, sched_mutator fn, void *ctx,
                            char *err, size_t errlen);

/* A description for messages: "c", "offload:cmodel", "c checked by
 * offload:cmodel" (not k: a report is the same whatever k is). */
const char *sched_group_describe(const sched_group *g);

#ifdef __cplusplus
}
#endif
#endif
