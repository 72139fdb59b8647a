/*
 * rt_graph.c — CUDA graphs and stream capture.
 *
 * A graph is a list of nodes in creation order; each node names the nodes it
 * depends on. Launching a graph runs every node once, in a topological order
 * that respects the dependencies and, among the nodes that are ready, takes
 * the one created first: the order is deterministic and is the creation
 * order whenever the dependencies allow it. Everything runs on the calling
 * thread and completes before cudaGraphLaunch returns, like every other
 * launch of this runtime (docs/runtime.md).
 *
 * Node parameters are copied when the node is added: kernel arguments are
 * deep-copied (the caller's argument buffers may go away), a child graph is
 * cloned, as CUDA does. Instantiation clones the graph too, so later edits of
 * the graph do not change an executable graph.
 *
 * Stream capture: between cudaStreamBeginCapture and cudaStreamEndCapture the
 * kernel launches, copies, memsets and host functions issued to the stream
 * are added to a graph instead of running. Each capturing stream keeps the
 * set of nodes the next operation depends on. An event recorded in a
 * capturing stream remembers that set; a stream that waits for such an event
 * joins the capture (fork) or adds the set to its own (join), which is how
 * multi-stream captures such as the CUDA sample simpleCudaGraphs build a DAG.
 */
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct CUgraphNode_st rt_node;

struct CUgraphNode_st {
    struct CUgraph_st *g;
    enum cudaGraphNodeType type;
    rt_node **deps;
    size_t ndeps;
    rt_node *orig;       /* in an executable graph's copy: the node cloned */
    int mark;            /* scratch for the topological sort */
    union {
        struct {
            rt_kernel *k;
            dim3 grid, block;
            unsigned smem;
            unsigned char *buf;   /* the arguments, at their PTX offsets */
            void **args;          /* args[i] points into buf */
            uint32_t nargs;
            size_t bytes;
        } kern;
        struct cudaMemcpy3DParms copy;
        struct cudaMemsetParams set;
        struct cudaHostNodeParams host;
        struct CUgraph_st *child;
    } u;
};

struct CUgraph_st {
    rt_node **nodes;     /* creation order */
    size_t n;
};

struct CUgraphExec_st {
    struct CUgraph_st *g;   /* a clone of the instantiated graph */
    rt_node **order;        /* topological order of g's nodes */
};

typedef struct rt_capture {
    unsigned long long id;
    cudaGraph_t g;
    struct CUstream_st *origin;
    struct CUstream_st **streams;   /* every stream in the capture */
    size_t nstreams;
    enum cudaStreamCaptureMode mode;
} rt_capture;

static rt_capture **captures;   /* active captures */
static size_t ncaptures;
static unsigned long long next_capture_id = 1;

static void *xalloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "smcosim runtime: out of host memory\n");
        abort();
    }
    return q;
}

/* ---- nodes and graphs ------------------------------------------------------- */

static void node_free_params(rt_node *n)
{
    if (n->type == cudaGraphNodeTypeKernel) {
        free(n->u.kern.buf);
        free(n->u.kern.args);
        n->u.kern.buf = NULL;
        n->u.kern.args = NULL;
    } else if (n->type == cudaGraphNodeTypeGraph && n->u.child) {
        cudaGraphDestroy(n->u.child);
        n->u.child = NULL;
    }
}

static void node_free(rt_node *n)
{
    node_free_params(n);
    free(n->deps);
    free(n);
}

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    RT_API();
    if (!pGraph || flags != 0)
        return rt_ret(cudaErrorInvalidValue);
    *pGraph = xalloc(NULL, sizeof **pGraph);
    memset(*pGraph, 0, sizeof **pGraph);
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    RT_API();
    if (!graph)
        return rt_ret(cudaErrorInvalidValue);
    for (size_t i = 0; i < graph->n; i++)
        node_free(graph->nodes[i]);
    free(graph->nodes);
    free(graph);
    return cudaSuccess;
}

/* Deep copy of a kernel launch: the arguments are copied into one buffer at
 * the offsets of the kernel's parameter list. */
static cudaError_t kern_set(rt_node *n, rt_kernel *k, dim3 grid, dim3 block,
                            unsigned smem, void **args)
{
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    cudaError_t e = rt_kernel_resolve(k);
    if (e != cudaSuccess)
        return e;
    smc_kernel_info info;
    smc_kernel_get_info(k->k, &info);
    unsigned char *buf = xalloc(NULL, info.param_bytes);
    void **a = xalloc(NULL, info.num_params * sizeof *a);
    memset(buf, 0, info.param_bytes ? info.param_bytes : 1);
    for (uint32_t i = 0; i < info.num_params; i++) {
        uint32_t off, size;
        if (smc_kernel_param(k->k, i, &off, &size) != SMC_OK ||
            (uint64_t)off + size > info.param_bytes || !args || !args[i]) {
            free(buf);
            free(a);
            return cudaErrorInvalidValue;
        }
        memcpy(buf + off, args[i], size);
        a[i] = buf + off;
    }
    node_free_params(n);
    n->u.kern.k = k;
    n->u.kern.grid = grid;
    n->u.kern.block = block;
    n->u.kern.smem = smem;
    n->u.kern.buf = buf;
    n->u.kern.args = a;
    n->u.kern.nargs = info.num_params;
    n->u.kern.bytes = info.param_bytes;
    return cudaSuccess;
}

