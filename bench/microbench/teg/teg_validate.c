/*
 * teg_validate.c — `smcosim teg validate --kernel K --warps W`: one of seed
 * 003's validation kernels (teg_validate.cu, committed PTX) launched through
 * smcosim's device API with the trace export on, its results checked against
 * the host, then TEG and the cycle model on that one trace (`smcosim teg
 * --trace ... --compare`). docs/teg.md, "Validation"; the specification's
 * §5.6 and G13 (../shared/design/teg.md).
 *
 * W warps per SM, one block per SM of the configuration (two blocks of 8
 * warps for W = 16), every warp the same work (003 L1155). The SGEMM kernels'
 * blocks are always 8 warps (T_B = 256), so they take W = 8 or 16 only.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "teg_validate.h"
#include "smcosim.h"
#include "../../../csrc/cli/cli.h"
#include "../../../csrc/config/gpu_config.h"

#define VALIDATE_USAGE \
    "usage: smcosim teg validate --kernel K --warps W [--steps N] [--config P] [--set k=v]...\n" \
    "                            [--trace-out DIR] [--ptx FILE] [smcosim teg options]\n" \
    "  Launches a validation kernel of seed 003 (mm_abt_conflict = MatA, mm_abt_padded = MatB,\n" \
    "  hop_aos_dp = QdA, hop_soa_dp = QdB, hop_soa_sp = Qf, blackscholes = BS, and the SGEMM\n" \
    "  kernels of ch. 4 sgemm_rb6_lds64, sgemm_rb6_lds128) with W warps (1, 2, 4, 8, 16; 8 or 16\n" \
    "  for sgemm_*) per SM, checks its results, and runs TEG and the cycle model on its trace\n" \
    "  (every other option goes to `smcosim teg`: --params, --param, --what-if, --json).\n" \
    "  --steps: the matrix products' k-steps of 16 (default 10, 003 L1219), the others' items\n" \
    "  per thread (default 4).\n"

static const char *const kernels[] = { "mm_abt_conflict", "mm_abt_padded", "hop_aos_dp",
                                       "hop_soa_dp", "hop_soa_sp", "blackscholes",
                                       "sgemm_rb6_lds64", "sgemm_rb6_lds128", NULL };

/* A deterministic input: small values that keep sums exact enough. */
static float fval(size_t i) { return (float)((i * 7u + 3u) % 13u) * 0.125f - 0.75f; }

typedef struct vrun {
    smc_device *dev;
    smc_kernel *k;
    unsigned char params[256];
    uint32_t nparam;
} vrun;

static int set_param(vrun *v, uint32_t i, const void *val)
{
    uint32_t off, sz;
    if (smc_kernel_param(v->k, i, &off, &sz) != SMC_OK || off + sz > sizeof v->params) return -1;
    memcpy(v->params + off, val, sz);
    v->nparam = i + 1;
    return 0;
}

static int upload(vrun *v, const void *host, size_t bytes, uint64_t *d)
{
    return smc_malloc(v->dev, bytes, SMC_MEM_DEVICE, d) != SMC_OK ||
           (host && smc_memcpy_htod(v->dev, *d, host, bytes) != SMC_OK);
}

static int launch(vrun *v, smc_dim3 grid, smc_dim3 block)
{
    smc_kernel_info info;
    smc_kernel_get_info(v->k, &info);
    if (smc_launch(v->dev, v->k, grid, block, 0, 0, v->params, info.param_bytes, NULL) != SMC_OK) {
        fprintf(stderr, "smcosim teg validate: launch: %s\n", smc_last_message(v->dev));
        return -1;
    }
    return 0;
}

