/*
 * exec_half.c — half precision and conversions: rounding to and widening
 * from f16, f16/f16x2 arithmetic, and cvt between the integer and float
 * types (.bf16 and .f16x2 conversions are refused).
 */
#include "exec_internal.h"

/* Round a double to f16 in the given mode (one rounding step). */
uint16_t emu_f16_round(double f, uint8_t rnd) {
    uint32_t sign = signbit(f) ? 0x8000 : 0;
    if (isnan(f)) return (uint16_t)(sign | 0x7e00);
    double a = fabs(f);
    if (isinf(f)) return (uint16_t)(sign | 0x7c00);
    /* scale to an integer number of units in the last place, round, rebuild */
    int e; frexp(a, &e);                 /* a = m * 2^e, m in [0.5, 1) */
    int exp16 = e - 1;                   /* unbiased exponent of the leading bit */
    if (exp16 < -14) exp16 = -14;        /* subnormal range */
    double ulp = ldexp(1.0, exp16 - 10);
    double q = a / ulp, r;
    switch (rnd) {
    case RND_RZ: r = trunc(q); break;
    case RND_RM: r = sign ? ceil(q) : floor(q); break;
    case RND_RP: r = sign ? floor(q) : ceil(q); break;
    default: r = nearbyint(q); break;
    }
    double v = r * ulp;
    if (v >= 65520.0 || (v > 65504.0)) {
        if (rnd == RND_RZ || (rnd == RND_RM && !sign) || (rnd == RND_RP && sign)) return (uint16_t)(sign | 0x7bff);
        return (uint16_t)(sign | 0x7c00);
    }
    if (v == 0) return (uint16_t)sign;
    int ve; double vm = frexp(v, &ve);
    int be = ve - 1 + 15;
    if (be <= 0) return (uint16_t)(sign | (uint32_t)(v / ldexp(1.0, -24)));
    uint32_t mant = (uint32_t)((vm * 2 - 1) * 1024.0);
    return (uint16_t)(sign | ((uint32_t)be << 10) | mant);
}