static cudaError_t kern_set_params(rt_node *n, const struct cudaKernelNodeParams *p)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (p->extra) {
        fprintf(stderr, "smcosim runtime: kernel node arguments in the "
                "'extra' form are not supported; pass kernelParams\n");
        return cudaErrorNotSupported;
    }
    if (rt_sticky() != cudaSuccess)
        return rt_sticky();
    return kern_set(n, rt_kernel_by_host(p->func), p->gridDim, p->blockDim,
                    p->sharedMemBytes, p->kernelParams);
}

/* Copies the parameters of n into the fresh node c (c->type is set). */
static cudaGraph_t graph_clone(cudaGraph_t g);

static void node_copy_params(rt_node *c, const rt_node *n)
{
    c->u = n->u;
    if (n->type == cudaGraphNodeTypeKernel) {
        c->u.kern.buf = xalloc(NULL, n->u.kern.bytes);
        memcpy(c->u.kern.buf, n->u.kern.buf, n->u.kern.bytes ? n->u.kern.bytes : 0);
        c->u.kern.args = xalloc(NULL, n->u.kern.nargs * sizeof(void *));
        for (uint32_t i = 0; i < n->u.kern.nargs; i++)
            c->u.kern.args[i] = c->u.kern.buf +
                ((unsigned char *)n->u.kern.args[i] - n->u.kern.buf);
    } else if (n->type == cudaGraphNodeTypeGraph) {
        c->u.child = graph_clone(n->u.child);
    }
}

static size_t node_index(cudaGraph_t g, const rt_node *n)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->nodes[i] == n)
            return i;
    return (size_t)-1;
}

static cudaGraph_t graph_clone(cudaGraph_t g)
{
    cudaGraph_t c = xalloc(NULL, sizeof *c);
    c->n = g->n;
    c->nodes = xalloc(NULL, g->n * sizeof *c->nodes);
    for (size_t i = 0; i < g->n; i++) {
        rt_node *n = g->nodes[i], *m = xalloc(NULL, sizeof *m);
        memset(m, 0, sizeof *m);
        m->g = c;
        m->type = n->type;
        m->orig = n;
        node_copy_params(m, n);
        c->nodes[i] = m;
    }
    for (size_t i = 0; i < g->n; i++) {
        rt_node *n = g->nodes[i], *m = c->nodes[i];
        m->ndeps = n->ndeps;
        m->deps = xalloc(NULL, n->ndeps * sizeof *m->deps);
        for (size_t d = 0; d < n->ndeps; d++)
            m->deps[d] = c->nodes[node_index(g, n->deps[d])];
    }
    return c;
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    RT_API();
    if (!pGraphClone || !originalGraph)
        return rt_ret(cudaErrorInvalidValue);
    *pGraphClone = graph_clone(originalGraph);
    for (size_t i = 0; i < (*pGraphClone)->n; i++)
        (*pGraphClone)->nodes[i]->orig = NULL;
    return cudaSuccess;
}

/* Append node n (type and parameters set) to g, depending on deps. On error
 * n is freed. */
static cudaError_t add_node(cudaGraph_t g, const cudaGraphNode_t *deps,
                            size_t ndeps, rt_node *n, cudaGraphNode_t *out)
{
    cudaError_t e = cudaSuccess;
    if (!g || (ndeps && !deps))
        e = cudaErrorInvalidValue;
    for (size_t i = 0; e == cudaSuccess && i < ndeps; i++) {
        if (!deps[i] || deps[i]->g != g)
            e = cudaErrorInvalidValue;
        for (size_t j = 0; j < i && e == cudaSuccess; j++)
            if (deps[j] == deps[i])
                e = cudaErrorInvalidValue;   /* a duplicate dependency */
    }
    if (e != cudaSuccess) {
        node_free(n);
        return rt_ret(e);
    }
    n->g = g;
    n->deps = xalloc(NULL, ndeps * sizeof *n->deps);
    if (ndeps)
        memcpy(n->deps, deps, ndeps * sizeof *n->deps);
    n->ndeps = ndeps;
    g->nodes = xalloc(g->nodes, (g->n + 1) * sizeof *g->nodes);
    g->nodes[g->n++] = n;
    if (out)
        *out = n;
    return cudaSuccess;
}

static rt_node *new_node(enum cudaGraphNodeType type)
{
    rt_node *n = xalloc(NULL, sizeof *n);
    memset(n, 0, sizeof *n);
    n->type = type;
    return n;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies,
                                   const struct cudaKernelNodeParams *pNodeParams)
{
    RT_API();
    if (!pGraphNode)
        return rt_ret(cudaErrorInvalidValue);
    rt_node *n = new_node(cudaGraphNodeTypeKernel);
    cudaError_t e = kern_set_params(n, pNodeParams);
    if (e != cudaSuccess) {
        node_free(n);
        return rt_ret(e);
    }
    return add_node(graph, pDependencies, numDependencies, n, pGraphNode);
}

