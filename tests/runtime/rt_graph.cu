// rt_graph.cu — CUDA graphs built node by node and by stream capture (the
// way the CUDA samples simpleCudaGraphs does both), checked against values
// computed here on the CPU.
#include "rt_check.h"

#include <vector>

// y[i] = a * x[i] + b
__global__ void axpb_i(int *x, int *y, int a, int b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + b;
}

__global__ void add_one(int *y)
{
    y[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

static const int N = 512;

static std::vector<int> order;            // ids of host nodes, as they ran
static void CUDART_CB record(void *id) { order.push_back((int)(size_t)id); }

struct Check { const int *out; int a, b, seen; };
static void CUDART_CB check_out(void *p)
{
    Check *c = (Check *)p;
    c->seen++;
}

// A kernel node whose argument buffers are locals of this function: the graph
// must have copied them when the node was added.
static cudaGraphNode_t add_axpb(cudaGraph_t g, const cudaGraphNode_t *deps,
                                size_t ndeps, int *x, int *y, int a, int b)
{
    void *args[] = { &x, &y, &a, &b };
    cudaKernelNodeParams p = {};
    p.func = (void *)axpb_i;
    p.gridDim = dim3(N / 128);
    p.blockDim = dim3(128);
    p.sharedMemBytes = 0;
    p.kernelParams = args;
    p.extra = nullptr;
    cudaGraphNode_t n;
    CHECK_CUDA(cudaGraphAddKernelNode(&n, g, deps, ndeps, &p));
    return n;
}

static void test_manual_graph()
{
    std::vector<int> hx(N), hy(N, -7);
    for (int i = 0; i < N; i++)
        hx[i] = i * 3 - 100;
    int *dx, *dy;
    CHECK_CUDA(cudaMalloc(&dx, N * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dy, N * sizeof(int)));

    cudaGraph_t g;
    CHECK_CUDA(cudaGraphCreate(&g, 0));
    // Roots: host-to-device copy (3D parameters, as simpleCudaGraphs) and a
    // 4-byte memset of y.
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(hx.data(), N * sizeof(int), N, 1);
    cp.dstPtr = make_cudaPitchedPtr(dx, N * sizeof(int), N, 1);
    cp.extent = make_cudaExtent(N * sizeof(int), 1, 1);
    cp.kind = cudaMemcpyHostToDevice;
    cudaGraphNode_t h2d, set, kern, inc, d2h, host;
    CHECK_CUDA(cudaGraphAddMemcpyNode(&h2d, g, nullptr, 0, &cp));
    cudaMemsetParams mp = {};
    mp.dst = dy;
    mp.value = 0x01020304;
    mp.elementSize = 4;
    mp.width = N;
    mp.height = 1;
    CHECK_CUDA(cudaGraphAddMemsetNode(&set, g, nullptr, 0, &mp));
    cudaGraphNode_t roots[] = { h2d, set };
    kern = add_axpb(g, roots, 2, dx, dy, 5, 11);
    // add_one depends on the kernel through cudaGraphAddDependencies.
    void *inc_args[] = { &dy };
    cudaKernelNodeParams ip = {};
    ip.func = (void *)add_one;
    ip.gridDim = dim3(N / 64);
    ip.blockDim = dim3(64);
    ip.kernelParams = inc_args;
    CHECK_CUDA(cudaGraphAddKernelNode(&inc, g, nullptr, 0, &ip));
    CHECK_CUDA(cudaGraphAddDependencies(g, &kern, &inc, nullptr, 1));
    CHECK_ERR(cudaGraphAddDependencies(g, &kern, &inc, nullptr, 1), cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK_CUDA(cudaGraphAddMemcpyNode1D(&d2h, g, &inc, 1, hy.data(), dy,
                                        N * sizeof(int), cudaMemcpyDeviceToHost));
    Check c = { hy.data(), 5, 11, 0 };
    cudaHostNodeParams hp = { check_out, &c };
    CHECK_CUDA(cudaGraphAddHostNode(&host, g, &d2h, 1, &hp));

    size_t n = 0;
    CHECK_CUDA(cudaGraphGetNodes(g, nullptr, &n));
    CHECK(n == 6);
    cudaGraphNode_t nodes[8];
    n = 8;
    CHECK_CUDA(cudaGraphGetNodes(g, nodes, &n));
    CHECK(n == 6 && nodes[0] == h2d && nodes[5] == host && nodes[6] == nullptr);
    CHECK_CUDA(cudaGraphGetRootNodes(g, nullptr, &n));
    CHECK(n == 2);
    CHECK_CUDA(cudaGraphGetRootNodes(g, nodes, &n));
    CHECK(nodes[0] == h2d && nodes[1] == set);
    cudaGraphNodeType t;
    CHECK_CUDA(cudaGraphNodeGetType(set, &t));
    CHECK(t == cudaGraphNodeTypeMemset);
    CHECK_CUDA(cudaGraphNodeGetType(kern, &t));
    CHECK(t == cudaGraphNodeTypeKernel);
    CHECK_CUDA(cudaGraphNodeGetType(host, &t));
    CHECK(t == cudaGraphNodeTypeHost);

    // Nothing runs before the graph is launched.
    cudaGraphExec_t x;
    CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
    CHECK(hy[0] == -7 && c.seen == 0);

    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++)
            hx[i] = i * (round + 1) - 50;   // the copy node reads hx each launch
        CHECK_CUDA(cudaGraphLaunch(x, s));
        CHECK_CUDA(cudaStreamSynchronize(s));
        CHECK(c.seen == round + 1);
        for (int i = 0; i < N; i++)
            CHECK(hy[i] == 5 * hx[i] + 11 + 1);
    }

    // Kernel node parameters: read back (our copies), change on the graph
    // (a new instantiation sees it) and on the executable graph.
    cudaKernelNodeParams kp;
    CHECK_CUDA(cudaGraphKernelNodeGetParams(kern, &kp));
    CHECK(kp.func == (void *)axpb_i && kp.gridDim.x == N / 128 && kp.blockDim.x == 128);
    CHECK(*(int *)kp.kernelParams[2] == 5 && *(int *)kp.kernelParams[3] == 11);
    CHECK(*(int **)kp.kernelParams[0] == dx);
    int a2 = -2, b2 = 1000;
    void *args2[] = { &dx, &dy, &a2, &b2 };
    kp.kernelParams = args2;
    CHECK_CUDA(cudaGraphExecKernelNodeSetParams(x, kern, &kp));
    a2 = b2 = 0;   // copied: changing them now has no effect
    CHECK_CUDA(cudaGraphLaunch(x, s));
    for (int i = 0; i < N; i++)
        CHECK(hy[i] == -2 * hx[i] + 1000 + 1);
    a2 = 7; b2 = -3;
    CHECK_CUDA(cudaGraphKernelNodeSetParams(kern, &kp));
    cudaGraphExec_t x2;
    CHECK_CUDA(cudaGraphInstantiate(&x2, g, 0));
    CHECK_CUDA(cudaGraphLaunch(x2, s));
    for (int i = 0; i < N; i++)
        CHECK(hy[i] == 7 * hx[i] - 3 + 1);

    // A clone keeps its nodes when the original loses one.
    cudaGraph_t cl;
    CHECK_CUDA(cudaGraphClone(&cl, g));
    CHECK_CUDA(cudaGraphDestroyNode(inc));
    CHECK_CUDA(cudaGraphGetNodes(g, nullptr, &n));
    CHECK(n == 5);
    size_t ncl = 0;
    CHECK_CUDA(cudaGraphGetNodes(cl, nullptr, &ncl));
    CHECK(ncl == 6);
    // The node after the destroyed one lost that dependency: it is a root.
    CHECK_CUDA(cudaGraphGetRootNodes(g, nullptr, &n));
    CHECK(n == 3);

    // The clone runs as a child graph of another graph, after an empty node.
    cudaGraph_t outer;
    CHECK_CUDA(cudaGraphCreate(&outer, 0));
    cudaGraphNode_t empty, child;
    CHECK_CUDA(cudaGraphAddEmptyNode(&empty, outer, nullptr, 0));
    CHECK_CUDA(cudaGraphAddChildGraphNode(&child, outer, &empty, 1, cl));
    CHECK_CUDA(cudaGraphDestroy(cl));   // the child node holds its own copy
    CHECK_CUDA(cudaGraphNodeGetType(child, &t));
    CHECK(t == cudaGraphNodeTypeGraph);
    cudaGraphExec_t xo;
    CHECK_CUDA(cudaGraphInstantiate(&xo, outer, 0));
    for (int i = 0; i < N; i++)
        hx[i] = 1000 - i;
    CHECK_CUDA(cudaGraphLaunch(xo, s));
    for (int i = 0; i < N; i++)
        CHECK(hy[i] == 7 * hx[i] - 3 + 1);

    CHECK_CUDA(cudaGraphExecDestroy(xo));
    CHECK_CUDA(cudaGraphDestroy(outer));
    CHECK_CUDA(cudaGraphExecDestroy(x));
    CHECK_CUDA(cudaGraphExecDestroy(x2));
    CHECK_CUDA(cudaGraphDestroy(g));
    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaFree(dx));
    CHECK_CUDA(cudaFree(dy));
}

