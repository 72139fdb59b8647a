/*
 * sched_stim.h -- seeded random stimulus for the scheduler core.
 *
 * A small stand-in for the SM timing model: it launches and finishes warps,
 * pushes random decoded instructions into the warps the core asks to refill,
 * returns writebacks for issued instructions after a random latency (short
 * or long), toggles unit availability and barrier waits, and changes the
 * policy, warp limit and pool size from time to time. Deterministic: same
 * params, seed and options give the same input sequence.
 *
 * Register ids. With reg_range 0 (the default) they cover the whole id space
 * of RegIdWidth bits: most ids of a warp's instructions come from a window
 * of 12 consecutive ids that moves at random over the space (so that RAW and
 * WAW hazards stay frequent), the rest are uniform over the space. With
 * reg_range n they are uniform in 0..n-1 (the narrow stimulus of earlier
 * versions, reg_range 12; sched_bench keeps it so its rates stay comparable).
 *
 * Legal mode (violate 0) obeys every rule of docs/sched-interface.md, so any
 * output difference between two back ends driven by it is a bug. Violation
 * mode (violate 1) also breaks, at random, every rule the contract says is
 * "dropped/ignored identically" (never the rules sched_step rejects): pushes
 * into full buffers, into warps that are not alive, and into warps launched
 * or finished in the same cycle; writebacks that name no pending write
 * (random ids, a duplicate on a second port in the same cycle, one given in
 * the cycle of the issue); launches while writebacks of the warp's previous
 * life are still to come (which then arrive); launches of alive warps,
 * finishes of dead ones, launch and finish of one warp in one cycle; nonzero
 * fields on idle push and writeback ports; warp limits and pool sizes over
 * the whole 7-bit range. sched_stim_stats() counts what was generated.
 *
 * HAWS (haws 1; docs/haws.md, "Scheduler core"): the haws level switches
 * among 1, 2 and (rarely) 0; most pushed instructions carry an entry hint; a
 * chain fetch (fetch_pc_valid) is answered with exactly fetch_pc and a
 * random member hint (format 1 with or without rename, format 2 direct or
 * conditional); an RCU head (fetch_rcu) is met by a push of its pc with the
 * head's kind now and then, by other pcs otherwise; a conditional member
 * branch's outcome (hbr) follows its issue by 0..3 cycles, now and then
 * divergent. Every push into a warp in hint mode or with a busy RCU answers
 * the fetch request for it (the rules sched_step checks), in both modes.
 * Member pcs are the stall pc +-1..6 and other pcs multiples of 8, so no
 * ordinary push meets an RCU head's pc by chance.
 */
#ifndef SMCOSIM_SCHED_STIM_H
#define SMCOSIM_SCHED_STIM_H

#include "sched_if.h"

typedef struct sched_stim sched_stim;

typedef struct sched_stim_opts {
    uint64_t seed;
    int      policy;          /* fixed policy, or -1 to switch at random */
    unsigned reg_range;       /* 0: the whole id space (see above); n: ids 0..n-1 */
    int      violate;         /* 1: also generate the dropped/ignored violations */
    int      haws;            /* 1: HAWS stimulus (see above) */
    int      groups;          /* 1: the grouped policy among the random ones
                                 (policy -1), launch_group ids at launches and
                                 a toggling group_prio */
    int      oaws_on;         /* 1: OAWS always on (static or dynamic), never off */
} sched_stim_opts;
/* Mechanisms the params omit (sched_params.omit) get no inputs: their draws
 * are made and dropped, so the other inputs stay as they are (HAWS: no HAWS
 * stimulus at all). */

/* What the stimulus generated so far (violation kinds only in violate mode). */
typedef struct sched_stim_counts {
    uint64_t push_full;        /* push into a buffer full at the start of the cycle */
    uint64_t push_dead;        /* push into a warp that is not alive */
    uint64_t push_lf;          /* push into a warp launched or finished in the cycle */
    uint64_t wb_stray;         /* writeback of a random (warp, reg) */
    uint64_t wb_dup;           /* the same writeback on two ports in one cycle */
    uint64_t wb_same_cycle;    /* writeback in the cycle of its issue */
    uint64_t wb_stale;         /* writeback of a previous life, after the relaunch */
    uint64_t launch_pending;   /* launch with writebacks still to come */
    uint64_t launch_alive;     /* launch of an alive warp */
    uint64_t finish_dead;      /* finish of a warp that is not alive */
    uint64_t launch_finish;    /* launch and finish of one warp in one cycle */
    uint64_t idle_fields;      /* idle port driven with nonzero fields */
    uint64_t level_range;      /* warp limit or pool size beyond the warps */
    /* coverage, both modes */
    uint64_t sb_full;          /* cycles with a warp at sb_entries outstanding writebacks */
    /* HAWS coverage, as seen on the outputs */
    uint64_t haws_entries;     /* haws_mode rose */
    uint64_t haws_chain;       /* chain members pushed (answers to fetch_pc) */
    uint64_t haws_renames;     /* ... of them renamed */
    uint64_t haws_branches;    /* ... of them conditional branches */
    uint64_t haws_hbr;         /* branch outcomes given (divergent ones included) */
    uint64_t haws_hinted;      /* issues in hint mode */
    uint64_t haws_exit_load;   /* haws_mode fell with the chain not over: exit (a) */
    uint64_t haws_exit_chain;  /* ... with the chain over and no long writeback of
                                  the warp at that edge: exit (b) */
    uint64_t haws_skips, haws_copies, haws_reexecs;   /* return-pass pushes */
    uint64_t haws_copy_issues; /* copies issued */
    /* OAWS coverage, as seen on the outputs */
    uint64_t oaws_occluded;    /* scheduler-cycles with reason occluded */
    uint64_t oaws_eff_issues;  /* issues with eff_miss != 0 */
    uint64_t oaws_inflight_max;/* largest miss_inflight seen */
    uint64_t oaws_ocw_moves;   /* cycles in which ocw changed */
    uint64_t peer_ccws_holds;  /* cycles in which CCWS held some warp */
    uint64_t peer_owner_moves; /* cycles in which MASCAR's owner changed */
    uint64_t group_cycles;     /* cycles under the grouped policy (groups 1) */
} sched_stim_counts;

sched_stim *sched_stim_create(const sched_params *p, const sched_stim_opts *o);
/* Inputs for the current cycle, from the current outputs. */
void        sched_stim_next(sched_stim *st, const sched_outputs *out, sched_inputs *in);
const sched_stim_counts *sched_stim_stats(const sched_stim *st);
void        sched_stim_destroy(sched_stim *st);

#endif