/* Copies between arrays are not supported (CUDA arrays are not either). */
static cudaError_t copy_check(const struct cudaMemcpy3DParms *p)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (p->srcArray || p->dstArray) {
        fprintf(stderr, "smcosim runtime: memcpy nodes with CUDA arrays are "
                "not supported\n");
        return cudaErrorNotSupported;
    }
    if (!p->srcPtr.ptr || !p->dstPtr.ptr)
        return cudaErrorInvalidValue;
    size_t h = p->extent.height ? p->extent.height : 1;
    size_t d = p->extent.depth ? p->extent.depth : 1;
    if ((h > 1 || d > 1) &&
        (p->srcPtr.pitch < p->srcPos.x + p->extent.width ||
         p->dstPtr.pitch < p->dstPos.x + p->extent.width))
        return cudaErrorInvalidPitchValue;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies,
                                   const struct cudaMemcpy3DParms *pCopyParams)
{
    RT_API();
    if (!pGraphNode)
        return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = copy_check(pCopyParams);
    if (e != cudaSuccess)
        return rt_ret(e);
    rt_node *n = new_node(cudaGraphNodeTypeMemcpy);
    n->u.copy = *pCopyParams;
    return add_node(graph, pDependencies, numDependencies, n, pGraphNode);
}

/* A 1D or 2D copy as 3D parameters (pitched pointers, depth 1). */
static struct cudaMemcpy3DParms copy_params(void *dst, const void *src,
                                            size_t dpitch, size_t spitch,
                                            size_t width, size_t height,
                                            enum cudaMemcpyKind kind)
{
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr.ptr = (void *)src;
    p.srcPtr.pitch = spitch;
    p.srcPtr.xsize = width;
    p.srcPtr.ysize = height;
    p.dstPtr.ptr = dst;
    p.dstPtr.pitch = dpitch;
    p.dstPtr.xsize = width;
    p.dstPtr.ysize = height;
    p.extent.width = width;
    p.extent.height = height;
    p.extent.depth = 1;
    p.kind = kind;
    return p;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode,
                                     cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies,
                                     size_t numDependencies, void *dst,
                                     const void *src, size_t count,
                                     enum cudaMemcpyKind kind)
{
    RT_API();
    struct cudaMemcpy3DParms p = copy_params(dst, src, count, count, count, 1, kind);
    return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies,
                                  numDependencies, &p);
}

static cudaError_t memset_check(const struct cudaMemsetParams *p)
{
    if (!p || !p->dst)
        return cudaErrorInvalidValue;
    if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
        return cudaErrorInvalidValue;
    if (p->height > 1 && p->pitch < p->width * p->elementSize)
        return cudaErrorInvalidPitchValue;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams)
{
    RT_API();
    if (!pGraphNode)
        return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = memset_check(pMemsetParams);
    if (e != cudaSuccess)
        return rt_ret(e);
    rt_node *n = new_node(cudaGraphNodeTypeMemset);
    n->u.set = *pMemsetParams;
    return add_node(graph, pDependencies, numDependencies, n, pGraphNode);
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies,
                                 size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams)
{
    RT_API();
    if (!pGraphNode || !pNodeParams || !pNodeParams->fn)
        return rt_ret(cudaErrorInvalidValue);
    rt_node *n = new_node(cudaGraphNodeTypeHost);
    n->u.host = *pNodeParams;
    return add_node(graph, pDependencies, numDependencies, n, pGraphNode);
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies,
                                  size_t numDependencies)
{
    RT_API();
    if (!pGraphNode)
        return rt_ret(cudaErrorInvalidValue);
    return add_node(graph, pDependencies, numDependencies,
                    new_node(cudaGraphNodeTypeEmpty), pGraphNode);
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode,
                                       cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies,
                                       size_t numDependencies,
                                       cudaGraph_t childGraph)
{
    RT_API();
    if (!pGraphNode || !childGraph || childGraph == graph)
        return rt_ret(cudaErrorInvalidValue);
    rt_node *n = new_node(cudaGraphNodeTypeGraph);
    n->u.child = graph_clone(childGraph);
    for (size_t i = 0; i < n->u.child->n; i++)
        n->u.child->nodes[i]->orig = NULL;
    return add_node(graph, pDependencies, numDependencies, n, pGraphNode);
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
    RT_API();
    if (!node || !pGraph || node->type != cudaGraphNodeTypeGraph)
        return rt_ret(cudaErrorInvalidValue);
    *pGraph = node->u.child;
    return cudaSuccess;
}

/* Only default edges exist (no programmatic ports). */
static int edges_default(const cudaGraphEdgeData *ed, size_t n)
{
    for (size_t i = 0; ed && i < n; i++)
        if (ed[i].from_port || ed[i].to_port || ed[i].type)
            return 0;
    return 1;
}

