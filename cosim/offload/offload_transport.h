/*
 * offload_transport.h -- a device that evaluates many instances of the
 * scheduler core ("lanes", one per SM), the layer under the `offload`
 * scheduler back end (docs/offload.md).
 *
 * A transport moves tokens (offload_token.h) to and from something that
 * holds `lanes` copies of rtl/sched_core.sv with one parameter set:
 *
 *   "cmodel"     C model instances behind the token codec (a test double
 *                and the reference the others are compared with)
 *   "netlist"    an OpenCL interpreter kernel running the Yosys netlist of
 *                rtl/ as a program file, bit-parallel across lanes (PoCL
 *                here; any OpenCL device)
 *   "vl-board"   the Verilated model of the board RTL kernel
 *                (fpga/board/), driven over its AXI4-Lite / AXI4-Stream
 *                protocol with optional random valid/ready stalls
 *   "ocl-board"  the same protocol through clCreateProgramWithBinary on an
 *                accelerator board (never run here: fails with "no
 *                accelerator")
 *
 * One exchange = run(): k cycles for all lanes. For cycle c and lane l:
 *   ctl[c*lanes + l]    control byte: OFFLOAD_CTL_RESET resets the lane
 *                       (asynchronously, before the edge), OFFLOAD_CTL_STEP
 *                       clocks it with in[c*lanes + l]; a lane without STEP
 *                       holds its state (clock enable low), whatever its
 *                       input token holds.
 *   in                  input tokens, offload_words(offload_in_bits(p))
 *                       words each, cycle-major then lane
 *   out                 output tokens after cycle c's reset and edge (the
 *                       outputs of the next cycle), cycle-major then lane
 * Results never depend on how a run is split into exchanges (k) or on the
 * device's work-group size. A fresh device holds every lane in reset.
 */
#ifndef SMCOSIM_OFFLOAD_TRANSPORT_H
#define SMCOSIM_OFFLOAD_TRANSPORT_H

#include "offload_token.h"

#include <stddef.h>
#include <stdint.h>

enum {
    OFFLOAD_CTL_STEP  = 1,   /* rising edge with this cycle's input token */
    OFFLOAD_CTL_RESET = 2    /* reset first (then the edge when STEP is set) */
};

typedef struct offload_dev offload_dev;   /* a transport's own state */

typedef struct offload_transport {
    const char *name;
    /* arg: what followed "name:" in the spec string ("" when nothing), e.g.
     * a program file or "stall=30,seed=7"; NULL with a message in err (a
     * missing OpenCL platform, a stale program file, an unknown set, ...). */
    offload_dev *(*open)(const sched_params *p, unsigned lanes, const char *arg,
                         char *err, size_t errlen);
    /* 0, or -1 with a message in err (the device failed; nothing is
     * retried). */
    int (*run)(offload_dev *d, unsigned k, const uint8_t *ctl, const uint64_t *in,
               uint64_t *out, char *err, size_t errlen);
    void (*close)(offload_dev *d);
} offload_transport;

/* The transports known to this program, by name ("netlist"), from the one
 * table in offload_transports.c; NULL when unknown. */
const offload_transport *offload_transport_find(const char *name);
/* Names for messages: "cmodel, netlist, vl-board, ocl-board". */
const char *offload_transport_names(void);

/* Open a transport from a spec "name[:arg]". NULL with a message in err
 * naming the transport. */
offload_dev *offload_open_spec(const char *spec, const sched_params *p, unsigned lanes,
                               const offload_transport **t, char *err, size_t errlen);

#endif
