/*
 * test_bench_ref.c — the shared benchmark references (bench/ref/) checked
 * against values worked out by hand or by a different algorithm, so that a
 * benchmark's PASS means the GPU agreed with a correct answer.
 *
 * The dense linear-algebra references have two independent formulations: a
 * double-precision one (for the default q8 inputs, on which every sum is
 * exact) and a float one in the kernel's PTX order with fmaf (for
 * --inputs general). On q8 inputs both must give the same bits, and both are
 * also checked on a 2x2 case worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../bench/ref/common.h"
#include "../../bench/ref/2mm.h"
#include "../../bench/ref/atax.h"
#include "../../bench/ref/bicg.h"
#include "../../bench/ref/conv2d.h"
#include "../../bench/ref/gemm.h"
#include "../../bench/ref/mvt.h"
#include "../../bench/ref/scalarprod.h"
#include "../../bench/ref/bfs.h"
#include "../../bench/ref/bitonic.h"
#include "../../bench/ref/fwt.h"
#include "../../bench/ref/kmeans.h"
#include "../../bench/ref/matmul.h"
#include "../../bench/ref/scan.h"
#include "../../bench/ref/spmv.h"
#include "../../bench/ref/transpose.h"
#include "../../bench/ref/binarysearch.h"
#include "../../bench/ref/dct.h"
#include "../../bench/ref/dwthaar1d.h"
#include "../../bench/ref/fft.h"
#include "../../bench/ref/inlinemath.h"
#include "../../bench/ref/reduction.h"
#include "../../bench/ref/gesummv.h"
#include "../../bench/ref/syrk.h"
#include "../../bench/ref/syr2k.h"
#include "../../bench/ref/3mm.h"
#include "../../bench/ref/3dconv.h"
#include "../../bench/ref/fdtd2d.h"
#include "../../bench/ref/streamcluster.h"
#include "../../bench/ref/particlefilter.h"
#include "../../bench/ref/srad1.h"
#include "../../bench/ref/srad2.h"
#include "../../bench/ref/backprop.h"
#include "../../bench/ref/lbm.h"
#include "../../bench/ref/iix.h"

static void test_rng_is_deterministic_and_seeded(void **state)
{
    (void)state;
    bench_rng a = bench_rng_make(42), b = bench_rng_make(42), c = bench_rng_make(43);
    int differ = 0;
    for (int i = 0; i < 100; i++) {
        uint64_t x = bench_rand_u64(&a);
        assert_int_equal(x, bench_rand_u64(&b));
        differ |= x != bench_rand_u64(&c);
    }
    assert_true(differ);
    /* splitmix64 from state 0: first output is 0xE220A8397B1DCDAF
     * (the published reference sequence). */
    bench_rng z = bench_rng_make(0);
    assert_true(bench_rand_u64(&z) == 0xE220A8397B1DCDAFull);
}

static void test_q8_values_are_eighths_in_range(void **state)
{
    (void)state;
    bench_rng r = bench_rng_make(7);
    int seen_lo = 0, seen_hi = 0;
    for (int i = 0; i < 2000; i++) {
        float v = bench_rand_q8(&r);
        assert_true(v >= -1.0f && v <= 1.0f);
        assert_true(v * 8.0f == (float)(int)(v * 8.0f));
        seen_lo |= v == -1.0f;
        seen_hi |= v == 1.0f;
    }
    assert_true(seen_lo && seen_hi);
}

static const bench_params test_presets[BENCH_SIZE_COUNT] = {
    { 32, 2, 1 }, { 128, 4, 1 }, { 512, 8, 1 }, { 1024, 16, 1 },
};

static void test_parse_args(void **state)
{
    (void)state;
    bench_params p;
    char *a1[] = { (char *)"x", NULL };
    assert_int_equal(bench_parse_args(1, a1, "x", test_presets, NULL, &p), 0);
    assert_int_equal(p.n, 128);
    assert_int_equal(p.iters, 4);
    char *a2[] = { (char *)"x", (char *)"--size", (char *)"small", (char *)"-n", (char *)"48",
                   (char *)"--seed", (char *)"9", NULL };
    assert_int_equal(bench_parse_args(7, a2, "x", test_presets, NULL, &p), 0);
    assert_int_equal(p.n, 48);
    assert_int_equal(p.iters, 2);
    assert_int_equal(p.seed, 9);
    char *a6[] = { (char *)"x", (char *)"--size", (char *)"paper", NULL };
    assert_int_equal(bench_parse_args(3, a6, "x", test_presets, NULL, &p), 0);
    assert_int_equal(p.n, 1024);
    assert_int_equal(p.iters, 16);
    char *a7[] = { (char *)"x", (char *)"--size", (char *)"huge", NULL };
    assert_int_equal(bench_parse_args(3, a7, "x", test_presets, NULL, &p), 2);
    char *a3[] = { (char *)"x", (char *)"-n", (char *)"12abc", NULL };
    assert_int_equal(bench_parse_args(3, a3, "x", test_presets, NULL, &p), 2);
    char *a4[] = { (char *)"x", (char *)"-n", NULL };
    assert_int_equal(bench_parse_args(2, a4, "x", test_presets, NULL, &p), 2);
    char *a5[] = { (char *)"x", (char *)"-n", (char *)"40", NULL };
    assert_int_equal(bench_parse_args(3, a5, "x", test_presets, matmul_check, &p), 2);
    assert_int_equal(bench_parse_args(3, a5, "x", test_presets, NULL, &p), 0);
}

static void test_compare_reports_first_mismatch(void **state)
{
    (void)state;
    float got[3] = { 1.0f, 2.5f, 3.0f }, want[3] = { 1.0f, 2.0f, 4.0f };
    char why[128];
    assert_int_equal(bench_compare_float("y", got, want, 3, 1e-6, why, sizeof why), 1);
    assert_string_equal(why, "y[1] = 2.5, expected 2");
    assert_int_equal(bench_compare_float("y", got, want, 1, 0.0, why, sizeof why), 0);
    float nan_v = NAN;
    assert_int_equal(bench_compare_float("y", &nan_v, &nan_v, 1, 1.0, why, sizeof why), 1);
}

static void test_matmul_reference_by_hand(void **state)
{
    (void)state;
    float a[4] = { 1, 2, 3, 4 }, b[4] = { 5, 6, 7, 8 }, c[4];
    matmul_reference(2, a, b, c);
    assert_true(c[0] == 19 && c[1] == 22 && c[2] == 43 && c[3] == 50);
}

/* Walsh-Hadamard by its definition: X[k] = sum_i x[i] * (-1)^popcount(i & k). */
static void test_fwt_reference_matches_definition(void **state)
{
    (void)state;
    bench_params p = { 64, 1, 5 };
    float x[64], y[64];
    fwt_inputs(&p, x);
    fwt_reference(&p, x, y);
    for (int k = 0; k < 64; k++) {
        double s = 0;
        for (int i = 0; i < 64; i++)
            s += (__builtin_popcount((unsigned)(i & k)) & 1) ? -x[i] : x[i];
        assert_true(y[k] == (float)s);
    }
}

static void test_scan_verify(void **state)
{
    (void)state;
    bench_params p = { 5, 1, 0 };
    int32_t in[5] = { 3, -1, 4, 1, 5 }, out[5] = { 0, 3, 2, 6, 7 };
    char why[128];
    assert_int_equal(scan_verify(&p, in, out, why, sizeof why), 0);
    out[4] = 8;
    assert_int_equal(scan_verify(&p, in, out, why, sizeof why), 1);
    assert_string_equal(why, "scan: out[4] = 8, expected 7");
}