static int has_dep(const rt_node *n, const rt_node *d)
{
    for (size_t i = 0; i < n->ndeps; i++)
        if (n->deps[i] == d)
            return 1;
    return 0;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to,
                                     const cudaGraphEdgeData *edgeData,
                                     size_t numDependencies)
{
    RT_API();
    if (!graph || (numDependencies && (!from || !to)))
        return rt_ret(cudaErrorInvalidValue);
    if (!edges_default(edgeData, numDependencies))
        return rt_ret(cudaErrorNotSupported);
    for (size_t i = 0; i < numDependencies; i++)
        if (!from[i] || !to[i] || from[i]->g != graph || to[i]->g != graph ||
            from[i] == to[i] || has_dep(to[i], from[i]))
            return rt_ret(cudaErrorInvalidValue);
    for (size_t i = 0; i < numDependencies; i++) {
        rt_node *t = to[i];
        if (has_dep(t, from[i]))
            continue;   /* listed twice in this call */
        t->deps = xalloc(t->deps, (t->ndeps + 1) * sizeof *t->deps);
        t->deps[t->ndeps++] = from[i];
    }
    return cudaSuccess;
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph,
                                        const cudaGraphNode_t *from,
                                        const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData,
                                        size_t numDependencies)
{
    RT_API();
    (void)edgeData;
    if (!graph || (numDependencies && (!from || !to)))
        return rt_ret(cudaErrorInvalidValue);
    for (size_t i = 0; i < numDependencies; i++)
        if (!to[i] || to[i]->g != graph || !has_dep(to[i], from[i]))
            return rt_ret(cudaErrorInvalidValue);
    for (size_t i = 0; i < numDependencies; i++) {
        rt_node *t = to[i];
        for (size_t d = 0; d < t->ndeps; d++)
            if (t->deps[d] == from[i]) {
                memmove(&t->deps[d], &t->deps[d + 1],
                        (t->ndeps - d - 1) * sizeof *t->deps);
                t->ndeps--;
                break;
            }
    }
    return cudaSuccess;
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
    RT_API();
    if (!node)
        return rt_ret(cudaErrorInvalidValue);
    cudaGraph_t g = node->g;
    size_t at = node_index(g, node);
    if (at == (size_t)-1)
        return rt_ret(cudaErrorInvalidValue);
    memmove(&g->nodes[at], &g->nodes[at + 1], (g->n - at - 1) * sizeof *g->nodes);
    g->n--;
    /* Edges from the node go with it. */
    for (size_t i = 0; i < g->n; i++) {
        rt_node *t = g->nodes[i];
        for (size_t d = 0; d < t->ndeps; d++)
            if (t->deps[d] == node) {
                memmove(&t->deps[d], &t->deps[d + 1],
                        (t->ndeps - d - 1) * sizeof *t->deps);
                t->ndeps--;
                d--;
            }
    }
    node_free(node);
    return cudaSuccess;
}

/* ---- queries ------------------------------------------------------------------ */

/* CUDA's list convention: with out NULL only the count; else up to *num
 * entries, the rest of the array NULL, and *num the count. */
static cudaError_t give_list(rt_node **list, size_t n, cudaGraphNode_t *out,
                             size_t *num)
{
    if (!num)
        return rt_ret(cudaErrorInvalidValue);
    if (out) {
        for (size_t i = 0; i < *num; i++)
            out[i] = i < n ? list[i] : NULL;
        if (*num > n)
            *num = n;
    } else {
        *num = n;
    }
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
                              size_t *numNodes)
{
    RT_API();
    if (!graph)
        return rt_ret(cudaErrorInvalidValue);
    return give_list(graph->nodes, graph->n, nodes, numNodes);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                  size_t *pNumRootNodes)
{
    RT_API();
    if (!graph)
        return rt_ret(cudaErrorInvalidValue);
    rt_node **roots = xalloc(NULL, graph->n * sizeof *roots);
    size_t n = 0;
    for (size_t i = 0; i < graph->n; i++)
        if (graph->nodes[i]->ndeps == 0)
            roots[n++] = graph->nodes[i];
    cudaError_t e = give_list(roots, n, pRootNodes, pNumRootNodes);
    free(roots);
    return e;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
                                         cudaGraphNode_t *pDependencies,
                                         cudaGraphEdgeData *edgeData,
                                         size_t *pNumDependencies)
{
    RT_API();
    if (!node)
        return rt_ret(cudaErrorInvalidValue);
    if (edgeData && pNumDependencies)
        memset(edgeData, 0, *pNumDependencies * sizeof *edgeData);
    return give_list(node->deps, node->ndeps, pDependencies, pNumDependencies);
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
                                           cudaGraphNode_t *pDependentNodes,
                                           cudaGraphEdgeData *edgeData,
                                           size_t *pNumDependentNodes)
{
    RT_API();
    if (!node)
        return rt_ret(cudaErrorInvalidValue);
    cudaGraph_t g = node->g;
    rt_node **list = xalloc(NULL, g->n * sizeof *list);
    size_t n = 0;
    for (size_t i = 0; i < g->n; i++)
        if (has_dep(g->nodes[i], node))
            list[n++] = g->nodes[i];
    if (edgeData && pNumDependentNodes)
        memset(edgeData, 0, *pNumDependentNodes * sizeof *edgeData);
    cudaError_t e = give_list(list, n, pDependentNodes, pNumDependentNodes);
    free(list);
    return e;
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
                              cudaGraphNode_t *to, cudaGraphEdgeData *edgeData,
                              size_t *numEdges)
{
    RT_API();
    if (!graph || !numEdges || (!from) != (!to))
        return rt_ret(cudaErrorInvalidValue);
    size_t n = 0;
    for (size_t i = 0; i < graph->n; i++) {
        rt_node *t = graph->nodes[i];
        for (size_t d = 0; d < t->ndeps; d++, n++)
            if (from && n < *numEdges) {
                from[n] = t->deps[d];
                to[n] = t;
                if (edgeData)
                    memset(&edgeData[n], 0, sizeof edgeData[n]);
            }
    }
    if (from)
        for (size_t i = n; i < *numEdges; i++)
            from[i] = to[i] = NULL;
    if (!from || *numEdges > n)
        *numEdges = n;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    RT_API();
    if (!node || !pType)
        return rt_ret(cudaErrorInvalidValue);
    *pType = node->type;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                         struct cudaKernelNodeParams *pNodeParams)
{
    RT_API();
    if (!node || !pNodeParams || node->type != cudaGraphNodeTypeKernel)
        return rt_ret(cudaErrorInvalidValue);
    pNodeParams->func = (void *)node->u.kern.k->host_fun;
    pNodeParams->gridDim = node->u.kern.grid;
    pNodeParams->blockDim = node->u.kern.block;
    pNodeParams->sharedMemBytes = node->u.kern.smem;
    pNodeParams->kernelParams = node->u.kern.args;   /* our copies */
    pNodeParams->extra = NULL;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaKernelNodeParams *pNodeParams)
{
    RT_API();
    if (!node || node->type != cudaGraphNodeTypeKernel)
        return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = kern_set_params(node, pNodeParams);
    return e == cudaSuccess ? e : rt_ret(e);
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
                                         struct cudaMemcpy3DParms *pNodeParams)
{
    RT_API();
    if (!node || !pNodeParams || node->type != cudaGraphNodeTypeMemcpy)
        return rt_ret(cudaErrorInvalidValue);
    *pNodeParams = node->u.copy;
    return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaMemcpy3DParms *pNodeParams)
{
    RT_API();
    if (!node || node->type != cudaGraphNodeTypeMemcpy)
        return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = copy_check(pNodeParams);
    if (e != cudaSuccess)
        return rt_ret(e);
    node->u.copy = *pNodeParams;
    return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
                                         struct cudaMemsetParams *pNodeParams)
{
    RT_API();
    if (!node || !pNodeParams || node->type != cudaGraphNodeTypeMemset)
        return rt_ret(cudaErrorInvalidValue);
    *pNodeParams = node->u.set;
    return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaMemsetParams *pNodeParams)
{
    RT_API();
    if (!node || node->type != cudaGraphNodeTypeMemset)
        return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = memset_check(pNodeParams);
    if (e != cudaSuccess)
        return rt_ret(e);
    node->u.set = *pNodeParams;
    return cudaSuccess;
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node,
                                       struct cudaHostNodeParams *pNodeParams)
{
    RT_API();
    if (!node || !pNodeParams || node->type != cudaGraphNodeTypeHost)
        return rt_ret(cudaErrorInvalidValue);
    *pNodeParams = node->u.host;
    return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
                                       const struct cudaHostNodeParams *pNodeParams)
{
    RT_API();
    if (!node || !pNodeParams || !pNodeParams->fn ||
        node->type != cudaGraphNodeTypeHost)
        return rt_ret(cudaErrorInvalidValue);
    node->u.host = *pNodeParams;
    return cudaSuccess;
}

