/*
 * backprop — one-hidden-layer perceptron training, Rodinia backprop style
 * (seed 001 Table 2 "BP", memory-coherent; spec oaws.md C.2): n input
 * units, BP_HID = 16 hidden units, one output unit, `iters` training steps
 * on one input pattern. The input->hidden weights w (and the previous
 * change oldw) are (n + 1) x (BP_HID + 1) row-major, row 0 the bias row,
 * column 0 unused (Rodinia's layout). Per step:
 *   bp_layerforward  block 16x16 per 16 input units (grid 1 x n/16): the
 *                    block's 16 inputs in shared memory, w[k][j] * in[k] in a
 *                    16x16 shared tile, a tree over k (ty % 2^i == 0: add
 *                    the row 2^(i-1) below) and one partial sum per hidden
 *                    unit and block;
 *   (host)           hidden = squash(sum of the partials + bias), the output
 *                    unit, its error and the hidden errors (bp_host_step);
 *   bp_adjust        w[k][j] += eta * delta[j] * in[k] + momentum * oldw[k][j]
 *                    and oldw = that change; block (0,0) row 0 also updates
 *                    the bias row (after a barrier).
 * Coalesced 17-float rows, barriers; the reduction tree is compute in shared
 * memory. The kernels spell their float operations with __fmul_rn /
 * __fadd_rn, so the references below reproduce them bit for bit.
 *   n: input units (a multiple of 16); iters: training steps.
 */
#ifndef BENCH_REF_BACKPROP_H
#define BENCH_REF_BACKPROP_H
#include "common.h"

#define BP_HID 16
#define BP_BLOCK 16
#define BP_W (BP_HID + 1)          /* row length of w, oldw */
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f
#define BP_TARGET 0.1f
#define BP_MAX_N (1 << 20)

static const bench_params bp_presets[BENCH_SIZE_COUNT] = {
    { 256, 1, BENCH_DEFAULT_SEED },
    { 8192, 2, BENCH_DEFAULT_SEED },
    { 65536, 2, BENCH_DEFAULT_SEED },
    /* paper: Rodinia 2.x backprop default run (65536 input units, 16
     * hidden), one training step (= large's n, one step instead of two). */
    { 65536, 1, BENCH_DEFAULT_SEED },
};

static inline int bp_check(const bench_params *p, char *why, size_t len)
{
    if (p->n < BP_BLOCK || p->n > BP_MAX_N || p->n % BP_BLOCK != 0) {
        snprintf(why, len, "n=%d must be a multiple of %d in [%d, %d]", p->n, BP_BLOCK,
                 BP_BLOCK, BP_MAX_N);
        return 1;
    }
    if (p->iters < 1 || p->iters > 1000) {
        snprintf(why, len, "iters=%d must be in [1, 1000]", p->iters);
        return 1;
    }
    return 0;
}

/* The network: input units in[0..n] (in[0] = 1, the bias unit), weights
 * w (n + 1) x 17 and the hidden->output weights who[0..16] small and
 * random (so that the sigmoids do not saturate), oldw zero. */
typedef struct bp_net {
    float who[BP_W];       /* hidden -> output, who[0] the bias */
    float oldwho[BP_W];
    float hidden[BP_W];    /* hidden[0] = 1 */
    float delta[BP_W];     /* hidden errors, delta[0] unused */
    float out;
} bp_net;

static inline void bp_inputs(const bench_params *p, float *in, float *w, bp_net *net)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nw = (size_t)(p->n + 1) * BP_W;
    in[0] = 1.0f;
    bench_fill_float(&r, in + 1, (size_t)p->n, 0.0f, 1.0f);
    bench_fill_float(&r, w, nw, -0.05f, 0.05f);
    memset(net, 0, sizeof *net);
    bench_fill_float(&r, net->who, BP_W, -0.5f, 0.5f);
}

static inline float bp_squash(float x)
{
    return (float)(1.0 / (1.0 + exp(-(double)x)));
}

/* Host part of a step (Rodinia's main after the first kernel): the hidden
 * units from the device's partial sums (n/16 blocks x 16), the output unit,
 * its error against BP_TARGET, the hidden errors, and the host's own
 * hidden->output weight change. Host code, run on the same partials by the
 * CUDA program, the driver and the reference. */
static inline void bp_host_step(int n, const float *partial, const float *w, bp_net *net)
{
    int blocks = n / BP_BLOCK;
    net->hidden[0] = 1.0f;
    for (int j = 1; j <= BP_HID; j++) {
        float s = 0.0f;
        for (int b = 0; b < blocks; b++)
            s += partial[(size_t)b * BP_HID + j - 1];
        s += w[j];                                   /* bias row */
        net->hidden[j] = bp_squash(s);
    }
    float s = 0.0f;
    for (int j = 0; j <= BP_HID; j++)
        s += net->who[j] * net->hidden[j];
    float o = bp_squash(s);
    float dout = o * (1.0f - o) * (BP_TARGET - o);
    for (int j = 1; j <= BP_HID; j++) {
        float h = net->hidden[j];
        net->delta[j] = h * (1.0f - h) * (dout * net->who[j]);
    }
    for (int j = 0; j <= BP_HID; j++) {
        float ch = BP_ETA * dout * net->hidden[j] + BP_MOMENTUM * net->oldwho[j];
        net->who[j] += ch;
        net->oldwho[j] = ch;
    }
    net->out = o;
}

/* bp_layerforward's partial sums (float, the kernel's tree). */
static inline void bp_forward_ref(int n, const float *in, const float *w, float *partial)
{
    for (int b = 0; b < n / BP_BLOCK; b++)
        for (int j = 0; j < BP_HID; j++) {
            float v[BP_BLOCK];
            for (int k = 0; k < BP_BLOCK; k++) {
                int row = b * BP_BLOCK + k + 1;
                v[k] = w[(size_t)row * BP_W + j + 1] * in[row];
            }
            for (int pw = 2; pw <= BP_BLOCK; pw *= 2)
                for (int k = 0; k < BP_BLOCK; k += pw)
                    v[k] = v[k] + v[k + pw / 2];
            partial[(size_t)b * BP_HID + j] = v[0];
        }
}

/* bp_adjust (float, the kernel's order): every row k = 1..n, then the bias
 * row with its own (already updated: k >= 1 never touches it) oldw. */
static inline void bp_adjust_ref(int n, const float *delta, const float *in, float *w,
                                 float *oldw)
{
    for (int k = 1; k <= n; k++)
        for (int j = 1; j <= BP_HID; j++) {
            size_t i = (size_t)k * BP_W + j;
            float a = BP_ETA * delta[j];
            a = a * in[k];
            float m = BP_MOMENTUM * oldw[i];
            float ch = a + m;
            w[i] = w[i] + ch;
            oldw[i] = ch;
        }
    for (int j = 1; j <= BP_HID; j++) {
        float a = BP_ETA * delta[j];
        float m = BP_MOMENTUM * oldw[j];
        float ch = a + m;
        w[j] = w[j] + ch;
        oldw[j] = ch;
    }
}
#endif
