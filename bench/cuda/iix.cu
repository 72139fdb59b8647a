/* iix: inverted index of the links in web pages, Mars InvertedIndex style (see bench/ref/iix.h). */
#define BENCH_NAME "iix"
#include "bench_cuda.h"
#include "../ref/iix.h"

/* The map function's scan of one document, one thread per document: byte by
 * byte (the lanes of a warp read bytes a document apart: a divergent load),
 * matching `href="` and hashing the URL after it up to the closing '"'.
 * With keys == NULL it only counts; else it writes the keys of its links,
 * with the document id, into its own slots keys/vals[0 ..]. */
__device__ static int iix_scan(const unsigned char *doc, int len, unsigned *keys,
                               unsigned *vals, unsigned d)
{
    int s = 0, links = 0;
    unsigned h = 0;
    for (int i = 0; i < len; i++) {
        unsigned c = doc[i];
        if (s == IIX_PAT_LEN) {
            if (c == '"') {
                if (keys) {
                    keys[links] = h;
                    vals[links] = d;
                }
                links++;
                s = 0;
            } else {
                h = (h ^ c) * IIX_FNV_PRIME;
            }
        } else if (c == (unsigned)((IIX_PAT >> (8 * s)) & 0xFF)) {
            if (++s == IIX_PAT_LEN)
                h = IIX_FNV_OFFSET;
        } else {
            s = c == 'h';
        }
    }
    return links;
}

/* grid ceil(n / IIX_BLOCK), block IIX_BLOCK: count[d] = links in document d. */
extern "C" __global__ void iix_count(const unsigned char *text, const int *start, int n,
                                     int *count)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d >= n)
        return;
    int b = start[d];
    count[d] = iix_scan(text + b, start[d + 1] - b, NULL, NULL, 0);
}

/* Same grid: document d's pairs into key/val[offset[d] ..], in order. */
extern "C" __global__ void iix_map(const unsigned char *text, const int *start,
                                   const int *offset, int n, unsigned *key, unsigned *val)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d >= n)
        return;
    int b = start[d], o = offset[d];
    iix_scan(text + b, start[d + 1] - b, key + o, val + o, (unsigned)d);
}

/* One compare-exchange per thread (P/2 threads) of the bitonic merge of
 * blocks `size` at `stride`: the pair (pos, pos + stride) goes ascending
 * by (key, document) when pos's size-block is even (all of them when
 * size == P). */
extern "C" __global__ void iix_bitonic(unsigned *key, unsigned *val, unsigned size,
                                       unsigned stride)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned pos = 2 * i - (i & (stride - 1));
    unsigned ascending = (pos & size) == 0;
    unsigned ka = key[pos], kb = key[pos + stride];
    unsigned va = val[pos], vb = val[pos + stride];
    unsigned greater = ka > kb || (ka == kb && va > vb);
    if (greater == ascending) {
        key[pos] = kb; key[pos + stride] = ka;
        val[pos] = vb; val[pos + stride] = va;
    }
}

/* grid ceil(m / IIX_SORT_BLOCK): run[i] = the posting-list length at the
 * first pair of each key of the sorted pairs, 0 elsewhere. */
extern "C" __global__ void iix_group(const unsigned *key, int m, int *run)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    unsigned k = key[i];
    int r = 0;
    if (i == 0 || key[i - 1] != k) {
        int j = i + 1;
        while (j < m && key[j] == k)
            j++;
        r = j - i;
    }
    run[i] = r;
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, iix_presets, iix_check, &p))
        return 2;
    int n = p.n;
    size_t tb = iix_text_bytes(n, p.iters), sb = (size_t)(n + 1) * sizeof(int);
    char *text = (char *)bench_xmalloc(tb);
    int32_t *start = (int32_t *)bench_xmalloc(sb), *count = (int32_t *)bench_xmalloc(sb);
    int32_t *wcount = (int32_t *)bench_xmalloc(sb), *offset = (int32_t *)bench_xmalloc(sb);
    iix_inputs(&p, text, start);
    unsigned char *dtext = (unsigned char *)bench_to_device(text, (size_t)start[n] + 1);
    int *dstart = (int *)bench_to_device(start, sb), *dcount, *doffset;
    CK(cudaMalloc(&dcount, sb)); CK(cudaMalloc(&doffset, sb));
    char why[256];
    int blocks = (n + IIX_BLOCK - 1) / IIX_BLOCK;
    iix_count<<<blocks, IIX_BLOCK>>>(dtext, dstart, n, dcount);
    CK_LAUNCH();
    CK(cudaMemcpy(count, dcount, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
    iix_count_ref(n, text, start, wcount);
    int bad = bench_compare_int("iix: count", count, wcount, (size_t)n, why, sizeof why);
    if (!bad) {
        int m = iix_offsets(n, count, offset), pad = iix_padded(m);
        size_t pb = (size_t)pad * sizeof(unsigned), mb = (size_t)(m > 0 ? m : 1) * sizeof(unsigned);
        uint32_t *key = (uint32_t *)bench_xmalloc(mb), *val = (uint32_t *)bench_xmalloc(mb);
        uint32_t *wkey = (uint32_t *)bench_xmalloc(mb), *wval = (uint32_t *)bench_xmalloc(mb);
        int32_t *run = (int32_t *)bench_xmalloc(mb), *wrun = (int32_t *)bench_xmalloc(mb);
        unsigned *dkey, *dval;
        int *drun;
        CK(cudaMalloc(&dkey, pb)); CK(cudaMalloc(&dval, pb)); CK(cudaMalloc(&drun, mb));
        CK(cudaMemset(dkey, 0xFF, pb)); CK(cudaMemset(dval, 0xFF, pb));
        CK(cudaMemcpy(doffset, offset, sb, cudaMemcpyHostToDevice));
        iix_map<<<blocks, IIX_BLOCK>>>(dtext, dstart, doffset, n, dkey, dval);
        CK_LAUNCH();
        int threads = pad / 2 < IIX_SORT_BLOCK ? pad / 2 : IIX_SORT_BLOCK;
        for (unsigned size = 2; size <= (unsigned)pad; size <<= 1)
            for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
                iix_bitonic<<<pad / 2 / threads, threads>>>(dkey, dval, size, stride);
                CK_LAUNCH();
            }
        if (m > 0) {
            iix_group<<<(m + IIX_SORT_BLOCK - 1) / IIX_SORT_BLOCK, IIX_SORT_BLOCK>>>(dkey, m, drun);
            CK_LAUNCH();
        }
        CK(cudaMemcpy(key, dkey, (size_t)m * sizeof(unsigned), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(val, dval, (size_t)m * sizeof(unsigned), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(run, drun, (size_t)m * sizeof(int), cudaMemcpyDeviceToHost));
        iix_reference(n, text, start, offset, wkey, wval, wrun);
        bad = bench_compare_u32("iix: key", key, wkey, (size_t)m, why, sizeof why) ||
              bench_compare_u32("iix: val", val, wval, (size_t)m, why, sizeof why) ||
              bench_compare_int("iix: run", run, wrun, (size_t)m, why, sizeof why);
        CK(cudaFree(dkey)); CK(cudaFree(dval)); CK(cudaFree(drun));
        free(key); free(val); free(wkey); free(wval); free(run); free(wrun);
    }
    CK(cudaFree(dtext)); CK(cudaFree(dstart)); CK(cudaFree(dcount)); CK(cudaFree(doffset));
    free(text); free(start); free(count); free(wcount); free(offset);
    return bench_report(bad, why);
}
