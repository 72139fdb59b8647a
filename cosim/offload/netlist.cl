/*
 * netlist.cl -- the "netlist" offload transport's device code (OpenCL C
 * 1.2): one interpreter kernel that evaluates a netlist program file
 * (cosim/offload/snl.h, scripts/offload/netlist_gen.py) for k cycles.
 *
 * The program is data, not code: the same kernel runs every parameter set,
 * and its build takes about a second in PoCL, where a straight-line kernel
 * per design took minutes (docs/offload.md, "Netlist transport").
 *
 * Work-item g evaluates SNL_W 64-lane words (lanes 64*SNL_W*g ...) through
 * all k cycles, as one ulong, ulong2, ulong4 or ulong8 (SNL_W, a build
 * option the host chooses from the number of lanes). Lanes are independent
 * copies of the core, so work-items never talk to each other and the result
 * depends neither on the work-group size nor on SNL_W. One cycle is
 * snl_eval_cycle() of snl_eval.c, step for step.
 *
 * Layouts (nw = words per slot, a multiple of SNL_W):
 *   vals[(g * n_slots + slot) * SNL_W + i] the program's state (kept between
 *                                          launches); work-item-major, so that
 *                                          work-items on different CPU cores
 *                                          do not share cache lines
 *   in[(c * in_bits + b) * nw + w]         input token bit slices of cycle c
 *   out[(c * out_bits + b) * nw + w]       output token bit slices
 *   step[c * nw + w], rst[c * nw + w]      lane masks (clock enable, reset)
 *   any_rst[c]                             some lane is reset in cycle c
 */

#ifndef SNL_W
#define SNL_W 1
#endif
#if SNL_W == 1
typedef ulong vec_t;
#define LD(p) (*(p))
#define ST(x, p) (*(p) = (x))
#elif SNL_W == 2
typedef ulong2 vec_t;
#define LD(p) vload2(0, (p))
#define ST(x, p) vstore2((x), 0, (p))
#elif SNL_W == 4
typedef ulong4 vec_t;
#define LD(p) vload4(0, (p))
#define ST(x, p) vstore4((x), 0, (p))
#elif SNL_W == 8
typedef ulong8 vec_t;
#define LD(p) vload8(0, (p))
#define ST(x, p) vstore8((x), 0, (p))
#else
#error SNL_W must be 1, 2, 4 or 8
#endif

static vec_t snl_op(uint code, vec_t a, vec_t b, vec_t c, vec_t d)
{
    switch (code) {
    case 0:  return a;                          /* BUF */
    case 1:  return ~a;                         /* NOT */
    case 2:  return a & b;                      /* AND */
    case 3:  return ~(a & b);                   /* NAND */
    case 4:  return a | b;                      /* OR */
    case 5:  return ~(a | b);                   /* NOR */
    case 6:  return a ^ b;                      /* XOR */
    case 7:  return ~(a ^ b);                   /* XNOR */
    case 8:  return a & ~b;                     /* ANDNOT */
    case 9:  return a | ~b;                     /* ORNOT */
    case 10: return (a & ~c) | (b & c);         /* MUX: c ? b : a */
    case 11: return ~((a & ~c) | (b & c));      /* NMUX */
    case 12: return ~((a & b) | c);             /* AOI3 */
    case 13: return ~((a | b) & c);             /* OAI3 */
    case 14: return ~((a & b) | (c & d));       /* AOI4 */
    default: return ~((a | b) & (c | d));       /* OAI4 */
    }
}

/* v: this work-item's values */
static void snl_ops(__global const uint4 *ops, uint from, uint to, uint op_base,
                    __global vec_t *v)
{
    for (uint i = from; i < to; i++) {
        uint4 o = ops[i];
        v[op_base + i] = snl_op(o.x >> 24, v[o.x & 0xffffffu], v[o.y], v[o.z], v[o.w]);
    }
}

__kernel void snl_run(__global const uint4 *ops, uint n_ops, uint n_s_ops, uint op_base,
                      __global const uint4 *ffs, uint n_ff,
                      __global const uint *in_map, uint in_bits,
                      __global const uint *out_map, uint out_bits,
                      __global ulong *vals, uint n_slots, uint nw, uint k,
                      __global const ulong *step, __global const ulong *rst,
                      __global const uint *any_rst,
                      __global const ulong *in, __global ulong *out)
{
    uint g = get_global_id(0);
    if ((size_t)g * SNL_W >= nw)
        return;
    __global vec_t *v = (__global vec_t *)vals + (size_t)g * n_slots;
    size_t w = (size_t)g * SNL_W;   /* first word of this work-item */
    for (uint c = 0; c < k; c++) {
        /* 1. asynchronous reset of the lanes in reset; state-only ops */
        if (any_rst[c]) {
            vec_t r = LD(rst + (size_t)c * nw + w);
            for (uint f = 0; f < n_ff; f++) {
                uint kind = ffs[f].z;
                if (kind == 1)
                    v[3 + f] &= ~r;
                else if (kind == 2)
                    v[3 + f] |= r;
            }
            snl_ops(ops, 0, n_s_ops, op_base, v);
        }
        /* 2. the input token; the ops on it */
        for (uint b = 0; b < in_bits; b++)
            v[in_map[b]] = LD(in + ((size_t)c * in_bits + b) * nw + w);
        snl_ops(ops, n_s_ops, n_ops, op_base, v);
        /* 3. the edge where enabled and stepped */
        vec_t st = LD(step + (size_t)c * nw + w);
        for (uint f = 0; f < n_ff; f++) {
            uint4 r = ffs[f];
            vec_t m = v[r.y] & st;
            v[3 + f] = (v[3 + f] & ~m) | (v[r.x] & m);
        }
        /* 4. state-only ops; the outputs */
        snl_ops(ops, 0, n_s_ops, op_base, v);
        for (uint b = 0; b < out_bits; b++)
            ST(v[out_map[b]], out + ((size_t)c * out_bits + b) * nw + w);
    }
}
