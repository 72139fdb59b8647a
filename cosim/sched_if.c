/*
 * sched_if.c -- what every back end of sched_if.h shares: names, parameter
 * and input checking, output comparison and the dispatch through the vtable.
 */
#include "sched_if.h"
#include "sched_inputs_scan.h"
#include "sched_ports.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char *const reason_names[SCHED_NUM_REASONS] = {
#define SCHED_REASON(id, code, name, ts, stat, doc) [code] = name,
#include "sched_reasons.def"
};
static const char *const policy_names[SCHED_NUM_POLICIES] = { "lrr", "gto", "two_level", "grouped" };

const char *sched_reason_name(unsigned reason)
{
    return reason < SCHED_NUM_REASONS ? reason_names[reason] : "?";
}

const char *sched_policy_name(unsigned policy)
{
    return policy < SCHED_NUM_POLICIES ? policy_names[policy] : "?";
}

int sched_policy_parse(const char *name)
{
    for (int i = 0; i < SCHED_NUM_POLICIES; i++)
        if (strcmp(name, policy_names[i]) == 0) return i;
    return -1;
}

void sched_params_default(sched_params *p)
{
    p->num_warps = 64;
    p->num_schedulers = 4;
    p->reg_id_width = 8;
    p->ibuf_depth = 2;
    p->sb_entries = 6;
    p->wb_ports = 4;
    p->rcu_depth = 8;       /* seed 000 §5.3.3: 8 entries, "selected based on our experiments" */
    p->ren_entries = 8;     /* seed 000 §5.3.6: 8 x 16-bit renaming table */
    p->omit = 0;            /* every mechanism */
}

int sched_params_check(const sched_params *p, char *err, size_t errlen)
{
#define PCHECK(cond, ...) do { if (!(cond)) { snprintf(err, errlen, __VA_ARGS__); return -1; } } while (0)
    PCHECK(p->num_schedulers >= 1 && p->num_schedulers <= SCHED_MAX_SCHEDULERS,
           "num_schedulers=%u: must be 1..%d", p->num_schedulers, SCHED_MAX_SCHEDULERS);
    PCHECK(p->num_warps >= 1 && p->num_warps <= SCHED_MAX_WARPS,
           "num_warps=%u: must be 1..%d", p->num_warps, SCHED_MAX_WARPS);
    PCHECK(p->num_warps % p->num_schedulers == 0,
           "num_warps=%u: must be a multiple of num_schedulers=%u", p->num_warps, p->num_schedulers);
    PCHECK(p->reg_id_width >= 1 && p->reg_id_width <= SCHED_MAX_REG_ID_WIDTH,
           "reg_id_width=%u: must be 1..%d", p->reg_id_width, SCHED_MAX_REG_ID_WIDTH);
    PCHECK(p->ibuf_depth >= 1 && p->ibuf_depth <= SCHED_MAX_IBUF_DEPTH,
           "ibuf_depth=%u: must be 1..%d", p->ibuf_depth, SCHED_MAX_IBUF_DEPTH);
    PCHECK(p->sb_entries >= 1 && p->sb_entries <= SCHED_MAX_SB_ENTRIES,
           "sb_entries=%u: must be 1..%d", p->sb_entries, SCHED_MAX_SB_ENTRIES);
    PCHECK(p->wb_ports >= 1 && p->wb_ports <= SCHED_MAX_WB_PORTS,
           "wb_ports=%u: must be 1..%d", p->wb_ports, SCHED_MAX_WB_PORTS);
    PCHECK(p->rcu_depth <= SCHED_MAX_RCU_DEPTH,
           "rcu_depth=%u: must be 0..%d", p->rcu_depth, SCHED_MAX_RCU_DEPTH);
    PCHECK(p->ren_entries <= SCHED_MAX_REN_ENTRIES,
           "ren_entries=%u: must be 0..%d", p->ren_entries, SCHED_MAX_REN_ENTRIES);
    PCHECK((p->omit & ~SCHED_OMIT_ALL) == 0,
           "omit=0x%x: only bits 0 (OAWS), 1 (peers), 2 (grouped) and 3 (HAWS) exist", p->omit);
    return 0;
#undef PCHECK
}

