#!/usr/bin/env python3
"""gen_teg_kernels.py — the generator of TEG's calibration microbenchmarks
(seed 003 ../shared/design/teg.md §5.5; docs/teg.md, "Calibration").

Writes bench/microbench/teg/teg_kernels.cu: one extern "C" kernel per
instruction (TEG class), instruction-level parallelism and unrolled length,
which `smcosim teg calibrate` (teg_calib.c) launches by name from the
committed PTX (teg_kernels.ptx; `bench/microbench/regen.sh teg` runs this
script and nvcc). Every kernel has the signature

    (unsigned long long *out, unsigned long long *data, unsigned arg,
     unsigned passes)

  out     each warp's lane 0 stores its two %clock64 reads of the last pass:
          out[2 w] (before the timed code) and out[2 w + 1] (after it),
          w = the warp's index in the grid
  data    global memory: the pointer chains of the gload kernels, the
          streamed array of the stream kernel (unused by the others)
  arg     a run-time value the compiler cannot see: the operands of the
          arithmetic chains, the bank-conflict degree of the shared chase
          (lanes per bank group m: degree ceil(32 / m); 0 = 32), the line
          layout of the stream (stream_kernel)
  passes  how many times the unrolled code runs; only the last pass is
          kept, so that it finds its code in the instruction cache (the
          first pass brings it there: GPUDIAG's rule, docs/gpudiag.md) and,
          for the gload chase, its lines where the level measured wants them
          (the host runs 3: teg_calib.c, PASSES)

The families (one per measured quantity; 003 Lnnnn: the thesis's lines):

  teg_<op>_i1_l32 / _l96   one warp, one dependent chain of 32 or 96
                           instructions: exec = (T(96) - T(32)) / 64, the
                           two-length difference of G19 (the thesis's own
                           "21 dependent FADD32 ... (514 - 28 - 8) / 20"
                           arithmetic of 003 L1023-1027 subtracts the clock
                           overhead by hand)
  teg_<op>_i32_l1 / _l3    one warp, 32 independent chains, 1 or 3
                           instructions each (32 or 96 in all): the same
                           warp's issue interval, warp_busy (003 L1035,
                           "same-warp issue latency")
  teg_<op>_i16_l2 / _l6    the same with 16 chains, for 64-bit values
                           (32 chains do not fit 63 registers)
  teg_<op>_i4_l8 / _l40    many warps, 4 independent chains, 8 or 40 each
                           (32 or 160): the SM's throughput of the
                           instruction, hence the unit's accept interval
                           (003 L1031: 32 / ops per clock; GPUDIAG's Eq. 3.7)
  teg_stream_i<k>          many warps, each loading k fresh lines per
                           pass (one SM, or every SM; every channel, or
                           one): bytes per cycle, hence TEG's bytes in
                           flight by Little's law (Eq. 3.1, 003 L1077-1083)
  teg_ffma_lds<w>_r<R>_l<n> FFMA : LDS.X mixes of 003 L1469 (R FFMA per
                           ld.shared of w bits; 3:1, 6:1, 12:1): the F_T
                           throughput of Fig. 4.2 / G26 on the cycle model

Lengths: the longest timed code (ILP 4 x 40 = 160 instructions, and the
pass loop, clock reads and stores around it) must fit the smallest
instruction cache a preset models, fermi-gtx480's 2 KB of 8-byte PTX
instructions, as GPUDIAG's FU_LENGTHS (bench/microbench/gen_kernels.py).

Usage: gen_teg_kernels.py [OUT.cu]   (default: next to this script)
"""
import os
import sys

