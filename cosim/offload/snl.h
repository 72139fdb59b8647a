/*
 * snl.h -- netlist program files (build/offload/<set>.snl, written by
 * scripts/offload/netlist_gen.py) and their bit-parallel C reference
 * evaluator (docs/offload.md, "Netlist transport").
 *
 * A program is the Yosys netlist of rtl/sched_core.sv for one parameter set
 * as ops over "slots", each slot one 64-bit word per 64 lanes (bit l of word
 * w is lane 64*w + l: lanes are independent copies of the core). One cycle
 * for all lanes (snl_eval_cycle, and netlist.cl's kernel, which does the
 * same):
 *
 *   1. lanes in reset: their flip-flops with an asynchronous reset take its
 *      value; then the S ops (those on state only) are evaluated again;
 *   2. the input token's bit slices are written to their slots; the I ops
 *      (those on the input token) are evaluated: every flip-flop's d and
 *      enable are now known;
 *   3. the edge: q = (enable & step) ? d : q for every flip-flop, where
 *      step is the lane's clock enable;
 *   4. the S ops again: the output token (a function of state only) is read
 *      from its slots.
 *
 * File layout: netlist_gen.py's docstring. A loaded program is checked
 * (sizes, every slot index in range, ops in order) so that a damaged file is
 * refused with a message instead of read out of bounds.
 */
#ifndef SMCOSIM_SNL_H
#define SMCOSIM_SNL_H

#include "sched_if.h"

#include <stddef.h>
#include <stdint.h>

#define SNL_FORMAT_VERSION 1u

/* op codes, as netlist_gen.py writes them and netlist.cl reads them */
enum snl_op {
    SNL_BUF, SNL_NOT, SNL_AND, SNL_NAND, SNL_OR, SNL_NOR, SNL_XOR, SNL_XNOR,
    SNL_ANDNOT,   /* a & ~b */
    SNL_ORNOT,    /* a | ~b */
    SNL_MUX,      /* c ? b : a */
    SNL_NMUX,     /* ~(c ? b : a) */
    SNL_AOI3,     /* ~((a & b) | c) */
    SNL_OAI3,     /* ~((a | b) & c) */
    SNL_AOI4,     /* ~((a & b) | (c & d)) */
    SNL_OAI4,     /* ~((a | b) & (c | d)) */
    SNL_NUM_OPS
};

/* slot numbers with a fixed meaning */
enum { SNL_SLOT_ZERO = 0, SNL_SLOT_ONE = 1, SNL_SLOT_SCRATCH = 2, SNL_SLOT_FF0 = 3 };

typedef struct snl_program {
    uint32_t params[8];      /* NumWarps ... RenEntries */
    char     rtl_sha256[65]; /* of the RTL it was built from */
    char     yosys[65];      /* the Yosys that built it */
    uint32_t in_bits, out_bits;
    uint32_t n_slots, n_ff, n_ops, n_s_ops, op_base, depth, n_in_used;
    uint32_t *ops;           /* n_ops x 4: (code << 24 | a), b, c, d */
    uint32_t *ffs;           /* n_ff x 4: d, enable, reset kind (0, 1: to 0, 2: to 1), 0 */
    uint32_t *in_map;        /* in_bits */
    uint32_t *out_map;       /* out_bits */
    void     *file;          /* the file's bytes (the arrays point into it) */
    size_t    file_len;
} snl_program;

/* Read a program file. When p is not NULL it must be the file's parameter
 * set; when rtl_sha256 is not NULL it must be the file's RTL hash (the
 * staleness rule: a program is used only with the RTL it was built from).
 * NULL with a message naming the file and the cause in err. */
snl_program *snl_load(const char *path, const sched_params *p, const char *rtl_sha256,
                      char *err, size_t errlen);
void snl_free(snl_program *prog);

/* The default program file of a parameter set: "<dir>/W_S_R_D_E_P_RCU_REN.snl". */
void snl_default_path(const sched_params *p, const char *dir, char *buf, size_t len);

/* Bit slices: word w of bit b of a token is at slices[b * nw + w], bit l of
 * it is lane 64*w + l; nw >= (lanes + 63) / 64 (a device may pad). tokens
 * holds `lanes` tokens of offload_words(bits) words each. Lanes beyond
 * `lanes` are zero in the slices. */
void snl_tokens_to_slices(unsigned bits, unsigned lanes, unsigned nw, const uint64_t *tokens,
                          uint64_t *slices);
void snl_slices_to_tokens(unsigned bits, unsigned lanes, unsigned nw, const uint64_t *slices,
                          uint64_t *tokens);

/* The C reference evaluator's state: n_slots x nw words. */
typedef struct snl_state {
    const snl_program *prog;
    unsigned           lanes, nw;
    uint64_t          *vals;
} snl_state;

/* Every lane in reset (as snl_eval_cycle with reset set for all, step for
 * none). NULL when out of memory. */
snl_state *snl_state_create(const snl_program *prog, unsigned lanes);
void snl_state_free(snl_state *s);
/* One cycle: step[nw], reset[nw] lane masks, in[in_bits * nw] and
 * out[out_bits * nw] bit slices (the outputs after the edge). */
void snl_eval_cycle(snl_state *s, const uint64_t *step, const uint64_t *reset,
                    const uint64_t *in, uint64_t *out);

#endif