/* 0 -> 1 -> 2, 0 -> 3 -> 2, 4 unreachable, 2 -> 0. */
static void test_bfs_reference_by_hand(void **state)
{
    (void)state;
    bench_params p = { 5, 1, 0 };
    bfs_node nodes[5] = { { 0, 2 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 } };
    int32_t edges[6] = { 1, 3, 2, 0, 2, 4 }, cost[5];
    bfs_reference(&p, nodes, edges, cost);
    assert_int_equal(cost[0], 0);
    assert_int_equal(cost[1], 1);
    assert_int_equal(cost[3], 1);
    assert_int_equal(cost[2], 2);
    assert_int_equal(cost[4], -1);
}

static void test_bitonic_verify(void **state)
{
    (void)state;
    bench_params p = { BITONIC_SEG, 1, 3 };
    uint32_t kin[BITONIC_SEG], vin[BITONIC_SEG], k[BITONIC_SEG], v[BITONIC_SEG];
    char why[128];
    bitonic_inputs(&p, kin, vin);
    /* a correct answer by selection: repeatedly take the smallest unused */
    unsigned char used[BITONIC_SEG] = { 0 };
    for (int i = 0; i < BITONIC_SEG; i++) {
        int best = -1;
        for (int j = 0; j < BITONIC_SEG; j++)
            if (!used[j] && (best < 0 || kin[j] < kin[best]))
                best = j;
        used[best] = 1;
        k[i] = kin[best];
        v[i] = (uint32_t)best;
    }
    assert_int_equal(bitonic_verify(&p, kin, k, v, why, sizeof why), 0);
    uint32_t t = v[10]; v[10] = v[11]; v[11] = t;   /* values no longer carry their keys */
    if (k[10] != k[11])
        assert_int_equal(bitonic_verify(&p, kin, k, v, why, sizeof why), 1);
    v[11] = v[10];                                   /* duplicate value */
    assert_int_equal(bitonic_verify(&p, kin, k, v, why, sizeof why), 1);
}

static void test_kmeans_nearest_and_update(void **state)
{
    (void)state;
    bench_params p = { KMEANS_K, 1, 0 };
    float features[KMEANS_F * KMEANS_K], centers[KMEANS_K * KMEANS_F];
    for (int i = 0; i < KMEANS_K; i++)
        for (int f = 0; f < KMEANS_F; f++)
            features[f * KMEANS_K + i] = (float)(10 * i);
    for (int c = 0; c < KMEANS_K; c++)
        for (int f = 0; f < KMEANS_F; f++)
            centers[c * KMEANS_F + f] = 5.0f + (float)(10 * c);  /* point i ties c = i-1 and i */
    assert_int_equal(kmeans_nearest(&p, features, centers, 0), 0);
    assert_int_equal(kmeans_nearest(&p, features, centers, 3), 2);   /* lowest index on a tie */
    int32_t sums[KMEANS_K * KMEANS_F] = { 0 }, counts[KMEANS_K] = { 0 };
    counts[1] = 3;
    for (int f = 0; f < KMEANS_F; f++)
        sums[KMEANS_F + f] = 10;                  /* 10 / 3 = 3 */
    kmeans_update_centers(sums, counts, centers);
    assert_true(centers[KMEANS_F] == 3.0f);
    assert_true(centers[0] == 5.0f);              /* empty cluster keeps its centre */
}

static void test_spmv_inputs_form_valid_csr(void **state)
{
    (void)state;
    bench_params p = { 300, 1, 11 };
    int32_t row_ptr[301], cols[300 * 2 * SPMV_AVG_NNZ];
    float vals[300 * 2 * SPMV_AVG_NNZ], x[300], y[300];
    int nnz = spmv_inputs(&p, row_ptr, cols, vals, x);
    assert_int_equal(row_ptr[0], 0);
    assert_int_equal(row_ptr[300], nnz);
    for (int i = 0; i < 300; i++)
        assert_true(row_ptr[i] <= row_ptr[i + 1]);
    for (int k = 0; k < nnz; k++)
        assert_true(cols[k] >= 0 && cols[k] < 300);
    spmv_reference(300, row_ptr, cols, vals, x, y);
    double s = 0;
    for (int k = row_ptr[7]; k < row_ptr[8]; k++)
        s += (double)vals[k] * x[cols[k]];
    assert_true(y[7] == (float)s);
}

static void test_transpose_verify(void **state)
{
    (void)state;
    float in[4] = { 1, 2, 3, 4 }, out[4] = { 1, 3, 2, 4 };
    char why[128];
    assert_int_equal(transpose_verify("t", 2, in, out, why, sizeof why), 0);
    out[1] = 2;
    assert_int_equal(transpose_verify("t", 2, in, out, why, sizeof why), 1);
}

/* A = [[1, 2], [3, 4]] throughout; products worked out by hand. */
static const float A2[4] = { 1, 2, 3, 4 };

static void test_gemm_2mm_by_hand(void **state)
{
    (void)state;
    const float b[4] = { 5, 6, 7, 8 }, c[4] = { 1, 1, 1, 1 };
    float want[4], exact[4];
    /* A*B = [[19, 22], [43, 50]]; gemm: beta * C + alpha * A*B */
    gemm_reference(2, A2, b, c, want);
    gemm_reference_exact(2, A2, b, c, exact);
    const float ab[4] = { 19, 22, 43, 50 };
    for (int i = 0; i < 4; i++) {
        assert_true(want[i] == GEMM_BETA * 1 + GEMM_ALPHA * ab[i]);
        assert_true(exact[i] == want[i]);
    }
    /* 2mm: D = beta * D + (alpha * A*B) * C, C = identity, D = ones */
    const float id[4] = { 1, 0, 0, 1 };
    mm2_reference(2, A2, b, id, c, want);
    mm2_reference_exact(2, A2, b, id, c, exact);
    for (int i = 0; i < 4; i++) {
        assert_true(want[i] == MM2_BETA * 1 + MM2_ALPHA * ab[i]);
        assert_true(exact[i] == want[i]);
    }
}

static void test_vector_kernels_by_hand(void **state)
{
    (void)state;
    float y[2], y2[2];
    /* atax: y = A^T (A x), x = (1, 1): A x = (3, 7), A^T (3, 7) = (24, 34) */
    const float ones[2] = { 1, 1 };
    atax_reference(2, A2, ones, y);
    atax_reference_exact(2, A2, ones, y2);
    assert_true(y[0] == 24 && y[1] == 34 && y2[0] == 24 && y2[1] == 34);
    /* bicg: s = A^T r, q = A p; r = (1, 2): s = (7, 10); p = (1, 1): q = (3, 7) */
    const float r[2] = { 1, 2 };
    float s[2], q[2], s2[2], q2[2];
    bicg_reference(2, A2, r, ones, s, q);
    bicg_reference_exact(2, A2, r, ones, s2, q2);
    assert_true(s[0] == 7 && s[1] == 10 && q[0] == 3 && q[1] == 7);
    assert_true(s2[0] == 7 && s2[1] == 10 && q2[0] == 3 && q2[1] == 7);
    /* mvt: w1 = x1 + A y1, w2 = x2 + A^T y2; x1 = (0.5, 0.5), y1 = (1, 1):
     * w1 = (3.5, 7.5); x2 = (0, 1), y2 = (1, 0): A^T y2 = (1, 2), w2 = (1, 3) */
    const float x1[2] = { 0.5f, 0.5f }, x2[2] = { 0, 1 }, e0[2] = { 1, 0 };
    float w1[2], w2[2], v1[2], v2[2];
    mvt_reference(2, A2, x1, x2, ones, e0, w1, w2);
    mvt_reference_exact(2, A2, x1, x2, ones, e0, v1, v2);
    assert_true(w1[0] == 3.5f && w1[1] == 7.5f && w2[0] == 1 && w2[1] == 3);
    assert_true(v1[0] == 3.5f && v1[1] == 7.5f && v2[0] == 1 && v2[1] == 3);
    /* scalarprod: two vectors of 3: (1,2,3).(4,5,6) = 32, (1,1,1).(-1,0,2) = 1 */
    bench_params p = { 3, 2, 0 };
    const float a[6] = { 1, 2, 3, 1, 1, 1 }, b[6] = { 4, 5, 6, -1, 0, 2 };
    float c[2], c2[2];
    scalarprod_reference(&p, a, b, c);
    scalarprod_reference_exact(&p, a, b, c2);
    assert_true(c[0] == 32 && c[1] == 1 && c2[0] == 32 && c2[1] == 1);
}