# op: (C type, asm constraint, instruction, initial value from arg, TEG class)
# The instruction is the class's Table 3.1 row where the thesis has one
# (003 L1041-1053): Integer ADD, Float ADD, Float MUL, Double ADD; the
# classes it does not list (G8) take their most common PTX opcode. The
# "_fma" and "_mad" ops are a second opcode of a class, measured for
# information (a per-opcode latency table such as unit.opcode_latency =
# g321 gives a class several latencies).
OPS = {
    "int":       ("unsigned", "r", "add.u32 {x}, {x}, {y};", "arg", "int"),
    "int_mul":   ("unsigned", "r", "mul.lo.u32 {x}, {x}, {y};", "arg | 1u", "int_mul"),
    "int_mad":   ("unsigned", "r", "mad.lo.u32 {x}, {x}, {y}, {y};", "arg | 1u", "int_mul"),
    "fp32":      ("float", "f", "add.f32 {x}, {x}, {y};", "(float)arg", "fp32"),
    "fp32_fma":  ("float", "f", "fma.rn.f32 {x}, {x}, {y}, {y};", "(float)arg", "fp32"),
    "fmul":      ("float", "f", "mul.f32 {x}, {x}, {y};", "(float)arg", "fmul"),
    "fp64":      ("double", "d", "add.f64 {x}, {x}, {y};", "(double)arg", "fp64"),
    "sfu":       ("float", "f", "sin.approx.f32 {x}, {x};", "(float)arg", "sfu"),
    # an integer-to-integer conversion: the emulator's class EC_INT, which
    # teg_class_of() calls a conversion (a float one is EC_FP32: fp32)
    "conv":      ("unsigned", "r", "cvt.s32.s16 {x}, {x};", "arg", "conv"),
    # each lane follows its own word of shared memory (see smem_setup)
    "smem":      ("unsigned", "r", "ld.shared.u32 {x}, [{x}];", None, "smem"),
    # every lane follows the same pointer chain: one transaction per load
    "gload":     ("unsigned long long", "l", "ld.global.u64 {x}, [{x}];", None, "gload"),
}

# (ILP, the two unrolled lengths per chain)
FAMILIES = [(1, (32, 96)), (32, (1, 3)), (4, (8, 40))]
# 32 chains of 64-bit values need 64 registers and more: more than
# fermi-gtx480's 63 per thread (thread.max_regs), so those ops also have a
# 16-chain version of the same 32 and 96 instructions, which the host
# launches when the 32-chain one is refused
FAMILIES_64BIT = [(16, (2, 6))]

# stream: lines loaded per warp and pass (independent loads)
STREAM_ILP = 8
# ffma-lds: (LDS width in bits, FFMAs per LDS) = 003 L1469's three mixes
FFMA_LDS = [(32, 3), (64, 6), (128, 12)]
FFMA_LDS_LENGTHS = (4, 12)   # mix periods per pass: the two lengths

HEADER = r'''/* teg_kernels.cu — GENERATED by bench/microbench/teg/gen_teg_kernels.py; do not edit.
 * TEG's calibration microbenchmarks (seed 003 ../shared/design/teg.md §5.5;
 * docs/teg.md, "Calibration"). See gen_teg_kernels.py for the common
 * signature and the families. */
#include <stdint.h>

typedef unsigned long long u64;

/* Lane 0 of each warp stores the warp's two clock reads of the last pass. */
static __device__ __forceinline__ void teg_store_times(u64 *out, u64 t0, u64 t1)
{
    if ((threadIdx.x & 31) == 0) {
        u64 *o = out + 2 * ((u64)blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32);
        o[0] = t0;
        o[1] = t1;
    }
}
'''


def body(op, ilp, length):
    """The unrolled code: `length` periods, each one instruction per chain."""
    ctype, cons, tmpl, init, cls = OPS[op]
    lines = []
    for _ in range(length):
        for j in range(ilp):
            ins = tmpl.format(x="%0", y="%1")
            if "{y}" in tmpl:
                lines.append(f'            asm volatile("{ins}" : "+{cons}"(x{j}) : "{cons}"(y));')
            else:
                lines.append(f'            asm volatile("{ins}" : "+{cons}"(x{j}));')
    return "\n".join(lines)


