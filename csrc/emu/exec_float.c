/*
 * exec_float.c — f32 and f64 arithmetic, including the SFU operations
 * (rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh). Rounding modifiers switch
 * the host's rounding mode for the instruction (docs/emulator.md).
 */
#include "exec_internal.h"

/* f32 and f64 arithmetic (other float types are refused) in the host's
 * float and double, in the instruction's rounding mode; .ftz, .sat. */
int exec_arith_float(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    uint8_t t = in->type;
    const ptx_operand *o = in->ops;
    int32_t d = o[0].reg;
    int chg = 0;
    if (t != PT_F32 && t != PT_F64)
        return emu_fault(X->c, X->wi, -1, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "%s.%s is not supported", ptx_op_name[in->op], ptx_type_name[t]);
    bool ftz = in->flags & F_FTZ, sat = in->flags & F_SAT;
    chg = set_rounding(in->rnd);
    LANES(act) {
        if (t == PT_F32) {
            float a = f32(val(X, &o[1], lane)), b = 0, cc = 0, r = 0;
            if (in->nops > 2) b = f32(val(X, &o[2], lane));
            if (in->nops > 3) cc = f32(val(X, &o[3], lane));
            if (ftz) { a = ftz32(a); b = ftz32(b); cc = ftz32(cc); }
            switch (in->op) {
            case OP_ADD: r = a + b; break;
            case OP_SUB: r = a - b; break;
            case OP_MUL: r = a * b; break;
            case OP_FMA: case OP_MAD: r = fmaf(a, b, cc); break;
            case OP_DIV:
                /* div.approx is a * (1/b) with a flushing reciprocal: for
                 * |b| > 2^126 1/b is 0 (CUDA: __fdividef gives 0 there) */
                if ((in->flags & F_APPROX) && fabsf(b) > 0x1p126f) r = a * copysignf(0.0f, b);
                else r = a / b;
                break;
            /* a NaN operand (signalling too: the host's fminf would return
             * NaN for it) gives the other operand; both NaN give NaN */
            case OP_MIN: r = isnan(a) ? (isnan(b) ? NAN : b) : isnan(b) ? a : fminf(a, b); break;
            case OP_MAX: r = isnan(a) ? (isnan(b) ? NAN : b) : isnan(b) ? a : fmaxf(a, b); break;
            case OP_ABS: r = fabsf(a); break;
            case OP_NEG: r = -a; break;
            case OP_COPYSIGN: r = copysignf(b, a); break;
            case OP_RCP: r = 1.0f / a; break;
            case OP_SQRT: r = sqrtf(a); break;
            case OP_RSQRT: r = 1.0f / sqrtf(a); break;
            case OP_SIN: r = sinf(a); break;
            case OP_COS: r = cosf(a); break;
            case OP_LG2: r = log2f(a); break;
            case OP_EX2: r = exp2f(a); break;
            case OP_TANH: r = tanhf(a); break;
            default: reset_rounding(chg); return emu_fault(X->c, X->wi, (int)lane, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "%s.f32 is not supported", ptx_op_name[in->op]);
            }
            if (ftz) r = ftz32(r);
            if (sat) r = sat32(r);
            wr(X, d, (int)lane, bf32(r));
        } else {
            double a = f64(val(X, &o[1], lane)), b = 0, cc = 0, r = 0;
            if (in->nops > 2) b = f64(val(X, &o[2], lane));
            if (in->nops > 3) cc = f64(val(X, &o[3], lane));
            /* .ftz exists on f64 only for rcp/rsqrt.approx: flush input */
            if (ftz) { a = ftz64(a); b = ftz64(b); cc = ftz64(cc); }
            switch (in->op) {
            case OP_ADD: r = a + b; break;
            case OP_SUB: r = a - b; break;
            case OP_MUL: r = a * b; break;
            case OP_FMA: case OP_MAD: r = fma(a, b, cc); break;
            case OP_DIV: r = a / b; break;
            case OP_MIN: r = isnan(a) ? (isnan(b) ? NAN : b) : isnan(b) ? a : fmin(a, b); break;
            case OP_MAX: r = isnan(a) ? (isnan(b) ? NAN : b) : isnan(b) ? a : fmax(a, b); break;
            case OP_ABS: r = fabs(a); break;
            case OP_NEG: r = -a; break;
            case OP_COPYSIGN: r = copysign(b, a); break;
            case OP_RCP: r = 1.0 / a; break;
            case OP_SQRT: r = sqrt(a); break;
            case OP_RSQRT: r = 1.0 / sqrt(a); break;
            case OP_SIN: r = sin(a); break;
            case OP_COS: r = cos(a); break;
            case OP_LG2: r = log2(a); break;
            case OP_EX2: r = exp2(a); break;
            case OP_TANH: r = tanh(a); break;
            default: reset_rounding(chg); return emu_fault(X->c, X->wi, (int)lane, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "%s.f64 is not supported", ptx_op_name[in->op]);
            }
            if (ftz) r = ftz64(r);
            if (sat) r = sat64(r);
            wr(X, d, (int)lane, bf64(r));
        }
    }
    reset_rounding(chg);
    return EMU_OK;
}
