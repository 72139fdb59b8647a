/*
 * offload_check.c -- replay/check against an offload transport
 * (offload_check.h). The queue holds k cycles x all lanes: a control byte,
 * the input token and the driver's output token per lane and cycle, dense
 * so that one transport run takes it as it is.
 */
#include "offload_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct offload_check {
    sched_params             p;
    const offload_transport *t;
    offload_dev             *dev;
    char                     spec[128];
    char                     driver[32];
    unsigned                 lanes, k, iw, ow;
    unsigned                 nq;          /* cycles queued; slot nq is being filled */
    int                      cur_any;     /* slot nq has a lane with a control bit */
    uint8_t                 *ctl;         /* k x lanes */
    uint64_t                *in;          /* k x lanes x iw */
    uint64_t                *exp;         /* k x lanes x ow: the driver's outputs */
    uint64_t                *dev_out;     /* k x lanes x ow: the device's */
    uint64_t                *tag;         /* k */
    uint8_t                 *pend;        /* lanes: a reset not yet queued */
    uint64_t                *pend_out;    /* lanes x ow: the outputs after it */
    uint64_t                *lane_cycle;  /* lanes: cycles since reset, device side */
    sched_mutator           *mut;         /* lanes */
    void                   **mut_ctx;
    int                      failed;
    offload_check_fail       fail;
    uint64_t                 exchanges;
};

void offload_check_close(offload_check *c)
{
    if (!c)
        return;
    if (c->dev)
        c->t->close(c->dev);
    free(c->ctl);
    free(c->in);
    free(c->exp);
    free(c->dev_out);
    free(c->tag);
    free(c->pend);
    free(c->pend_out);
    free(c->lane_cycle);
    free(c->mut);
    free(c->mut_ctx);
    free(c);
}