def setup(op, ilp):
    ctype, cons, tmpl, init, cls = OPS[op]
    if op == "smem":
        # Lane l of chain j follows word (l % m) + 32 (l / m) + 32 j of s[],
        # a word that holds its own shared address: with 32 banks of 4 bytes
        # (both presets; the host computes the degree from the configuration)
        # the m lanes of a group fall in distinct banks and the ceil(32 / m)
        # groups in the same ones: degree ceil(32 / m). ILP > 1 uses m = 32
        # (the host passes arg 0): conflict-free.
        decl = ["    __shared__ unsigned s[1024];",
                "    unsigned m = arg ? arg : 32u, lane = threadIdx.x & 31;",
                "    unsigned base = (unsigned)__cvta_generic_to_shared(s);"]
        for j in range(ilp):
            decl.append(f"    unsigned w{j} = (lane % m) + 32u * (lane / m) + {32 * j}u;")
            decl.append(f"    s[w{j}] = base + 4u * w{j};")
            decl.append(f"    unsigned x{j} = base + 4u * w{j};")
        return "\n".join(decl)
    if op == "gload":
        # chain j starts at the 128-byte link j of the host's chain at data
        return "\n".join(f"    u64 x{j} = (u64)(data + {16 * j});" for j in range(ilp))
    decl = [f"    {ctype} x{j} = {init} + ({ctype}){j};" for j in range(ilp)]
    if "{y}" in tmpl:
        decl.append(f"    {ctype} y = ({ctype})arg;")
    return "\n".join(decl)


def timed_kernel(op, ilp, length):
    ctype = OPS[op][0]
    sink = " + ".join(f"({ctype})x{j}" for j in range(ilp))
    return f'''
extern "C" __global__ void teg_{op}_i{ilp}_l{length}(u64 *out, u64 *data, unsigned arg, unsigned passes)
{{
{setup(op, ilp)}
    u64 t0 = 0, t1 = 0;
#pragma unroll 1
    for (unsigned pass = 0; pass < passes; pass++) {{
        __syncthreads();
        t0 = clock64();
        {{
{body(op, ilp, length)}
        }}
        t1 = clock64();
    }}
    teg_store_times(out, t0, t1);
    if (arg == 0x600dF00Du) out[gridDim.x * blockDim.x + threadIdx.x] = (u64)({sink});
}}
'''


def stream_kernel():
    # Warp w of the grid loads lines (pass * W + w) * STREAM_ILP + i, i <
    # STREAM_ILP, W = the grid's warps: every line once, consecutive warps
    # consecutive lines. arg places them: its low 8 bits are log2 of the
    # lines per chunk, c, its high 24 bits the lines from one chunk's start
    # to the next's, s (0: c): line n is at data + 128 ((n / c) s + n % c).
    # arg 0 = consecutive lines (every channel in turn); c = a channel's
    # interleave in lines and s = c x channels: every line in one channel,
    # as densely as consecutive lines fill each channel. All lanes load one
    # 4-byte word each of the line (a coalesced access). The loads of a
    # pass are independent of each other and of the other passes; the host
    # times the launch (its cycles), not the clock reads.
    loads = []
    for i in range(STREAM_ILP):
        loads.append(f'        {{ unsigned n = first + {i}u; asm volatile("ld.global.u32 %0, [%1];" : "=r"(v{i}) : '
                     f'"l"(base + 128ull * ((n >> lc) * s + (n & (c - 1u))))); }}')
    adds = " + ".join(f"v{i}" for i in range(STREAM_ILP))
    decl = ", ".join(f"v{i}" for i in range(STREAM_ILP))
    return f'''
/* stream: every warp of the grid loads {STREAM_ILP} fresh lines per pass (bytes
 * per cycle under load; Little's law gives TEG's bytes in flight, Eq. 3.1,
 * 003 L1077-1083). */
extern "C" __global__ void teg_stream_i{STREAM_ILP}(u64 *out, u64 *data, unsigned arg, unsigned passes)
{{
    unsigned lc = arg & 0xffu, c = 1u << lc, s = (arg >> 8) ? (arg >> 8) : c;
    unsigned warps = gridDim.x * ((blockDim.x + 31) / 32);
    unsigned w = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;
    const char *base = (const char *)data + 4u * (threadIdx.x & 31);
    unsigned sum = 0, {decl};
    u64 t0 = clock64();
#pragma unroll 1
    for (unsigned pass = 0; pass < passes; pass++) {{
        unsigned first = (pass * warps + w) * {STREAM_ILP}u;
{chr(10).join(loads)}
        sum += {adds};
    }}
    u64 t1 = clock64();
    teg_store_times(out, t0, t1);
    if (arg == 0x600dF00Du) out[0] = sum;
}}
'''


