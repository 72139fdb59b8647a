/*
 * offload_vlboard.c -- the "vl-board" offload transport: the board RTL
 * kernel (fpga/board/sched_kernel.sv) as a Verilated model, driven here
 * cycle by cycle as an AXI4-Lite master and an AXI4-Stream source and sink
 * would drive it on a board (docs/offload.md, "Board kernel"). Nothing but
 * the kernel's pins is touched (vlboard_shim.h).
 *
 * Lanes beyond the kernel's NumLanes go to further kernel instances
 * ("compute units", as a Vitis link with nk=sched_kernel:N would place
 * them): lane l is lane l % NumLanes of unit l / NumLanes.
 *
 * arg: "stall=P,seed=S" (both optional; "" = no stalls). With P > 0 every
 * valid the host drives (AXI-Lite AW, W, AR; input stream) is raised only
 * with probability 1 - P/100 in a cycle, and every ready it drives (B, R,
 * output stream) is high with that probability, from a generator seeded
 * with S. Results must not depend on P or S: the kernel is
 * latency-insensitive (tests/offload/test_offload_board.c).
 */
#include "offload_transport.h"
#include "offload_board.h"
#include "vlboard_shim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cycles without any handshake before a run is declared hung. */
#define HANG_CYCLES 100000u

typedef struct unit {
    vlboard     *k;
    vlboard_pins io;
    unsigned     lanes;          /* lanes of the transport on this unit */
} unit;

struct offload_dev {
    sched_params params;
    unsigned     lanes, units, lanes_per_unit;
    unsigned     in_bits, out_bits, in_beats, out_beats;
    unsigned     stall;          /* percent */
    uint64_t     rng;
    unit        *u;
    uint64_t    *rec;            /* one unit's output beats of a run */
};

/* xorshift64*: the stall decisions. */
static unsigned rnd_pct(offload_dev *d)
{
    d->rng ^= d->rng >> 12;
    d->rng ^= d->rng << 25;
    d->rng ^= d->rng >> 27;
    return (unsigned)((d->rng * 2685821657736338717ull) >> 33) % 100;
}

/* A valid the host may raise this cycle / a ready it drives. */
static int go(offload_dev *d) { return d->stall == 0 || rnd_pct(d) >= d->stall; }

/* One clock cycle of a unit: drive io, evaluate, then the rising edge. The
 * handshakes of the cycle are those with valid and ready both high in io
 * after the first half (the caller looks at io between the two). */
static int tick(unit *u, char *err, size_t errlen)
{
    if (vlboard_tick(u->k) != 0) {
        snprintf(err, errlen, "an RTL assertion failed in the board kernel (see the %%Error "
                 "line above)");
        return -1;
    }
    return 0;
}

/* AXI4-Lite write of one register: AW and W raised independently (each
 * held once raised, until taken), then B taken. */
static int axil_write(offload_dev *d, unit *u, uint32_t addr, uint32_t data, char *err,
                      size_t errlen)
{
    int aw_done = 0, w_done = 0;
    u->io.awvalid = u->io.wvalid = u->io.bready = 0;
    for (unsigned c = 0; c < HANG_CYCLES; c++) {
        if (!aw_done && !u->io.awvalid && go(d)) u->io.awvalid = 1;
        if (!w_done && !u->io.wvalid && go(d)) u->io.wvalid = 1;
        u->io.awaddr = addr;
        u->io.wdata = data;
        u->io.wstrb = 0xF;
        u->io.bready = (uint8_t)go(d);
        vlboard_eval(u->k, &u->io);
        int aw = u->io.awvalid && u->io.awready, w = u->io.wvalid && u->io.wready;
        int b = u->io.bvalid && u->io.bready;
        if (b && u->io.bresp != 0) {
            snprintf(err, errlen, "write of register 0x%02x: response %u", addr, u->io.bresp);
            return -1;
        }
        if (tick(u, err, errlen) != 0) return -1;
        if (aw) { aw_done = 1; u->io.awvalid = 0; }
        if (w)  { w_done = 1; u->io.wvalid = 0; }
        if (b) {
            u->io.bready = 0;
            if (!aw_done || !w_done) {
                snprintf(err, errlen, "write of register 0x%02x: response before the write", addr);
                return -1;
            }
            return 0;
        }
    }
    snprintf(err, errlen, "write of register 0x%02x: no response in %u cycles", addr,
             HANG_CYCLES);
    return -1;
}