/* conv2d on 3x3: an impulse at the centre gives C22 there and 0 on the
 * border; an impulse in a corner reaches the centre through the matching
 * corner coefficient (C11 for the top-left input). */
static void test_conv2d_by_hand(void **state)
{
    (void)state;
    float a[9] = { 0 }, b[9], e[9];
    a[4] = 1;
    conv2d_reference(3, a, b);
    conv2d_reference_exact(3, a, e);
    for (int i = 0; i < 9; i++) {
        assert_true(b[i] == (i == 4 ? CONV2D_C22 : 0.0f));
        assert_true(e[i] == b[i]);
    }
    a[4] = 0;
    a[0] = 1;
    conv2d_reference(3, a, b);
    conv2d_reference_exact(3, a, e);
    assert_true(b[4] == CONV2D_C11 && e[4] == CONV2D_C11);
}

/* The two formulations agree bit for bit on the suite's own q8 inputs. */
static void test_exact_and_double_agree_on_q8(void **state)
{
    (void)state;
    const int n = 24;
    bench_params p = { n, 1, BENCH_DEFAULT_SEED };
    size_t nn = (size_t)n * n;
    float *a = calloc(nn, 4), *b = calloc(nn, 4), *c = calloc(nn, 4), *d = calloc(nn, 4);
    float *w1 = calloc(nn, 4), *w2 = calloc(nn, 4), *x = calloc(n, 4), *y = calloc(n, 4);
    float *u1 = calloc(n, 4), *u2 = calloc(n, 4), *v1 = calloc(n, 4), *v2 = calloc(n, 4);
    assert_non_null(a); assert_non_null(u2); assert_non_null(v2);
    gemm_inputs(&p, a, b, c);
    gemm_reference(n, a, b, c, w1);
    gemm_reference_exact(n, a, b, c, w2);
    assert_memory_equal(w1, w2, nn * 4);
    mm2_inputs(&p, a, b, c, d);
    mm2_reference(n, a, b, c, d, w1);
    mm2_reference_exact(n, a, b, c, d, w2);
    assert_memory_equal(w1, w2, nn * 4);
    atax_inputs(&p, a, x);
    atax_reference(n, a, x, u1);
    atax_reference_exact(n, a, x, u2);
    assert_memory_equal(u1, u2, (size_t)n * 4);
    bicg_inputs(&p, a, x, y);
    bicg_reference(n, a, x, y, u1, v1);
    bicg_reference_exact(n, a, x, y, u2, v2);
    assert_memory_equal(u1, u2, (size_t)n * 4);
    assert_memory_equal(v1, v2, (size_t)n * 4);
    free(a); free(b); free(c); free(d); free(w1); free(w2); free(x); free(y);
    free(u1); free(u2); free(v1); free(v2);
}

/* ---- the HAWS benchmarks (seed 000 Tables 5.1 / 5.3) --------------------- */

/* Lower bounds worked out by hand, then the generated inputs against a
 * linear scan (a different algorithm). */
static void test_binarysearch_by_hand_and_linear_scan(void **state)
{
    (void)state;
    bench_params h = { 4, 8, 0 };
    int32_t a[4] = { 2, 5, 9, 14 }, keys[8] = { -1, 2, 3, 5, 14, 15, 9, 10 }, pos[8];
    int32_t want[8] = { 0, 0, 1, 1, 3, 4, 2, 3 };
    binarysearch_reference(&h, a, keys, pos);
    assert_memory_equal(pos, want, sizeof want);

    bench_params p = { 1000, 3000, 11 };
    int32_t *aa = malloc(1000 * 4), *kk = malloc(3000 * 4), *pp = malloc(3000 * 4);
    assert_non_null(aa); assert_non_null(kk); assert_non_null(pp);
    binarysearch_inputs(&p, aa, kk);
    for (int i = 1; i < p.n; i++)
        assert_true(aa[i] > aa[i - 1]);
    binarysearch_reference(&p, aa, kk, pp);
    int below = 0, above = 0;
    for (int k = 0; k < p.iters; k++) {
        int i = 0;
        while (i < p.n && aa[i] < kk[k])
            i++;
        assert_int_equal(pp[k], i);
        if (!(k & 1))
            assert_int_equal(aa[pp[k]], kk[k]);   /* even keys are present */
        below |= pp[k] == 0;
        above |= pp[k] == p.n;
    }
    assert_true(below && above);   /* both ends of the array are exercised */
    free(aa); free(kk); free(pp);
}

/* All ones and +2/-1 alternating over two full blocks and a 3-element tail. */
static void test_reduction_by_hand(void **state)
{
    (void)state;
    bench_params p = { 2 * REDUCTION_SPAN + 3, 1, 0 };
    int32_t *x = malloc((size_t)p.n * 4), part[3], total;
    assert_non_null(x);
    assert_int_equal(reduction_blocks(p.n), 3);
    assert_int_equal(reduction_padded(p.n), p.n + 1);
    for (int i = 0; i < p.n; i++)
        x[i] = 1;
    reduction_reference(&p, x, part, &total);
    assert_true(part[0] == REDUCTION_SPAN && part[1] == REDUCTION_SPAN && part[2] == 3);
    assert_int_equal(total, p.n);
    for (int i = 0; i < p.n; i++)
        x[i] = (i & 1) ? -1 : 2;
    reduction_reference(&p, x, part, &total);
    assert_true(part[0] == REDUCTION_SPAN / 2 && part[1] == REDUCTION_SPAN / 2 && part[2] == 3);
    assert_int_equal(total, REDUCTION_SPAN + 3);
    reduction_inputs(&p, x);
    for (int i = 0; i < p.n; i++)
        assert_true(x[i] >= -64 && x[i] <= 64);
    free(x);
}

/* Closed forms at special points; the tolerance admits the intrinsics' float
 * errors (float libm in place of the approximations) but not a wrong term. */
static void test_inlinemath_formula_and_tolerance(void **state)
{
    (void)state;
    const float pi = INLINEMATH_PI_F;
    /* x = y = 0: 0 * 1 + 1 / 1 - 0 * sqrt(3) + 0 = 1 */
    assert_true(fabs(inlinemath_formula(0.0, 0.0) - 1.0) < 1e-15);
    /* x = 0, y = pi: cos = -1, so 1 - ln(1 + pi^2) * sqrt(1) */
    assert_true(fabs(inlinemath_formula(0.0, pi) - (1.0 - log(1.0 + (double)pi * pi))) < 1e-6);
    bench_params p = { 4096, 1, 5 };
    float *x = malloc(4096 * 4), *y = malloc(4096 * 4), *want = malloc(4096 * 4);
    assert_non_null(x); assert_non_null(y); assert_non_null(want);
    inlinemath_inputs(&p, x, y);
    inlinemath_reference(&p, x, y, want);
    double worst = 0;
    int caught = 0;
    for (int i = 0; i < p.n; i++) {
        assert_true(x[i] >= -pi && x[i] < pi && y[i] >= -pi && y[i] < pi);
        /* the kernel's operations in float, with float libm functions */
        float a = x[i], b = y[i], s = sinf(a), c = cosf(b), e = expf(0.5f * a);
        float r = 1.0f / sqrtf(fmaf(a, a, 1.0f)), l = logf(fmaf(b, b, 1.0f));
        float q = sqrtf(2.0f + c), d = s / (1.0f + e);
        float got = fmaf(-l, q, fmaf(s, c, e * r)) + d;
        double err = fabs(got - want[i]) / (fabs(want[i]) > 1 ? fabs(want[i]) : 1);
        if (err > worst) worst = err;
        /* a wrong kernel: cos(x) in place of sin(x) in the first product */
        float bad = fmaf(-l, q, fmaf(cosf(a), c, e * r)) + d;
        double dev = fabs(bad - want[i]) / (fabs(want[i]) > 1 ? fabs(want[i]) : 1);
        caught |= dev > INLINEMATH_TOL;
    }
    assert_true(worst <= INLINEMATH_TOL / 4);   /* float evaluation well inside */
    assert_true(caught);                        /* the wrong kernel is caught */
    free(x); free(y); free(want);
}