int sched_inputs_check(const sched_params *p, const sched_inputs *in, char *err, size_t errlen)
{
#define ICHECK(cond, ...) do { if (!(cond)) { snprintf(err, errlen, __VA_ARGS__); return -1; } } while (0)
    uint64_t warps = p->num_warps == 64 ? ~0ull : (1ull << p->num_warps) - 1;
    unsigned reg_limit = 1u << p->reg_id_width;

    unsigned push_valid, wb_valid;
    if (sched_inputs_scan(p, in, &push_valid, &wb_valid)) return 0;

    /* Something is out of range: find it and name it. */
    ICHECK(in->policy < SCHED_NUM_POLICIES,
           "input policy=%u: unsupported (0 lrr, 1 gto, 2 two_level, 3 grouped)", in->policy);
    /* mechanisms the core was built without (sched_params.omit) */
    ICHECK(!(p->omit & SCHED_OMIT_GROUPED) || in->policy != SCHED_POLICY_GROUPED,
           "input policy=3 (grouped): this core omits the grouped policy (sched_params.omit)");
    ICHECK(!(p->omit & SCHED_OMIT_OAWS) || !(in->oaws | in->ocw_event | in->ldst_retire_miss),
           "input oaws=%u ocw_event=%u ldst_retire_miss=%u: this core omits OAWS (sched_params.omit)",
           in->oaws, in->ocw_event, in->ldst_retire_miss);
    ICHECK(!(p->omit & SCHED_OMIT_PEERS) || !(in->peer | in->vta_valid),
           "input peer=%u vta_valid=%u: this core omits CCWS and MASCAR (sched_params.omit)",
           in->peer, in->vta_valid);
    if (p->omit & SCHED_OMIT_HAWS) {
        ICHECK(in->haws == 0, "input haws=%u: this core omits HAWS (sched_params.omit)", in->haws);
        for (unsigned s = 0; s < SCHED_MAX_SCHEDULERS; s++)
            ICHECK(!in->hbr[s].valid && !in->push[s].rcu,
                   "input hbr[%u].valid=%u push[%u].rcu=%u: this core omits HAWS (sched_params.omit)",
                   s, in->hbr[s].valid, s, in->push[s].rcu);
    }
    ICHECK(in->group_prio <= 1, "input group_prio=%u: must be 0 or 1", in->group_prio);
    for (unsigned w = 0; w < SCHED_MAX_WARPS; w++)
        ICHECK(in->launch_group[w] < 64, "input launch_group[%u]=%u: 6 bits", w, in->launch_group[w]);
    ICHECK(in->warp_limit <= 127, "input warp_limit=%u: must be 0..127", in->warp_limit);
    ICHECK(in->pool_size <= 127, "input pool_size=%u: must be 0..127", in->pool_size);
    ICHECK(in->oaws <= 2, "input oaws=%u: must be 0 (off), 1 (static) or 2 (dynamic)", in->oaws);
    ICHECK(in->mshr_avail <= 127, "input mshr_avail=%u: must be 0..127", in->mshr_avail);
    ICHECK(in->ocw_event <= 3, "input ocw_event=%u: must be 0..3", in->ocw_event);
    ICHECK(in->ocw_half <= 1, "input ocw_half=%u: must be 0 or 1", in->ocw_half);
    ICHECK(in->ocw_min <= 127, "input ocw_min=%u: must be 0..127", in->ocw_min);
    ICHECK(in->ocw_max <= 127, "input ocw_max=%u: must be 0..127", in->ocw_max);
    ICHECK(in->oaws_cap <= 127, "input oaws_cap=%u: must be 0..127", in->oaws_cap);
    ICHECK(in->ldst_retire_miss <= 127, "input ldst_retire_miss=%u: must be 0..127",
           in->ldst_retire_miss);
    ICHECK(in->peer <= 2, "input peer=%u: must be 0 (none), 1 (CCWS) or 2 (MASCAR)", in->peer);
    ICHECK(in->ccws_base <= 1023, "input ccws_base=%u: must be 0..1023", in->ccws_base);
    ICHECK(in->ccws_bump <= 4095, "input ccws_bump=%u: must be 0..4095", in->ccws_bump);
    ICHECK(in->vta_valid <= 1, "input vta_valid=%u: must be 0 or 1", in->vta_valid);
    ICHECK(in->vta_warp <= 63, "input vta_warp=%u: 6 bits", in->vta_warp);
    ICHECK(in->mascar_sat <= 1, "input mascar_sat=%u: must be 0 or 1", in->mascar_sat);
    ICHECK((in->barrier & ~warps) == 0, "input barrier: bits set beyond num_warps=%u", p->num_warps);
    ICHECK((in->launch & ~warps) == 0, "input launch: bits set beyond num_warps=%u", p->num_warps);
    ICHECK((in->finish & ~warps) == 0, "input finish: bits set beyond num_warps=%u", p->num_warps);
    for (unsigned s = 0; s < SCHED_MAX_SCHEDULERS; s++)
        ICHECK(in->unit_avail[s] < 16, "input unit_avail[%u]=%u: 4 bits", s, in->unit_avail[s]);
    for (unsigned s = p->num_schedulers; s < SCHED_MAX_SCHEDULERS; s++)
        ICHECK(!in->push[s].valid, "input push[%u]: only %u schedulers", s, p->num_schedulers);
    for (unsigned k = p->wb_ports; k < SCHED_MAX_WB_PORTS; k++)
        ICHECK(!in->wb[k].valid, "input wb[%u]: only %u writeback ports", k, p->wb_ports);
    for (unsigned s = 0; s < p->num_schedulers; s++) {
        const sched_push *ps = &in->push[s];
        if (!ps->valid) continue;
        ICHECK(ps->valid == 1, "input push[%u].valid must be 0 or 1", s);
        unsigned owner = (p->num_schedulers & (p->num_schedulers - 1)) == 0
                       ? ps->warp & (p->num_schedulers - 1) : ps->warp % p->num_schedulers;
        ICHECK(ps->warp < p->num_warps && owner == s,
               "input push[%u].warp=%u: not a warp of scheduler %u", s, ps->warp, s);
        const sched_instr *i = &ps->instr;
        ICHECK(i->op < SCHED_NUM_OP_CLASSES, "input push[%u].op=%u: must be 0..3", s, i->op);
        ICHECK(i->dst_valid <= 1 && i->pred <= 1 && i->long_lat <= 1,
               "input push[%u]: dst_valid/pred/long_lat must be 0 or 1", s);
        ICHECK(i->dst < reg_limit && i->src[0] < reg_limit && i->src[1] < reg_limit &&
               i->src[2] < reg_limit, "input push[%u]: register id wider than %u bits", s,
               p->reg_id_width);
        ICHECK(i->src_valid < 8, "input push[%u].src_valid=%u: 3 bits", s, i->src_valid);
        ICHECK(i->pred_miss < 64, "input push[%u].pred_miss=%u: 6 bits (0..63)", s, i->pred_miss);
        ICHECK(i->pred_div <= 1, "input push[%u].pred_div=%u: must be 0 or 1", s, i->pred_div);
        ICHECK(i->hint <= 0xFFFFFFu, "input push[%u].hint=0x%x: 24 bits", s, (unsigned)i->hint);
        ICHECK(ps->rcu <= 3, "input push[%u].rcu=%u: must be 0..3", s, ps->rcu);
    }
    ICHECK(in->haws <= 2, "input haws=%u: must be 0 (off), 1 (per warp) or 2 (scheduler idle)",
           in->haws);
    for (unsigned s = 0; s < SCHED_MAX_SCHEDULERS; s++) {
        const sched_hbr *h = &in->hbr[s];
        if (!h->valid && !h->warp && !h->taken && !h->uniform) continue;
        ICHECK(h->valid == 1, "input hbr[%u].valid=%u: must be 1 when a field is set", s, h->valid);
        ICHECK(s < p->num_schedulers, "input hbr[%u]: only %u schedulers", s, p->num_schedulers);
        ICHECK(h->warp < p->num_warps && h->warp % p->num_schedulers == s,
               "input hbr[%u].warp=%u: not a warp of scheduler %u", s, h->warp, s);
        ICHECK(h->taken <= 1 && h->uniform <= 1, "input hbr[%u]: taken/uniform must be 0 or 1", s);
    }
    for (unsigned k = 0; k < p->wb_ports; k++) {
        const sched_writeback *wb = &in->wb[k];
        if (!wb->valid) continue;
        ICHECK(wb->valid == 1, "input wb[%u].valid must be 0 or 1", k);
        ICHECK(wb->warp < p->num_warps, "input wb[%u].warp=%u: >= num_warps", k, wb->warp);
        ICHECK(wb->reg < reg_limit, "input wb[%u].reg=%u: wider than %u bits", k, wb->reg,
               p->reg_id_width);
    }
    return 0;
#undef ICHECK
}

