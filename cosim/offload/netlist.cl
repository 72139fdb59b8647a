/*
 * netlist.cl -- the "netlist" offload transport's device code (OpenCL C
 * 1.2): one interpreter kernel that evaluates a netlist program file
 * (cosim/offload/snl.h, scripts/offload/netlist_gen.py) for k cycles.
 *
 * The program is data, not code: the same kernel runs every parameter set,
 * and its build takes about a second in PoCL, where a straight-line kernel
 * per design took minutes (docs/offload.md, "Netlist transport").
 *
 * Work-item w evaluates 64-lane word w (lanes 64w .. 64w+63) through all k
 * cycles; lanes are independent copies of the core, so work-items never
 * talk to each other and the result does not depend on the work-group
 * size. One cycle is snl_eval_cycle() of snl_eval.c, step for step.
 *
 * Layouts (nw = words per slot):
 *   vals[slot * nw + w]                    the program's state (kept between
 *                                          launches)
 *   in[(c * in_bits + b) * nw + w]         input token bit slices of cycle c
 *   out[(c * out_bits + b) * nw + w]       output token bit slices
 *   step[c * nw + w], rst[c * nw + w]      lane masks (clock enable, reset)
 *   any_rst[c]                             some lane is reset in cycle c
 */

static ulong snl_op(uint code, ulong a, ulong b, ulong c, ulong d)
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

static void snl_ops(__global const uint4 *ops, uint from, uint to, uint op_base,
                    __global ulong *vals, uint nw, uint w)
{
    for (uint i = from; i < to; i++) {
        uint4 o = ops[i];
        ulong a = vals[(size_t)(o.x & 0xffffffu) * nw + w];
        ulong b = vals[(size_t)o.y * nw + w];
        ulong c = vals[(size_t)o.z * nw + w];
        ulong d = vals[(size_t)o.w * nw + w];
        vals[(size_t)(op_base + i) * nw + w] = snl_op(o.x >> 24, a, b, c, d);
    }
}

__kernel void snl_run(__global const uint4 *ops, uint n_ops, uint n_s_ops, uint op_base,
                      __global const uint4 *ffs, uint n_ff,
                      __global const uint *in_map, uint in_bits,
                      __global const uint *out_map, uint out_bits,
                      __global ulong *vals, uint nw, uint k,
                      __global const ulong *step, __global const ulong *rst,
                      __global const uint *any_rst,
                      __global const ulong *in, __global ulong *out)
{
    uint w = get_global_id(0);
    if (w >= nw)
        return;
    for (uint c = 0; c < k; c++) {
        /* 1. asynchronous reset of the lanes in reset; state-only ops */
        if (any_rst[c]) {
            ulong r = rst[(size_t)c * nw + w];
            for (uint f = 0; f < n_ff; f++) {
                uint kind = ffs[f].z;
                __global ulong *q = vals + (size_t)(3 + f) * nw + w;
                if (kind == 1)
                    *q &= ~r;
                else if (kind == 2)
                    *q |= r;
            }
            snl_ops(ops, 0, n_s_ops, op_base, vals, nw, w);
        }
        /* 2. the input token; the ops on it */
        for (uint b = 0; b < in_bits; b++)
            vals[(size_t)in_map[b] * nw + w] = in[((size_t)c * in_bits + b) * nw + w];
        snl_ops(ops, n_s_ops, n_ops, op_base, vals, nw, w);
        /* 3. the edge where enabled and stepped */
        ulong st = step[(size_t)c * nw + w];
        for (uint f = 0; f < n_ff; f++) {
            uint4 r = ffs[f];
            __global ulong *q = vals + (size_t)(3 + f) * nw + w;
            ulong m = vals[(size_t)r.y * nw + w] & st;
            *q = (*q & ~m) | (vals[(size_t)r.x * nw + w] & m);
        }
        /* 4. state-only ops; the outputs */
        snl_ops(ops, 0, n_s_ops, op_base, vals, nw, w);
        for (uint b = 0; b < out_bits; b++)
            out[((size_t)c * out_bits + b) * nw + w] = vals[(size_t)out_map[b] * nw + w];
    }
}