/* MatA / MatB: C (rows x 16) = A (rows x K) . B^T (B: 16 x K). */
static int run_mm(vrun *v, uint32_t ctas, uint32_t wpb, uint32_t steps)
{
    uint32_t K = 16 * steps, rows = ctas * 2 * wpb;
    size_t na = (size_t)rows * K, nb = (size_t)16 * K, nc = (size_t)rows * 16;
    float *A = malloc(na * sizeof *A), *B = malloc(nb * sizeof *B), *C = malloc(nc * sizeof *C);
    int rc = -1;
    uint64_t dA, dB, dC;
    if (!A || !B || !C) goto out;
    for (size_t i = 0; i < na; i++) A[i] = fval(i);
    for (size_t i = 0; i < nb; i++) B[i] = fval(i + 5);
    if (upload(v, A, na * 4, &dA) || upload(v, B, nb * 4, &dB) || upload(v, NULL, nc * 4, &dC) ||
        set_param(v, 0, &dA) || set_param(v, 1, &dB) || set_param(v, 2, &dC) || set_param(v, 3, &K))
        goto out;
    if (launch(v, (smc_dim3){ 1, ctas, 1 }, (smc_dim3){ 16, 2 * wpb, 1 })) goto out;
    if (smc_memcpy_dtoh(v->dev, C, dC, nc * 4) != SMC_OK) goto out;
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < 16; c++) {
            double s = 0;
            for (size_t k = 0; k < K; k++) s += (double)A[r * K + k] * B[c * K + k];
            if (fabs(s - C[r * 16 + c]) > 1e-3 * (1 + fabs(s))) {
                fprintf(stderr, "smcosim teg validate: C[%zu][%zu] = %g, the host computes %g\n", r, c,
                        (double)C[r * 16 + c], s);
                goto out;
            }
        }
    rc = 0;
out:
    free(A);
    free(B);
    free(C);
    return rc;
}

/* QdA / QdB / Qf: O = U . h per site. */
static int run_hop(vrun *v, const char *name, uint32_t ctas, uint32_t wpb, uint32_t steps)
{
    int dp = strstr(name, "_dp") != NULL, soa = strstr(name, "soa") != NULL;
    uint32_t threads = ctas * wpb * 32, nsites = threads * steps;
    size_t es = dp ? 8 : 4, nu = (size_t)nsites * 18, nh = (size_t)nsites * 12;
    double *U = malloc(nu * sizeof *U), *H = malloc(nh * sizeof *H), *O = malloc(nh * sizeof *O);
    void *buf = malloc((nu > nh ? nu : nh) * es);
    int rc = -1;
    uint64_t dU, dH, dO;
    if (!U || !H || !O || !buf) goto out;
    for (size_t i = 0; i < nu; i++) U[i] = fval(i);
    for (size_t i = 0; i < nh; i++) H[i] = fval(i + 3);
    /* U[s][c] (AoS) is U[c][s] in SoA: the host's arrays are AoS */
#define LAYOUT(src, n, comps)                                                                   \
    for (size_t s = 0; s < nsites; s++)                                                         \
        for (size_t c = 0; c < comps; c++) {                                                    \
            size_t at = soa ? c * nsites + s : s * comps + c;                                   \
            if (dp) ((double *)buf)[at] = src[s * comps + c];                                   \
            else ((float *)buf)[at] = (float)src[s * comps + c];                                \
        }
    LAYOUT(U, nu, 18)
    if (upload(v, buf, nu * es, &dU)) goto out;
    LAYOUT(H, nh, 12)
    if (upload(v, buf, nh * es, &dH) || upload(v, NULL, nh * es, &dO) || set_param(v, 0, &dU) ||
        set_param(v, 1, &dH) || set_param(v, 2, &dO) || set_param(v, 3, &nsites) || set_param(v, 4, &steps))
        goto out;
    if (launch(v, (smc_dim3){ ctas, 1, 1 }, (smc_dim3){ wpb * 32, 1, 1 })) goto out;
    if (smc_memcpy_dtoh(v->dev, buf, dO, nh * es) != SMC_OK) goto out;
    for (size_t s = 0; s < nsites; s++)
        for (size_t i = 0; i < 3; i++)
            for (size_t j = 0; j < 2; j++)
                for (int part = 0; part < 2; part++) {
                    double x = 0;
                    for (size_t k = 0; k < 3; k++) {
                        double ur = U[s * 18 + (i * 3 + k) * 2], ui = U[s * 18 + (i * 3 + k) * 2 + 1];
                        double hr = H[s * 12 + (k * 2 + j) * 2], hi = H[s * 12 + (k * 2 + j) * 2 + 1];
                        x += part ? ur * hi + ui * hr : ur * hr - ui * hi;
                    }
                    size_t c = (i * 2 + j) * 2 + (size_t)part, at = soa ? c * nsites + s : s * 12 + c;
                    double got = dp ? ((double *)buf)[at] : ((float *)buf)[at];
                    if (fabs(got - x) > 1e-4 * (1 + fabs(x))) {
                        fprintf(stderr, "smcosim teg validate: site %zu component %zu = %g, the host "
                                "computes %g\n", s, c, got, x);
                        goto out;
                    }
                }
    rc = 0;
out:
    free(U);
    free(H);
    free(O);
    free(buf);
    return rc;
}