/* The name of field k of group g of an output port, as the lockstep checker
 * reports it: the port's name without "_o" and the group, "issue_warp[2]";
 * the fields of a multi-field output (the counters, one per stall reason) are
 * named by the reason, "counter_scoreboard[2]". */
static void output_field_name(char *buf, size_t len, const char *port, unsigned per, unsigned g,
                              unsigned k)
{
    int stem = (int)strlen(port) - 2;                       /* without "_o" */
    if (per == 1)
        snprintf(buf, len, "%.*s[%u]", stem, port, g);
    else                                                    /* "counters" -> "counter_..." */
        snprintf(buf, len, "%.*s_%s[%u]", stem - 1, port, sched_reason_name(k), g);
}

int sched_outputs_compare(const sched_params *p, const sched_outputs *a, const sched_outputs *b,
                          char *signal, size_t signal_len, uint64_t *value_a, uint64_t *value_b)
{
    SCHED_PORT_PARAMS(p);
    /* Every field of every output port (sched_ports.def): scheduler by
     * scheduler, then per writeback port, then the unreplicated ports. */
#define CMP_PORT(name, per, value)                                                   \
    for (unsigned k = 0; k < (per); k++) {                                           \
        uint64_t va, vb;                                                             \
        { const sched_outputs *o = a; va = (uint64_t)(value); }                      \
        { const sched_outputs *o = b; vb = (uint64_t)(value); }                      \
        if (va != vb) {                                                              \
            output_field_name(signal, signal_len, #name, (per), g, k);               \
            *value_a = va;                                                           \
            *value_b = vb;                                                           \
            return 0;                                                                \
        }                                                                            \
    }
    for (unsigned g = 0; g < SCHED_REP_SCHED; g++) {
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc) \
        SCHED_PORT_IF_OUT(dir, SCHED_PORT_IF_REP(rep, SCHED, CMP_PORT(name, per, value)))
#include "sched_ports.def"
    }
    for (unsigned g = 0; g < SCHED_REP_WB; g++) {
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc) \
        SCHED_PORT_IF_OUT(dir, SCHED_PORT_IF_REP(rep, WB, CMP_PORT(name, per, value)))
#include "sched_ports.def"
    }
    {
        const unsigned g = 0;
        (void)g;
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc) \
        SCHED_PORT_IF_OUT(dir, SCHED_PORT_IF_REP(rep, ONE, CMP_PORT(name, per, value)))
