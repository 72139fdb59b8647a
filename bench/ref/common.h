/*
 * bench/ref/common.h — what every benchmark reference shares.
 *
 * Included by the CUDA programs (bench/cuda/NAME.cu, compiled as CUDA C++ by
 * nvcc) and by the C drivers (bench/drivers/NAME.c, compiled as C11), so
 * everything here is the common subset of both languages: static inline
 * functions, explicit casts of malloc's result, no designated initialisers.
 *
 *   - a seeded PRNG (splitmix64): same seed, same input data, on every host;
 *   - the problem size of a benchmark (bench_params) with four presets
 *     (small / default / large / paper) and the argv parser the CUDA
 *     programs use;
 *   - comparison helpers that print the first mismatch.
 */
#ifndef BENCH_REF_COMMON_H
#define BENCH_REF_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- deterministic input data ------------------------------------------ */

#define BENCH_DEFAULT_SEED 20260523u

typedef struct bench_rng { uint64_t state; } bench_rng;

static inline bench_rng bench_rng_make(uint64_t seed)
{
    bench_rng r;
    r.state = seed;
    return r;
}

/* splitmix64 (Steele, Lea, Flood 2014): tiny, full period, well mixed. */
static inline uint64_t bench_rand_u64(bench_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint32_t bench_rand_u32(bench_rng *r)
{
    return (uint32_t)(bench_rand_u64(r) >> 32);
}

/* Uniform integer in [0, n), n > 0 (the tiny modulo bias does not matter). */
static inline int bench_rand_int(bench_rng *r, int n)
{
    return (int)(bench_rand_u64(r) % (uint64_t)n);
}

/* Uniform float in [lo, hi) with 24 random bits. */
static inline float bench_rand_float(bench_rng *r, float lo, float hi)
{
    float u = (float)(bench_rand_u32(r) >> 8) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
}

/* A multiple of 1/8 in [-1, 1]. Sums of products of such values stay exact
 * in float while they are small, so results of dot-product style kernels are
 * the same whatever the summation order or fma contraction. */
static inline float bench_rand_q8(bench_rng *r)
{
    return (float)(bench_rand_int(r, 17) - 8) * 0.125f;
}

static inline void bench_fill_q8(bench_rng *r, float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = bench_rand_q8(r);
}

static inline void bench_fill_float(bench_rng *r, float *x, size_t n,
                                    float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        x[i] = bench_rand_float(r, lo, hi);
}

/* Input modes. BENCH_INPUTS_DEFAULT is what every program and smcosim-bench
 * run unless told otherwise (the golden statistics depend on it).
 * BENCH_INPUTS_GENERAL (smcosim-bench --inputs general) is for detection
 * power: floats with full 24-bit mantissas instead of multiples of 1/8, so
 * that rounding matters, and sizes that are not multiples of the block size
 * where the kernel allows it, so that partial blocks and bounds checks run;
 * the references then reproduce each kernel's operation order (fmaf where
 * nvcc contracted a*b+c into fma.rn) and compare bit for bit. */
enum { BENCH_INPUTS_DEFAULT = 0, BENCH_INPUTS_GENERAL = 1 };

static inline int bench_inputs_from_name(const char *s)
{
    if (strcmp(s, "default") == 0) return BENCH_INPUTS_DEFAULT;
    if (strcmp(s, "general") == 0) return BENCH_INPUTS_GENERAL;
    return -1;
}

/* Full-precision floats in (-2, 2) with varied exponents: a uniform value
 * in [-1, 1) (a multiple of 2^-23) times a uniform scale in [0.5, 2),
 * rounded, so that values are not on one common grid and even a single
 * add or sub of two of them rounds. */
static inline void bench_fill_general(bench_rng *r, float *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float u = bench_rand_float(r, -1.0f, 1.0f);
        float s = bench_rand_float(r, 0.5f, 2.0f);
        x[i] = u * s;
    }
}

/* ---- problem sizes -------------------------------------------------------- */

/* One benchmark's size: `n` is the main dimension (vector length, matrix
 * side, node count, ...), `iters` a secondary one (time steps, iterations,
 * clusters) where the benchmark has it; what each means is documented in the
 * benchmark's header and in docs/benchmarks.md. */
typedef struct bench_params {
    int      n;
    int      iters;
    uint64_t seed;
} bench_params;

/* The size presets, indices into each benchmark's NAME_presets array.
 * `paper` is the input the seed papers (or the original suite's default
 * input they ran) name for the benchmark, or the nearest our kernel can
 * express / the largest that runs in reasonable time; each header cites its
 * source and docs/benchmarks.md ("Paper sizes") tabulates them. */
enum {
    BENCH_SIZE_SMALL = 0,
    BENCH_SIZE_DEFAULT = 1,
    BENCH_SIZE_LARGE = 2,
    BENCH_SIZE_PAPER = 3,
    BENCH_SIZE_COUNT = 4
};

/* For usage lines and error messages. */
#define BENCH_SIZE_USAGE "small|default|large|paper"
#define BENCH_SIZE_LIST "small, default, large, paper"