/* BS: call and put of n options. */
static int run_bs(vrun *v, uint32_t ctas, uint32_t wpb, uint32_t steps)
{
    uint32_t n = ctas * wpb * 32 * steps;
    float *S = malloc(n * 4), *X = malloc(n * 4), *T = malloc(n * 4), *call = malloc(n * 4),
          *put = malloc(n * 4);
    float R = 0.02f, V = 0.30f;
    int rc = -1;
    uint64_t dS, dX, dT, dc, dp;
    if (!S || !X || !T || !call || !put) goto out;
    for (uint32_t i = 0; i < n; i++) {
        S[i] = 5.0f + (float)(i % 25);
        X[i] = 1.0f + (float)(i % 100);
        T[i] = 0.25f + (float)(i % 10) * 0.5f;
    }
    if (upload(v, S, n * 4, &dS) || upload(v, X, n * 4, &dX) || upload(v, T, n * 4, &dT) ||
        upload(v, NULL, n * 4, &dc) || upload(v, NULL, n * 4, &dp) || set_param(v, 0, &dc) ||
        set_param(v, 1, &dp) || set_param(v, 2, &dS) || set_param(v, 3, &dX) || set_param(v, 4, &dT) ||
        set_param(v, 5, &R) || set_param(v, 6, &V) || set_param(v, 7, &n) || set_param(v, 8, &steps))
        goto out;
    if (launch(v, (smc_dim3){ ctas, 1, 1 }, (smc_dim3){ wpb * 32, 1, 1 })) goto out;
    if (smc_memcpy_dtoh(v->dev, call, dc, n * 4) != SMC_OK || smc_memcpy_dtoh(v->dev, put, dp, n * 4) != SMC_OK)
        goto out;
    for (uint32_t i = 0; i < n; i++) {
        /* put-call parity: C - P = S - X e^{-RT}, a check that needs no CND */
        double parity = S[i] - X[i] * exp(-(double)R * T[i]);
        if (fabs((call[i] - put[i]) - parity) > 1e-3 * (1 + fabs(parity))) {
            fprintf(stderr, "smcosim teg validate: option %u: call - put = %g, S - X exp(-RT) = %g\n", i,
                    (double)(call[i] - put[i]), parity);
            goto out;
        }
    }
    rc = 0;
out:
    free(S);
    free(X);
    free(T);
    free(call);
    free(put);
    return rc;
}

/* The SGEMM kernels' grid: gx x gy blocks of 96 x 96, as square as `ctas`
 * allows (gy the largest divisor of ctas not above its square root). */
static void sgemm_grid(uint32_t ctas, uint32_t *gx, uint32_t *gy)
{
    uint32_t y = 1;
    for (uint32_t d = 1; d * d <= ctas; d++)
        if (ctas % d == 0) y = d;
    *gy = y;
    *gx = ctas / y;
}

/* Where element (k, n) of a 16 x 96 tile of B is in the packed tile: [k][n],
 * or for lds128 in row pairs (teg_validate.cu): per pair of rows 192 floats,
 * row k's columns 0..63, row k+1's, then the columns 64..95 of both, two
 * columns of row k, two of row k+1, and so on. */
static size_t b_slot(int lds128, size_t k, size_t n)
{
    if (!lds128) return k * 96 + n;
    size_t pair = k / 2 * 192, r = k & 1;
    return n < 64 ? pair + r * 64 + n : pair + 128 + (n - 64) / 2 * 4 + r * 2 + (n & 1);
}

/* SGEMM: C (M x N, column-major) = A (M x K) . B (K x N), M = 96 gy,
 * N = 96 gx, K = 16 steps, A and B packed into the kernels' panels. The
 * inputs are multiples of 1/8 in [-0.75, 0.75] (fval), so every product is a
 * multiple of 1/64 of at most 0.5625 and every partial sum, in any order, is
 * exact in single precision while 0.5625 K . 64 < 2^24: the check is exact. */
