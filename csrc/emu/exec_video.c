/*
 * exec_video.c — SIMD video instructions (vadd2/4, vsub2/4, vabsdiff2/4,
 * vmin2/4, vmax2/4).
 */
#include "exec_internal.h"

/* SIMD video instructions (PTX ISA "SIMD Video Instructions"), the forms
 * nvcc emits for the __vabsdiff*, __vsad*, __vabs* intrinsics:
 *   vop4.dtype.atype.btype{.sat} d, a, b, c;  per byte, merged into d
 *   vop4.dtype.atype.btype.add   d, a, b, c;  d = c + the sum of the bytes' results
 * and the half-word vop2 forms. Elements are sign- or zero-extended by
 * .atype/.btype; .sat clamps each result to .dtype's element range, else it
 * is truncated. Only the default byte/half selectors and merge mask are
 * supported (the parser accepts no other). vavrg2/4 are not implemented. */
int exec_video(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    const ptx_operand *o = in->ops;
    bool four = in->op == OP_VADD4 || in->op == OP_VSUB4 || in->op == OP_VABSDIFF4 ||
                in->op == OP_VMIN4 || in->op == OP_VMAX4;
    unsigned n = four ? 4 : 2, eb = four ? 8 : 16;
    bool ds = in->type == PT_S32, as = in->type2 == PT_S32, bs = in->flags & F_BSIGNED;
    bool sat = in->flags & F_SAT, acc = in->mode == MD_ADD;
    int64_t lo = ds ? -(1ll << (eb - 1)) : 0, hi = ds ? (1ll << (eb - 1)) - 1 : (1ll << eb) - 1;
    LANES(act) {
        uint32_t a = (uint32_t)val(X, &o[1], lane), b = (uint32_t)val(X, &o[2], lane);
        uint32_t c = (uint32_t)val(X, &o[3], lane);
        int64_t sum = (int64_t)(int32_t)c;
        uint32_t packed = 0;
        for (unsigned i = 0; i < n; i++) {
            uint32_t ua = (a >> (eb * i)) & ((1u << eb) - 1), ub = (b >> (eb * i)) & ((1u << eb) - 1);
            int64_t x = as ? sext(ua, eb) : (int64_t)ua, y = bs ? sext(ub, eb) : (int64_t)ub, rr;
            switch (in->op) {
            case OP_VADD2: case OP_VADD4: rr = x + y; break;
            case OP_VSUB2: case OP_VSUB4: rr = x - y; break;
            case OP_VABSDIFF2: case OP_VABSDIFF4: rr = x > y ? x - y : y - x; break;
            case OP_VMIN2: case OP_VMIN4: rr = x < y ? x : y; break;
            default: rr = x > y ? x : y; break;
            }
            if (acc) { sum += rr; continue; }
            if (sat) rr = rr < lo ? lo : rr > hi ? hi : rr;
            packed |= ((uint32_t)rr & ((1u << eb) - 1)) << (eb * i);
        }
        wr(X, o[0].reg, (int)lane, acc ? (uint64_t)(uint32_t)sum : packed);
    }
    return EMU_OK;
}