/* {1, 3, 5, 11}: final approximation (1+3+5+11)/2 = 10, final detail
 * (1+3-5-11)/2 = -6, finest details (1-3)/sqrt2 = -sqrt2 and (5-11)/sqrt2 =
 * -3 sqrt2; then a random signal against the definition (detail at level j,
 * index k = 2^(-j/2) (sum of the first half of its support - the second)). */
static void test_dwthaar1d_by_hand_and_definition(void **state)
{
    (void)state;
    bench_params h = { 4, 1, 0 };
    float x4[4] = { 1, 3, 5, 11 }, o4[4];
    dwthaar1d_reference(&h, x4, o4);
    assert_true(bench_close(o4[0], 10.0, 1e-6) && bench_close(o4[1], -6.0, 1e-6));
    assert_true(bench_close(o4[2], -sqrt(2.0), 1e-6) && bench_close(o4[3], -3 * sqrt(2.0), 1e-6));

    bench_params p = { 256, 1, 9 };
    float x[256], o[256];
    dwthaar1d_inputs(&p, x);
    dwthaar1d_reference(&p, x, o);
    double all = 0;
    for (int i = 0; i < 256; i++)
        all += x[i];
    assert_true(bench_close(o[0], all / 16.0, 1e-5));   /* 2^(-8/2) */
    for (int m = 256, j = 1; m > 1; m /= 2, j++) {
        int len = 1 << j;
        for (int k = 0; k < m / 2; k++) {
            double d = 0;
            for (int i = 0; i < len; i++)
                d += (i < len / 2 ? 1 : -1) * (double)x[k * len + i];
            assert_true(bench_close(o[m / 2 + k], d * pow(2.0, -j / 2.0), 1e-5));
        }
    }
}

/* A constant block has only the DC coefficient 8; rows of the first cosine
 * pattern X[i][j] = cos((2j+1) pi / 16) give only Y[0][1] = sqrt8 * 2 = 4
 * sqrt2; a random image matches the definition Y[u][v] = sum_ij C(u,i)
 * C(v,j) X[i][j] in double. */
static void test_dct_by_hand_and_definition(void **state)
{
    (void)state;
    float c[64], x[64], y[64];
    bench_params h = { 8, 1, 0 };
    dct_cos_table(c);
    for (int i = 0; i < 64; i++)
        x[i] = 1.0f;
    dct_reference(&h, c, x, y);
    assert_true(bench_close(y[0], 8.0, 1e-6));
    for (int i = 1; i < 64; i++)
        assert_true(fabs(y[i]) < 1e-6);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            x[i * 8 + j] = (float)cos((2 * j + 1) * 3.14159265358979323846 / 16);
    dct_reference(&h, c, x, y);
    for (int i = 0; i < 64; i++)
        assert_true(fabs(y[i] - (i == 1 ? 4 * sqrt(2.0) : 0.0)) < 1e-5);

    bench_params p = { 16, 1, 4 };
    float xx[256], yy[256];
    dct_inputs(&p, xx);
    dct_reference(&p, c, xx, yy);
    for (int by = 0; by < 16; by += 8)
        for (int bx = 0; bx < 16; bx += 8)
            for (int u = 0; u < 8; u++)
                for (int v = 0; v < 8; v++) {
                    double s = 0;
                    for (int i = 0; i < 8; i++)
                        for (int j = 0; j < 8; j++)
                            s += dct_coef(u, i) * dct_coef(v, j) * xx[(by + i) * 16 + bx + j];
                    assert_true(bench_close(yy[(by + u) * 16 + bx + v], s, 1e-5));
                }
}

/* [1, 2, 3, 4] -> [10, -2+2i, -2, -2-2i] exactly; an impulse -> all ones;
 * a random batch of two 64-point transforms against the DFT's definition. */
static void test_fft_by_hand_and_dft(void **state)
{
    (void)state;
    float w[64], x4[8] = { 1, 0, 2, 0, 3, 0, 4, 0 }, y4[8];
    float want4[8] = { 10, 0, -2, 2, -2, 0, -2, -2 };
    bench_params h = { 4, 1, 0 };
    fft_twiddles(4, w);
    fft_reference(&h, w, x4, y4);
    assert_memory_equal(y4, want4, sizeof want4);
    float x16[32] = { 1 }, y16[32];
    bench_params h16 = { 16, 1, 0 };
    fft_twiddles(16, w);
    fft_reference(&h16, w, x16, y16);
    for (int k = 0; k < 16; k++)
        assert_true(y16[2 * k] == 1.0f && y16[2 * k + 1] == 0.0f);

    bench_params p = { 64, 2, 8 };
    float x[256], y[256];
    fft_twiddles(64, w);
    fft_inputs(&p, x);
    fft_reference(&p, w, x, y);
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 64; k++) {
            double re = 0, im = 0;
            for (int i = 0; i < 64; i++) {
                double ang = -2 * 3.14159265358979323846 * (double)i * k / 64;
                double xr = x[b * 128 + 2 * i], xi = x[b * 128 + 2 * i + 1];
                re += xr * cos(ang) - xi * sin(ang);
                im += xr * sin(ang) + xi * cos(ang);
            }
            assert_true(bench_close(y[b * 128 + 2 * k], re, 1e-5));
            assert_true(bench_close(y[b * 128 + 2 * k + 1], im, 1e-5));
        }
}

/* ---- the OAWS benchmarks (seed 001 Table 2) ------------------------------ */

/* 2x2 cases worked out by hand (A = A2 = [[1, 2], [3, 4]]), both formulations. */
static void test_oaws_linear_algebra_by_hand(void **state)
{
    (void)state;
    const float id[4] = { 1, 0, 0, 1 }, ones4[4] = { 1, 1, 1, 1 }, ones[2] = { 1, 1 };
    float y[2], y2[2], w[4], w2[4];
    /* gesummv: B = I, x = (1, 1): A x = (3, 7), B x = (1, 1);
     * y = 1.5 (3, 7) + 0.5 (1, 1) = (5, 11) */
    gesummv_reference(2, A2, id, ones, y);
    gesummv_reference_exact(2, A2, id, ones, y2);
    assert_true(y[0] == 5 && y[1] == 11 && y2[0] == 5 && y2[1] == 11);
    /* syrk: A A^T = [[5, 11], [11, 25]], C = ones: 0.5 + 1.5 A A^T */
    const float syrk_want[4] = { 8, 17, 17, 38 };
    syrk_reference(2, A2, ones4, w);
    syrk_reference_exact(2, A2, ones4, w2);
    assert_memory_equal(w, syrk_want, sizeof w);
    assert_memory_equal(w2, syrk_want, sizeof w);
    /* syr2k: B = I: A B^T + B A^T = A + A^T = [[2, 5], [5, 8]]; C = ones */
    const float syr2k_want[4] = { 3.5f, 8, 8, 12.5f };
    syr2k_reference(2, A2, id, ones4, w);
    syr2k_reference_exact(2, A2, id, ones4, w2);
    assert_memory_equal(w, syr2k_want, sizeof w);
    assert_memory_equal(w2, syr2k_want, sizeof w);
    /* the two products of syr2k are not interchangeable: B = [[0, 1], [0, 0]]:
     * A B^T = [[2, 0], [4, 0]], B A^T = [[2, 4], [0, 0]], sum [[4, 4], [4, 0]] */
    const float bshift[4] = { 0, 1, 0, 0 }, zeros[4] = { 0, 0, 0, 0 };
    const float syr2k_want2[4] = { 6, 6, 6, 0 };
    syr2k_reference(2, A2, bshift, zeros, w);
    syr2k_reference_exact(2, A2, bshift, zeros, w2);
    assert_memory_equal(w, syr2k_want2, sizeof w);
    assert_memory_equal(w2, syr2k_want2, sizeof w);
    /* 3mm: (A I)(I A) = A^2 = [[7, 10], [15, 22]] */
    const float mm3_want[4] = { 7, 10, 15, 22 };
    mm3_reference(2, A2, id, id, A2, w);
    mm3_reference_exact(2, A2, id, id, A2, w2);
    assert_memory_equal(w, mm3_want, sizeof w);
    assert_memory_equal(w2, mm3_want, sizeof w);
}

