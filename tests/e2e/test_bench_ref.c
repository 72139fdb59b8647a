/*
 * test_bench_ref.c — the shared benchmark references (bench/ref/) checked
 * against values worked out by hand or by a different algorithm, so that a
 * benchmark's PASS means the GPU agreed with a correct answer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../bench/ref/common.h"
#include "../../bench/ref/bfs.h"
#include "../../bench/ref/bitonic.h"
#include "../../bench/ref/fwt.h"
#include "../../bench/ref/kmeans.h"
#include "../../bench/ref/matmul.h"
#include "../../bench/ref/scan.h"
#include "../../bench/ref/spmv.h"
#include "../../bench/ref/transpose.h"

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

static const bench_params test_presets[3] = {
    { 32, 2, 1 }, { 128, 4, 1 }, { 512, 8, 1 },
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