/* ---- execution ------------------------------------------------------------------ */

/* Topological order, ties by creation order (Kahn's algorithm choosing the
 * earliest-created ready node). Returns 0, or -1 for a cycle. */
static int topo_order(cudaGraph_t g, rt_node **order)
{
    for (size_t i = 0; i < g->n; i++)
        g->nodes[i]->mark = 0;
    for (size_t k = 0; k < g->n; k++) {
        rt_node *pick = NULL;
        for (size_t i = 0; i < g->n && !pick; i++) {
            rt_node *n = g->nodes[i];
            if (n->mark)
                continue;
            size_t d = 0;
            while (d < n->ndeps && n->deps[d]->mark)
                d++;
            if (d == n->ndeps)
                pick = n;
        }
        if (!pick)
            return -1;
        pick->mark = 1;
        order[k] = pick;
    }
    return 0;
}

static cudaError_t run_graph(cudaGraph_t g, rt_node **order, cudaStream_t s);

static cudaError_t run_memset(const struct cudaMemsetParams *p)
{
    size_t rowbytes = p->width * p->elementSize;
    size_t rows = p->height ? p->height : 1;
    if (p->elementSize == 1) {
        for (size_t r = 0; r < rows; r++) {
            cudaError_t e = rt_memset((char *)p->dst + r * p->pitch,
                                      (int)(p->value & 0xff), rowbytes,
                                      "cudaGraphLaunch (memset node)");
            if (e != cudaSuccess)
                return e;
        }
        return cudaSuccess;
    }
    /* 2- and 4-byte elements: one row built on the host, copied per row. */
    unsigned char *row = xalloc(NULL, rowbytes);
    for (size_t i = 0; i < p->width; i++)
        memcpy(row + i * p->elementSize, &p->value, p->elementSize);   /* little-endian */
    cudaError_t e = cudaSuccess;
    for (size_t r = 0; r < rows && e == cudaSuccess; r++)
        e = rt_copy((char *)p->dst + r * p->pitch, row, rowbytes,
                    cudaMemcpyHostToDevice, "cudaGraphLaunch (memset node)");
    free(row);
    return e;
}

