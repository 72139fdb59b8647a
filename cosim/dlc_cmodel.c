/*
 * dlc_cmodel.c — the C model of OAWS's DLC, the twin of rtl/macu_dlc.sv
 * (dlc.h; docs/oaws.md "DLC"; seed 001 §4.2, §4.4). Decisions where the
 * paper is silent follow ../shared/design/oaws.md §C.6 (#N below).
 */
#include "dlc.h"

#include <string.h>

void dlc_cmodel_init(dlc_cmodel *m, unsigned entries)
{
    memset(m, 0, sizeof *m);
    m->entries = entries;
}

void dlc_cmodel_clear(dlc_cmodel *m)
{
    m->n = 0;     /* "DLC is cleared at each kernel invocation" (§4.2) */
}

const dlc_entry *dlc_cmodel_find(const dlc_cmodel *m, uint32_t pc)
{
    for (unsigned i = 0; i < m->n; i++)
        if (m->e[i].pc == pc)
            return &m->e[i];
    return NULL;
}

void dlc_cmodel_fill(dlc_cmodel *m, uint32_t pc, unsigned acc, unsigned sets)
{
    dlc_entry *e = (dlc_entry *)dlc_cmodel_find(m, pc);
    if (!e) {
        /* §4.2: a new divergent load gets an entry; §4.4 "managed under the
         * LRU policy": a full table drops the least recently filled (#16) */
        if (m->n < m->entries) {
            e = &m->e[m->n++];
        } else {
            e = &m->e[0];
            for (unsigned i = 1; i < m->n; i++)
                if (m->e[i].stamp < e->stamp)
                    e = &m->e[i];
        }
        memset(e, 0, sizeof *e);
        e->pc = pc;
    }
    if (acc > DLC_FILL_MAX)
        acc = DLC_FILL_MAX;
    if (sets > DLC_FILL_MAX)
        sets = DLC_FILL_MAX;
    /* 10-bit #acc/#sets (§4.4): halve the entry before either would pass
     * 1023, so the ratio the associativity test reads is kept (#16); with
     * fills below 128 one halving always makes room */
    if (e->acc + acc > DLC_FIELD_MAX || e->sets + sets > DLC_FIELD_MAX) {
        e->acc >>= 1;
        e->sets >>= 1;
    }
    e->acc = (uint16_t)(e->acc + acc);
    e->sets = (uint16_t)(e->sets + sets);
    e->assoc = 2u * e->acc > 3u * e->sets;   /* #acc > #sets x 1.5 (§4.3.1, #15) */
    e->stamp = ++m->clock;
}
