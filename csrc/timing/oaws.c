/*
 * oaws.c — OAWS's decode-time miss prediction and OCW events (oaws.h;
 * docs/oaws.md; seed 001 §4.2–§4.4). Decisions where the paper is silent follow ../shared/design/oaws.md §C.6 (numbered #N below).
 */
#include "oaws.h"

#include <string.h>

void oaws_sm_reset(oaws_sm *o, const oaws_params *p)
{
    (void)p;
    memset(o, 0, sizeof *o);
}

unsigned oaws_predict(const oaws_params *p, int is_load_gl, int in_dlc, unsigned lanes,
                      uint8_t *pred_div)
{
    unsigned rate = p->mode == OAWS_DYNAMIC ? 50 : p->smr;   /* §4.3.2: Div_pred x 50 % */
    *pred_div = 0;
    if (p->mode == OAWS_OFF || rate == 0 || !is_load_gl)
        return 0;                 /* #5: SMR 0 disables; #6: only global/local loads */
    if (!in_dlc)
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
