/*
 * bench/drivers/registry.c — every benchmark driver, in suite order.
 *
 * `excluded` leaves a benchmark out of the default suite (it still runs
 * when named on the command line) and says why; smcosim-bench --list prints
 * it. Use it only for a benchmark that cannot pass because of a known
 * simulator gap, never to hide a wrong result.
 */
#include "bench.h"

int bench_vectoradd(smc_device *dev, const bench_opts *o);
int bench_matmul(smc_device *dev, const bench_opts *o);
int bench_transpose(smc_device *dev, const bench_opts *o);
int bench_scalarprod(smc_device *dev, const bench_opts *o);
int bench_bitonic(smc_device *dev, const bench_opts *o);
int bench_fwt(smc_device *dev, const bench_opts *o);
int bench_histogram(smc_device *dev, const bench_opts *o);
int bench_scan(smc_device *dev, const bench_opts *o);
int bench_gemm(smc_device *dev, const bench_opts *o);
int bench_twomm(smc_device *dev, const bench_opts *o);
int bench_jacobi2d(smc_device *dev, const bench_opts *o);
int bench_conv2d(smc_device *dev, const bench_opts *o);
int bench_mvt(smc_device *dev, const bench_opts *o);
int bench_atax(smc_device *dev, const bench_opts *o);
int bench_bicg(smc_device *dev, const bench_opts *o);
int bench_bfs(smc_device *dev, const bench_opts *o);
int bench_spmv(smc_device *dev, const bench_opts *o);
int bench_kmeans(smc_device *dev, const bench_opts *o);
int bench_binarysearch(smc_device *dev, const bench_opts *o);
int bench_dct(smc_device *dev, const bench_opts *o);
int bench_dwthaar1d(smc_device *dev, const bench_opts *o);
int bench_fft(smc_device *dev, const bench_opts *o);
int bench_reduction(smc_device *dev, const bench_opts *o);
int bench_inlinemath(smc_device *dev, const bench_opts *o);
int bench_gesummv(smc_device *dev, const bench_opts *o);
int bench_syrk(smc_device *dev, const bench_opts *o);
int bench_syr2k(smc_device *dev, const bench_opts *o);
int bench_threemm(smc_device *dev, const bench_opts *o);
int bench_threedconv(smc_device *dev, const bench_opts *o);
int bench_fdtd2d(smc_device *dev, const bench_opts *o);
int bench_streamcluster(smc_device *dev, const bench_opts *o);
int bench_particlefilter(smc_device *dev, const bench_opts *o);
int bench_srad1(smc_device *dev, const bench_opts *o);
int bench_srad2(smc_device *dev, const bench_opts *o);
int bench_backprop(smc_device *dev, const bench_opts *o);
int bench_lbm(smc_device *dev, const bench_opts *o);
int bench_iix(smc_device *dev, const bench_opts *o);