/* AXI4-Lite read of one register. */
static int axil_read(offload_dev *d, unit *u, uint32_t addr, uint32_t *data, char *err,
                     size_t errlen)
{
    int ar_done = 0;
    u->io.arvalid = u->io.rready = 0;
    for (unsigned c = 0; c < HANG_CYCLES; c++) {
        if (!ar_done && !u->io.arvalid && go(d)) u->io.arvalid = 1;
        u->io.araddr = addr;
        u->io.rready = (uint8_t)go(d);
        vlboard_eval(u->k, &u->io);
        int ar = u->io.arvalid && u->io.arready, r = u->io.rvalid && u->io.rready;
        uint32_t v = u->io.rdata;
        unsigned resp = u->io.rresp;
        if (tick(u, err, errlen) != 0) return -1;
        if (ar) { ar_done = 1; u->io.arvalid = 0; }
        if (r) {
            u->io.rready = 0;
            if (!ar_done || resp != 0) {
                snprintf(err, errlen, "read of register 0x%02x: %s", addr,
                         resp ? "error response" : "data before the address");
                return -1;
            }
            *data = v;
            return 0;
        }
    }
    snprintf(err, errlen, "read of register 0x%02x: no data in %u cycles", addr, HANG_CYCLES);
    return -1;
}

static void vb_close(offload_dev *d)
{
    if (!d) return;
    for (unsigned i = 0; d->u && i < d->units; i++)
        if (d->u[i].k) vlboard_destroy(d->u[i].k);
    free(d->u);
    free(d->rec);
    free(d);
}

/* "stall=P,seed=S" */
static int parse_arg(offload_dev *d, const char *arg, char *err, size_t errlen)
{
    d->stall = 0;
    d->rng = 1;
    const char *s = arg;
    while (*s) {
        const char *eq = strchr(s, '=');
        const char *end = strchr(s, ',');
        if (!end) end = s + strlen(s);
        if (!eq || eq > end) {
            snprintf(err, errlen, "argument '%s': expected stall=PERCENT,seed=N", arg);
            return -1;
        }
        char *num_end;
        errno = 0;
        unsigned long long v = strtoull(eq + 1, &num_end, 10);
        if (num_end != end || eq + 1 == end || errno) {
            snprintf(err, errlen, "argument '%s': '%.*s' is not a number", arg,
                     (int)(end - eq - 1), eq + 1);
            return -1;
        }
        size_t klen = (size_t)(eq - s);
        if (klen == 5 && strncmp(s, "stall", 5) == 0) {
            if (v > 99) {
                snprintf(err, errlen, "argument '%s': stall is a percentage 0..99", arg);
                return -1;
            }
            d->stall = (unsigned)v;
        } else if (klen == 4 && strncmp(s, "seed", 4) == 0) {
            d->rng = v ? v : 1;   /* xorshift needs a nonzero state */
        } else {
            snprintf(err, errlen, "argument '%s': unknown key '%.*s' (stall, seed)", arg,
                     (int)klen, s);
            return -1;
        }
        s = *end ? end + 1 : end;
    }
    return 0;
}

