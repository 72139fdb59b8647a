/*
 * peers.h — the timing model's side of OAWS's peers, CCWS and MASCAR
 * (docs/oaws.md, "Peers"; seed 001 §5, Table 3). Their scheduling logic is
 * in the scheduler core (rtl/sched_ccws.sv, rtl/sched_mascar.sv and the C
 * model); what sits in the memory system is in mem-model/ (the CCWS victim
 * tag array, mem_vta.c; MASCAR's re-execution queue, mem_l1d.c). This file turns them on at a launch and builds the
 * core's peer inputs every cycle.
 */
#ifndef SMCOSIM_PEERS_H
#define SMCOSIM_PEERS_H

#include "sched_if.h"

struct timing_gpu;
struct tm_sm;

/* After the launch's memory system exists: the VTA under CCWS, the
 * re-execution queue under MASCAR (sched.mascar_reexec_entries). 0, or -1
 * with the launch's message set. */
int tm_peers_launch(struct timing_gpu *g);
/* The peer inputs of SM sm's core for this edge (after mem_cycle): mode,
 * CCWS's base and bump and one VTA hit event, MASCAR's saturation level. */
void tm_peers_inputs(struct timing_gpu *g, struct tm_sm *sm, sched_inputs *in);
/* The LD/ST offer (pipeline.c): of the warps with an LD/ST head, those a
 * peer would not hold at t+1, as far as the current outputs tell (CCWS's
 * holds of loads; under saturation MASCAR's owner only); `heads` itself
 * when that leaves none, so the offer never gets worse than without the
 * filter. Like OAWS's redirection of the offer (docs/oaws.md). */
uint64_t tm_peers_ldst_heads(struct timing_gpu *g, struct tm_sm *sm, const sched_inputs *in,
                             uint64_t heads);

#endif
