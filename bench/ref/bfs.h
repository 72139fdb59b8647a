/*
 * bfs — breadth-first search from node 0 over a random directed graph in
 * CSR form (Rodinia bfs; seed 001 Table 2 "BFS", memory- and
 * branch-divergent, and its Figure 4 MSHR study). Per level:
 *   bfs_kernel1  every frontier node (mask set) clears its mask and, for
 *                each unvisited neighbour, sets cost = cost + 1 and marks it
 *                in the updating mask;
 *   bfs_kernel2  updating nodes join the frontier, become visited and set
 *                the "over" flag; the host repeats while it is set.
 * Masks are byte arrays as in Rodinia. Memory-bound.  n: number of nodes
 * (each with 1..BFS_MAX_DEGREE random out-edges).
 */
#ifndef BENCH_REF_BFS_H
#define BENCH_REF_BFS_H
#include "common.h"

#define BFS_MAX_DEGREE 6
#define BFS_BLOCK 256

typedef struct bfs_node { int32_t starting; int32_t no_of_edges; } bfs_node;

static const bench_params bfs_presets[BENCH_SIZE_COUNT] = {
    { 1024, 1, BENCH_DEFAULT_SEED },
    { 65536, 1, BENCH_DEFAULT_SEED },
    { 1 << 20, 1, BENCH_DEFAULT_SEED },
    /* paper: Rodinia 2.x bfs default input graph1MW_6.txt, 10^6 nodes, from
     * our generator (1..BFS_MAX_DEGREE random out-edges, mean 3.5; the
     * Rodinia graph has about 6 per node). */
    { 1000000, 1, BENCH_DEFAULT_SEED },
};

static inline int bfs_check(const bench_params *p, char *why, size_t len)
{
    if (p->n > (1 << 24)) {
        snprintf(why, len, "n=%d is above 2^24", p->n);
        return 1;
    }
    return 0;
}

/* Edges fit in n * BFS_MAX_DEGREE ints; returns the edge count. */
static inline int bfs_inputs(const bench_params *p, bfs_node *nodes, int32_t *edges)
{
    bench_rng r = bench_rng_make(p->seed);
    int e = 0;
    for (int i = 0; i < p->n; i++) {
        int deg = 1 + bench_rand_int(&r, BFS_MAX_DEGREE);
        nodes[i].starting = e;
        nodes[i].no_of_edges = deg;
        for (int k = 0; k < deg; k++)
            edges[e++] = bench_rand_int(&r, p->n);
    }
    return e;
}

/* Level of every node from node 0 (-1: unreachable), by a FIFO queue. */
static inline void bfs_reference(const bench_params *p, const bfs_node *nodes,
                                 const int32_t *edges, int32_t *cost)
{
    int32_t *queue = (int32_t *)bench_xmalloc((size_t)p->n * sizeof(int32_t));
    int head = 0, tail = 0;
    for (int i = 0; i < p->n; i++)
        cost[i] = -1;
    cost[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int u = queue[head++];
        for (int k = 0; k < nodes[u].no_of_edges; k++) {
            int v = edges[nodes[u].starting + k];
            if (cost[v] < 0) {
                cost[v] = cost[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
}

/* Initial device state: only node 0 in the frontier, visited, cost 0. */
static inline void bfs_initial_state(const bench_params *p, unsigned char *mask,
                                     unsigned char *updating, unsigned char *visited,
                                     int32_t *cost)
{
    memset(mask, 0, (size_t)p->n);
    memset(updating, 0, (size_t)p->n);
    memset(visited, 0, (size_t)p->n);
    for (int i = 0; i < p->n; i++)
        cost[i] = -1;
    mask[0] = 1;
    visited[0] = 1;
    cost[0] = 0;
}
#endif
