/* bfs: Rodinia-style frontier BFS (see bench/ref/bfs.h). */
#define BENCH_NAME "bfs"
#include "bench_cuda.h"
#include "../ref/bfs.h"

extern "C" __global__ void bfs_kernel1(const bfs_node *nodes, const int *edges,
                                       unsigned char *mask, unsigned char *updating,
                                       const unsigned char *visited, int *cost, int n)
{
    int tid = blockIdx.x * BFS_BLOCK + threadIdx.x;
    if (tid < n && mask[tid]) {
        mask[tid] = 0;
        int end = nodes[tid].starting + nodes[tid].no_of_edges;
        for (int i = nodes[tid].starting; i < end; i++) {
            int id = edges[i];
            if (!visited[id]) {
                cost[id] = cost[tid] + 1;
                updating[id] = 1;
            }
        }
    }
}

extern "C" __global__ void bfs_kernel2(unsigned char *mask, unsigned char *updating,
                                       unsigned char *visited, int *over, int n)
{
    int tid = blockIdx.x * BFS_BLOCK + threadIdx.x;
    if (tid < n && updating[tid]) {
        mask[tid] = 1;
        visited[tid] = 1;
        *over = 1;
        updating[tid] = 0;
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, bfs_presets, bfs_check, &p))
        return 2;
    int n = p.n;
    bfs_node *nodes = (bfs_node *)bench_xmalloc((size_t)n * sizeof(bfs_node));
    int *edges = (int *)bench_xmalloc((size_t)n * BFS_MAX_DEGREE * sizeof(int));
    unsigned char *mask = (unsigned char *)bench_xmalloc(n);
    unsigned char *updating = (unsigned char *)bench_xmalloc(n);
    unsigned char *visited = (unsigned char *)bench_xmalloc(n);
    int *cost = (int *)bench_xmalloc((size_t)n * sizeof(int));
    int *want = (int *)bench_xmalloc((size_t)n * sizeof(int));
    int nedges = bfs_inputs(&p, nodes, edges);
    bfs_reference(&p, nodes, edges, want);
    bfs_initial_state(&p, mask, updating, visited, cost);

    bfs_node *dnodes = (bfs_node *)bench_to_device(nodes, (size_t)n * sizeof(bfs_node));
    int *dedges = (int *)bench_to_device(edges, (size_t)nedges * sizeof(int));
    unsigned char *dmask = (unsigned char *)bench_to_device(mask, n);
    unsigned char *dupd = (unsigned char *)bench_to_device(updating, n);
    unsigned char *dvis = (unsigned char *)bench_to_device(visited, n);
    int *dcost = (int *)bench_to_device(cost, (size_t)n * sizeof(int));
    int *dover;
    CK(cudaMalloc(&dover, sizeof(int)));
    int grid = (n + BFS_BLOCK - 1) / BFS_BLOCK, over, levels = 0;
    char why[256];
    int bad = 0;
    do {
        over = 0;
        CK(cudaMemcpy(dover, &over, sizeof(int), cudaMemcpyHostToDevice));
        bfs_kernel1<<<grid, BFS_BLOCK>>>(dnodes, dedges, dmask, dupd, dvis, dcost, n);
        CK_LAUNCH();
        bfs_kernel2<<<grid, BFS_BLOCK>>>(dmask, dupd, dvis, dover, n);
        CK_LAUNCH();
        CK(cudaMemcpy(&over, dover, sizeof(int), cudaMemcpyDeviceToHost));
        if (++levels > n) {
            snprintf(why, sizeof why, "no convergence after %d levels", levels);
            bad = 1;
            break;
        }
    } while (over);
    if (!bad) {
        CK(cudaMemcpy(cost, dcost, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
        bad = bench_compare_int("bfs: cost", cost, want, (size_t)n, why, sizeof why);
    }
    CK(cudaFree(dnodes)); CK(cudaFree(dedges)); CK(cudaFree(dmask)); CK(cudaFree(dupd));
    CK(cudaFree(dvis)); CK(cudaFree(dcost)); CK(cudaFree(dover));
    free(nodes); free(edges); free(mask); free(updating); free(visited); free(cost); free(want);
    return bench_report(bad, why);
}