static cudaError_t run_copy(const struct cudaMemcpy3DParms *p)
{
    size_t h = p->extent.height ? p->extent.height : 1;
    size_t d = p->extent.depth ? p->extent.depth : 1;
    size_t sp = p->srcPtr.pitch, dp = p->dstPtr.pitch;
    size_t ss = sp * (p->srcPtr.ysize ? p->srcPtr.ysize : h);
    size_t ds = dp * (p->dstPtr.ysize ? p->dstPtr.ysize : h);
    const char *src = (const char *)p->srcPtr.ptr + p->srcPos.z * ss +
                      p->srcPos.y * sp + p->srcPos.x;
    char *dst = (char *)p->dstPtr.ptr + p->dstPos.z * ds + p->dstPos.y * dp +
                p->dstPos.x;
    for (size_t z = 0; z < d; z++)
        for (size_t y = 0; y < h; y++) {
            cudaError_t e = rt_copy(dst + z * ds + y * dp, src + z * ss + y * sp,
                                    p->extent.width, p->kind,
                                    "cudaGraphLaunch (memcpy node)");
            if (e != cudaSuccess)
                return e;
        }
    return cudaSuccess;
}

static cudaError_t run_node(rt_node *n, cudaStream_t s)
{
    if (rt_sticky() != cudaSuccess)
        return rt_sticky();
    switch (n->type) {
    case cudaGraphNodeTypeKernel:
        return rt_launch_now(n->u.kern.k, n->u.kern.grid, n->u.kern.block,
                             n->u.kern.args, n->u.kern.smem, s);
    case cudaGraphNodeTypeMemcpy:
        return run_copy(&n->u.copy);
    case cudaGraphNodeTypeMemset:
        return run_memset(&n->u.set);
    case cudaGraphNodeTypeHost:
        rt_run_host_fn(n->u.host.fn, n->u.host.userData);
        return cudaSuccess;
    case cudaGraphNodeTypeGraph:
        return run_graph(n->u.child, NULL, s);
    default:
        return cudaSuccess;   /* empty */
    }
}

/* Runs g in `order`, or in a topological order computed now. */
static cudaError_t run_graph(cudaGraph_t g, rt_node **order, cudaStream_t s)
{
    rt_node **own = NULL;
    if (!order) {
        own = order = xalloc(NULL, g->n * sizeof *order);
        if (topo_order(g, order) != 0) {
            free(own);
            return cudaErrorInvalidValue;
        }
    }
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < g->n && e == cudaSuccess; i++)
        e = run_node(order[i], s);
    free(own);
    return e;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                 unsigned long long flags)
{
    RT_API();
    (void)flags;   /* auto-free, upload, device launch, priority: no effect */
    if (!pGraphExec || !graph)
        return rt_ret(cudaErrorInvalidValue);
    cudaGraph_t c = graph_clone(graph);
    rt_node **order = xalloc(NULL, c->n * sizeof *order);
    if (topo_order(c, order) != 0) {
        fprintf(stderr, "smcosim runtime: cudaGraphInstantiate: the graph has "
                "a cycle\n");
        free(order);
        cudaGraphDestroy(c);
        return rt_ret(cudaErrorInvalidValue);
    }
    struct CUgraphExec_st *x = xalloc(NULL, sizeof *x);
    x->g = c;
    x->order = order;
    *pGraphExec = x;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
                                          cudaGraph_t graph,
                                          unsigned long long flags)
{
    RT_API();
    return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    RT_API();
    if (!graphExec)
        return rt_ret(cudaErrorInvalidValue);
    cudaGraphDestroy(graphExec->g);
    free(graphExec->order);
    free(graphExec);
    return cudaSuccess;
}

/* The node of an executable graph that was cloned from `node`. */
static rt_node *exec_node(cudaGraphExec_t x, cudaGraphNode_t node)
{
    for (size_t i = 0; x && node && i < x->g->n; i++)
        if (x->g->nodes[i]->orig == node)
            return x->g->nodes[i];
    return NULL;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
                                             cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
    RT_API();
    rt_node *n = exec_node(hGraphExec, node);
    if (!n || n->type != cudaGraphNodeTypeKernel)
        return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = kern_set_params(n, pNodeParams);
    return e == cudaSuccess ? e : rt_ret(e);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec,
                                             cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms *pNodeParams)
{
    RT_API();
    rt_node *n = exec_node(hGraphExec, node);
    if (!n || n->type != cudaGraphNodeTypeMemcpy)
        return rt_ret(cudaErrorInvalidValue);
    return cudaGraphMemcpyNodeSetParams(n, pNodeParams);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec,
                                             cudaGraphNode_t node,
                                             const struct cudaMemsetParams *pNodeParams)
{
    RT_API();
    rt_node *n = exec_node(hGraphExec, node);
    if (!n || n->type != cudaGraphNodeTypeMemset)
        return rt_ret(cudaErrorInvalidValue);
    return cudaGraphMemsetNodeSetParams(n, pNodeParams);
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec,
                                           cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *pNodeParams)
{
    RT_API();
    rt_node *n = exec_node(hGraphExec, node);
    if (!n || n->type != cudaGraphNodeTypeHost)
        return rt_ret(cudaErrorInvalidValue);
    return cudaGraphHostNodeSetParams(n, pNodeParams);
}

/* Nothing to upload: the graph runs where it is. */
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_API();
    (void)stream;
    return graphExec ? cudaSuccess : rt_ret(cudaErrorInvalidValue);
}