#include "sched_ports.def"
    }
    return 1;
#undef CMP_PORT
}

int sched_haws_check(const sched_params *p, const sched_outputs *o, const sched_inputs *in,
                     char *err, size_t errlen)
{
#define HCHECK(cond, ...) do { if (!(cond)) { snprintf(err, errlen, __VA_ARGS__); return -1; } } while (0)
    for (unsigned s = 0; s < p->num_schedulers; s++) {
        const sched_push *ps = &in->push[s];
        /* a warp out of range is reported by the input check that follows */
        if (!ps->valid || ps->warp >= p->num_warps) continue;
        unsigned w = ps->warp;
        int haws_warp = (int)(((o->haws_mode | o->rcu_busy) >> w) & 1);
        if (!haws_warp && ps->rcu == 0) continue;
        int answers = o->fetch_valid[s] && o->fetch_warp[s] == w;
        HCHECK(answers, "input push[%u].warp=%u: the warp is in hint mode or its RCU is busy; "
               "a push must answer fetch_warp[%u]", s, w, s);
        if (o->fetch_pc_valid[s]) {
            HCHECK(ps->instr.pc == o->fetch_pc[s],
                   "input push[%u].instr.pc=%u: a hint-mode push must be fetch_pc[%u]=%u", s,
                   (unsigned)ps->instr.pc, s, (unsigned)o->fetch_pc[s]);
            HCHECK(ps->rcu == 0, "input push[%u].rcu=%u: must be 0 in hint mode", s, ps->rcu);
            continue;
        }
        const sched_rcu_head *h = &o->fetch_rcu[s];
        int at_head = h->kind != SCHED_RCU_NONE && ps->instr.pc == h->pc;
        HCHECK(ps->rcu == 0 || at_head,
               "input push[%u].rcu=%u: pc %u is not the RCU head's (fetch_rcu[%u].pc=%u, kind %u)",
               s, ps->rcu, (unsigned)ps->instr.pc, s, (unsigned)h->pc, h->kind);
        HCHECK(ps->rcu != 0 || !at_head,
               "input push[%u].rcu=0: pc %u is the RCU head's; push.rcu must be %u", s,
               (unsigned)ps->instr.pc, h->kind);
        HCHECK(ps->rcu == h->kind || !at_head,
               "input push[%u].rcu=%u: the RCU head's kind is %u", s, ps->rcu, h->kind);
    }
    return 0;
#undef HCHECK
}