float emu_f16_to_float(uint16_t h) {
    uint32_t s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v;
    if (e == 0) v = ldexpf((float)m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = ldexpf((float)(m | 0x400), (int)e - 25);
    return s ? -v : v;
}

/* f16 and f16x2 arithmetic: operands widened to double (exact), one
 * rounding to f16; .ftz flushes subnormal inputs and results to a signed
 * zero. */
int exec_arith_half(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    uint8_t t = in->type;
    const ptx_operand *o = in->ops;
    int32_t d = o[0].reg;
    unsigned halves = t == PT_F16X2 ? 2 : 1;
    bool ftz = in->flags & F_FTZ;
    LANES(act) {
        uint64_t r = 0;
        for (unsigned h = 0; h < halves; h++) {
            uint16_t ha = (uint16_t)(val(X, &o[1], lane) >> (16 * h));
            uint16_t hb = in->nops > 2 ? (uint16_t)(val(X, &o[2], lane) >> (16 * h)) : 0;
            uint16_t hc = in->nops > 3 ? (uint16_t)(val(X, &o[3], lane) >> (16 * h)) : 0;
            if (ftz) { ha = ftz16(ha); hb = ftz16(hb); hc = ftz16(hc); }
            double a = emu_f16_to_float(ha), b = emu_f16_to_float(hb), cc = emu_f16_to_float(hc);
            double v;
            switch (in->op) {
            case OP_ADD: v = a + b; break;
            case OP_SUB: v = a - b; break;
            case OP_MUL: v = a * b; break;
            case OP_FMA: case OP_MAD: v = fma(a, b, cc); break;
            case OP_NEG: v = -a; break;
            case OP_ABS: v = fabs(a); break;
            case OP_MIN: v = fmin(a, b); break;
            case OP_MAX: v = fmax(a, b); break;
            default:
                return emu_fault(X->c, X->wi, (int)lane, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "%s.%s is not supported",
                             ptx_op_name[in->op], ptx_type_name[t]);
            }
            uint16_t hv = emu_f16_round(v, in->rnd == RND_NONE ? RND_RN : in->rnd);
            if (ftz) hv = ftz16(hv);
            if (in->flags & F_SAT) hv = emu_f16_round(sat64(emu_f16_to_float(hv)), RND_RN);
            r |= (uint64_t)hv << (16 * h);
        }
        wr(X, d, (int)lane, r);
    }
    return EMU_OK;
}
/* float -> integer with rounding; saturates to the destination range, NaN -> 0 */
static uint64_t f2i(double x, uint8_t rnd, uint8_t dt) {
    unsigned bits = tbits(dt);
    bool sgn = ptx_type_class[dt] == TC_SINT;
    if (isnan(x)) return 0;
    switch (rnd) {
    case RND_RNI: case RND_RN: x = nearbyint(x); break;   /* current mode is nearest-even */
    case RND_RMI: case RND_RM: x = floor(x); break;
    case RND_RPI: case RND_RP: x = ceil(x); break;
    default: x = trunc(x); break;
    }
    if (sgn) {
        double lo = -ldexp(1.0, (int)bits - 1), hi = ldexp(1.0, (int)bits - 1);
        if (x < lo) return (uint64_t)(int64_t)lo & zmask(bits);
        if (x >= hi) return zmask(bits - 1);
        return (uint64_t)(int64_t)x & zmask(bits);
    }
    if (x <= 0) return 0;
    if (x >= ldexp(1.0, (int)bits)) return zmask(bits);
    return (uint64_t)x;
}

int exec_cvt(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    const ptx_operand *o = in->ops;
    uint8_t dt = in->type, st = in->type2;
    uint8_t dc = ptx_type_class[dt], sc = ptx_type_class[st];
    unsigned db = tbits(dt), sb = tbits(st);
    bool sat = in->flags & F_SAT, ftz = in->flags & F_FTZ;
    if (dt == PT_BF16 || st == PT_BF16 || dt == PT_F16X2 || st == PT_F16X2)
        return emu_fault(X->c, X->wi, -1, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "cvt with .bf16/.f16x2 is not supported");
    int chg = 0;
    if (dc == TC_FLOAT && in->rnd >= RND_RN && in->rnd <= RND_RP) chg = set_rounding(in->rnd);
    LANES(act) {
        uint64_t a = val(X, &o[1], lane);
        uint64_t r;
        if (sc != TC_FLOAT && dc != TC_FLOAT) {
            /* integer <-> integer: extend by source type, then (optionally) saturate */
            int64_t sv = sc == TC_SINT ? sext(a, sb) : (int64_t)(a & zmask(sb));
            bool sneg = sc == TC_SINT && sv < 0;
            r = (uint64_t)sv;
            if (sat) {
                if (dc == TC_SINT) {
                    int64_t lo = -(int64_t)(1ull << (db - 1)), hi = (int64_t)((1ull << (db - 1)) - 1);
                    if (db == 64) { lo = INT64_MIN; hi = INT64_MAX; }
                    if (!sneg && sc != TC_SINT && (uint64_t)sv > (uint64_t)hi) r = (uint64_t)hi;
                    else if (sv < lo) r = (uint64_t)lo;
                    else if (sv > hi) r = (uint64_t)hi;
                } else {
                    if (sneg) r = 0;
                    else if (db < 64 && (uint64_t)sv > zmask(db)) r = zmask(db);
                }
            }
            r = dc == TC_SINT ? (uint64_t)sext(r, db) : r & zmask(db);
            wr(X, o[0].reg, (int)lane, r);
            continue;
        }
        if (sc == TC_FLOAT && dc != TC_FLOAT) {
            double x = st == PT_F32 ? (double)(ftz ? ftz32(f32(a)) : f32(a)) : st == PT_F64 ? f64(a) : (double)emu_f16_to_float((uint16_t)a);
            r = f2i(x, in->rnd, dt);
            if (dc == TC_SINT) r = (uint64_t)sext(r, db);
            wr(X, o[0].reg, (int)lane, r);
            continue;
        }
        /* to float */
        double x;
        bool exact_int = false;
        long double li = 0;
        if (sc == TC_FLOAT) x = st == PT_F32 ? (double)(ftz ? ftz32(f32(a)) : f32(a)) : st == PT_F64 ? f64(a) : (double)emu_f16_to_float((uint16_t)a);
        else {
            exact_int = true;
            li = sc == TC_SINT ? (long double)sext(a, sb) : (long double)(a & zmask(sb));
            x = 0;
        }
        if (dt == PT_F32) {
            float f;
            if (exact_int) f = sc == TC_SINT ? (float)sext(a, sb) : (float)(a & zmask(sb));   /* rounds in current mode */
            else if (st == PT_F64) f = (float)x;                 /* rounds in current mode */
            else {
                f = (float)x;
                switch (in->rnd) {                               /* f32 -> f32: round to integral */
                case RND_RNI: f = nearbyintf(f); break;
                case RND_RZI: f = truncf(f); break;
                case RND_RMI: f = floorf(f); break;
                case RND_RPI: f = ceilf(f); break;
                default: break;
                }
            }
            if (ftz) f = ftz32(f);
            if (sat) f = sat32(f);
            r = bf32(f);
        } else if (dt == PT_F64) {
            double dv = exact_int ? (sc == TC_SINT ? (double)sext(a, sb) : (double)(a & zmask(sb))) : x;
            if (!exact_int) {
                switch (in->rnd) {
                case RND_RNI: dv = nearbyint(dv); break;
                case RND_RZI: dv = trunc(dv); break;
                case RND_RMI: dv = floor(dv); break;
                case RND_RPI: dv = ceil(dv); break;
                default: break;
                }
            }
            if (sat) dv = sat64(dv);
            r = bf64(dv);
        } else if (dt == PT_F16) {
            double hv = exact_int ? (double)li : x;
            uint8_t rnd = in->rnd;
            switch (rnd) {                                       /* -> integral value (exact in f16) */
            case RND_RNI: hv = nearbyint(hv); rnd = RND_RN; break;   /* mode is RN here */
            case RND_RZI: hv = trunc(hv); rnd = RND_RN; break;
            case RND_RMI: hv = floor(hv); rnd = RND_RN; break;
            case RND_RPI: hv = ceil(hv); rnd = RND_RN; break;
            default: break;
            }
            if (sat) hv = sat64(hv);
            r = emu_f16_round(hv, rnd);
        } else {
            reset_rounding(chg);
            return emu_fault(X->c, X->wi, (int)lane, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "cvt to .%s is not supported", ptx_type_name[dt]);
        }
        wr(X, o[0].reg, (int)lane, r);
    }
    reset_rounding(chg);
    return EMU_OK;
}