/* 3dconv on 3x3x3: an impulse reaches the centre (index 13) through the
 * coefficient of its offset, and the border stays 0. */
static void test_3dconv_by_hand(void **state)
{
    (void)state;
    /* impulse index (i*9 + j*3 + k) -> coefficient seen at the centre */
    const struct { int at; float c; } cases[] = {
        { 13, CONV3D_C0 }, { 12, CONV3D_C1 }, { 14, CONV3D_C1 }, { 10, CONV3D_C2 },
        { 16, CONV3D_C2 }, { 4, CONV3D_C3 }, { 22, CONV3D_C3 }, { 0, CONV3D_C4 },
        { 26, CONV3D_C4 }, { 8, CONV3D_C5 }, { 18, CONV3D_C5 }, { 1, 0.0f }, { 25, 0.0f },
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        float a[27] = { 0 }, b[27], e[27];
        a[cases[t].at] = 1;
        conv3d_reference(3, a, b);
        conv3d_reference_exact(3, a, e);
        for (int i = 0; i < 27; i++) {
            assert_true(b[i] == (i == 13 ? cases[t].c : 0.0f));
            assert_true(e[i] == b[i]);
        }
    }
}

/* fdtd2d, n = 2, one step, fict = (1), ex = ey = 0, hz = [[1, 2], [3, 4]]:
 * ey = [[1, 1], [-0.5 (3 - 1), -0.5 (4 - 2)]] = [[1, 1], [-1, -1]];
 * ex[i][1] = -0.5 (hz[i][1] - hz[i][0]) = -0.5; hz[0][0] = 1 - 0.75
 * (ex[0][1] - ex[0][0] + ey[1][0] - ey[0][0]) = 1 - 0.75 (-2.5) = 2.875. */
static void test_fdtd2d_by_hand(void **state)
{
    (void)state;
    const float fict[1] = { 1 };
    const float ex_want[4] = { 0, -0.5f, 0, -0.5f }, ey_want[4] = { 1, 1, -1, -1 };
    const float hz_want[4] = { 2.875f, 2, 3, 4 };
    for (int exact = 0; exact < 2; exact++) {
        float ex[4] = { 0 }, ey[4] = { 0 }, hz[4] = { 1, 2, 3, 4 };
        if (exact)
            fdtd_reference_exact(2, 1, fict, ex, ey, hz);
        else
            fdtd_reference(2, 1, fict, ex, ey, hz);
        assert_memory_equal(ex, ex_want, sizeof ex);
        assert_memory_equal(ey, ey_want, sizeof ey);
        assert_memory_equal(hz, hz_want, sizeof hz);
    }
}

/* The double and the PTX-order formulations agree bit for bit on q8 inputs. */
static void test_oaws_exact_and_double_agree_on_q8(void **state)
{
    (void)state;
    const int n = 24;
    bench_params p = { n, 3, BENCH_DEFAULT_SEED };
    size_t nn = (size_t)n * n, n3 = nn * n;
    float *a = calloc(n3, 4), *b = calloc(nn, 4), *c = calloc(nn, 4), *d = calloc(nn, 4);
    float *w1 = calloc(n3, 4), *w2 = calloc(n3, 4), *x = calloc(n, 4);
    float *e1 = calloc(nn, 4), *e2 = calloc(nn, 4), *h1 = calloc(nn, 4), *h2 = calloc(nn, 4);
    float *fict = calloc(3, 4);
    assert_non_null(a); assert_non_null(w2); assert_non_null(fict);
    assert_non_null(h2);
    gesummv_inputs(&p, a, b, x);
    gesummv_reference(n, a, b, x, w1);
    gesummv_reference_exact(n, a, b, x, w2);
    assert_memory_equal(w1, w2, (size_t)n * 4);
    syrk_inputs(&p, a, c);
    syrk_reference(n, a, c, w1);
    syrk_reference_exact(n, a, c, w2);
    assert_memory_equal(w1, w2, nn * 4);
    syr2k_inputs(&p, a, b, c);
    syr2k_reference(n, a, b, c, w1);
    syr2k_reference_exact(n, a, b, c, w2);
    assert_memory_equal(w1, w2, nn * 4);
    mm3_inputs(&p, a, b, c, d);
    mm3_reference(n, a, b, c, d, w1);
    mm3_reference_exact(n, a, b, c, d, w2);
    assert_memory_equal(w1, w2, nn * 4);
    conv3d_inputs(&p, a);
    conv3d_reference(n, a, w1);
    conv3d_reference_exact(n, a, w2);
    assert_memory_equal(w1, w2, n3 * 4);
    fdtd_inputs(&p, fict, a, b, c);
    memcpy(w1, a, nn * 4); memcpy(e1, b, nn * 4); memcpy(h1, c, nn * 4);
    memcpy(w2, a, nn * 4); memcpy(e2, b, nn * 4); memcpy(h2, c, nn * 4);
    fdtd_reference(n, 3, fict, w1, e1, h1);
    fdtd_reference_exact(n, 3, fict, w2, e2, h2);
    assert_memory_equal(w1, w2, nn * 4);
    assert_memory_equal(e1, e2, nn * 4);
    assert_memory_equal(h1, h2, nn * 4);
    free(a); free(b); free(c); free(d); free(w1); free(w2); free(x);
    free(e1); free(e2); free(h1); free(h2); free(fict);
}

/* streamcluster, two points, candidate x = 0. Point 0 is x itself: distance
 * 0 < cost 2, so it switches and lower_0[k] = 0 - 2. Point 1 differs from x
 * by 1 in one coordinate: x_cost = 1 * weight 3 = 3 >= cost 1, so it stays
 * and lower_1[center_table[assign 5] = 7] = 1 - 3. Nothing else is written. */