static int run_sgemm(vrun *v, const char *name, uint32_t ctas, uint32_t steps)
{
    int lds128 = strstr(name, "lds128") != NULL;
    uint32_t gx, gy;
    sgemm_grid(ctas, &gx, &gy);
    size_t M = (size_t)96 * gy, N = (size_t)96 * gx, K = (size_t)16 * steps;
    float *A = malloc(M * K * sizeof *A), *B = malloc(K * N * sizeof *B), *Ap = malloc(M * K * sizeof *Ap),
          *Bp = malloc(K * N * sizeof *Bp), *C = malloc(M * N * sizeof *C);
    int rc = -1;
    uint64_t dA, dB, dC;
    int32_t m32 = (int32_t)M, s32 = (int32_t)steps;
    if (!A || !B || !Ap || !Bp || !C) goto out;
    for (size_t i = 0; i < M * K; i++) A[i] = fval(i);           /* A[m][k], row-major */
    for (size_t i = 0; i < K * N; i++) B[i] = fval(i + 5);       /* B[k][n], row-major */
    /* tile s of panel p: 1536 floats at (p . steps + s) . 1536 */
    for (size_t m = 0; m < M; m++)
        for (size_t k = 0; k < K; k++)
            Ap[((m / 96) * steps + k / 16) * 1536 + (k % 16) * 96 + m % 96] = A[m * K + k];
    for (size_t k = 0; k < K; k++)
        for (size_t n = 0; n < N; n++)
            Bp[((n / 96) * steps + k / 16) * 1536 + b_slot(lds128, k % 16, n % 96)] = B[k * N + n];
    if (upload(v, Ap, M * K * 4, &dA) || upload(v, Bp, K * N * 4, &dB) || upload(v, NULL, M * N * 4, &dC) ||
        set_param(v, 0, &dA) || set_param(v, 1, &dB) || set_param(v, 2, &dC) || set_param(v, 3, &m32) ||
        set_param(v, 4, &s32))
        goto out;
    if (launch(v, (smc_dim3){ gx, gy, 1 }, (smc_dim3){ 16, 16, 1 })) goto out;
    if (smc_memcpy_dtoh(v->dev, C, dC, M * N * 4) != SMC_OK) goto out;
    for (size_t n = 0; n < N; n++)
        for (size_t m = 0; m < M; m++) {
            double s = 0;
            for (size_t k = 0; k < K; k++) s += (double)A[m * K + k] * B[k * N + n];
            if (C[n * M + m] != s) {
                fprintf(stderr, "smcosim teg validate: %s: C[%zu][%zu] = %.9g, the host computes %.9g "
                        "(M %zu, N %zu, K %zu)\n", name, m, n, (double)C[n * M + m], s, M, N, K);
                goto out;
            }
        }
    rc = 0;
out:
    free(A);
    free(B);
    free(Ap);
    free(Bp);
    free(C);
    return rc;
}

