/* reduction: sum of n integers, vector loads + shared-memory tree (see bench/ref/reduction.h). */
#define BENCH_NAME "reduction"
#include "bench_cuda.h"
#include "../ref/reduction.h"

/* Block b sums the int4 vectors b*blockDim .. b*blockDim + blockDim - 1 of
 * `in` (vectors at or past nvec count as 0) into partial[b]. */
extern "C" __global__ void reduction(int *partial, const int4 *in, int nvec)
{
    __shared__ int s[REDUCTION_BLOCK];
    int t = threadIdx.x, gid = blockIdx.x * blockDim.x + t;
    int v = 0;
    if (gid < nvec) {
        int4 q = in[gid];
        v = q.x + q.y + q.z + q.w;
    }
    s[t] = v;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, reduction_presets, reduction_check, &p))
        return 2;
    int g1 = reduction_blocks(p.n);
    size_t bytes = (size_t)reduction_padded(p.n) * sizeof(int32_t);
    size_t pbytes = (size_t)reduction_padded(g1) * sizeof(int32_t);
    int32_t *x = (int32_t *)bench_xmalloc(bytes);
    int32_t *part = (int32_t *)bench_xmalloc(pbytes), *want = (int32_t *)bench_xmalloc(pbytes);
    int32_t total = 0, want_total = 0;
    memset(x, 0, bytes);
    reduction_inputs(&p, x);
    reduction_reference(&p, x, want, &want_total);
    int32_t *dx = (int32_t *)bench_to_device(x, bytes);
    /* Level buffers, zeroed: the padding up to whole vectors must read 0. */
    int32_t *dp[2];
    CK(cudaMalloc(&dp[0], pbytes)); CK(cudaMemset(dp[0], 0, pbytes));
    CK(cudaMalloc(&dp[1], pbytes)); CK(cudaMemset(dp[1], 0, pbytes));
    const int32_t *src = dx;
    int m = p.n, level = 0;
    do {   /* one launch per level until a single sum is left */
        int g = reduction_blocks(m);
        int32_t *dst = dp[level & 1];
        reduction<<<g, REDUCTION_BLOCK>>>(dst, (const int4 *)src, reduction_padded(m) / REDUCTION_VEC);
        CK_LAUNCH();
        if (level == 0)
            CK(cudaMemcpy(part, dst, (size_t)g1 * sizeof(int32_t), cudaMemcpyDeviceToHost));
        src = dst; m = g; level++;
    } while (m > 1);
    CK(cudaMemcpy(&total, src, sizeof total, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_int("reduction: partial", part, want, (size_t)g1, why, sizeof why);
    if (!bad)
        bad = bench_compare_int("reduction: total", &total, &want_total, 1, why, sizeof why);
    CK(cudaFree(dx)); CK(cudaFree(dp[0])); CK(cudaFree(dp[1]));
    free(x); free(part); free(want);
    return bench_report(bad, why);
}