void sched_reset(sched_backend *b)
{
    b->cycle = 0;
    b->failed = 0;
    b->error[0] = '\0';
    b->ops->reset(b);
}

/* The HAWS rules on the current outputs: only while some warp has HAWS
 * state. The ranges of the inputs are checked after this (by the back end's
 * checked step, or sched_inputs_check), not twice: sched_haws_check skips a
 * push whose warp is out of range and that check names it. */
static inline __attribute__((always_inline)) int haws_rules(sched_backend *b,
                                                            const sched_inputs *in)
{
    unsigned rcu_push = 0;
    for (unsigned s = 0; s < b->params.num_schedulers; s++) rcu_push |= in->push[s].rcu;
    if (((b->out.haws_mode | b->out.rcu_busy) != 0 || rcu_push) &&
        sched_haws_check(&b->params, &b->out, in, b->error, sizeof b->error) != 0)
        return -1;
    return 0;
}

int sched_step_check(sched_backend *b, const sched_inputs *in)
{
    if (b->failed) return -1;
    if (haws_rules(b, in) != 0) return -1;
    return sched_inputs_check(&b->params, in, b->error, sizeof b->error);
}

int sched_step(sched_backend *b, const sched_inputs *in)
{
    if (b->failed) return -1;
    if (haws_rules(b, in) != 0) return -1;
    if (b->ops->checked_step) {
        if (b->ops->checked_step(b, in) != 0) return -1;
    } else {
        if (sched_inputs_check(&b->params, in, b->error, sizeof b->error) != 0) return -1;
        b->ops->step(b, in);
    }
    b->cycle++;
    return b->failed ? -1 : 0;
}

const sched_outputs *sched_get_outputs(const sched_backend *b) { return &b->out; }
uint64_t sched_cycle(const sched_backend *b) { return b->cycle; }
const sched_params *sched_get_params(const sched_backend *b) { return &b->params; }
const char *sched_error(const sched_backend *b) { return b->error; }
const char *sched_backend_name(const sched_backend *b) { return b->ops->name; }

void sched_destroy(sched_backend *b)
{
    if (b) b->ops->destroy(b);
}

void sched_counters(const sched_backend *b, unsigned s, uint32_t n[SCHED_NUM_REASONS])
{
    for (unsigned r = 0; r < SCHED_NUM_REASONS; r++)
        n[r] = s < b->params.num_schedulers ? b->out.counters[s][r] : 0;
}