static void test_streamcluster_by_hand(void **state)
{
    (void)state;
    sc_point pts[2];
    memset(pts, 0, sizeof pts);
    pts[0].weight = 1; pts[0].cost = 2; pts[0].assign = 3;
    pts[1].weight = 3; pts[1].cost = 1; pts[1].assign = 5;
    float coord[SC_DIM * 2] = { 0 };
    coord[2 * 4 + 1] = 1;              /* dimension 4 of point 1 */
    int32_t table[SC_K];
    for (int c = 0; c < SC_K; c++)
        table[c] = (c + 2) % SC_K;     /* assign 5 -> 7 */
    float work[2 * (SC_K + 1)], work2[2 * (SC_K + 1)];
    uint8_t sw[2], sw2[2];
    sc_reference(2, pts, coord, table, 0, work, sw);
    sc_reference_exact(2, pts, coord, table, 0, work2, sw2);
    for (int i = 0; i < 2 * (SC_K + 1); i++) {
        float want = i == SC_K ? -2.0f : i == SC_K + 1 + 7 ? -2.0f : 0.0f;
        assert_true(work[i] == want);
        assert_true(work2[i] == want);
    }
    assert_true(sw[0] == 1 && sw[1] == 0 && sw2[0] == 1 && sw2[1] == 0);
    assert_int_equal(sizeof(sc_point), 32);    /* Rodinia's Point on a 64-bit host */
    /* q8 inputs: both formulations agree bit for bit */
    bench_params p = { 300, 3, BENCH_DEFAULT_SEED };
    sc_point *ps = calloc(300, sizeof *ps);
    float *co = calloc(SC_DIM * 300, 4), *w1 = calloc(300 * (SC_K + 1), 4), *w2 = calloc(300 * (SC_K + 1), 4);
    uint8_t *s1 = calloc(300, 1), *s2 = calloc(300, 1);
    int32_t cand[3];
    assert_non_null(ps); assert_non_null(co); assert_non_null(w2); assert_non_null(s2);
    sc_inputs_mode(&p, 0, ps, co, table, cand);
    int switched = 0;
    for (int t = 0; t < 3; t++) {
        sc_reference(300, ps, co, table, cand[t], w1, s1);
        sc_reference_exact(300, ps, co, table, cand[t], w2, s2);
        assert_memory_equal(w1, w2, 300 * (SC_K + 1) * 4);
        assert_memory_equal(s1, s2, 300);
        for (int i = 0; i < 300; i++)
            switched += s1[i];
    }
    /* both branches are taken: the if/else diverges */
    assert_true(switched > 0 && switched < 900);
    free(ps); free(co); free(w1); free(w2); free(s1); free(s2);
}

/* particlefilter: on a uniform image of 228 every offset adds
 * 128^2 - 0 = 16384, nine of them 147456, times 0.02 = 2949.12; of 100,
 * -2949.12. find_index on cdf (0.25, 0.5, 0.75, 1) and u (0.1, 0.3, 0.5,
 * 0.9) picks particles 0, 1, 1, 3. Equal likelihoods give the CDF
 * (j + 1) / n and u[j] in [j / n, (j + 1) / n). */
static void test_particlefilter_by_hand(void **state)
{
    (void)state;
    static uint8_t img[PF_W * PF_H];
    int32_t px[2] = { 20, 200 }, py[2] = { 30, 100 };
    float lik[2];
    memset(img, 228, sizeof img);
    img[100 * PF_W + 200] = 100;    /* one offset of particle 1 (the centre) */
    pf_likelihood_ref(2, img, px, py, lik);
    assert_true(fabs(lik[0] - 2949.12) < 1e-3);
    /* particle 1: eight offsets at 228, one at 100: 8 * 16384 - 16384 */
    assert_true(fabs(lik[1] - 7 * 16384 * 0.02) < 1e-3);
    const float cdf[4] = { 0.25f, 0.5f, 0.75f, 1.0f }, u[4] = { 0.1f, 0.3f, 0.5f, 0.9f };
    const int32_t qx[4] = { 10, 11, 12, 13 }, qy[4] = { 5, 6, 7, 8 };
    int32_t nx[4], ny[4];
    pf_find_index_ref(4, cdf, u, qx, qy, nx, ny);
    assert_true(nx[0] == 10 && nx[1] == 11 && nx[2] == 11 && nx[3] == 13);
    assert_true(ny[0] == 5 && ny[1] == 6 && ny[2] == 6 && ny[3] == 8);
    float eq[4] = { 3, 3, 3, 3 }, c4[4], u4[4];
    bench_rng r = bench_rng_make(7);
    pf_cdf(&r, 4, eq, c4, u4);
    for (int j = 0; j < 4; j++) {
        assert_true(fabs(c4[j] - (j + 1) / 4.0) < 1e-6);
        assert_true(u4[j] >= j / 4.0f && u4[j] < (j + 1) / 4.0f);
    }
    /* positions stay inside the margin, so every gather is in the image */
    int32_t mx[3] = { 0, 128, PF_W }, my[3] = { -5, 64, PF_H + 3 }, ox[3], oy[3];
    pf_move(&r, 3, mx, my, ox, oy);
    for (int i = 0; i < 3; i++)
        assert_true(ox[i] >= PF_MARGIN && ox[i] < PF_W - PF_MARGIN &&
                    oy[i] >= PF_MARGIN && oy[i] < PF_H - PF_MARGIN);
}

/* SRAD (srad.h): the coefficient and the update worked by hand. jc = 1,
 * dN = 1, the rest 0: G2 = 1, L = 1, num = 1/2 - 1/16 = 0.4375, den = 1.25,
 * q^2 = 0.4375 / 1.5625 = 0.28; with q0^2 = 0.25: (0.28 - 0.25) / (0.25 *
 * 1.25) = 0.096, c = 1 / 1.096; with q0^2 = 1: c = 1 / (1 - 0.36) > 1,
 * clamped to 1. Update: D = 0.5*1 + 1*2 + 0.5*4 + 0*8 = 4.5, J = 1 +
 * 4.5 / 8 = 1.5625. q0^2 of 1, 1, 3, 3: mean 2, variance 1, 0.25. */
static double srad_coef_double(double jc, double dn, double ds, double dw, double de, double q0)
{
    double g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
    double l = (dn + ds + dw + de) / jc;
    double q = (0.5 * g2 - l * l / 16) / ((1 + l / 4) * (1 + l / 4));
    double c = 1 / (1 + (q - q0) / (q0 * (1 + q0)));
    return c < 0 ? 0 : c > 1 ? 1 : c;
}

/* One SRAD iteration in double, written from the formulas (not from
 * srad_iteration): neighbours by clamped coordinates. */
static void srad_iteration_double(int n, double *img, double q0)
{
    double *c = calloc((size_t)n * n, sizeof *c), *o = calloc((size_t)n * n, sizeof *o);
    assert_non_null(c); assert_non_null(o);
    memcpy(o, img, (size_t)n * n * sizeof *o);
#define AT(i, j) o[(size_t)((i) < 0 ? 0 : (i) >= n ? n - 1 : (i)) * n + ((j) < 0 ? 0 : (j) >= n ? n - 1 : (j))]
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            c[(size_t)i * n + j] = srad_coef_double(AT(i, j), AT(i - 1, j) - AT(i, j),
                AT(i + 1, j) - AT(i, j), AT(i, j - 1) - AT(i, j), AT(i, j + 1) - AT(i, j), q0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double cs = c[(size_t)(i + 1 < n ? i + 1 : i) * n + j];
            double ce = c[(size_t)i * n + (j + 1 < n ? j + 1 : j)], cc = c[(size_t)i * n + j];
            double d = cc * (AT(i - 1, j) - AT(i, j)) + cs * (AT(i + 1, j) - AT(i, j)) +
                       cc * (AT(i, j - 1) - AT(i, j)) + ce * (AT(i, j + 1) - AT(i, j));
            img[(size_t)i * n + j] = AT(i, j) + 0.125 * d;
        }
#undef AT
    free(c); free(o);
}