static inline int bench_size_from_name(const char *s)
{
    if (strcmp(s, "small") == 0) return BENCH_SIZE_SMALL;
    if (strcmp(s, "default") == 0) return BENCH_SIZE_DEFAULT;
    if (strcmp(s, "large") == 0) return BENCH_SIZE_LARGE;
    if (strcmp(s, "paper") == 0) return BENCH_SIZE_PAPER;
    return -1;
}

/* Strict decimal parse of a positive int; 0 on success. */
static inline int bench_parse_int(const char *s, int *out)
{
    char *end;
    long v;
    if (s == NULL || *s == '\0')
        return -1;
    v = strtol(s, &end, 10);
    if (*end != '\0' || v <= 0 || v > 0x40000000L)
        return -1;
    *out = (int)v;
    return 0;
}

/*
 * Command line of a CUDA benchmark program:
 *   NAME [--size small|default|large|paper] [-n N] [-i ITERS] [--seed S]
 * `presets` holds the BENCH_SIZE_COUNT size presets. `check` validates the
 * result and writes a reason into `why` when it rejects (NULL: anything
 * positive goes).
 * Returns 0, or prints the usage/error and returns 2 (the exit status).
 */
typedef int (*bench_check_fn)(const bench_params *p, char *why, size_t whylen);

static inline int bench_parse_args(int argc, char **argv, const char *name,
                                   const bench_params presets[BENCH_SIZE_COUNT],
                                   bench_check_fn check, bench_params *out)
{
    int i, n = 0, iters = 0;
    char why[160];
    *out = presets[BENCH_SIZE_DEFAULT];
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (strcmp(a, "--size") == 0 && v) {
            int s = bench_size_from_name(v);
            if (s < 0) {
                fprintf(stderr, "%s: unknown --size '%s' (" BENCH_SIZE_LIST ")\n", name, v);
                return 2;
            }
            *out = presets[s];
            i++;
        } else if (strcmp(a, "-n") == 0 && v) {
            if (bench_parse_int(v, &n)) {
                fprintf(stderr, "%s: -n wants a positive integer, got '%s'\n", name, v);
                return 2;
            }
            i++;
        } else if (strcmp(a, "-i") == 0 && v) {
            if (bench_parse_int(v, &iters)) {
                fprintf(stderr, "%s: -i wants a positive integer, got '%s'\n", name, v);
                return 2;
            }
            i++;
        } else if (strcmp(a, "--seed") == 0 && v) {
            char *end;
            unsigned long long s = strtoull(v, &end, 10);
            if (*v == '\0' || *end != '\0') {
                fprintf(stderr, "%s: --seed wants an integer, got '%s'\n", name, v);
                return 2;
            }
            out->seed = (uint64_t)s;
            i++;
        } else {
            fprintf(stderr, "usage: %s [--size " BENCH_SIZE_USAGE "] [-n N] [-i ITERS] [--seed S]\n"
                            "%s: unknown or incomplete argument '%s'\n", name, name, a);
            return 2;
        }
    }
    if (n) out->n = n;
    if (iters) out->iters = iters;
    if (check && check(out, why, sizeof why)) {
        fprintf(stderr, "%s: bad size: %s\n", name, why);
        return 2;
    }
    return 0;
}

/* ---- result checks --------------------------------------------------------- */

/* Relative-or-absolute float closeness: |got - want| <= tol * max(1, |want|). */
static inline int bench_close(double got, double want, double tol)
{
    double scale = fabs(want) > 1.0 ? fabs(want) : 1.0;
    return fabs(got - want) <= tol * scale && got == got;
}

/* Compare arrays; on the first mismatch write "what[i] = got, expected
 * want" into `why` and return 1. `what` names the output (and kernel). */
static inline int bench_compare_float(const char *what, const float *got,
                                      const float *want, size_t n, double tol,
                                      char *why, size_t whylen)
{
    for (size_t i = 0; i < n; i++) {
        if (!bench_close(got[i], want[i], tol)) {
            snprintf(why, whylen, "%s[%zu] = %.9g, expected %.9g",
                     what, i, (double)got[i], (double)want[i]);
            return 1;
        }
    }
    return 0;
}

static inline int bench_compare_int(const char *what, const int32_t *got,
                                    const int32_t *want, size_t n,
                                    char *why, size_t whylen)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            snprintf(why, whylen, "%s[%zu] = %ld, expected %ld",
                     what, i, (long)got[i], (long)want[i]);
            return 1;
        }
    }
    return 0;
}

static inline int bench_compare_u32(const char *what, const uint32_t *got,
                                    const uint32_t *want, size_t n,
                                    char *why, size_t whylen)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            snprintf(why, whylen, "%s[%zu] = %lu, expected %lu",
                     what, i, (unsigned long)got[i], (unsigned long)want[i]);
            return 1;
        }
    }
    return 0;
}

static inline int bench_is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

/* Allocation that reports and exits on failure (inputs are host data). */
static inline void *bench_xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "bench: out of host memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

#endif /* BENCH_REF_COMMON_H */