/* The identification registers against what the host expects. */
static int check_unit(offload_dev *d, unit *u, char *err, size_t errlen)
{
    const sched_params *p = &d->params;
    uint32_t id, c0, c1, kern, ib, ob;
    if (axil_read(d, u, OFFLOAD_BOARD_ID, &id, err, errlen) || axil_read(d, u, OFFLOAD_BOARD_CORE0, &c0, err, errlen) ||
        axil_read(d, u, OFFLOAD_BOARD_CORE1, &c1, err, errlen) ||
        axil_read(d, u, OFFLOAD_BOARD_KERNEL, &kern, err, errlen) ||
        axil_read(d, u, OFFLOAD_BOARD_IN_BITS, &ib, err, errlen) ||
        axil_read(d, u, OFFLOAD_BOARD_OUT_BITS, &ob, err, errlen))
        return -1;
    uint32_t want0 = p->num_warps | p->num_schedulers << 8 | p->reg_id_width << 16 |
                     p->ibuf_depth << 24;
    uint32_t want1 = p->sb_entries | p->wb_ports << 8 | p->rcu_depth << 16 | p->ren_entries << 24;
    if (id != OFFLOAD_BOARD_ID_VALUE) {
        snprintf(err, errlen, "kernel ID register 0x%08x, expected 0x%08x", id, OFFLOAD_BOARD_ID_VALUE);
        return -1;
    }
    if (c0 != want0 || c1 != want1) {
        snprintf(err, errlen, "kernel core parameters 0x%08x 0x%08x, expected 0x%08x 0x%08x", c0,
                 c1, want0, want1);
        return -1;
    }
    if ((kern >> 16) != 64 || (kern & 0xFFFF) == 0) {
        snprintf(err, errlen, "kernel register 0x%08x: this host needs DataWidth 64", kern);
        return -1;
    }
    if (ib != d->in_bits || ob != d->out_bits) {
        snprintf(err, errlen, "kernel tokens are %u/%u bits, the host's codec %u/%u (a stale "
                 "fpga/board? make sched-ports-gen)", ib, ob, d->in_bits, d->out_bits);
        return -1;
    }
    d->lanes_per_unit = kern & 0xFFFF;
    return 0;
}

static offload_dev *vb_open(const sched_params *p, unsigned lanes, const char *arg, char *err,
                            size_t errlen)
{
    offload_dev *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    d->params = *p;
    d->lanes = lanes;
    d->in_bits = offload_in_bits(p);
    d->out_bits = offload_out_bits(p);
    d->in_beats = offload_board_in_beats(d->in_bits);
    d->out_beats = offload_words(d->out_bits);
    if (parse_arg(d, arg ? arg : "", err, errlen) != 0) {
        free(d);
        return NULL;
    }
    /* one unit first, to learn NumLanes from it */
    d->units = 1;
    d->u = calloc(1, sizeof *d->u);
    for (unsigned i = 0;; i++) {
        unit *u = &d->u[i];
        if (!(u->k = vlboard_create(p, err, errlen))) {
            vb_close(d);
            return NULL;
        }
        /* a fresh kernel: ap_rst_n low for two cycles, which also resets
         * every lane's core. It starts high for one cycle: the cores'
         * asynchronous resets act on a falling edge, and a simulation that
         * starts with the pin low has none. */
        for (int c = 0; c < 3; c++) {
            u->io.rst_n = c == 0;
            vlboard_eval(u->k, &u->io);
            if (tick(u, err, errlen) != 0) { vb_close(d); return NULL; }
        }
        u->io.rst_n = 1;
        if (check_unit(d, u, err, errlen) != 0) {
            vb_close(d);
            return NULL;
        }
        if (i == 0) {
            d->units = (lanes + d->lanes_per_unit - 1) / d->lanes_per_unit;
            unit *nu = realloc(d->u, d->units * sizeof *nu);
            if (!nu) { vb_close(d); snprintf(err, errlen, "out of host memory"); return NULL; }
            d->u = nu;
            memset(d->u + 1, 0, (d->units - 1) * sizeof *nu);
        }
        u = &d->u[i];
        u->lanes = lanes - i * d->lanes_per_unit;
        if (u->lanes > d->lanes_per_unit) u->lanes = d->lanes_per_unit;
        if (i + 1 == d->units) break;
    }
    return d;
}

