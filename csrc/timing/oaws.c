/*
 * oaws.c — DLC, OCW estimation and decode-time miss prediction of OAWS
 * (oaws.h; docs/oaws.md; seed 001 §4.2–§4.4). Decisions where the paper is
 * silent follow ../shared/design/oaws.md §C.6 (numbered #N below).
 */
#include "oaws.h"

#include <string.h>

void oaws_sm_reset(oaws_sm *o, const oaws_params *p)
{
    (void)p;
    memset(o, 0, sizeof *o);
}

const oaws_dlc_entry *oaws_dlc_find(const oaws_sm *o, uint32_t pc)
{
    for (unsigned i = 0; i < o->n; i++)
        if (o->dlc[i].pc == pc)
            return &o->dlc[i];
    return NULL;
}

void oaws_dlc_update(oaws_sm *o, const oaws_params *p, uint32_t pc, unsigned acc, unsigned sets)
{
    oaws_dlc_entry *e = (oaws_dlc_entry *)oaws_dlc_find(o, pc);
    if (!e) {
        /* §4.2: a new divergent load gets an entry; §4.4 "managed under the
         * LRU policy": a full table drops the least recently updated (#16) */
        if (o->n < p->dlc_entries) {
            e = &o->dlc[o->n++];
        } else {
            e = &o->dlc[0];
            for (unsigned i = 1; i < o->n; i++)
                if (o->dlc[i].stamp < e->stamp)
                    e = &o->dlc[i];
        }
        memset(e, 0, sizeof *e);
        e->pc = pc;
    }
    if (acc > OAWS_FIELD_MAX)
        acc = OAWS_FIELD_MAX;
    if (sets > OAWS_FIELD_MAX)
        sets = OAWS_FIELD_MAX;
    /* 10-bit #acc/#sets (§4.4): halve the entry before either would pass
     * 1023, so the ratios the associativity test reads are kept (#16) */
    while (e->acc + acc > OAWS_FIELD_MAX || e->sets + sets > OAWS_FIELD_MAX) {
        e->acc >>= 1;
        e->sets >>= 1;
        e->inst >>= 1;
    }
    e->acc = (uint16_t)(e->acc + acc);
    e->sets = (uint16_t)(e->sets + sets);
    if (e->inst < OAWS_INST_MAX)  /* 7-bit #inst (§4.4) saturates */
        e->inst++;
    e->stamp = ++o->clock;
}

int oaws_assoc_sensitive(const oaws_dlc_entry *e)
{
    return e && 2u * e->acc > 3u * e->sets;   /* #acc > #sets x 1.5 (§4.3.1, #15) */
}

unsigned oaws_predict(const oaws_sm *o, const oaws_params *p, int is_load_gl, uint32_t pc,
                      unsigned lanes, uint8_t *pred_div)
{
    unsigned rate = p->mode == OAWS_DYNAMIC ? 50 : p->smr;   /* §4.3.2: Div_pred x 50 % */
    *pred_div = 0;
    if (p->mode == OAWS_OFF || rate == 0 || !is_load_gl)
        return 0;                 /* #5: SMR 0 disables; #6: only global/local loads */
    if (!oaws_dlc_find(o, pc))
        return 1;                 /* §4.1.1: a coherent load, one miss */
    *pred_div = 1;
    return (lanes * rate + 99) / 100;   /* Miss_pred = Div_pred x SMR, rounded up (#4) */
}

unsigned oaws_ocw_event(const oaws_params *p, int fully_cached, int sensitive, uint8_t *half)
{
    *half = !fully_cached && (p->delta == OAWS_DELTA_HALF ||
                              (p->delta == OAWS_DELTA_AUTO && sensitive));
    return fully_cached ? 1 : 2;
}
