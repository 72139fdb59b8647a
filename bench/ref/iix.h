/*
 * iix — inverted index of the links in a set of web pages, Mars
 * InvertedIndex style (seed 001 Table 2 "IIX", Mars [22], memory- and
 * branch-divergent, §5.3; spec oaws.md A.11, C.2). Our own kernels, not
 * Mars's code: Mars's map emits (url, file) for every `<a href="url">` of
 * every page and its runtime groups the pairs with a bitonic sort; the paper
 * counts 149 kernel invocations and 26 divergent loads in one kernel (seed
 * 001 §4.2). Ours has one divergent byte load per scanning kernel and about
 * a hundred launches, almost all of them the sort's.
 *
 * Input: n documents of printable text concatenated in `text`, document d
 * being text[start[d] .. start[d + 1]) (lengths vary around `iters` bytes).
 * The text is lowercase words with links `<a href="http://sNN.org/pNNN">`
 * between them. A link is the pattern IIX_PAT (`href="`) followed by the
 * URL up to the next '"'; its key is the 32-bit FNV-1a hash of the URL's
 * bytes (Mars's keys are the URL strings; a hash keeps ours one word).
 *
 * Launch sequence (one thread per document in the scanning kernels, each
 * thread walking its own document byte by byte: the 32 lanes of a warp read
 * 32 addresses a document apart, a fully divergent load every iteration,
 * and the documents' lengths and contents make the branches diverge):
 *   iix_count    links per document                      -> count[n]
 *   (host)       exclusive prefix sum of the counts      -> offset[n + 1],
 *                m = offset[n] pairs in all
 *   iix_map      the pairs (key, document) of document d  -> key/val[offset[d] ..],
 *                in document order: the output order is fixed
 *   iix_bitonic  one launch per (size, stride) of a bitonic sort of the pairs
 *                by (key, document), padded with (~0, ~0) to P = the next power of
 *                two >= m: log2(P) (log2(P) + 1) / 2 launches
 *   iix_group    for the first pair of each key: the number of pairs with
 *                that key (its posting-list length), 0 elsewhere -> run[m]
 * Integer work only: the results are checked exactly (count, the sorted
 * key/val, run).
 *   n: documents; iters: mean document length in bytes.
 */
#ifndef BENCH_REF_IIX_H
#define BENCH_REF_IIX_H
#include "common.h"

#define IIX_BLOCK 128              /* threads per block, scanning kernels */
#define IIX_SORT_BLOCK 256         /* threads per block (one per pair), iix_bitonic */
#define IIX_MAX_N (1 << 20)
#define IIX_MIN_LEN 48             /* shortest mean length: a link is 36 bytes */
#define IIX_MAX_LEN 4096
#define IIX_SITES 16               /* URL vocabulary: IIX_SITES x IIX_PAGES URLs */
#define IIX_PAGES 64
/* The pattern `href="`, its bytes from the low end (byte s = pattern[s]). */
#define IIX_PAT ((uint64_t)'h' | (uint64_t)'r' << 8 | (uint64_t)'e' << 16 | \
                 (uint64_t)'f' << 24 | (uint64_t)'=' << 32 | (uint64_t)'"' << 40)
#define IIX_PAT_LEN 6
#define IIX_FNV_OFFSET 2166136261u /* FNV-1a, 32 bits */
#define IIX_FNV_PRIME 16777619u

static const bench_params iix_presets[BENCH_SIZE_COUNT] = {
    { 1024, 96, BENCH_DEFAULT_SEED },
    { 8192, 128, BENCH_DEFAULT_SEED },
    { 16384, 256, BENCH_DEFAULT_SEED },
    /* paper: seed 001 says IIX runs 149 kernel invocations (its Mars input
     * is not given): 32768 pages of mean length 256 give 2^17 sort slots,
     * 156 launches, the nearest our launch count gets. */
    { 32768, 256, BENCH_DEFAULT_SEED },
};

static inline int iix_check(const bench_params *p, char *why, size_t len)
{
    if (p->n < 1 || p->n > IIX_MAX_N) {
        snprintf(why, len, "n=%d must be in [1, %d]", p->n, IIX_MAX_N);
        return 1;
    }
    if (p->iters < IIX_MIN_LEN || p->iters > IIX_MAX_LEN) {
        snprintf(why, len, "iters=%d (mean document length) must be in [%d, %d]", p->iters,
                 IIX_MIN_LEN, IIX_MAX_LEN);
        return 1;
    }
    if ((int64_t)p->n * (p->iters + p->iters / 2) > (int64_t)1 << 28) {
        snprintf(why, len, "n=%d x iters=%d: more than 2^28 bytes of text", p->n, p->iters);
        return 1;
    }
    return 0;
}

/* Bytes of text for n documents of mean length len (an upper bound: every
 * length is below len + len / 2). */
static inline size_t iix_text_bytes(int n, int len)
{
    return (size_t)n * (size_t)(len + len / 2);
}

/* The documents: start[0..n], text[0..start[n]). Document d is len/2 +
 * rand(len) bytes of words (2..8 lowercase letters, a space after each);
 * before a word, with probability 1/6 and if it fits, a link to one of the
 * IIX_SITES x IIX_PAGES URLs (the low sites and pages more often: the
 * posting lists vary in length). The last word is cut at the end. */