/* One run on one unit: k cycles of its lanes. */
static int run_unit(offload_dev *d, unsigned ui, unsigned k, const uint8_t *ctl,
                    const uint64_t *in, uint64_t *out, char *err, size_t errlen)
{
    unit *u = &d->u[ui];
    unsigned iw = offload_words(d->in_bits), ow = offload_words(d->out_bits);
    unsigned first = ui * d->lanes_per_unit, n = u->lanes;
    uint32_t v;
    if (axil_write(d, u, OFFLOAD_BOARD_N_CYCLES, k, err, errlen) ||
        axil_write(d, u, OFFLOAD_BOARD_N_LANES, n, err, errlen) ||
        axil_read(d, u, OFFLOAD_BOARD_N_LANES, &v, err, errlen))
        return -1;
    if (v != n) {
        snprintf(err, errlen, "unit %u: N_LANES reads %u after writing %u", ui, v, n);
        return -1;
    }
    if (axil_write(d, u, OFFLOAD_BOARD_CTRL, OFFLOAD_BOARD_START, err, errlen)) return -1;

    /* the streams: records in (cycle, lane) order both ways */
    size_t recs = (size_t)k * n, in_total = recs * d->in_beats, out_total = recs * d->out_beats;
    size_t in_i = 0, out_i = 0;
    unsigned idle = 0;
    u->io.in_tvalid = 0;
    while (out_i < out_total) {
        if (in_i < in_total && !u->io.in_tvalid && go(d)) u->io.in_tvalid = 1;
        if (u->io.in_tvalid) {
            size_t r = in_i / d->in_beats;
            unsigned b = (unsigned)(in_i % d->in_beats);
            size_t i = (r / n) * d->lanes + first + r % n;   /* (cycle, lane) in the exchange */
            u->io.in_tdata = offload_board_in_beat(ctl[i], in + i * iw, iw, b);
            u->io.in_tlast = b == d->in_beats - 1;
        }
        u->io.out_tready = (uint8_t)go(d);
        vlboard_eval(u->k, &u->io);
        int in_hs = u->io.in_tvalid && u->io.in_tready;
        int out_hs = u->io.out_tvalid && u->io.out_tready;
        if (out_hs) {
            size_t r = out_i / d->out_beats;
            unsigned b = (unsigned)(out_i % d->out_beats);
            if (u->io.out_tlast != (b == d->out_beats - 1)) {
                snprintf(err, errlen, "unit %u: output beat %u of record %zu has tlast %u", ui, b,
                         r, u->io.out_tlast);
                return -1;
            }
            size_t i = (r / n) * d->lanes + first + r % n;
            out[i * ow + b] = u->io.out_tdata;
            out_i++;
        }
        if (tick(u, err, errlen) != 0) return -1;
        if (in_hs) {
            in_i++;
            u->io.in_tvalid = 0;
        }
        idle = in_hs || out_hs ? 0 : idle + 1;
        if (idle > HANG_CYCLES) {
            snprintf(err, errlen, "unit %u: no stream handshake in %u cycles (%zu of %zu input "
                     "and %zu of %zu output beats done)", ui, HANG_CYCLES, in_i, in_total, out_i,
                     out_total);
            return -1;
        }
    }
    u->io.in_tvalid = 0;
    u->io.out_tready = 0;
    if (in_i != in_total) {
        snprintf(err, errlen, "unit %u: all output records came after %zu of %zu input beats",
                 ui, in_i, in_total);
        return -1;
    }
    /* ap_done (clear on read) ends the run */
    for (unsigned tries = 0;; tries++) {
        if (axil_read(d, u, OFFLOAD_BOARD_CTRL, &v, err, errlen) != 0) return -1;
        if (v & OFFLOAD_BOARD_DONE) break;
        if (tries > 100) {
            snprintf(err, errlen, "unit %u: CTRL 0x%x: no ap_done after the last record", ui, v);
            return -1;
        }
    }
    if (!(v & OFFLOAD_BOARD_IDLE)) {
        snprintf(err, errlen, "unit %u: CTRL 0x%x: ap_done without ap_idle", ui, v);
        return -1;
    }
    return 0;
}

static int vb_run(offload_dev *d, unsigned k, const uint8_t *ctl, const uint64_t *in,
                  uint64_t *out, char *err, size_t errlen)
{
    if (k == 0) return 0;
    for (unsigned ui = 0; ui < d->units; ui++) {
        char e2[400];
        if (run_unit(d, ui, k, ctl, in, out, e2, sizeof e2) != 0) {
            snprintf(err, errlen, "%s", e2);
            return -1;
        }
    }
    return 0;
}

const offload_transport offload_transport_vl_board = {
    .name = "vl-board", .open = vb_open, .run = vb_run, .close = vb_close,
};
