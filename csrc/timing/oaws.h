/*
 * oaws.h — the SM-side OAWS logic that the paper places beside the L1D, in
 * the memory access coalescing unit (MACU): the Divergent Load Classifier
 * (DLC) and the per-instruction miss prediction computed at decode (docs/oaws.md; seed 001 = B. Wang, Y. Zhu,
 * W. Yu, "OAWS: Memory Occlusion Aware Warp Scheduling", PACT'16, §4.2–§4.4).
 *
 * The scheduler core (rtl/sched_oaws.sv and its C model) applies Eq. 1 with
 * what this file computes: the stored prediction (pred_miss, pred_div) that
 * goes with each pushed instruction. The OCW logic (Fig. 7) is in the core
 * (rtl/sched_oaws_ocw.sv, sched_oaws_ocw_step() in cosim/sched_if.h); the
 * timing model reports its events. smcosim's memory side
 * is C (mem-model/), so this MACU logic is C too; it is plain integer logic
 * with the paper's widths (docs/oaws.md, "Where each piece lives").
 */
#ifndef SMCOSIM_OAWS_H
#define SMCOSIM_OAWS_H

#include <stdint.h>

#define OAWS_DLC_MAX      64      /* largest sched.oaws_dlc_entries */
#define OAWS_INST_MAX     127     /* #inst: 7 bits (§4.4) */
#define OAWS_FIELD_MAX    1023    /* #acc, #sets: 10 bits (§4.4) */

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

typedef struct oaws_dlc_entry {
    uint32_t pc;
    uint16_t inst, acc, sets;     /* #inst, #acc, #sets */
    uint64_t stamp;               /* last update (least recently updated is evicted) */
} oaws_dlc_entry;

/* One SM's state; cleared at every kernel launch ("DLC is cleared at each
 * kernel invocation", §4.2). */
typedef struct oaws_sm {
    oaws_dlc_entry dlc[OAWS_DLC_MAX];
    unsigned n;                   /* valid entries (the first n) */
    uint64_t clock;               /* update counter for the stamps */
    unsigned unretired;           /* eff of issued LD/ST instructions still in the unit */
} oaws_sm;

void oaws_sm_reset(oaws_sm *o, const oaws_params *p);

/* The DLC entry of pc, or NULL. */
const oaws_dlc_entry *oaws_dlc_find(const oaws_sm *o, uint32_t pc);

/* A divergent global/local load occurrence (the coalescer's verdict): insert
 * or update the entry of pc with #acc = transactions, #sets = sets. #inst
 * saturates at 127; when #acc or #sets would pass 1023 all three fields of
 * the entry are halved first (the ratios stay); a new pc in a full table
 * replaces the least recently updated entry. */
void oaws_dlc_update(oaws_sm *o, const oaws_params *p, uint32_t pc, unsigned acc, unsigned sets);

/* Associativity-sensitive (§4.3.1): #acc > #sets x 1.5, on the entry's
 * accumulated fields (2·#acc > 3·#sets); no entry: not sensitive. */
int oaws_assoc_sensitive(const oaws_dlc_entry *e);

/* The stored prediction of an instruction at decode (§4.2, §4.3.2):
 * is_load_gl: a global or local load (generic loads count as global);
 * lanes: active threads (Div_pred). Sets *pred_div to "pc is in the DLC"
 * and returns pred_miss: ceil(lanes x rate / 100) for a DLC load, 1 for
 * another global/local load, 0 for everything else, and 0 for every
 * instruction when the rate is 0 (SMR 0 % = GTO, §5.4). rate = smr for
 * static, 50 for dynamic. */
unsigned oaws_predict(const oaws_sm *o, const oaws_params *p, int is_load_gl, uint32_t pc,
                      unsigned lanes, uint8_t *pred_div);

/* The OCW logic's event for a divergent load whose accesses were all
 * serviced by the L1D (§4.3.1, Fig. 7): 1 when fully cached (no access
 * missed), else 2; *half: Δ = CNT/2 (at least 1), chosen by sched.oaws_delta
 * (auto: for an associativity-sensitive load, `sensitive`). */
unsigned oaws_ocw_event(const oaws_params *p, int fully_cached, int sensitive, uint8_t *half);

#endif
