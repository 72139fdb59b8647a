/*
 * oaws.h — the SM-side OAWS logic of the timing model (docs/oaws.md; seed
 * 001 = B. Wang, Y. Zhu, W. Yu, "OAWS: Memory Occlusion Aware Warp
 * Scheduling", PACT'16, §4.2–§4.4): the per-instruction miss prediction
 * computed at decode from the Divergent Load Classifier's answer, and the
 * OCW event of a load that left the LD/ST unit.
 *
 * The DLC itself, which the paper places beside the L1D in the memory access
 * coalescing unit (MACU), is RTL with a C twin (rtl/macu_dlc.sv,
 * cosim/dlc.h), one per SM. The scheduler core (rtl/sched_oaws.sv and its C
 * model) applies Eq. 1 with the stored prediction (pred_miss, pred_div) that
 * goes with each pushed instruction. The OCW logic (Fig. 7) is in the core
 * (rtl/sched_oaws_ocw.sv, sched_oaws_ocw_step() in cosim/sched_if.h); the
 * timing model reports its events (docs/oaws.md, "Where each piece lives").
 */
#ifndef SMCOSIM_OAWS_H
#define SMCOSIM_OAWS_H

#include <stdint.h>

#define OAWS_DLC_MAX      64      /* largest sched.oaws_dlc_entries (= DLC_MAX_ENTRIES) */

enum oaws_mode { OAWS_OFF = 0, OAWS_STATIC = 1, OAWS_DYNAMIC = 2 };
/* Δ for partially cached loads (§4.3.1): auto = by the load's DLC entry
 * (associativity-sensitive: half, else one), or always one / always half. */
enum oaws_delta { OAWS_DELTA_AUTO = 0, OAWS_DELTA_ONE = 1, OAWS_DELTA_HALF = 2 };

typedef struct oaws_params {
    unsigned mode;                /* enum oaws_mode */
    unsigned smr;                 /* static miss rate, percent (dynamic: 50) */
    unsigned dlc_entries;         /* 1..OAWS_DLC_MAX (paper: 32) */
    unsigned cnt_max, cnt_init;   /* Cmax (255), CNT's initial value (128) */
    unsigned ocw_min, ocw_max;    /* OCW range (paper: 2 = schedulers, 48 = warps) */
    unsigned delta;               /* enum oaws_delta */
} oaws_params;

/* One SM's OAWS state beside its DLC (cosim/dlc.h, one per SM in tm_sm). */
typedef struct oaws_sm {
    unsigned unretired;           /* eff to give back to Miss_inflight at the next edges
                                     (LD/ST instructions that left the unit) */
} oaws_sm;

void oaws_sm_reset(oaws_sm *o, const oaws_params *p);

/* The stored prediction of an instruction at decode (§4.2, §4.3.2):
 * is_load_gl: a global or local load (generic loads count as global);
 * in_dlc: its pc has a DLC entry (dlc_lookup); lanes: active threads
 * (Div_pred). Sets *pred_div to in_dlc for such a load and returns
 * pred_miss: ceil(lanes x rate / 100) for a DLC load, 1 for another
 * global/local load, 0 for everything else, and 0 for every instruction when
 * the rate is 0 (SMR 0 % = GTO, §5.4). rate = smr for static, 50 for
 * dynamic. */
unsigned oaws_predict(const oaws_params *p, int is_load_gl, int in_dlc, unsigned lanes,
                      uint8_t *pred_div);
/* The OCW logic's event for a divergent load whose accesses were all
 * serviced by the L1D (§4.3.1, Fig. 7): 1 when fully cached (no access
 * missed), else 2; *half: Δ = CNT/2 (at least 1), chosen by sched.oaws_delta
 * (auto: for an associativity-sensitive load, `sensitive`). */
unsigned oaws_ocw_event(const oaws_params *p, int fully_cached, int sensitive, uint8_t *half);

#endif
