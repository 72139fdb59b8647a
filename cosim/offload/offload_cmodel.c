/*
 * offload_cmodel.c -- the "cmodel" offload transport: one C model instance
 * per lane behind the token codec. It is the reference the device
 * transports are compared with, and a test double for the offload back end
 * that needs no OpenCL (offload_transport.h).
 */
#include "offload_transport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct offload_dev {
    sched_params    params;
    unsigned        lanes;
    sched_backend **lane;
    long long       fail_at;     /* test hook "fail_at=N": exchange N fails; -1 = never */
    long long       runs;
};

static void cm_close(offload_dev *d)
{
    if (!d)
        return;
    for (unsigned l = 0; l < d->lanes; l++)
        if (d->lane && d->lane[l])
            sched_destroy(d->lane[l]);
    free(d->lane);
    free(d);
}

static offload_dev *cm_open(const sched_params *p, unsigned lanes, const char *arg, char *err,
                            size_t errlen)
{
    /* "fail_at=N": a test hook for the offload back end's handling of a
     * failing device (exchange N, counted from 0, reports a failure) */
    long long fail_at = -1;
    if (arg && *arg) {
        char *end;
        if (strncmp(arg, "fail_at=", 8) != 0 || (fail_at = strtoll(arg + 8, &end, 10)) < 0 ||
            end == arg + 8 || *end) {
            snprintf(err, errlen, "takes no argument (got '%s'; only the test hook "
                     "fail_at=N)", arg);
            return NULL;
        }
    }
    offload_dev *d = calloc(1, sizeof *d);
    if (!d || !(d->lane = calloc(lanes, sizeof *d->lane))) {
        free(d);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    d->params = *p;
    d->lanes = lanes;
    d->fail_at = fail_at;
    for (unsigned l = 0; l < lanes; l++) {
        d->lanes = l + 1;
        if (!(d->lane[l] = sched_cmodel_create(p, err, errlen))) {
            cm_close(d);
            return NULL;
        }
    }
    return d;
}

static int cm_run(offload_dev *d, unsigned k, const uint8_t *ctl, const uint64_t *in,
                  uint64_t *out, char *err, size_t errlen)
{
    unsigned iw = offload_words(offload_in_bits(&d->params));
    unsigned ow = offload_words(offload_out_bits(&d->params));
    sched_inputs si;
    if (d->runs++ == d->fail_at) {
        snprintf(err, errlen, "injected device failure (fail_at=%lld)", d->fail_at);
        return -1;
    }
    for (unsigned c = 0; c < k; c++)
        for (unsigned l = 0; l < d->lanes; l++) {
            size_t i = (size_t)c * d->lanes + l;
            if (ctl[i] & OFFLOAD_CTL_RESET)
                sched_reset(d->lane[l]);
            if (ctl[i] & OFFLOAD_CTL_STEP) {
                offload_unpack_inputs(&d->params, in + i * iw, &si);
                if (sched_step(d->lane[l], &si) != 0) {
                    snprintf(err, errlen, "lane %u, cycle %u of the exchange: %s", l, c,
                             sched_error(d->lane[l]));
                    return -1;
                }
            }
            offload_pack_outputs(&d->params, sched_get_outputs(d->lane[l]), out + i * ow);
        }
    return 0;
}

const offload_transport offload_transport_cmodel = {
    .name = "cmodel", .open = cm_open, .run = cm_run, .close = cm_close,
};