const bench_entry bench_registry[] = {
    { "vectoradd",  bench_vectoradd,  "C = A + B (SDK vectorAdd)", NULL },
    { "matmul",     bench_matmul,     "matrix multiply, naive and 16x16 shared-memory tiles", NULL },
    { "transpose",  bench_transpose,  "matrix transpose, naive and 32x33 shared tile", NULL },
    { "scalarprod", bench_scalarprod, "batched dot products, shared-memory reduction", NULL },
    { "bitonic",    bench_bitonic,    "bitonic sort: shared-memory segments, global + shared merges", NULL },
    { "fwt",        bench_fwt,        "fast Walsh-Hadamard transform, global + shared stages", NULL },
    { "histogram",  bench_histogram,  "256-bin histogram, shared + global atomics", NULL },
    { "scan",       bench_scan,       "work-efficient exclusive scan, two levels", NULL },
    { "gemm",       bench_gemm,       "PolyBench gemm: C = alpha*A*B + beta*C", NULL },
    { "2mm",        bench_twomm,      "PolyBench 2mm: D = alpha*A*B*C + beta*D", NULL },
    { "jacobi2d",   bench_jacobi2d,   "PolyBench jacobi-2d: 5-point stencil, time steps", NULL },
    { "conv2d",     bench_conv2d,     "PolyBench 2DCONV: 3x3 convolution", NULL },
    { "mvt",        bench_mvt,        "PolyBench mvt: A*y1 and A^T*y2", NULL },
    { "atax",       bench_atax,       "PolyBench atax: A^T*(A*x)", NULL },
    { "bicg",       bench_bicg,       "PolyBench bicg: A^T*r and A*p", NULL },
    { "bfs",        bench_bfs,        "Rodinia BFS: frontier masks, byte arrays", NULL },
    { "spmv",       bench_spmv,       "CSR scalar sparse matrix-vector product", NULL },
    { "kmeans",     bench_kmeans,     "Rodinia k-means: __constant__ centres, atomics", NULL },
    /* The HAWS benchmarks of seed 000 Tables 5.1 / 5.3 that the above lack. */
    { "binarysearch", bench_binarysearch, "lower-bound binary search of many keys, dependent global loads", NULL },
    { "dct",        bench_dct,        "8x8 block DCT-II, cosine table read from global memory", NULL },
    { "dwthaar1d",  bench_dwthaar1d,  "multi-level 1D Haar wavelet, levels in shared memory", NULL },
    { "fft",        bench_fft,        "batched radix-2 complex FFT in shared memory", NULL },
    { "reduction",  bench_reduction,  "integer sum: int4 loads, shared-memory tree, one launch per level", NULL },
    { "inlinemath", bench_inlinemath, "fast math intrinsics (sin, cos, exp, log, rsqrt, ...) per element", NULL },
    /* The OAWS benchmarks of seed 001 Table 2 that the above lack (spec
     * oaws.md C.2): three memory-divergent, three memory-coherent. */
    { "gesummv",    bench_gesummv,    "PolyBench gesummv: alpha*A*x + beta*B*x, divergent row walks", NULL },
    { "syrk",       bench_syrk,       "PolyBench syrk: C = alpha*A*A^T + beta*C, divergent column walk", NULL },
    { "syr2k",      bench_syr2k,      "PolyBench syr2k: C = alpha*(A*B^T + B*A^T) + beta*C, divergent", NULL },
    { "3mm",        bench_threemm,    "PolyBench 3mm: G = (A*B)*(C*D), three products", NULL },
    { "3dconv",     bench_threedconv, "3D stencil (PolyBench 3DCONV kind), one 3D-grid launch", NULL },
    { "fdtd2d",     bench_fdtd2d,     "PolyBench fdtd-2d: Yee grid, three kernels per time step", NULL },
    { "streamcluster", bench_streamcluster, "Rodinia StreamCluster pgain: array-of-structs loads, divergent", NULL },
    { "particlefilter", bench_particlefilter, "Rodinia particle filter: image gathers, per-lane index search", NULL },
    /* More of seed 001 Table 2, memory-coherent (Rodinia, Parboil). */
    { "srad1",      bench_srad1,      "Rodinia srad_v1 style: six kernels, a reduction per level, many launches", NULL },
    { "srad2",      bench_srad2,      "Rodinia srad_v2 style: shared-memory tiles, two kernels per iteration", NULL },
    { "backprop",   bench_backprop,   "Rodinia backprop style: layer forward with a shared-memory tree, weight adjust", NULL },
    { "lbm",        bench_lbm,        "Parboil lbm style: D3Q19 stream-collide, 19 loads and 19 stores per cell", NULL },
    /* The last of seed 001 Table 2, memory- and branch-divergent (Mars). */
    { "iix",        bench_iix,        "Mars InvertedIndex style: a thread scans its own page for links, bitonic sort", NULL },
};

const size_t bench_registry_len = sizeof bench_registry / sizeof bench_registry[0];