static void test_srad_by_hand(void **state)
{
    (void)state;
    assert_true(fabs(srad_coef(1, 1, 0, 0, 0, 0.25f) - 1 / 1.096) < 1e-6);
    assert_true(srad_coef(1, 1, 0, 0, 0, 1.0f) == 1.0f);
    assert_true(srad_update(1, 0.5f, 1, 0, 1, 2, 4, 8) == 1.5625f);
    const float img[4] = { 1, 1, 3, 3 };
    assert_true(srad_q0sqr(2, img, 2, 2) == 0.25f);
    assert_true(srad_q0sqr(2, img, 1, 2) == 0.0f);     /* region of the first row: flat */
    /* srad1's host step and its reduction tree */
    assert_true(srad1_q0sqr(4, 8, 20) == 0.25f);
    assert_int_equal(srad1_levels(256), 1);
    assert_int_equal(srad1_levels(257), 2);
    assert_int_equal(srad1_levels(4096), 2);
    assert_int_equal(srad1_levels(65537), 3);
    float *a = calloc(70000, sizeof *a);
    assert_non_null(a);
    for (int k = 0; k < 600; k++)
        a[k] = (float)k;
    srad1_reduce_ref(600, a);       /* 3 blocks, then one: 0 + 1 + ... + 599 */
    assert_true(a[0] == 179700.0f);
    for (int k = 0; k < 65537; k++)
        a[k] = 1.0f;
    srad1_reduce_ref(65537, a);     /* three levels, a partial block at each */
    assert_true(a[0] == 65537.0f);
    free(a);
    /* the float references against the formulas in double, on a random
     * 20 x 20 image, three iterations (each q0^2 from the current image) */
    int n = 20;
    bench_params p = { n, 3, BENCH_DEFAULT_SEED };
    float *f = calloc((size_t)n * n, sizeof *f), *c = calloc((size_t)n * n, sizeof *c);
    double *d = calloc((size_t)n * n, sizeof *d);
    assert_non_null(f); assert_non_null(c); assert_non_null(d);
    srad2_inputs(&p, f);
    for (int k = 0; k < n * n; k++)
        d[k] = f[k];
    float *g = calloc((size_t)n * n, sizeof *g), *f0 = calloc((size_t)n * n, sizeof *f0);
    assert_non_null(g); assert_non_null(f0);
    memcpy(g, f, (size_t)n * n * sizeof *g);
    memcpy(f0, f, (size_t)n * n * sizeof *f0);
    srad2_reference(n, 3, g);
    int moved = 0;
    for (int t = 0; t < 3; t++) {
        float q0 = srad2_q0sqr(n, f);
        srad_iteration(n, f, c, q0);
        srad_iteration_double(n, d, q0);
    }
    for (int k = 0; k < n * n; k++) {
        assert_true(fabs(f[k] - d[k]) < 1e-5);
        assert_true(f[k] == g[k]);                  /* srad2_reference = the loop above */
        moved += fabsf(f[k] - f0[k]) > 1e-3f;
    }
    assert_true(moved > n * n / 2);                 /* the diffusion did something */
    free(f); free(c); free(d); free(g); free(f0);
}

/* srad1's whole program against extract / iterate / compress in double. */
static void test_srad1_reference_against_double(void **state)
{
    (void)state;
    int n = 17;
    bench_params p = { n, 2, BENCH_DEFAULT_SEED };
    size_t ne = (size_t)n * n;
    float *img = calloc(ne, sizeof *img), *orig = calloc(ne, sizeof *orig);
    int32_t in[17], is[17], jw[17], je[17];
    double *d = calloc(ne, sizeof *d);
    assert_non_null(img); assert_non_null(orig); assert_non_null(d);
    srad1_inputs(&p, img, in, is, jw, je);
    assert_true(in[0] == 0 && is[16] == 16 && jw[5] == 4 && je[5] == 6);
    memcpy(orig, img, ne * sizeof *img);
    srad1_reference(n, 2, img);
    for (size_t k = 0; k < ne; k++) {
        assert_true(orig[k] == floorf(orig[k]) && orig[k] >= 0 && orig[k] <= 255);
        d[k] = orig[k] / 255.0 + 1;
    }
    for (int t = 0; t < 2; t++) {
        double s = 0, s2 = 0;
        for (size_t k = 0; k < ne; k++) {
            s += d[k];
            s2 += d[k] * d[k];
        }
        double mean = s / ne;
        srad_iteration_double(n, d, (s2 / ne - mean * mean) / (mean * mean));
    }
    int changed = 0;
    for (size_t k = 0; k < ne; k++) {
        assert_true(fabs(img[k] - (d[k] - 1) * 255) < 1e-3);
        changed += fabsf(img[k] - orig[k]) > 0.01f;
    }
    assert_true(changed > (int)ne / 2);     /* the diffusion did something */
    free(img); free(orig); free(d);
}

/* backprop: weights 1 and inputs 1..16 give the partial sum 136 for every
 * hidden unit; the tree sums what a plain loop sums (to rounding). The
 * adjust by hand: delta 1, input 2, oldw 1: 0.3 * 2 + 0.3 = 0.9; the bias
 * row 0.3 * 1 + 0.3 * oldw. The host step with zero partials, zero bias and
 * zero output weights: hidden 0.5, output 0.5, output error 0.25 * (0.1 -
 * 0.5) = -0.1, hidden errors 0, output weight changes -0.03 (bias unit 1)
 * and -0.015 (hidden 0.5). */
static void test_backprop_by_hand(void **state)
{
    (void)state;
    float in[17], w[17 * BP_W], oldw[17 * BP_W], part[BP_HID], delta[BP_W];
    for (int k = 0; k <= 16; k++)
        in[k] = (float)k;
    for (int i = 0; i < 17 * BP_W; i++) {
        w[i] = 1.0f;
        oldw[i] = 1.0f;
    }
    bp_forward_ref(16, in, w, part);
    for (int j = 0; j < BP_HID; j++)
        assert_true(part[j] == 136.0f);
    for (int j = 0; j < BP_W; j++)
        delta[j] = 1.0f;
    for (int k = 0; k <= 16; k++)
        in[k] = 2.0f;
    bp_adjust_ref(16, delta, in, w, oldw);
    for (int k = 0; k <= 16; k++)
        for (int j = 0; j < BP_W; j++) {
            float want = j == 0 ? 1.0f : k == 0 ? 1.0f + (0.3f + 0.3f) : 1.0f + (0.6f + 0.3f);
            assert_true(fabsf(w[k * BP_W + j] - want) < 1e-6f);
            assert_true(fabsf(oldw[k * BP_W + j] - (want - 1.0f) - (j == 0)) < 1e-6f);
        }
    bp_net net;
    memset(&net, 0, sizeof net);
    float zero[BP_HID] = { 0 }, wz[BP_W] = { 0 };
    bp_host_step(16, zero, wz, &net);
    assert_true(net.hidden[0] == 1.0f && net.hidden[5] == 0.5f && net.out == 0.5f);
    assert_true(net.delta[3] == 0.0f);
    assert_true(fabsf(net.who[0] + 0.03f) < 1e-7f && fabsf(net.who[7] + 0.015f) < 1e-7f);
    /* random inputs: the tree against a double sum */
    bench_params p = { 64, 1, BENCH_DEFAULT_SEED };
    float *xin = calloc(65, sizeof *xin), *xw = calloc(65 * BP_W, sizeof *xw);
    float xp[4 * BP_HID];
    assert_non_null(xin); assert_non_null(xw);
    bp_inputs(&p, xin, xw, &net);
    bp_forward_ref(64, xin, xw, xp);
    for (int b = 0; b < 4; b++)
        for (int j = 0; j < BP_HID; j++) {
            double s = 0;
            for (int k = 1; k <= 16; k++)
                s += (double)xw[(b * 16 + k) * BP_W + j + 1] * xin[b * 16 + k];
            assert_true(fabs(xp[b * BP_HID + j] - s) < 1e-6);
        }
    free(xin); free(xw);
}

/* lbm: bounce-back by hand (an obstacle cell's f_e lands, as the opposite
 * direction, in the cell behind it), and mass conservation of a step over
 * the seeded grid (BGK keeps sum f; bounce-back moves values), in double. */