static cudaError_t capture_add(cudaStream_t s, rt_node *n);

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_API();
    if (!graphExec)
        return rt_ret(cudaErrorInvalidValue);
    if (rt_capturing(stream)) {
        /* Launching into a capture embeds the graph as a child node. */
        rt_node *n = new_node(cudaGraphNodeTypeGraph);
        n->u.child = graph_clone(graphExec->g);
        return capture_add(stream, n);
    }
    if (rt_sticky() != cudaSuccess)
        return rt_ret(rt_sticky());
    cudaError_t e = rt_ready();
    if (e == cudaSuccess)
        e = run_graph(graphExec->g, graphExec->order, stream);
    return e == cudaSuccess ? e : rt_ret(e);
}

/* ---- stream capture ------------------------------------------------------------- */

int rt_capturing(cudaStream_t s)
{
    return rt_stream(s)->cap != NULL;
}

static int is_default_stream(cudaStream_t s)
{
    return !s || s == cudaStreamLegacy || s == cudaStreamPerThread;
}

static void set_deps(struct CUstream_st *st, rt_node *const *deps, size_t n)
{
    st->deps = xalloc(st->deps, n * sizeof *st->deps);
    if (n)
        memmove(st->deps, deps, n * sizeof *st->deps);
    st->ndeps = n;
}

/* Add n to the stream's capture after the stream's current dependencies;
 * it becomes the stream's one dependency. */
static cudaError_t capture_add(cudaStream_t s, rt_node *n)
{
    struct CUstream_st *st = rt_stream(s);
    cudaGraphNode_t out;
    cudaError_t e = add_node(st->cap->g, st->deps, st->ndeps, n, &out);
    if (e != cudaSuccess)
        return e;
    set_deps(st, &out, 1);
    return cudaSuccess;
}

cudaError_t rt_capture_kernel(cudaStream_t s, rt_kernel *k, dim3 grid,
                              dim3 block, void **args, size_t smem)
{
    rt_node *n = new_node(cudaGraphNodeTypeKernel);
    cudaError_t e = kern_set(n, k, grid, block, (unsigned)smem, args);
    if (e != cudaSuccess) {
        node_free(n);
        return rt_ret(e);
    }
    return capture_add(s, n);
}

cudaError_t rt_capture_copy(cudaStream_t s, void *dst, const void *src,
                            size_t dpitch, size_t spitch, size_t width,
                            size_t height, enum cudaMemcpyKind kind)
{
    if (width == 0 || height == 0)
        return cudaSuccess;
    rt_node *n = new_node(cudaGraphNodeTypeMemcpy);
    n->u.copy = copy_params(dst, src, dpitch, spitch, width, height, kind);
    cudaError_t e = copy_check(&n->u.copy);
    if (e != cudaSuccess) {
        node_free(n);
        return rt_ret(e);
    }
    return capture_add(s, n);
}

cudaError_t rt_capture_memset(cudaStream_t s, void *dst, size_t pitch,
                              int value, size_t width, size_t height)
{
    if (width == 0 || height == 0)
        return cudaSuccess;
    rt_node *n = new_node(cudaGraphNodeTypeMemset);
    n->u.set.dst = dst;
    n->u.set.pitch = pitch;
    n->u.set.value = (unsigned)value;
    n->u.set.elementSize = 1;
    n->u.set.width = width;
    n->u.set.height = height;
    cudaError_t e = memset_check(&n->u.set);
    if (e != cudaSuccess) {
        node_free(n);
        return rt_ret(e);
    }
    return capture_add(s, n);
}

cudaError_t rt_capture_host(cudaStream_t s, cudaHostFn_t fn, void *data)
{
    rt_node *n = new_node(cudaGraphNodeTypeHost);
    n->u.host.fn = fn;
    n->u.host.userData = data;
    return capture_add(s, n);
}

static rt_capture *capture_by_id(unsigned long long id)
{
    for (size_t i = 0; i < ncaptures; i++)
        if (captures[i]->id == id)
            return captures[i];
    return NULL;
}

cudaError_t rt_capture_event_record(cudaEvent_t e, cudaStream_t s)
{
    struct CUstream_st *st = rt_stream(s);
    e->cap_id = st->cap->id;
    e->deps = xalloc(e->deps, st->ndeps * sizeof *e->deps);
    if (st->ndeps)
        memcpy(e->deps, st->deps, st->ndeps * sizeof *e->deps);
    e->ndeps = st->ndeps;
    return cudaSuccess;
}

/* A stream waits for an event recorded in a capture: it joins the capture
 * (fork) or takes the event's nodes as further dependencies (join). An event
 * recorded outside any capture has completed already (everything is
 * synchronous): waiting for it adds nothing. */