def ffma_lds_kernel(width, ratio, periods):
    # R independent FFMA chains (one per register of the B_R-style block)
    # and one ld.shared of `width` bits per R FFMAs, its result feeding the
    # next period's FFMAs as the thesis's SGEMM loop does (003 L1415-1441:
    # the LDS loads the operands of the following FFMAs); conflict-free
    # addresses (lane l reads words 4 l .. of its own), as 003 L1469's
    # microbenchmark.
    vec = width // 32
    regs = ["a0"] if vec == 1 else [f"a{i}" for i in range(vec)]
    if vec == 1:
        lds = 'asm volatile("ld.shared.f32 %0, [%1];" : "=f"(a0) : "r"(addr));'
    else:
        outs = ", ".join(f"%{i}" for i in range(vec))
        cons = ", ".join(f'"=f"({r})' for r in regs)
        lds = f'asm volatile("ld.shared.v{vec}.f32 {{{outs}}}, [%{vec}];" : {cons} : "r"(addr));'
    lines = []
    for _ in range(periods):
        lines.append("            " + lds)
        for k in range(ratio):
            src = regs[k % vec]
            lines.append(f'            asm volatile("fma.rn.f32 %0, %1, %2, %0;" : "+f"(c{k}) : "f"({src}), "f"(b));')
    cdecl = ", ".join(f"c{k} = (float)arg + {k}.0f" for k in range(ratio))
    adecl = ", ".join(f"{r} = 0.0f" for r in regs)
    sink = " + ".join(f"c{k}" for k in range(ratio))
    return f'''
/* ffma-lds: {ratio} FFMA : 1 LDS.{width} (003 L1469), {periods} periods per pass */
extern "C" __global__ void teg_ffma_lds{width}_r{ratio}_l{periods}(u64 *out, u64 *data, unsigned arg, unsigned passes)
{{
    __shared__ float4 s[1024];
    unsigned lane = threadIdx.x & 31;
    if (threadIdx.x < 1024) s[threadIdx.x] = make_float4(1.0f, 1.0f, 1.0f, 1.0f);
    unsigned addr = (unsigned)__cvta_generic_to_shared(s) + lane * {width // 8}u;
    float b = (float)arg, {cdecl}, {adecl};
    u64 t0 = 0, t1 = 0;
#pragma unroll 1
    for (unsigned pass = 0; pass < passes; pass++) {{
        __syncthreads();
        t0 = clock64();
        {{
{chr(10).join(lines)}
        }}
        t1 = clock64();
    }}
    teg_store_times(out, t0, t1);
    if (arg == 0x600dF00Du) out[gridDim.x * blockDim.x + threadIdx.x] = (u64)({sink} + {" + ".join(regs)});
}}
'''


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "teg_kernels.cu")
    parts = [HEADER]
    for op in OPS:
        parts.append(f"\n/* ---- {op} (TEG class {OPS[op][4]}) ---- */\n")
        for ilp, lengths in FAMILIES + (FAMILIES_64BIT if OPS[op][1] in "dl" else []):
            for length in lengths:
                parts.append(timed_kernel(op, ilp, length))
    parts.append("\n/* ---- stream ---- */\n")
    parts.append(stream_kernel())
    parts.append("\n/* ---- ffma-lds ---- */\n")
    for width, ratio in FFMA_LDS:
        for periods in FFMA_LDS_LENGTHS:
            parts.append(ffma_lds_kernel(width, ratio, periods))
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("".join(parts))
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
