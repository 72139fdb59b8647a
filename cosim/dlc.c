/*
 * dlc.c — the DLC's back ends behind dlc.h: the C model, the Verilated RTL
 * (found like the scheduler core's, cosim/sched_open.c: linked, else from the
 * plugin libsmc_vsched.so), or both in lockstep, compared at every read.
 */
#include "dlc.h"
#include "sched_if.h"    /* sched_plugin_symbol */

#include <stdio.h>
#include <stdlib.h>

/* Weak: NULL in a program that does not link $(VSCHED_LIB). */
extern const vdlc_api *vdlc_api_get(void) __attribute__((weak));

struct dlc {
    dlc_kind        kind;
    unsigned        ports;
    dlc_cmodel      c;          /* DLC_C, DLC_LOCKSTEP */
    const vdlc_api *rtl_api;    /* DLC_RTL, DLC_LOCKSTEP */
    vdlc           *rtl;
    uint64_t        edges;      /* fills and clears so far (for messages) */
    char            failure[256];
};

static const vdlc_api *find_rtl(char *err, size_t errlen)
{
    if (vdlc_api_get)
        return vdlc_api_get();
    const vdlc_api *(*get)(void);
    /* POSIX: a data pointer from dlsym converts to a function pointer */
    *(void **)&get = sched_plugin_symbol("the OAWS DLC's RTL", "vdlc_api_get", err, errlen);
    return get ? get() : NULL;
}

dlc *dlc_open(dlc_kind kind, unsigned entries, unsigned ports, char *err, size_t errlen)
{
    if (entries < 1 || entries > DLC_MAX_ENTRIES) {
        snprintf(err, errlen, "DLC: %u entries (1..%d)", entries, DLC_MAX_ENTRIES);
        return NULL;
    }
    if (ports < 1 || (kind != DLC_C && ports > DLC_MAX_PORTS)) {
        snprintf(err, errlen, "DLC: %u read ports (1..%d: at most %d schedulers)", ports,
                 DLC_MAX_PORTS, DLC_MAX_PORTS - 1);
        return NULL;
    }
    dlc *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "DLC: out of memory");
        return NULL;
    }
    d->kind = kind;
    d->ports = ports;
    dlc_cmodel_init(&d->c, entries);
    if (kind != DLC_C) {
        d->rtl_api = find_rtl(err, errlen);
        d->rtl = d->rtl_api ? d->rtl_api->create(entries, err, errlen) : NULL;
        if (!d->rtl) {
            free(d);
            return NULL;
        }
    }
    return d;
}

void dlc_close(dlc *d)
{
    if (!d)
        return;
    if (d->rtl)
        d->rtl_api->destroy(d->rtl);
    free(d);
}

/* Lockstep: the two counts after an edge. */
static void check_count(dlc *d, const char *what)
{
    if (d->kind != DLC_LOCKSTEP || d->failure[0])
        return;
    unsigned r = d->rtl_api->count(d->rtl);
    if (r != d->c.n)
        snprintf(d->failure, sizeof d->failure,
                 "DLC lockstep mismatch after %s (edge %llu): C %u entries, RTL %u", what,
                 (unsigned long long)d->edges, d->c.n, r);
}

void dlc_clear(dlc *d)
{
    d->edges++;
    if (d->kind != DLC_RTL)
        dlc_cmodel_clear(&d->c);
    if (d->rtl)
        d->rtl_api->clear(d->rtl);
    check_count(d, "a clear");
}

void dlc_fill(dlc *d, uint32_t pc, unsigned acc, unsigned sets)
{
    d->edges++;
    /* (each half saturates acc and sets at its 7-bit ports) */
    if (d->kind != DLC_RTL)
        dlc_cmodel_fill(&d->c, pc, acc, sets);
    if (d->rtl)
        d->rtl_api->fill(d->rtl, pc, acc, sets);
    check_count(d, "a fill");
}

int dlc_lookup(dlc *d, unsigned port, uint32_t pc, int *assoc)
{
    int a = 0, hit = 0;
    if (d->kind != DLC_RTL) {
        const dlc_entry *e = dlc_cmodel_find(&d->c, pc);
        hit = e != NULL;
        a = e && e->assoc;
    }
    if (d->rtl) {
        int ra = 0, rh = d->rtl_api->lookup(d->rtl, port, pc, &ra);
        if (d->kind == DLC_RTL) {
            hit = rh;
            a = ra;
        } else if ((rh != hit || ra != a) && !d->failure[0]) {
            snprintf(d->failure, sizeof d->failure,
                     "DLC lockstep mismatch after edge %llu: lookup port %u pc %u: "
                     "C hit %d assoc %d, RTL hit %d assoc %d",
                     (unsigned long long)d->edges, port, pc, hit, a, rh, ra);
        }
    }
    if (assoc)
        *assoc = a;
    return hit;
}

unsigned dlc_count(dlc *d)
{
    return d->kind == DLC_RTL ? d->rtl_api->count(d->rtl) : d->c.n;
}

const char *dlc_failure(const dlc *d)
{
    return d->failure;
}

int dlc_test_corrupt(dlc *d, uint32_t pc, unsigned acc)
{
    dlc_entry *e = d->kind == DLC_LOCKSTEP ? (dlc_entry *)dlc_cmodel_find(&d->c, pc) : NULL;
    if (!e)
        return -1;
    e->acc = (uint16_t)acc;
    e->assoc = 2u * e->acc > 3u * e->sets;
    return 0;
}
