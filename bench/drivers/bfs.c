/* bfs driver: bfs_kernel1/2 per level from bench/ptx/bfs.ptx. */
#include "bench.h"
#include "../ref/bfs.h"

int bench_bfs(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "bfs", bfs_presets, bfs_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, bfs_check))   /* a partial last block */
        return bench_end(&c, 0, NULL);
    int n = p.n;
    bfs_node *nodes = (bfs_node *)bench_xmalloc((size_t)n * sizeof(bfs_node));
    int32_t *edges = (int32_t *)bench_xmalloc((size_t)n * BFS_MAX_DEGREE * sizeof(int32_t));
    unsigned char *mask = (unsigned char *)bench_xmalloc((size_t)n);
    unsigned char *updating = (unsigned char *)bench_xmalloc((size_t)n);
    unsigned char *visited = (unsigned char *)bench_xmalloc((size_t)n);
    int32_t *cost = (int32_t *)bench_xmalloc((size_t)n * sizeof(int32_t));
    int32_t *want = (int32_t *)bench_xmalloc((size_t)n * sizeof(int32_t));
    int nedges = bfs_inputs(&p, nodes, edges);
    bfs_reference(&p, nodes, edges, want);
    bfs_initial_state(&p, mask, updating, visited, cost);
    uint64_t dnodes = bench_upload(&c, nodes, (size_t)n * sizeof(bfs_node));
    uint64_t dedges = bench_upload(&c, edges, (size_t)nedges * sizeof(int32_t));
    uint64_t dmask = bench_upload(&c, mask, (size_t)n);
    uint64_t dupd = bench_upload(&c, updating, (size_t)n);
    uint64_t dvis = bench_upload(&c, visited, (size_t)n);
    uint64_t dcost = bench_upload(&c, cost, (size_t)n * sizeof(int32_t));
    uint64_t dover = bench_alloc(&c, sizeof(int32_t));
    smc_dim3 grid = DIM1((n + BFS_BLOCK - 1) / BFS_BLOCK), block = DIM1(BFS_BLOCK);
    int32_t over;
    int levels = 0;
    do {
        over = 0;
        bench_write(&c, dover, &over, sizeof over);
        BENCH_LAUNCH(&c, "bfs_kernel1", grid, block, 0, BARG(dnodes), BARG(dedges),
                     BARG(dmask), BARG(dupd), BARG(dvis), BARG(dcost), BARG(n));
        BENCH_LAUNCH(&c, "bfs_kernel2", grid, block, 0, BARG(dmask), BARG(dupd),
                     BARG(dvis), BARG(dover), BARG(n));
        bench_read(&c, &over, dover, sizeof over);
        if (++levels > n) {
            snprintf(why, sizeof why, "bfs: no convergence after %d levels", levels);
            bad = 1;
            break;
        }
    } while (over && !bench_failed(&c));
    bench_read(&c, cost, dcost, (size_t)n * sizeof(int32_t));
    if (!bad && !bench_failed(&c))
        bad = bench_compare_int("bfs: cost", cost, want, (size_t)n, why, sizeof why);
    free(nodes); free(edges); free(mask); free(updating); free(visited); free(cost); free(want);
    return bench_end(&c, bad, why);
}