cudaError_t rt_capture_event_wait(cudaStream_t s, cudaEvent_t e)
{
    rt_capture *cap = e->cap_id ? capture_by_id(e->cap_id) : NULL;
    if (!cap)
        return cudaSuccess;
    if (is_default_stream(s)) {
        fprintf(stderr, "smcosim runtime: cudaStreamWaitEvent: the default "
                "stream cannot join a stream capture\n");
        return rt_ret(cudaErrorStreamCaptureImplicit);
    }
    struct CUstream_st *st = rt_stream(s);
    if (st->cap && st->cap != cap)
        return rt_ret(cudaErrorStreamCaptureIsolation);
    if (!st->cap) {
        st->cap = cap;
        cap->streams = xalloc(cap->streams,
                              (cap->nstreams + 1) * sizeof *cap->streams);
        cap->streams[cap->nstreams++] = st;
        set_deps(st, e->deps, e->ndeps);
        return cudaSuccess;
    }
    for (size_t i = 0; i < e->ndeps; i++) {
        size_t j = 0;
        while (j < st->ndeps && st->deps[j] != e->deps[i])
            j++;
        if (j == st->ndeps) {
            st->deps = xalloc(st->deps, (st->ndeps + 1) * sizeof *st->deps);
            st->deps[st->ndeps++] = e->deps[i];
        }
    }
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
                                   enum cudaStreamCaptureMode mode)
{
    RT_API();
    if (is_default_stream(stream)) {
        fprintf(stderr, "smcosim runtime: cudaStreamBeginCapture: the legacy "
                "default stream cannot be captured; use a created stream\n");
        return rt_ret(cudaErrorStreamCaptureUnsupported);
    }
    if (mode != cudaStreamCaptureModeGlobal &&
        mode != cudaStreamCaptureModeThreadLocal &&
        mode != cudaStreamCaptureModeRelaxed)
        return rt_ret(cudaErrorInvalidValue);
    struct CUstream_st *st = rt_stream(stream);
    if (st->cap)
        return rt_ret(cudaErrorIllegalState);
    rt_capture *cap = xalloc(NULL, sizeof *cap);
    memset(cap, 0, sizeof *cap);
    cap->id = next_capture_id++;
    cap->mode = mode;
    cap->origin = st;
    cudaGraphCreate(&cap->g, 0);
    cap->streams = xalloc(NULL, sizeof *cap->streams);
    cap->streams[0] = st;
    cap->nstreams = 1;
    captures = xalloc(captures, (ncaptures + 1) * sizeof *captures);
    captures[ncaptures++] = cap;
    st->cap = cap;
    st->ndeps = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    RT_API();
    if (!pGraph)
        return rt_ret(cudaErrorInvalidValue);
    struct CUstream_st *st = rt_stream(stream);
    rt_capture *cap = st->cap;
    if (!cap)
        return rt_ret(cudaErrorIllegalState);
    if (cap->origin != st)
        return rt_ret(cudaErrorStreamCaptureUnmatched);
    /* Work forked into another stream must have been joined back: every
     * node that nothing depends on must be one the origin stream ends on. */
    cudaGraph_t g = cap->g;
    int unjoined = 0;
    for (size_t i = 0; i < g->n && !unjoined; i++) {
        rt_node *n = g->nodes[i];
        int sink = 1;
        for (size_t j = 0; j < g->n && sink; j++)
            sink = !has_dep(g->nodes[j], n);
        if (!sink)
            continue;
        size_t d = 0;
        while (d < st->ndeps && st->deps[d] != n)
            d++;
        unjoined = d == st->ndeps;
    }
    for (size_t i = 0; i < cap->nstreams; i++) {
        cap->streams[i]->cap = NULL;
        cap->streams[i]->ndeps = 0;
    }
    for (size_t i = 0; i < ncaptures; i++)
        if (captures[i] == cap) {
            captures[i] = captures[--ncaptures];
            break;
        }
    free(cap->streams);
    free(cap);
    if (unjoined) {
        fprintf(stderr, "smcosim runtime: cudaStreamEndCapture: work forked "
                "into another stream was not joined back into the origin "
                "stream\n");
        cudaGraphDestroy(g);
        *pGraph = NULL;
        return rt_ret(cudaErrorStreamCaptureUnjoined);
    }
    *pGraph = g;
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                  enum cudaStreamCaptureStatus *pCaptureStatus)
{
    RT_API();
    if (!pCaptureStatus)
        return rt_ret(cudaErrorInvalidValue);
    *pCaptureStatus = rt_capturing(stream) ? cudaStreamCaptureStatusActive
                                           : cudaStreamCaptureStatusNone;
    return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                     enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out,
                                     cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out,
                                     const cudaGraphEdgeData **edgeData_out,
                                     size_t *numDependencies_out)
{
    RT_API();
    static cudaGraphEdgeData *zero_edges;
    static size_t nzero;
    if (!captureStatus_out)
        return rt_ret(cudaErrorInvalidValue);
    struct CUstream_st *st = rt_stream(stream);
    *captureStatus_out = st->cap ? cudaStreamCaptureStatusActive
                                 : cudaStreamCaptureStatusNone;
    if (!st->cap)
        return cudaSuccess;   /* the other outputs are left alone */
    if (id_out)
        *id_out = st->cap->id;
    if (graph_out)
        *graph_out = st->cap->g;
    if (dependencies_out)
        *dependencies_out = st->deps;
    if (edgeData_out) {
        /* Every captured edge is a default edge. */
        if (nzero < st->ndeps) {
            zero_edges = xalloc(zero_edges, st->ndeps * sizeof *zero_edges);
            nzero = st->ndeps;
        }
        if (nzero)
            memset(zero_edges, 0, nzero * sizeof *zero_edges);
        *edgeData_out = zero_edges;
    }
    if (numDependencies_out)
        *numDependencies_out = st->ndeps;
    return cudaSuccess;
}
