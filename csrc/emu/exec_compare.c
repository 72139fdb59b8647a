/*
 * exec_compare.c — comparisons and selection: setp/set (integer, f32, f64,
 * f16, f16x2), selp/slct, testp.
 */
#include "exec_internal.h"

/* Comparison of a and b as type t. */
static bool compare(uint8_t cmp, uint8_t t, uint64_t a, uint64_t b) {
    unsigned bits = tbits(t);
    if (ptx_type_class[t] == TC_FLOAT) {
        double x = t == PT_F32 ? f32(a) : t == PT_F16 ? emu_f16_to_float((uint16_t)a) : f64(a);
        double y = t == PT_F32 ? f32(b) : t == PT_F16 ? emu_f16_to_float((uint16_t)b) : f64(b);
        bool un = isnan(x) || isnan(y);
        switch (cmp) {
        case CMP_EQ: return !un && x == y;
        case CMP_NE: return !un && x != y;
        case CMP_LT: return !un && x < y;
        case CMP_LE: return !un && x <= y;
        case CMP_GT: return !un && x > y;
        case CMP_GE: return !un && x >= y;
        case CMP_EQU: return un || x == y;
        case CMP_NEU: return un || x != y;
        case CMP_LTU: return un || x < y;
        case CMP_LEU: return un || x <= y;
        case CMP_GTU: return un || x > y;
        case CMP_GEU: return un || x >= y;
        case CMP_NUM: return !un;
        case CMP_NAN: return un;
        default: return false;
        }
    }
    uint64_t M = zmask(bits);
    a &= M; b &= M;
    bool sgn = ptx_type_class[t] == TC_SINT;
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    switch (cmp) {
    case CMP_EQ: return a == b;
    case CMP_NE: return a != b;
    case CMP_LT: return sgn ? sa < sb : a < b;
    case CMP_LE: return sgn ? sa <= sb : a <= b;
    case CMP_GT: return sgn ? sa > sb : a > b;
    case CMP_GE: return sgn ? sa >= sb : a >= b;
    case CMP_LO: return a < b;
    case CMP_LS: return a <= b;
    case CMP_HI: return a > b;
    case CMP_HS: return a >= b;
    default: return false;
    }
}

static bool combine(uint8_t op, bool x, bool c) {
    switch (op) {
    case MD_AND: return x && c;
    case MD_OR: return x || c;
    case MD_XOR: return x != c;
    default: return x;
    }
}

/* setp/set. The source type is in->type (setp) or in->type2 (set). .f16x2
 * compares the two halves separately: setp p|q gets the low half's result
 * in p and the high half's in q; set writes one result per half. What set
 * writes for "true" depends on the destination type: 1.0 in that format for
 * .f32/.f16 (and per half for .f16x2), all ones for the integer types (per
 * half, 0xffff, when the source is .f16x2). "False" is always 0. */
int exec_compare(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    const ptx_operand *o = in->ops;
    uint8_t t = in->op == OP_SET ? in->type2 : in->type;
    bool x2 = t == PT_F16X2;
    uint8_t et = x2 ? PT_F16 : t;            /* element type compared */
    bool ftz = (in->flags & F_FTZ) != 0;
    LANES(act) {
        uint64_t a = val(X, &o[1], lane), b = val(X, &o[2], lane);
        bool c = in->nops > 3 ? (val(X, &o[3], lane) & 1) : false;
        bool raw[2] = { false, false }, r[2] = { false, false };
        for (unsigned h = 0; h < (x2 ? 2u : 1u); h++) {
            uint64_t ea = x2 ? (a >> (16 * h)) & 0xffff : a, eb = x2 ? (b >> (16 * h)) & 0xffff : b;
            if (ftz && et == PT_F32) { ea = bf32(ftz32(f32(ea))); eb = bf32(ftz32(f32(eb))); }
            if (ftz && et == PT_F16) { ea = ftz16((uint16_t)ea); eb = ftz16((uint16_t)eb); }
            raw[h] = compare(in->cmp, et, ea, eb);
            r[h] = combine(in->boolop, raw[h], c);
        }
        if (in->op == OP_SETP) {
            wr(X, o[0].reg, (int)lane, r[0]);
            /* p|q: the scalar forms give q the complement, .f16x2 the high half */
            if (o[0].reg2 >= 0)
                wr(X, o[0].reg2, (int)lane, x2 ? r[1] : combine(in->boolop, !raw[0], c));
            continue;
        }
        uint64_t out;
        if (x2) {
            uint64_t one = in->type == PT_F16X2 ? 0x3c00 : 0xffff;
            out = (r[0] ? one : 0) | (r[1] ? one : 0) << 16;
        } else if (in->type == PT_F32) {
            out = r[0] ? bf32(1.0f) : 0;
        } else if (in->type == PT_F16) {
            out = r[0] ? 0x3c00 : 0;
        } else {
            out = r[0] ? zmask(tbits(in->type)) : 0;
        }
        wr(X, o[0].reg, (int)lane, out);
    }
    return EMU_OK;
}

int exec_select(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    const ptx_operand *o = in->ops;
    LANES(act) {
        uint64_t a = val(X, &o[1], lane), b = val(X, &o[2], lane), c = val(X, &o[3], lane);
        bool pick;
        if (in->op == OP_SELP) pick = c & 1;
        else if (in->type2 == PT_F32) {
            float fc = f32(c);
            if (in->flags & F_FTZ) fc = ftz32(fc);
            pick = fc >= 0.0f;   /* -0.0 >= 0 selects a; NaN selects b */
        } else pick = (int32_t)c >= 0;
        wr(X, o[0].reg, (int)lane, pick ? a : b);
    }
    return EMU_OK;
}

int exec_testp(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    const ptx_operand *o = in->ops;
    LANES(act) {
        uint64_t a = val(X, &o[1], lane);
        int cls = in->type == PT_F32 ? fpclassify(f32(a)) : fpclassify(f64(a));
        bool r = false;
        switch (in->mode) {
        case MD_FINITE: r = cls != FP_INFINITE && cls != FP_NAN; break;
        case MD_INFINITE: r = cls == FP_INFINITE; break;
        case MD_NUMBER: r = cls != FP_NAN; break;
        case MD_NOTANUMBER: r = cls == FP_NAN; break;
        case MD_NORMAL: r = cls == FP_NORMAL; break;
        case MD_SUBNORMAL: r = cls == FP_SUBNORMAL; break;
        }
        wr(X, o[0].reg, (int)lane, r);
    }
    return EMU_OK;
}
