/*
 * offload_token.c -- packing the scheduler core's ports into tokens and
 * back (offload_token.h), by expanding sched_ports.def.
 */
#include "offload_token.h"
#include "sched_ports.h"

#include <string.h>

static void put_bits(uint64_t *w, unsigned lsb, unsigned width, uint64_t v)
{
    if (width < 64)
        v &= (1ull << width) - 1;
    unsigned i = lsb / 64, sh = lsb % 64;
    w[i] |= v << sh;
    if (sh && sh + width > 64)
        w[i + 1] |= v >> (64 - sh);
}

static uint64_t get_bits(const uint64_t *w, unsigned lsb, unsigned width)
{
    unsigned i = lsb / 64, sh = lsb % 64;
    uint64_t v = w[i] >> sh;
    if (sh && sh + width > 64)
        v |= w[i + 1] << (64 - sh);
    return width < 64 ? v & ((1ull << width) - 1) : v;
}

/* Total bits of one port: replication x fields x width. */
#define PORT_BITS(rep, per, width) ((unsigned)(SCHED_REP_##rep) * (unsigned)(per) * (unsigned)(width))

unsigned offload_in_bits(const sched_params *p)
{
    SCHED_PORT_PARAMS(p);
    unsigned n = 0;
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc) \
    SCHED_PORT_IF_IN(dir, n += PORT_BITS(rep, per, width);)
#include "sched_ports.def"
    return n;
}

unsigned offload_out_bits(const sched_params *p)
{
    SCHED_PORT_PARAMS(p);
    unsigned n = 0;
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc) \
    SCHED_PORT_IF_OUT(dir, n += PORT_BITS(rep, per, width);)
#include "sched_ports.def"
    return n;
}

void offload_pack_inputs(const sched_params *p, const sched_inputs *in, uint64_t *words)
{
    SCHED_PORT_PARAMS(p);
    memset(words, 0, offload_words(offload_in_bits(p)) * sizeof *words);
    unsigned base = 0;
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc)                   \
    SCHED_PORT_IF_IN(dir,                                                                \
        for (unsigned g = 0; g < (unsigned)(SCHED_REP_##rep); g++)                       \
            if (gate)                                                                    \
                for (unsigned k = 0; k < (unsigned)(per); k++)                           \
                    put_bits(words, base + (g * (per) + k) * (width), (width),           \
                             (uint64_t)(value));                                         \
        base += PORT_BITS(rep, per, width);)
#include "sched_ports.def"
}

void offload_unpack_inputs(const sched_params *p, const uint64_t *words, sched_inputs *in)
{
    SCHED_PORT_PARAMS(p);
    memset(in, 0, sizeof *in);
    unsigned base = 0;
    /* Two passes: the gates of push/wb/launch_group fields read valid and
     * launch, which are unpacked in the first pass. */
    for (int pass = 0; pass < 2; pass++) {
        base = 0;
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc)                   \
    SCHED_PORT_IF_IN(dir,                                                                \
        for (unsigned g = 0; g < (unsigned)(SCHED_REP_##rep); g++)                       \
            if (pass == 0 || (gate))                                                     \
                for (unsigned k = 0; k < (unsigned)(per); k++)                           \
                    (value) = get_bits(words, base + (g * (per) + k) * (width), (width)); \
        base += PORT_BITS(rep, per, width);)
#include "sched_ports.def"
    }
}

void offload_pack_outputs(const sched_params *p, const sched_outputs *o, uint64_t *words)
{
    SCHED_PORT_PARAMS(p);
    memset(words, 0, offload_words(offload_out_bits(p)) * sizeof *words);
    unsigned base = 0;
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc)                   \
    SCHED_PORT_IF_OUT(dir,                                                               \
        for (unsigned g = 0; g < (unsigned)(SCHED_REP_##rep); g++)                       \
            for (unsigned k = 0; k < (unsigned)(per); k++)                               \
                put_bits(words, base + (g * (per) + k) * (width), (width),               \
                         (uint64_t)(value));                                             \
        base += PORT_BITS(rep, per, width);)
#include "sched_ports.def"
}

void offload_unpack_outputs(const sched_params *p, const uint64_t *words, sched_outputs *o)
{
    SCHED_PORT_PARAMS(p);
    memset(o, 0, sizeof *o);
    unsigned base = 0;
#define SCHED_PORT(name, dir, rep, per, width, gate, value, kind, doc)                   \
    SCHED_PORT_IF_OUT(dir,                                                               \
        for (unsigned g = 0; g < (unsigned)(SCHED_REP_##rep); g++)                       \
            for (unsigned k = 0; k < (unsigned)(per); k++)                               \
                (value) = get_bits(words, base + (g * (per) + k) * (width), (width));    \
        base += PORT_BITS(rep, per, width);)
#include "sched_ports.def"
}

int offload_port_lookup(const sched_params *p, const char *name, unsigned *lsb,
                        unsigned *width_total)
{
    SCHED_PORT_PARAMS(p);
    unsigned in_base = 0, out_base = 0;
#define SCHED_PORT(name_, dir, rep, per, width, gate, value, kind, doc)                  \
    SCHED_PORT_IF_IN(dir,                                                                \
        if (strcmp(name, #name_) == 0) {                                                 \
            *lsb = in_base; *width_total = PORT_BITS(rep, per, width); return 0;         \
        }                                                                                \
        in_base += PORT_BITS(rep, per, width);)                                          \
    SCHED_PORT_IF_OUT(dir,                                                               \
        if (strcmp(name, #name_) == 0) {                                                 \
            *lsb = out_base; *width_total = PORT_BITS(rep, per, width); return 0;        \
        }                                                                                \
        out_base += PORT_BITS(rep, per, width);)
#include "sched_ports.def"
    return -1;
}
