/*
 * exec_int.c — integer arithmetic, logic and bit manipulation (and/or/xor,
 * shifts, popc, clz, brev, bfind, bfe/bfi, prmt, shf, bmsk, szext, dp4a/
 * dp2a, fns, lop3).
 */
#include "exec_internal.h"

/* Integer arithmetic: add/sub (with carry in and out, CC.CF per lane),
 * mul/mad .lo/.hi/.wide, mul24/mad24, sad, div/rem, min/max, abs, neg. */
int exec_arith_int(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    uint8_t t = in->type;
    unsigned bits = tbits(t);
    bool sgn = ptx_type_class[t] == TC_SINT;
    const ptx_operand *o = in->ops;
    int32_t d = o[0].reg;
    uint64_t M = zmask(bits);
    uint32_t carry_out = 0;
    LANES(act) {
        uint64_t a = val(X, &o[1], lane) & M, b = in->nops > 2 ? val(X, &o[2], lane) : 0, cc = in->nops > 3 ? val(X, &o[3], lane) : 0;
        int64_t sa = sext(a, bits), sb = sext(b & M, bits);
        uint64_t r = 0;
        unsigned cin = (X->w->carry >> lane) & 1;
        switch (in->op) {
        case OP_ADD: case OP_ADDC: {
            uint64_t ci = in->op == OP_ADDC ? cin : 0;
            b &= M;
            r = a + b + ci;
            if (in->flags & F_SAT && t == PT_S32) {
                int64_t s = sa + sb;
                r = (uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
            }
            if (in->flags & F_CC) {
                unsigned co = bits == 64 ? (r < a || (ci && r == a)) : (unsigned)((r >> bits) & 1);
                carry_out |= co << lane;
            }
            break;
        }
        case OP_SUB: case OP_SUBC: {
            uint64_t bi = in->op == OP_SUBC ? cin : 0;
            b &= M;
            r = a - b - bi;
            if (in->flags & F_SAT && t == PT_S32) {
                int64_t s = sa - sb;
                r = (uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
            }
            if (in->flags & F_CC) {
                unsigned bo = (a < b) || (a == b && bi);
                carry_out |= bo << lane;
            }
            break;
        }
        case OP_MUL: case OP_MAD: case OP_MADC: {
            b &= M;
            unsigned __int128 p;
            if (sgn) p = (unsigned __int128)((__int128)sa * (__int128)sb);
            else p = (unsigned __int128)a * b;
            if (in->mode == MD_HI) r = (uint64_t)(p >> bits);
            else if (in->mode == MD_WIDE) r = (uint64_t)p;   /* bits <= 32 */
            else r = (uint64_t)p;
            if (in->op != OP_MUL) {
                unsigned rb = in->mode == MD_WIDE ? 2 * bits : bits;
                uint64_t RM = zmask(rb);
                uint64_t ci = in->op == OP_MADC ? cin : 0;
                uint64_t rr = (r & RM) + (cc & RM) + ci;
                if (in->flags & F_CC) {
                    unsigned co = rb == 64 ? (rr < (r & RM) || (ci && rr == (r & RM))) : (unsigned)((rr >> rb) & 1);
                    carry_out |= co << lane;
                }
                if (in->flags & F_SAT && t == PT_S32 && in->mode == MD_HI) {
                    int64_t s = (int64_t)(int32_t)r + (int64_t)(int32_t)cc;
                    rr = (uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
                }
                r = rr;
            }
            if (in->mode == MD_WIDE) { wr(X, d, (int)lane, r & zmask(2 * bits)); continue; }
            break;
        }
        case OP_MUL24: case OP_MAD24: {
            int64_t x = sgn ? sext(a & 0xFFFFFF, 24) : (int64_t)(a & 0xFFFFFF);
            int64_t y = sgn ? sext(b & 0xFFFFFF, 24) : (int64_t)(b & 0xFFFFFF);
            uint64_t p = (uint64_t)(x * y);
            r = in->mode == MD_HI ? (p >> 16) : p;
            if (in->op == OP_MAD24) r += cc;
            break;
        }
        case OP_SAD: {
            uint64_t diff = sgn ? (uint64_t)(sa > sb ? sa - sb : sb - sa) : (a > (b & M) ? a - (b & M) : (b & M) - a);
            r = cc + diff;
            break;
        }
        case OP_DIV:
            b &= M;
            if (b == 0) r = sgn ? (uint64_t)-1 : M;                 /* see docs: division by zero */
            else if (sgn) r = (sb == -1) ? (uint64_t)(-(uint64_t)sa) : (uint64_t)(sa / sb);
            else r = a / b;
            break;
        case OP_REM:
            b &= M;
            if (b == 0) r = a;
            else if (sgn) r = (sb == -1) ? 0 : (uint64_t)(sa % sb);
            else r = a % b;
            break;
        case OP_MIN: r = sgn ? (uint64_t)(sa < sb ? sa : sb) : (a < (b & M) ? a : (b & M)); break;
        case OP_MAX: r = sgn ? (uint64_t)(sa > sb ? sa : sb) : (a > (b & M) ? a : (b & M)); break;
        case OP_ABS: r = (uint64_t)(sa < 0 ? -(uint64_t)sa : (uint64_t)sa); break;
        case OP_NEG: r = (uint64_t)0 - a; break;
        default:
            return emu_fault(X->c, X->wi, (int)lane, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "%s.%s is not supported", ptx_op_name[in->op], ptx_type_name[t]);
        }
        wr(X, d, (int)lane, r & M);
    }
    if (in->flags & F_CC) X->w->carry = (X->w->carry & ~act) | carry_out;
    return EMU_OK;
}

int exec_logic(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    uint8_t t = in->type;
    unsigned bits = t == PT_PRED ? 1 : tbits(t);
    uint64_t M = zmask(bits);
    const ptx_operand *o = in->ops;
    int32_t d = o[0].reg;
    bool sgn = ptx_type_class[t] == TC_SINT;
    LANES(act) {
        uint64_t a = val(X, &o[1], lane) & M, b = in->nops > 2 ? val(X, &o[2], lane) : 0;
        uint64_t c3 = in->nops > 3 ? val(X, &o[3], lane) : 0;
        uint64_t r = 0;
        switch (in->op) {
        case OP_AND: r = a & b; break;
        case OP_OR: r = a | b; break;
        case OP_XOR: r = a ^ b; break;
        case OP_NOT: r = ~a; break;
        case OP_CNOT: r = a == 0; break;
        case OP_SHL: { uint32_t s = (uint32_t)b; r = s >= bits ? 0 : a << s; break; }
        case OP_SHR: {
            uint32_t s = (uint32_t)b;
            if (sgn) { int64_t v = sext(a, bits); r = (uint64_t)(s >= bits ? (v < 0 ? -1 : 0) : v >> s); }
            else r = s >= bits ? 0 : a >> s;
            break;
        }
        case OP_POPC: r = (uint64_t)__builtin_popcountll(a); break;
        case OP_CLZ: r = a == 0 ? bits : (uint64_t)(__builtin_clzll(a) - (64 - (int)bits)); break;
        case OP_BREV: { r = 0; for (unsigned i = 0; i < bits; i++) if (a >> i & 1) r |= 1ull << (bits - 1 - i); break; }
        case OP_BFIND: {
            uint64_t v = a;
            if (sgn && (sext(a, bits) < 0)) v = ~a & M;
            if (v == 0) r = 0xFFFFFFFFu;
            else { r = 63 - (uint64_t)__builtin_clzll(v); if (in->flags & F_SHIFTAMT) r = bits - 1 - r; }
            wr(X, d, (int)lane, r & 0xFFFFFFFFu);
            continue;
        }
        case OP_BFE: {
            unsigned pos = (unsigned)(b & 0xff), len = (unsigned)(c3 & 0xff);
            unsigned msb = bits - 1;
            unsigned sbit = 0;
            if (sgn && len) { unsigned p = pos + len - 1 > msb ? msb : pos + len - 1; sbit = (unsigned)(a >> p) & 1; }
            r = 0;
            for (unsigned i = 0; i <= msb; i++) {
                unsigned bit = (i < len && pos + i <= msb) ? (unsigned)(a >> (pos + i)) & 1 : sbit;
                r |= (uint64_t)bit << i;
            }
            break;
        }
        case OP_BFI: {
            uint64_t e = val(X, &o[4], lane);
            unsigned pos = (unsigned)(c3 & 0xff), len = (unsigned)(e & 0xff);
            r = b & M;
            for (unsigned i = 0; i < len && pos + i < bits; i++)
                r = (r & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
            break;
        }
        case OP_PRMT: {
            uint64_t bytes = (a & 0xFFFFFFFFu) | ((b & 0xFFFFFFFFu) << 32);
            r = 0;
            if (in->mode != MD_NONE) {
                /* PTX ISA prmt mode table: source byte for d.b3..d.b0, by c[1:0] */
                static const uint8_t tab[6][4][4] = {
                    { { 3, 2, 1, 0 }, { 4, 3, 2, 1 }, { 5, 4, 3, 2 }, { 6, 5, 4, 3 } },   /* f4e */
                    { { 5, 6, 7, 0 }, { 6, 7, 0, 1 }, { 7, 0, 1, 2 }, { 0, 1, 2, 3 } },   /* b4e */
                    { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } },   /* rc8 */
                    { { 3, 2, 1, 0 }, { 3, 2, 1, 1 }, { 3, 2, 2, 2 }, { 3, 3, 3, 3 } },   /* ecl */
                    { { 0, 0, 0, 0 }, { 1, 1, 1, 0 }, { 2, 2, 1, 0 }, { 3, 2, 1, 0 } },   /* ecr */
                    { { 1, 0, 1, 0 }, { 3, 2, 3, 2 }, { 1, 0, 1, 0 }, { 3, 2, 3, 2 } },   /* rc16 */
                };
                const uint8_t *sel = tab[in->mode - MD_F4E][c3 & 3];
                for (unsigned i = 0; i < 4; i++) r |= ((bytes >> (8 * sel[3 - i])) & 0xff) << (8 * i);
                break;
            }
            for (unsigned i = 0; i < 4; i++) {
                unsigned sel = (unsigned)(c3 >> (4 * i)) & 0xf;
                uint64_t byte = (bytes >> (8 * (sel & 7))) & 0xff;
                if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
                r |= byte << (8 * i);
            }
            break;
        }
        case OP_SHF: {
            uint64_t cat = (a & 0xFFFFFFFFu) | ((b & 0xFFFFFFFFu) << 32);
            uint32_t n = (uint32_t)c3;
            n = (in->flags & F_WRAP) ? (n & 31) : (n > 32 ? 32 : n);
            if (in->mode == MD_L) r = n == 0 ? (cat >> 32) : (uint64_t)((cat << n) >> 32);
            else r = cat >> n;
            if (in->mode == MD_L && n == 32) r = a;
            break;
        }
        case OP_BMSK: {                      /* mask of b bits starting at bit a */
            uint32_t pos = (uint32_t)a, wid = (uint32_t)b;
            if (in->flags & F_WRAP) { pos &= 31; wid &= 31; }
            else { pos = pos > 32 ? 32 : pos; wid = wid > 32 ? 32 : wid; }
            uint64_t mk = wid >= 32 ? 0xFFFFFFFFull : ((1ull << wid) - 1);
            r = pos >= 32 ? 0 : (mk << pos) & 0xFFFFFFFFull;
            break;
        }
        case OP_SZEXT: {                     /* extend the low b bits of a */
            uint32_t wid = (uint32_t)b;
            wid = (in->flags & F_WRAP) ? (wid & 31) : (wid > 32 ? 32 : wid);
            if (wid == 0) r = 0;
            else if (wid >= 32) r = a & 0xFFFFFFFFu;
            else r = sgn ? (uint64_t)sext(a, wid) & 0xFFFFFFFFu : a & ((1ull << wid) - 1);
            break;
        }
        case OP_DP4A: case OP_DP2A: {
            bool as = ptx_type_class[in->type] == TC_SINT, bs = ptx_type_class[in->type2] == TC_SINT;
            int64_t acc = (int64_t)(int32_t)c3;
            if (!as && !bs) acc = (int64_t)(uint32_t)c3;
            for (unsigned i = 0; i < (in->op == OP_DP4A ? 4u : 2u); i++) {
                int64_t x, y;
                if (in->op == OP_DP4A) {
                    x = as ? (int8_t)(a >> (8 * i)) : (int64_t)((a >> (8 * i)) & 0xff);
                } else {
                    x = as ? (int16_t)(a >> (16 * i)) : (int64_t)((a >> (16 * i)) & 0xffff);
                }
                unsigned bi = in->op == OP_DP4A ? i : i + (in->mode == MD_HI ? 2 : 0);
                y = bs ? (int8_t)(b >> (8 * bi)) : (int64_t)((b >> (8 * bi)) & 0xff);
                acc += x * y;
            }
            r = (uint64_t)acc & 0xFFFFFFFFu;
            break;
        }
        case OP_FNS: {   /* the |offset|-th set bit of mask from base, up or down */
            int32_t base = (int32_t)(b & 0xFFFFFFFFu), off = (int32_t)(uint32_t)c3;
            r = 0xFFFFFFFFu;
            if (off == 0) {
                if (base >= 0 && base < 32 && (a >> base & 1)) r = (uint64_t)base;
            } else {
                int32_t count = (off > 0 ? off : -off) - 1, inc = off > 0 ? 1 : -1;
                for (int32_t pos = base; pos >= 0 && pos < 32; pos += inc)
                    if (a >> pos & 1) {
                        if (count == 0) { r = (uint64_t)pos; break; }
                        count--;
                    }
            }
            break;
        }
        case OP_LOP3: {
            uint32_t lut = (uint32_t)val(X, &o[4], lane) & 0xff;
            r = 0;
            for (unsigned i = 0; i < 8; i++) {
                if (!(lut >> i & 1)) continue;
                uint64_t term = ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c3 : ~c3);
                r |= term;
            }
            break;
        }
        default:
            return emu_fault(X->c, X->wi, (int)lane, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "%s is not supported", ptx_op_name[in->op]);
        }
        wr(X, d, (int)lane, r & M);
    }
    return EMU_OK;
}