/* iix by hand. FNV-1a of "a" is 0xe40c292c and of "b" 0xe70c2de5 (the FNV
 * reference test vectors). In the first document: a link to "a"; "hhref="
 * (a mismatch on an 'h' restarts the match at 1) to "b"; "href=x" is no
 * link; "a" again; an unclosed "href="c" at the end is dropped: 3 links.
 * The index of three documents ("b" then "a"; empty; "a"): the pairs sorted
 * by (key, document) are (a, 0), (a, 2), (b, 0), posting lists 2 and 1. */
static void test_iix_by_hand(void **state)
{
    (void)state;
    const char *doc = "x<a href=\"a\">hhref=\"b\" href=x href=\"a\" href=\"c";
    uint32_t keys[8];
    assert_int_equal(iix_scan_ref(doc, (int)strlen(doc), keys), 3);
    assert_true(keys[0] == 0xe40c292cu && keys[1] == 0xe70c2de5u && keys[2] == 0xe40c292cu);
    assert_int_equal(iix_scan_ref(doc, 12, NULL), 1);     /* cut after the first '"' */
    assert_int_equal(iix_scan_ref(doc, 11, NULL), 0);     /* ... and before it */

    const char *text = "href=\"b\"href=\"a\"href=\"a\"";
    int32_t start[4] = { 0, 16, 16, 24 }, count[3], offset[4], run[3];
    uint32_t key[3], val[3];
    iix_count_ref(3, text, start, count);
    assert_true(count[0] == 2 && count[1] == 0 && count[2] == 1);
    assert_int_equal(iix_offsets(3, count, offset), 3);
    assert_true(offset[0] == 0 && offset[1] == 2 && offset[2] == 2 && offset[3] == 3);
    iix_reference(3, text, start, offset, key, val, run);
    assert_true(key[0] == 0xe40c292cu && val[0] == 0 && run[0] == 2);
    assert_true(key[1] == 0xe40c292cu && val[1] == 2 && run[1] == 0);
    assert_true(key[2] == 0xe70c2de5u && val[2] == 0 && run[2] == 1);
    assert_true(iix_padded(0) == 2 && iix_padded(3) == 4 && iix_padded(4) == 4 &&
                iix_padded(5) == 8);

    /* The generated pages: lengths in [len/2, len/2 + len), printable, and
     * the links the scan finds are exactly the generator's "<a href=" tags
     * (counted with strstr, independently of the scan). */
    bench_params p = { 200, 96, BENCH_DEFAULT_SEED };
    char *t = calloc(iix_text_bytes(p.n, p.iters) + 1, 1);
    int32_t *st = calloc((size_t)p.n + 1, sizeof *st), *cnt = calloc((size_t)p.n, sizeof *cnt);
    iix_inputs(&p, t, st);
    iix_count_ref(p.n, t, st, cnt);
    int total = 0;
    for (int d = 0; d < p.n; d++) {
        int len = st[d + 1] - st[d];
        assert_true(len >= p.iters / 2 && len < p.iters / 2 + p.iters);
        char *doc_d = strndup(t + st[d], (size_t)len);
        int tags = 0;
        for (const char *q = doc_d; (q = strstr(q, "<a href=")) != NULL; q++)
            tags++;
        for (int i = 0; i < len; i++)
            assert_true(doc_d[i] >= ' ' && doc_d[i] <= '~');
        assert_int_equal(cnt[d], tags);
        total += tags;
        free(doc_d);
    }
    assert_true(total > p.n);               /* more than one link a page on average */
    free(t); free(st); free(cnt);
}

static void test_lbm_by_hand_and_mass(void **state)
{
    (void)state;
    int n = 32, nz = 8;
    size_t cells = lbm_cells(n);
    int32_t *flags = calloc(cells, sizeof *flags);
    float *f = calloc(cells * LBM_Q, sizeof *f), *g = calloc(cells * LBM_Q, sizeof *g);
    assert_non_null(flags); assert_non_null(f); assert_non_null(g);
    for (size_t c = 0; c < cells; c++)
        flags[c] = LBM_OBSTACLE;
    size_t c0 = 0;                              /* x = y = z = 0 */
    for (int e = 0; e < LBM_Q; e++)
        f[(size_t)e * cells + c0] = (float)(e + 1);
    lbm_step_ref(n, flags, f, g);
    /* N (e 1, +y) goes to S (e 2) of the cell at y = -1 -> n - 1;
     * NE (7: +x +y) to SW (10) at x = y = n - 1; T (5) to B (6) at z = nz - 1 */
    assert_true(g[2 * cells + (size_t)n * (n - 1)] == 2.0f);
    assert_true(g[10 * cells + (n - 1) + (size_t)n * (n - 1)] == 8.0f);
    assert_true(g[6 * cells + (size_t)n * n * (nz - 1)] == 6.0f);
    assert_true(g[0] == 1.0f);
    double sum = 0;
    for (size_t k = 0; k < cells * LBM_Q; k++)
        sum += g[k];
    assert_true(sum == 190.0);                  /* 1 + 2 + ... + 19, nothing else */
    bench_params p = { n, 1, BENCH_DEFAULT_SEED };
    lbm_inputs(&p, flags, f);
    double m0 = 0, m1 = 0;
    int kinds[3] = { 0, 0, 0 };
    for (size_t c = 0; c < cells; c++)
        kinds[flags[c]]++;
    assert_true(kinds[LBM_FLUID] > 0 && kinds[LBM_OBSTACLE] > 0 && kinds[LBM_ACCEL] > 0);
    for (size_t k = 0; k < cells * LBM_Q; k++)
        m0 += f[k];
    lbm_reference(n, 2, flags, f);
    for (size_t k = 0; k < cells * LBM_Q; k++)
        m1 += f[k];
    /* accel cells fix u, not rho: the sum of feq is still rho */
    assert_true(fabs(m1 - m0) < 1e-4 * m0);
    free(flags); free(f); free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rng_is_deterministic_and_seeded),
        cmocka_unit_test(test_q8_values_are_eighths_in_range),
        cmocka_unit_test(test_parse_args),
        cmocka_unit_test(test_compare_reports_first_mismatch),
        cmocka_unit_test(test_matmul_reference_by_hand),
        cmocka_unit_test(test_fwt_reference_matches_definition),
        cmocka_unit_test(test_scan_verify),
        cmocka_unit_test(test_bfs_reference_by_hand),
        cmocka_unit_test(test_bitonic_verify),
        cmocka_unit_test(test_kmeans_nearest_and_update),
        cmocka_unit_test(test_spmv_inputs_form_valid_csr),
        cmocka_unit_test(test_transpose_verify),
        cmocka_unit_test(test_gemm_2mm_by_hand),
        cmocka_unit_test(test_vector_kernels_by_hand),
        cmocka_unit_test(test_conv2d_by_hand),
        cmocka_unit_test(test_exact_and_double_agree_on_q8),
        cmocka_unit_test(test_binarysearch_by_hand_and_linear_scan),
        cmocka_unit_test(test_reduction_by_hand),
        cmocka_unit_test(test_inlinemath_formula_and_tolerance),
        cmocka_unit_test(test_dwthaar1d_by_hand_and_definition),
        cmocka_unit_test(test_dct_by_hand_and_definition),
        cmocka_unit_test(test_fft_by_hand_and_dft),
        cmocka_unit_test(test_oaws_linear_algebra_by_hand),
        cmocka_unit_test(test_3dconv_by_hand),
        cmocka_unit_test(test_fdtd2d_by_hand),
        cmocka_unit_test(test_oaws_exact_and_double_agree_on_q8),
        cmocka_unit_test(test_streamcluster_by_hand),
        cmocka_unit_test(test_particlefilter_by_hand),
        cmocka_unit_test(test_srad_by_hand),
        cmocka_unit_test(test_srad1_reference_against_double),
        cmocka_unit_test(test_backprop_by_hand),
        cmocka_unit_test(test_lbm_by_hand_and_mass),
        cmocka_unit_test(test_iix_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