offload_check *offload_check_open(const char *spec, const sched_params *p, unsigned lanes,
                                  unsigned k, const char *driver, char *err, size_t errlen)
{
    if (k == 0) {
        snprintf(err, errlen, "k (cycles per exchange) must be at least 1");
        return NULL;
    }
    unsigned iw = offload_words(offload_in_bits(p)), ow = offload_words(offload_out_bits(p));
    uint64_t slots = (uint64_t)k * lanes;
    uint64_t bytes = slots * ((uint64_t)(iw + 2 * ow) * 8 + 1) + (uint64_t)k * 8;
    if (bytes > OFFLOAD_CHECK_MAX_BYTES) {
        snprintf(err, errlen, "k=%u cycles x %u SMs needs %" PRIu64 " MiB of token buffers "
                 "(at most %" PRIu64 " MiB): use a smaller k", k, lanes, bytes >> 20,
                 OFFLOAD_CHECK_MAX_BYTES >> 20);
        return NULL;
    }
    offload_check *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    c->p = *p;
    c->lanes = lanes;
    c->k = k;
    c->iw = iw;
    c->ow = ow;
    snprintf(c->spec, sizeof c->spec, "%s", spec);
    snprintf(c->driver, sizeof c->driver, "%s", driver);
    c->ctl = calloc(slots, 1);
    c->in = calloc(slots * iw, 8);
    c->exp = calloc(slots * ow, 8);
    c->dev_out = calloc(slots * ow, 8);
    c->tag = calloc(k, 8);
    c->pend = calloc(lanes, 1);
    c->pend_out = calloc((size_t)lanes * ow, 8);
    c->lane_cycle = calloc(lanes, 8);
    c->mut = calloc(lanes, sizeof *c->mut);
    c->mut_ctx = calloc(lanes, sizeof *c->mut_ctx);
    if (!c->ctl || !c->in || !c->exp || !c->dev_out || !c->tag || !c->pend || !c->pend_out ||
        !c->lane_cycle || !c->mut || !c->mut_ctx) {
        offload_check_close(c);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    c->dev = offload_open_spec(spec, p, lanes, &c->t, err, errlen);
    if (!c->dev) {
        offload_check_close(c);
        return NULL;
    }
    return c;
}

void offload_check_reset(offload_check *c, unsigned lane, const sched_outputs *reset_out)
{
    if (!c || lane >= c->lanes)
        return;
    c->pend[lane] = 1;
    offload_pack_outputs(&c->p, reset_out, c->pend_out + (size_t)lane * c->ow);
}

void offload_check_record(offload_check *c, unsigned lane, const sched_inputs *in,
                          const sched_outputs *out)
{
    if (!c || c->failed || lane >= c->lanes)
        return;
    size_t i = (size_t)c->nq * c->lanes + lane;
    c->ctl[i] = OFFLOAD_CTL_STEP | (c->pend[lane] ? OFFLOAD_CTL_RESET : 0);
    c->pend[lane] = 0;
    offload_pack_inputs(&c->p, in, c->in + i * c->iw);
    offload_pack_outputs(&c->p, out, c->exp + i * c->ow);
    c->cur_any = 1;
}

static int fail_at(offload_check *c, offload_check_fail *f, unsigned lane, uint64_t tag,
                   const char *fmt, const char *a, uint64_t va, uint64_t vb)
{
    c->failed = 1;
    c->fail.lane = lane;
    c->fail.tag = tag;
    c->fail.lane_cycle = c->lane_cycle[lane];
    snprintf(c->fail.msg, sizeof c->fail.msg, fmt, c->lane_cycle[lane], a, c->driver, va, vb);
    *f = c->fail;
    return -1;
}

/* One lane-cycle of the device against the driver. */
static int compare_one(offload_check *c, size_t i, unsigned lane, uint64_t tag,
                       offload_check_fail *f)
{
    const uint64_t *d = c->dev_out + i * c->ow, *e = c->exp + i * c->ow;
    if (!c->mut[lane] && memcmp(d, e, c->ow * 8) == 0)
        return 0;
    sched_outputs od, oe;
    offload_unpack_outputs(&c->p, d, &od);
    offload_unpack_outputs(&c->p, e, &oe);
    if (c->mut[lane])
        c->mut[lane](&od, c->lane_cycle[lane], c->mut_ctx[lane]);
    char sig[64];
    uint64_t ve, vd;
    if (sched_outputs_compare(&c->p, &oe, &od, sig, sizeof sig, &ve, &vd))
        return 0;
    return fail_at(c, f, lane, tag,
                   "offload check mismatch at cycle %" PRIu64 ": %s: %s=0x%" PRIx64
                   " offload=0x%" PRIx64, sig, ve, vd);
}

int offload_check_sync(offload_check *c, offload_check_fail *f)
{
    if (!c)
        return 0;
    if (c->failed) {
        *f = c->fail;
        return -1;
    }
    if (c->nq == 0)
        return 0;
    char err[512] = "";
    c->exchanges++;
    if (c->t->run(c->dev, c->nq, c->ctl, c->in, c->dev_out, err, sizeof err) != 0) {
        c->failed = 1;
        c->fail.lane = 0;
        c->fail.tag = c->tag[0];
        c->fail.lane_cycle = c->lane_cycle[0];
        snprintf(c->fail.msg, sizeof c->fail.msg, "offload check: transport %s failed: %.180s",
                 c->t->name, err);
        *f = c->fail;
        return -1;
    }
    for (unsigned q = 0; q < c->nq; q++)
        for (unsigned l = 0; l < c->lanes; l++) {
            size_t i = (size_t)q * c->lanes + l;
            uint8_t ctl = c->ctl[i];
            if (!ctl)
                continue;
            if (ctl & OFFLOAD_CTL_RESET)
                c->lane_cycle[l] = 0;
            if (ctl & OFFLOAD_CTL_STEP)
                c->lane_cycle[l]++;
            if (compare_one(c, i, l, c->tag[q], f) != 0)
                return -1;
        }
    memset(c->ctl, 0, (size_t)c->nq * c->lanes);
    c->nq = 0;
    return 0;
}

int offload_check_end_cycle(offload_check *c, uint64_t tag, offload_check_fail *f)
{
    if (!c)
        return 0;
    if (c->failed) {
        *f = c->fail;
        return -1;
    }
    /* resets not followed by a step in this cycle: a reset-only cycle for
     * the lane (a reset after this cycle's step waits for the next one) */
    uint8_t *ctl = c->ctl + (size_t)c->nq * c->lanes;
    for (unsigned l = 0; l < c->lanes; l++)
        if (c->pend[l] && !ctl[l]) {
            ctl[l] = OFFLOAD_CTL_RESET;
            memcpy(c->exp + ((size_t)c->nq * c->lanes + l) * c->ow,
                   c->pend_out + (size_t)l * c->ow, c->ow * 8);
            c->pend[l] = 0;
            c->cur_any = 1;
        }
    if (!c->cur_any)
        return 0;
    c->cur_any = 0;
    c->tag[c->nq++] = tag;
    return c->nq == c->k ? offload_check_sync(c, f) : 0;
}

void offload_check_set_mutator(offload_check *c, unsigned lane, sched_mutator fn, void *ctx)
{
    if (!c || lane >= c->lanes)
        return;
    c->mut[lane] = fn;
    c->mut_ctx[lane] = ctx;
}

uint64_t offload_check_exchanges(const offload_check *c) { return c ? c->exchanges : 0; }