static inline void iix_inputs(const bench_params *p, char *text, int32_t *start)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t pos = 0;
    for (int d = 0; d < p->n; d++) {
        start[d] = (int32_t)pos;
        size_t end = pos + (size_t)(p->iters / 2 + bench_rand_int(&r, p->iters));
        while (pos < end) {
            if (bench_rand_int(&r, 6) == 0) {
                int site = bench_rand_int(&r, 1 + bench_rand_int(&r, IIX_SITES));
                int page = bench_rand_int(&r, 1 + bench_rand_int(&r, IIX_PAGES));
                char link[64];
                int k = snprintf(link, sizeof link, "<a href=\"http://s%02d.org/p%03d\">",
                                 site, page);
                if (pos + (size_t)k <= end) {
                    memcpy(text + pos, link, (size_t)k);
                    pos += (size_t)k;
                    continue;
                }
            }
            int w = 2 + bench_rand_int(&r, 7);
            for (int i = 0; i < w && pos < end; i++)
                text[pos++] = (char)('a' + bench_rand_int(&r, 26));
            if (pos < end)
                text[pos++] = ' ';
        }
    }
    start[p->n] = (int32_t)pos;
}

/* The scan of one document (the map function): calls emit(key) for every
 * link in order and returns the number of links. A link counts once its
 * closing '"' is seen; an unclosed one at the end is dropped. The pattern's
 * first byte 'h' does not occur in it again, so on a mismatch the match
 * restarts at 1 (this byte is an 'h') or 0. */
static inline int iix_scan_ref(const char *doc, int len, uint32_t *keys)
{
    int s = 0, links = 0;
    uint32_t h = 0;
    for (int i = 0; i < len; i++) {
        unsigned c = (unsigned char)doc[i];
        if (s == IIX_PAT_LEN) {
            if (c == '"') {
                if (keys)
                    keys[links] = h;
                links++;
                s = 0;
            } else {
                h = (h ^ c) * IIX_FNV_PRIME;
            }
        } else if (c == ((IIX_PAT >> (8 * s)) & 0xFF)) {
            if (++s == IIX_PAT_LEN)
                h = IIX_FNV_OFFSET;
        } else {
            s = c == 'h';
        }
    }
    return links;
}

/* iix_count's result and the host's prefix sum: offset[0..n]. */
static inline void iix_count_ref(int n, const char *text, const int32_t *start, int32_t *count)
{
    for (int d = 0; d < n; d++)
        count[d] = iix_scan_ref(text + start[d], start[d + 1] - start[d], NULL);
}

static inline int32_t iix_offsets(int n, const int32_t *count, int32_t *offset)
{
    offset[0] = 0;
    for (int d = 0; d < n; d++)
        offset[d + 1] = offset[d] + count[d];
    return offset[n];
}

/* Power of two the pairs are padded to for the sort (>= 2). */
static inline int iix_padded(int m)
{
    int p = 2;
    while (p < m)
        p *= 2;
    return p;
}

/* The (key, document) order, documents breaking ties. */
static inline int iix_pair_less(uint32_t ka, uint32_t va, uint32_t kb, uint32_t vb)
{
    return ka < kb || (ka == kb && va < vb);
}

/* The index the device computes: key/val the m pairs sorted by (key,
 * document) (an insertion sort of each document's pairs into the result
 * would do; we collect and sort with qsort), run[i] the posting-list length
 * at the first pair of each key, 0 elsewhere. */
static inline int iix_cmp_pair(const void *a, const void *b)
{
    const uint32_t *x = (const uint32_t *)a, *y = (const uint32_t *)b;
    return iix_pair_less(x[0], x[1], y[0], y[1]) ? -1 : iix_pair_less(y[0], y[1], x[0], x[1]);
}

static inline void iix_reference(int n, const char *text, const int32_t *start,
                                 const int32_t *offset, uint32_t *key, uint32_t *val,
                                 int32_t *run)
{
    int m = offset[n];
    uint32_t *pairs = (uint32_t *)bench_xmalloc(2 * (size_t)(m > 0 ? m : 1) * sizeof(uint32_t));
    uint32_t *k = (uint32_t *)bench_xmalloc((size_t)(m > 0 ? m : 1) * sizeof(uint32_t));
    for (int d = 0; d < n; d++) {
        int c = iix_scan_ref(text + start[d], start[d + 1] - start[d], k);
        for (int j = 0; j < c; j++) {
            pairs[2 * (size_t)(offset[d] + j)] = k[j];
            pairs[2 * (size_t)(offset[d] + j) + 1] = (uint32_t)d;
        }
    }
    qsort(pairs, (size_t)m, 2 * sizeof(uint32_t), iix_cmp_pair);
    for (int i = 0; i < m; i++) {
        key[i] = pairs[2 * (size_t)i];
        val[i] = pairs[2 * (size_t)i + 1];
    }
    for (int i = 0; i < m; i++) {
        run[i] = 0;
        if (i == 0 || key[i] != key[i - 1]) {
            int j = i + 1;
            while (j < m && key[j] == key[i])
                j++;
            run[i] = j - i;
        }
    }
    free(pairs);
    free(k);
}
#endif
