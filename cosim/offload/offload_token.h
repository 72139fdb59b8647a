/*
 * offload_token.h -- the scheduler core's ports as bit vectors ("tokens"),
 * the wire format between the offload back end and a device that evaluates
 * the core (docs/offload.md, "Tokens").
 *
 * One input token holds every input port of rtl/sched_core.sv for one SM
 * and one rising edge; one output token every output port of one SM after
 * an edge (counters included). The layout is sched_ports.def's, written
 * once: ports in declaration order, each starting at the bit after the
 * previous one; field k of group g of a port at bits
 * [(g*per + k)*width +: width] of the port, as in the RTL. Bit i of a token
 * is bit (i % 64) of 64-bit word i / 64; unused high bits of the last word
 * are zero. A token therefore equals the concatenation of the RTL's ports
 * (first port in the low bits), which is what the netlist generator and the
 * board kernel map their pins to.
 *
 * Gated fields (sched_ports.def's `gate`: an idle push or writeback port)
 * are packed as 0, as the RTL shim drives them.
 */
#ifndef SMCOSIM_OFFLOAD_TOKEN_H
#define SMCOSIM_OFFLOAD_TOKEN_H

#include "sched_if.h"

#include <stddef.h>
#include <stdint.h>

/* Bits of an input / output token under params p (clock and reset are not
 * in tokens; see the control byte in offload_transport.h). */
unsigned offload_in_bits(const sched_params *p);
unsigned offload_out_bits(const sched_params *p);
/* 64-bit words per token: (bits + 63) / 64. */
static inline unsigned offload_words(unsigned bits) { return (bits + 63) / 64; }

/* in -> words[offload_words(offload_in_bits(p))], every bit written. */
void offload_pack_inputs(const sched_params *p, const sched_inputs *in, uint64_t *words);
/* The inverse (for the board model's checks and for tests). */
void offload_unpack_inputs(const sched_params *p, const uint64_t *words, sched_inputs *in);
/* outputs <-> words[offload_words(offload_out_bits(p))]; unpack zeroes the
 * fields of schedulers/warps beyond p. */
void offload_pack_outputs(const sched_params *p, const sched_outputs *o, uint64_t *words);
void offload_unpack_outputs(const sched_params *p, const uint64_t *words, sched_outputs *o);

/* Where a port sits in its token: 0 and *lsb, *width_total set, or -1 when
 * the name is not a port of that direction. For generators and tests. */
int offload_port_lookup(const sched_params *p, const char *name, unsigned *lsb,
                        unsigned *width_total);

#endif
