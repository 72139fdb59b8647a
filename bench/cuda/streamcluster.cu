/* streamcluster: Rodinia StreamCluster's pgain step (see bench/ref/streamcluster.h). */
#define BENCH_NAME "streamcluster"
#include <string.h>
#include "bench_cuda.h"
#include "../ref/streamcluster.h"

/* One thread per point; see the header for which access is coalesced and
 * which divergent. */
extern "C" __global__ void sc_pgain(const sc_point *p, const float *coord,
                                    const int *center_table, float *work_mem,
                                    char *switch_membership, int num, int x)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < num) {
        float d = 0;
        for (int i = 0; i < SC_DIM; i++) {
            float t = coord[i * num + tid] - coord[i * num + x];
            d += t * t;
        }
        float x_cost = d * p[tid].weight;
        float current_cost = p[tid].cost;
        float *lower = work_mem + (size_t)tid * (SC_K + 1);
        if (x_cost < current_cost) {
            switch_membership[tid] = 1;
            lower[SC_K] += x_cost - current_cost;
        } else {
            int assign = (int)p[tid].assign;
            lower[center_table[assign]] += current_cost - x_cost;
        }
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, sc_presets, sc_check, &p))
        return 2;
    int n = p.n;
    size_t pbytes = (size_t)n * sizeof(sc_point), cbytes = (size_t)SC_DIM * n * sizeof(float);
    size_t wbytes = (size_t)n * (SC_K + 1) * sizeof(float);
    sc_point *pts = (sc_point *)bench_xmalloc(pbytes);
    float *coord = (float *)bench_xmalloc(cbytes);
    int32_t table[SC_K], *cand = (int32_t *)bench_xmalloc((size_t)p.iters * sizeof(int32_t));
    float *work = (float *)bench_xmalloc(wbytes), *want = (float *)bench_xmalloc(wbytes);
    uint8_t *sw = (uint8_t *)bench_xmalloc((size_t)n), *swant = (uint8_t *)bench_xmalloc((size_t)n);
    sc_inputs_mode(&p, 0, pts, coord, table, cand);
    sc_point *dp = (sc_point *)bench_to_device(pts, pbytes);
    float *dcoord = (float *)bench_to_device(coord, cbytes);
    int *dtable = (int *)bench_to_device(table, sizeof table);
    float *dwork;
    char *dsw;
    CK(cudaMalloc(&dwork, wbytes));
    CK(cudaMalloc(&dsw, (size_t)n));
    char why[256];
    int bad = 0;
    for (int t = 0; t < p.iters && !bad; t++) {
        CK(cudaMemset(dwork, 0, wbytes));
        CK(cudaMemset(dsw, 0, (size_t)n));
        sc_pgain<<<poly_div_up(n, POLY_BLOCK_1D), POLY_BLOCK_1D>>>(dp, dcoord, dtable, dwork,
                                                                   dsw, n, cand[t]);
        CK_LAUNCH();
        CK(cudaMemcpy(work, dwork, wbytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(sw, dsw, (size_t)n, cudaMemcpyDeviceToHost));
        sc_reference(n, pts, coord, table, cand[t], want, swant);
        bad = bench_compare_float("streamcluster: work_mem", work, want, (size_t)n * (SC_K + 1),
                                  0.0, why, sizeof why) ||
              sc_compare_switch(sw, swant, n, why, sizeof why);
    }
    CK(cudaFree(dp)); CK(cudaFree(dcoord)); CK(cudaFree(dtable)); CK(cudaFree(dwork)); CK(cudaFree(dsw));
    free(pts); free(coord); free(cand); free(work); free(want); free(sw); free(swant);
    return bench_report(bad, why);
}
