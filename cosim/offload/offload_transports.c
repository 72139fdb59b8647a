/*
 * offload_transports.c -- the one table of offload transports
 * (offload_transport.h). A new transport is one row: its vtable, defined in
 * its own file, referenced weakly so that a program which does not link it
 * (e.g. one without OpenCL) still links; such a row is reported as not
 * built into this program.
 */
#include "offload_transport.h"

#include <stdio.h>
#include <string.h>

extern const offload_transport offload_transport_cmodel;
extern const offload_transport offload_transport_netlist __attribute__((weak));
extern const offload_transport offload_transport_vl_board __attribute__((weak));
extern const offload_transport offload_transport_ocl_board __attribute__((weak));

static const struct {
    const char              *name;
    const offload_transport *t;   /* NULL: not linked into this program */
} transports[] = {
    { "cmodel",    &offload_transport_cmodel },
    { "netlist",   &offload_transport_netlist },
    { "vl-board",  &offload_transport_vl_board },
    { "ocl-board", &offload_transport_ocl_board },
};
#define NUM_TRANSPORTS (sizeof transports / sizeof transports[0])

const offload_transport *offload_transport_find(const char *name)
{
    for (size_t i = 0; i < NUM_TRANSPORTS; i++)
        if (strcmp(transports[i].name, name) == 0)
            return transports[i].t;
    return NULL;
}

const char *offload_transport_names(void) { return "cmodel, netlist, vl-board, ocl-board"; }

offload_dev *offload_open_spec(const char *spec, const sched_params *p, unsigned lanes,
                               const offload_transport **t, char *err, size_t errlen)
{
    char name[32];
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    if (n == 0 || n >= sizeof name) {
        snprintf(err, errlen, "offload transport '%s': expected name[:arg] with a name of "
                 "%s", spec, offload_transport_names());
        return NULL;
    }
    memcpy(name, spec, n);
    name[n] = 0;
    int known = 0;
    for (size_t i = 0; i < NUM_TRANSPORTS; i++)
        known |= strcmp(transports[i].name, name) == 0;
    if (!known) {
        snprintf(err, errlen, "offload transport '%s': unknown (known: %s)", name,
                 offload_transport_names());
        return NULL;
    }
    *t = offload_transport_find(name);
    if (!*t) {
        snprintf(err, errlen, "offload transport '%s': not built into this program", name);
        return NULL;
    }
    if (lanes == 0) {
        snprintf(err, errlen, "offload transport '%s': needs at least one lane", name);
        return NULL;
    }
    char e2[512] = "";
    offload_dev *d = (*t)->open(p, lanes, colon ? colon + 1 : "", e2, sizeof e2);
    if (!d)
        snprintf(err, errlen, "offload transport '%s': %s", name, e2);
    return d;
}
