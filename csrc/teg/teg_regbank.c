/*
 * teg_regbank.c — Kepler's register banks as measured in seed 003 (003
 * L1373, Table 4.1 at 003 L1352-1369; ../shared/design/teg.md G25).
 *
 * Four banks: E0 = even registers with R mod 8 < 4, E1 = even with R mod 8
 * >= 4, O0 and O1 the odd ones alike; bank(R) = 2 * ((R >> 2) & 1) + (R & 1).
 * Two distinct source registers in one bank halve the instruction's
 * throughput, three leave a third: the rule "kepler4" makes the engine's
 * next slot d issue intervals later, d being the largest number of distinct
 * sources in one bank. It was measured on FADD, FMUL, FFMA, IADD, IMUL and
 * IMAD only, and only SASS register numbers mean anything to it.
 */
#include <string.h>

#include "teg.h"

static const char *const measured[] = { "FADD", "FMUL", "FFMA", "IADD", "IMUL", "IMAD", NULL };

static int measured_op(const char *name)
{
    if (!name) return 0;
    for (size_t i = 0; measured[i]; i++) {
        size_t n = strlen(measured[i]);
        if (!strncmp(name, measured[i], n) && (name[n] == '\0' || name[n] == '.')) return 1;
    }
    return 0;
}

uint32_t teg_regbank_degree(const emu_inst_info *in)
{
    if (!measured_op(in->name) || in->nsrc < 2) return 1;
    uint32_t count[4] = { 0, 0, 0, 0 }, d = 1;
    for (unsigned i = 0; i < in->nsrc; i++) {
        int seen = 0;
        for (unsigned j = 0; j < i; j++) seen |= in->src[j] == in->src[i];
        if (seen) continue;                     /* a repeated source is read once */
        unsigned b = 2u * ((in->src[i] >> 2) & 1u) + (in->src[i] & 1u);
        if (++count[b] > d) d = count[b];
    }
    return d;
}