// Nodes run in a topological order; among ready nodes the one created first.
static void test_order()
{
    cudaGraph_t g;
    CHECK_CUDA(cudaGraphCreate(&g, 0));
    cudaGraphNode_t h[5];
    for (int i = 0; i < 5; i++) {
        cudaHostNodeParams p = { record, (void *)(size_t)i };
        CHECK_CUDA(cudaGraphAddHostNode(&h[i], g, nullptr, 0, &p));
    }
    // 0 after 3, 3 after 4, 1 after 2.
    cudaGraphNode_t from[] = { h[3], h[4], h[2] }, to[] = { h[0], h[3], h[1] };
    CHECK_CUDA(cudaGraphAddDependencies(g, from, to, nullptr, 3));
    // Ready at the start: 2, 4. Take 2 (created first); then 1 is ready and
    // created before 4; then 4, 3, 0.
    const int want[] = { 2, 1, 4, 3, 0 };
    cudaGraphExec_t x;
    CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
    for (int round = 0; round < 2; round++) {
        order.clear();
        CHECK_CUDA(cudaGraphLaunch(x, 0));
        CHECK(order.size() == 5);
        for (int i = 0; i < 5; i++)
            CHECK(order[i] == want[i]);
    }
    // A cycle is refused at instantiation.
    cudaGraphNode_t f2 = h[0], t2 = h[4];
    CHECK_CUDA(cudaGraphAddDependencies(g, &f2, &t2, nullptr, 1));
    cudaGraphExec_t bad;
    CHECK_ERR(cudaGraphInstantiate(&bad, g, 0), cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK_CUDA(cudaGraphExecDestroy(x));
    CHECK_CUDA(cudaGraphDestroy(g));
}

// Stream capture across two streams with fork and join events, as in
// simpleCudaGraphs: nothing runs while capturing; the graph runs each launch.
static void test_capture()
{
    int *hx, *hy;
    CHECK_CUDA(cudaMallocHost(&hx, N * sizeof(int)));
    CHECK_CUDA(cudaMallocHost(&hy, N * sizeof(int)));
    int *dx, *dy;
    CHECK_CUDA(cudaMalloc(&dx, N * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dy, N * sizeof(int)));
    for (int i = 0; i < N; i++) {
        hx[i] = 2 * i + 1;
        hy[i] = -1;
    }
    cudaStream_t s1, s2;
    CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t fork, joined;
    CHECK_CUDA(cudaEventCreate(&fork));
    CHECK_CUDA(cudaEventCreate(&joined));

    cudaStreamCaptureStatus st;
    CHECK_CUDA(cudaStreamIsCapturing(s1, &st));
    CHECK(st == cudaStreamCaptureStatusNone);
    CHECK_CUDA(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CHECK_CUDA(cudaStreamIsCapturing(s1, &st));
    CHECK(st == cudaStreamCaptureStatusActive);
    CHECK_CUDA(cudaEventRecord(fork, s1));
    CHECK_CUDA(cudaStreamWaitEvent(s2, fork, 0));          // s2 joins the capture
    CHECK_CUDA(cudaStreamIsCapturing(s2, &st));
    CHECK(st == cudaStreamCaptureStatusActive);
    CHECK_CUDA(cudaMemcpyAsync(dx, hx, N * sizeof(int), cudaMemcpyHostToDevice, s1));
    CHECK_CUDA(cudaMemsetAsync(dy, 0, N * sizeof(int), s2));
    CHECK_CUDA(cudaEventRecord(joined, s2));
    CHECK_CUDA(cudaStreamWaitEvent(s1, joined, 0));        // join
    unsigned long long id = 0;
    cudaGraph_t cg = nullptr;
    const cudaGraphNode_t *deps = nullptr;
    size_t ndeps = 0;
    CHECK_CUDA(cudaStreamGetCaptureInfo(s1, &st, &id, &cg, &deps, nullptr, &ndeps));
    CHECK(st == cudaStreamCaptureStatusActive && id != 0 && cg != nullptr);
    CHECK(ndeps == 2);   // the copy and the memset
    int a = 3;
    axpb_i<<<N / 128, 128, 0, s1>>>(dx, dy, a, 4);
    a = 100;             // the launch's arguments were captured by value
    add_one<<<N / 64, 64, 0, s1>>>(dy);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpyAsync(hy, dy, N * sizeof(int), cudaMemcpyDeviceToHost, s1));
    order.clear();
    CHECK_CUDA(cudaLaunchHostFunc(s1, record, (void *)(size_t)42));
    cudaGraph_t g;
    CHECK_CUDA(cudaStreamEndCapture(s1, &g));
    CHECK(g == cg);
    CHECK_CUDA(cudaStreamIsCapturing(s2, &st));
    CHECK(st == cudaStreamCaptureStatusNone);
    // Nothing ran while capturing.
    CHECK(order.empty());
    for (int i = 0; i < N; i++)
        CHECK(hy[i] == -1);

    size_t n = 0;
    CHECK_CUDA(cudaGraphGetNodes(g, nullptr, &n));
    CHECK(n == 6);
    CHECK_CUDA(cudaGraphGetRootNodes(g, nullptr, &n));
    CHECK(n == 2);

    cudaGraphExec_t x;
    CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < N; i++)
            hx[i] = (round + 1) * i - 7;
        CHECK_CUDA(cudaGraphLaunch(x, s1));
        CHECK_CUDA(cudaStreamSynchronize(s1));
        CHECK((int)order.size() == round + 1 && order[round] == 42);
        for (int i = 0; i < N; i++)
            CHECK(hy[i] == 3 * hx[i] + 4 + 1);
    }

    // Launching a graph into a capture embeds it as a child graph node.
    CHECK_CUDA(cudaStreamBeginCapture(s2, cudaStreamCaptureModeThreadLocal));
    CHECK_CUDA(cudaGraphLaunch(x, s2));
    add_one<<<N / 64, 64, 0, s2>>>(dy);
    cudaGraph_t g2;
    CHECK_CUDA(cudaStreamEndCapture(s2, &g2));
    cudaGraphNode_t nodes[2];
    n = 2;
    CHECK_CUDA(cudaGraphGetNodes(g2, nodes, &n));
    cudaGraphNodeType t;
    CHECK(n == 2);
    CHECK_CUDA(cudaGraphNodeGetType(nodes[0], &t));
    CHECK(t == cudaGraphNodeTypeGraph);
    cudaGraphExec_t x2;
    CHECK_CUDA(cudaGraphInstantiate(&x2, g2, 0));
    CHECK_CUDA(cudaGraphLaunch(x2, 0));
    std::vector<int> back(N);
    CHECK_CUDA(cudaMemcpy(back.data(), dy, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        CHECK(back[i] == 3 * hx[i] + 4 + 2);

    // Errors: the legacy stream cannot capture; forked work must be joined.
    CHECK_ERR(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal),
              cudaErrorStreamCaptureUnsupported);
    CHECK_CUDA(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
    CHECK_ERR(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed), cudaErrorIllegalState);
    CHECK_CUDA(cudaEventRecord(fork, s1));
    CHECK_CUDA(cudaStreamWaitEvent(s2, fork, 0));
    add_one<<<N / 64, 64, 0, s2>>>(dy);
    cudaGraph_t g3;
    CHECK_ERR(cudaStreamEndCapture(s1, &g3), cudaErrorStreamCaptureUnjoined);
    CHECK(g3 == nullptr);
    CHECK_CUDA(cudaStreamIsCapturing(s2, &st));
    CHECK(st == cudaStreamCaptureStatusNone);
    cudaGetLastError();

    CHECK_CUDA(cudaGraphExecDestroy(x2));
    CHECK_CUDA(cudaGraphDestroy(g2));
    CHECK_CUDA(cudaGraphExecDestroy(x));
    CHECK_CUDA(cudaGraphDestroy(g));
    CHECK_CUDA(cudaEventDestroy(fork));
    CHECK_CUDA(cudaEventDestroy(joined));
    CHECK_CUDA(cudaStreamDestroy(s1));
    CHECK_CUDA(cudaStreamDestroy(s2));
    CHECK_CUDA(cudaFree(dx));
    CHECK_CUDA(cudaFree(dy));
    CHECK_CUDA(cudaFreeHost(hx));
    CHECK_CUDA(cudaFreeHost(hy));
}

int main()
{
    test_manual_graph();
    test_order();
    test_capture();
    CHECK_CUDA(cudaGetLastError());
    std::printf("rt_graph: all checks passed\n");
    return 0;
}