int teg_validate_cli(int argc, char **argv, FILE *out)
{
    const char *kernel = NULL, *config = NULL, *trace_out = NULL;
    char ptx_buf[PATH_MAX];
    const char *ptx = cli_repo_file("bench/microbench/teg/teg_validate.ptx", ptx_buf, sizeof ptx_buf);
    uint32_t warps = 0, steps = 0;
    char set[4096] = "";
    /* what goes on to `smcosim teg` */
    char **targv = calloc((size_t)argc + 8, sizeof *targv);
    int tn = 0;
    if (!targv) return 1;
    targv[tn++] = "teg";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--kernel") && more) kernel = argv[++i];
        else if (!strcmp(a, "--warps") && more) warps = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(a, "--steps") && more) steps = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(a, "--ptx") && more) ptx = argv[++i];
        else if (!strcmp(a, "--trace-out") && more) trace_out = argv[++i];
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(VALIDATE_USAGE, out);
            free(targv);
            return 0;
        } else {
            if (!strcmp(a, "--config") && more) config = argv[i + 1];
            if (!strcmp(a, "--set") && more) {
                size_t l = strlen(set);
                snprintf(set + l, sizeof set - l, "%s%s", l ? ";" : "", argv[i + 1]);
            }
            targv[tn++] = argv[i];
        }
    }
    int known = 0;
    for (size_t k = 0; kernel && kernels[k]; k++) known |= !strcmp(kernel, kernels[k]);
    if (!known || !(warps == 1 || warps == 2 || warps == 4 || warps == 8 || warps == 16)) {
        fprintf(stderr, "smcosim teg validate: %s\n" VALIDATE_USAGE,
                !known ? "--kernel: one of mm_abt_conflict, mm_abt_padded, hop_aos_dp, hop_soa_dp, "
                         "hop_soa_sp, blackscholes, sgemm_rb6_lds64, sgemm_rb6_lds128"
                       : "--warps: 1, 2, 4, 8 or 16");
        free(targv);
        return 2;
    }
    int sgemm = !strncmp(kernel, "sgemm_", 6), matrix = sgemm || !strncmp(kernel, "mm_", 3);
    if (sgemm && warps != 8 && warps != 16) {
        fprintf(stderr, "smcosim teg validate: --warps %u: %s's blocks are 8 warps (256 threads), so W is "
                "8 or 16 (one or two blocks per SM)\n", warps, kernel);
        free(targv);
        return 2;
    }
    if (!steps) steps = matrix ? 10 : 4;
    /* the exact check's bound (run_sgemm): 0.5625 . 16 steps . 64 < 2^24 */
    if (sgemm && steps > 29000) {
        fprintf(stderr, "smcosim teg validate: --steps %u: at most 29000 for %s (K = 16 steps below "
                "466,034 keeps its single-precision sums exact)\n", steps, kernel);
        free(targv);
        return 2;
    }
    if (access(ptx, R_OK) != 0) {
        fprintf(stderr, "smcosim teg validate: cannot read the kernels %s (--ptx FILE)\n", ptx);
        free(targv);
        return 2;
    }
    gpu_config cfg;
    char err[512];
    if (gpu_config_load_spec(&cfg, config, err, sizeof err) != 0) {
        fprintf(stderr, "smcosim teg validate: %s\n", err);
        free(targv);
        return 1;
    }
    uint32_t wpb = warps == 16 ? 8 : warps, ctas = cfg.mem.num_sms * (warps == 16 ? 2 : 1);

    char tmp[PATH_MAX], list[PATH_MAX + 32];
    const char *dir = trace_out;
    if (!dir) {
        if (cli_temp_dir("smcosim-tegv", tmp, sizeof tmp) != 0) {
            fprintf(stderr, "smcosim teg validate: cannot make a temporary folder\n");
            free(targv);
            return 1;
        }
        dir = tmp;
    }
    /* the launch, functional, with its trace exported */
    setenv("SMCOSIM_TRACE_EXPORT", dir, 1);
    smc_device_opts o;
    memset(&o, 0, sizeof o);
    o.config = config;
    o.mode = SMC_MODE_FUNCTIONAL;
    o.set = set;
    o.print_stats = -1;
    vrun v = { 0 };
    int rc = 1;
    smc_module *mod = NULL;
    if (smc_device_create(&o, &v.dev) != SMC_OK) goto done;
    if (smc_module_load_ptx_file(v.dev, ptx, &mod) != SMC_OK ||
        smc_module_get_kernel(mod, kernel, &v.k) != SMC_OK) {
        fprintf(stderr, "smcosim teg validate: %s: %s\n", ptx, smc_last_message(v.dev));
        goto done;
    }
    int bad = sgemm ? run_sgemm(&v, kernel, ctas, steps)
            : !strncmp(kernel, "mm_", 3) ? run_mm(&v, ctas, wpb, steps)
            : !strncmp(kernel, "hop_", 4) ? run_hop(&v, kernel, ctas, wpb, steps)
            : run_bs(&v, ctas, wpb, steps);
    smc_device_destroy(v.dev);
    v.dev = NULL;
    unsetenv("SMCOSIM_TRACE_EXPORT");
    if (bad) goto done;
    fprintf(out, "%s, %u warps per SM (%u CTAs of %u warps), %u %s", kernel, warps, ctas, wpb, steps,
            matrix ? "k-steps" : "items per thread");
    if (sgemm) {
        uint32_t gx, gy;
        sgemm_grid(ctas, &gx, &gy);
        fprintf(out, ", M %u N %u K %u", 96 * gy, 96 * gx, 16 * steps);
    }
    fputs("\n\n", out);
    fflush(out);
    snprintf(list, sizeof list, "%s/kernelslist.g", dir);
    targv[tn++] = "--trace";
    targv[tn++] = list;
    targv[tn++] = "--compare";
    rc = cli_teg(tn, targv);
done:
    if (v.dev) smc_device_destroy(v.dev);
    unsetenv("SMCOSIM_TRACE_EXPORT");
    if (!trace_out) cli_remove_dir(dir);
    free(targv);
    return rc;
}
