/* backprop: perceptron training steps, Rodinia backprop style (see bench/ref/backprop.h). */
#define BENCH_NAME "backprop"
#include <string.h>
#include "bench_cuda.h"
#include "../ref/backprop.h"

/* Forward: block (0, by) takes input units 16*by + 1 .. 16*by + 16 and all
 * 16 hidden units; thread (tx, ty) = (hidden unit, input unit). */
extern "C" __global__ void bp_layerforward(const float *input, const float *w, float *partial)
{
    __shared__ float node[BP_BLOCK];
    __shared__ float wm[BP_BLOCK][BP_BLOCK];
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int row = BP_BLOCK * by + ty + 1;
    if (tx == 0)
        node[ty] = input[row];
    __syncthreads();
    wm[ty][tx] = w[row * BP_W + tx + 1];
    __syncthreads();
    wm[ty][tx] = __fmul_rn(wm[ty][tx], node[ty]);
    __syncthreads();
    for (int pw = 2; pw <= BP_BLOCK; pw *= 2) {
        if (ty % pw == 0)
            wm[ty][tx] = __fadd_rn(wm[ty][tx], wm[ty + pw / 2][tx]);
        __syncthreads();
    }
    if (tx == 0)
        partial[by * BP_HID + ty] = wm[0][ty];
}

/* Weight change of every input->hidden weight, momentum from oldw; block
 * (0, 0)'s first row also moves the bias row. */
extern "C" __global__ void bp_adjust(const float *delta, const float *ly, float *w, float *oldw)
{
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int ky = BP_BLOCK * by + ty + 1, jx = tx + 1;
    int i = ky * BP_W + jx;
    float ch = __fadd_rn(__fmul_rn(__fmul_rn(BP_ETA, delta[jx]), ly[ky]),
                         __fmul_rn(BP_MOMENTUM, oldw[i]));
    w[i] = __fadd_rn(w[i], ch);
    oldw[i] = ch;
    __syncthreads();
    if (ty == 0 && by == 0) {
        float c0 = __fadd_rn(__fmul_rn(BP_ETA, delta[jx]), __fmul_rn(BP_MOMENTUM, oldw[jx]));
        w[jx] = __fadd_rn(w[jx], c0);
        oldw[jx] = c0;
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, bp_presets, bp_check, &p))
        return 2;
    int n = p.n, blocks = n / BP_BLOCK;
    size_t wb = (size_t)(n + 1) * BP_W * sizeof(float), ib = (size_t)(n + 1) * sizeof(float);
    size_t pb = (size_t)blocks * BP_HID * sizeof(float);
    float *in = (float *)bench_xmalloc(ib), *w = (float *)bench_xmalloc(wb);
    float *ww = (float *)bench_xmalloc(wb), *oldw = (float *)bench_xmalloc(wb);
    float *wold = (float *)bench_xmalloc(wb), *part = (float *)bench_xmalloc(pb);
    float *wpart = (float *)bench_xmalloc(pb);
    bp_net net, wnet;
    bp_inputs(&p, in, w, &net);
    memcpy(ww, w, wb);
    memset(wold, 0, wb);
    wnet = net;
    float *din = (float *)bench_to_device(in, ib), *dw = (float *)bench_to_device(w, wb);
    float *doldw, *dpart, *ddelta;
    CK(cudaMalloc(&doldw, wb)); CK(cudaMemset(doldw, 0, wb));
    CK(cudaMalloc(&dpart, pb)); CK(cudaMalloc(&ddelta, BP_W * sizeof(float)));
    dim3 block(BP_BLOCK, BP_BLOCK), grid(1, blocks);
    char why[256];
    int bad = 0;
    for (int t = 0; t < p.iters && !bad; t++) {
        bp_layerforward<<<grid, block>>>(din, dw, dpart);
        CK_LAUNCH();
        CK(cudaMemcpy(part, dpart, pb, cudaMemcpyDeviceToHost));
        bp_forward_ref(n, in, ww, wpart);
        if ((bad = bench_compare_float("backprop: partial", part, wpart, (size_t)blocks * BP_HID,
                                       0.0, why, sizeof why)))
            break;
        bp_host_step(n, part, ww, &net);      /* w[1..16] is the bias row on both sides */
        bp_host_step(n, wpart, ww, &wnet);
        CK(cudaMemcpy(ddelta, net.delta, BP_W * sizeof(float), cudaMemcpyHostToDevice));
        bp_adjust<<<grid, block>>>(ddelta, din, dw, doldw);
        CK_LAUNCH();
        bp_adjust_ref(n, wnet.delta, in, ww, wold);
    }
    if (!bad) {
        CK(cudaMemcpy(w, dw, wb, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(oldw, doldw, wb, cudaMemcpyDeviceToHost));
        size_t nw = (size_t)(n + 1) * BP_W;
        bad = bench_compare_float("backprop: w", w, ww, nw, 0.0, why, sizeof why) ||
              bench_compare_float("backprop: oldw", oldw, wold, nw, 0.0, why, sizeof why);
    }
    CK(cudaFree(din)); CK(cudaFree(dw)); CK(cudaFree(doldw)); CK(cudaFree(dpart));
    CK(cudaFree(ddelta));
    free(in); free(w); free(ww); free(oldw); free(wold); free(part); free(wpart);
    return bench_report(bad, why);
}
