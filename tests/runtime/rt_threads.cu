// rt_threads.cu — many host threads calling the runtime at once, the way
// programs with a thread per stream (or an OpenMP loop over work items) do:
// each thread selects the device, allocates pinned and device memory, copies
// in on its own stream, launches, records an event, copies back, adds a
// stream callback and waits, round after round, all checked against values
// computed here. Then what CUDA keeps per host thread: the last error, and
// the <<<...>>> configuration (each thread launches its own grid shape).
// Run many times by run_cuda_tests.sh (and under ThreadSanitizer by
// tsan_threads.sh): before the runtime took a lock this crashed about every
// second run.
#include "rt_check.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

static const int kThreads = 8;
static const int kRounds = 12;

// One element per thread, no grid-stride loop: a launch that ran with another
// thread's (smaller) configuration leaves elements unchanged.
__global__ void add_kernel(int *d, int n, int by)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] += by;
}

struct Job {
    pthread_t caller;
    const int *host;        // the pinned buffer the callback looks at
    int n, want0, wantn;    // host[0] and host[n-1] once the copy back is done
    std::atomic<int> ran{0};
    std::atomic<int> bad{0};
};

static std::atomic<int> callbacks_on_caller{0};

static void CUDART_CB on_done(cudaStream_t, cudaError_t status, void *p)
{
    Job *j = static_cast<Job *>(p);
    if (pthread_equal(pthread_self(), j->caller))
        callbacks_on_caller++;
    // Everything before the callback in its stream has completed.
    if (status != cudaSuccess || j->host[0] != j->want0 ||
        j->host[j->n - 1] != j->wantn)
        j->bad++;
    // CUDA forbids API calls in a callback and says they fail with
    // cudaErrorNotPermitted; the runtime must not wait for itself.
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaErrorNotPermitted)
        j->bad++;
    j->ran++;
}

static void worker(int t, std::atomic<int> *start)
{
    while (!start->load())
        std::this_thread::yield();
    // All threads' first calls at once: the device is created lazily by one.
    CHECK_CUDA(cudaSetDevice(0));
    int dev = -1;
    CHECK_CUDA(cudaGetDevice(&dev));
    CHECK(dev == 0);
    for (int round = 0; round < kRounds; round++) {
        const int n = 700 + 97 * t + 13 * round;
        const int block = 32 * (1 + (t + round) % 4);
        const int grid = (n + block - 1) / block;
        int *h = nullptr, *d = nullptr;
        CHECK_CUDA(cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocDefault));
        CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
        for (int i = 0; i < n; i++)
            h[i] = i * (t + 1);
        cudaStream_t s;
        CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        cudaEvent_t e;
        CHECK_CUDA(cudaEventCreate(&e));
        CHECK_CUDA(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s));
        add_kernel<<<grid, block, 0, s>>>(d, n, round + 1);
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaEventRecord(e, s));
        CHECK_CUDA(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
        Job job;
        job.caller = pthread_self();
        job.host = h;
        job.n = n;
        job.want0 = round + 1;
        job.wantn = (n - 1) * (t + 1) + round + 1;
        CHECK_CUDA(cudaStreamAddCallback(s, on_done, &job, 0));
        CHECK_CUDA(cudaStreamSynchronize(s));
        CHECK_CUDA(cudaEventSynchronize(e));
        CHECK(job.ran.load() == 1);
        CHECK(job.bad.load() == 0);
        for (int i = 0; i < n; i++)
            if (h[i] != i * (t + 1) + round + 1) {
                std::fprintf(stderr, "thread %d round %d: h[%d] = %d, expected %d\n",
                             t, round, i, h[i], i * (t + 1) + round + 1);
                std::exit(1);
            }
        CHECK_CUDA(cudaEventDestroy(e));
        CHECK_CUDA(cudaStreamDestroy(s));
        CHECK_CUDA(cudaFree(d));
        CHECK_CUDA(cudaFreeHost(h));
        CHECK_CUDA(cudaGetLastError());
    }
}

// The last error belongs to the thread whose call failed.
static void test_last_error_per_thread()
{
    std::atomic<int> step{0};
    std::thread a([&] {
        CHECK_ERR(cudaSetDevice(7), cudaErrorInvalidDevice);
        step = 1;
        while (step.load() != 2)
            std::this_thread::yield();
        CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
        CHECK(cudaGetLastError() == cudaSuccess);
    });
    std::thread b([&] {
        while (step.load() != 1)
            std::this_thread::yield();
        CHECK(cudaPeekAtLastError() == cudaSuccess);
        int *p = nullptr;
        CHECK_CUDA(cudaMalloc(&p, 64));
        CHECK_CUDA(cudaFree(p));
        step = 2;
    });
    a.join();
    b.join();
}

// exit() while another thread is inside a CUDA call that never returns (its
// callback blocks forever): the runtime's exit path waits for the API lock
// only a bounded time, writes the statistics file and lets the process end.
static std::atomic<int> callback_entered{0};
static void CUDART_CB block_forever(void *)
{
    callback_entered = 1;
    for (;;)
        std::this_thread::sleep_for(std::chrono::seconds(1));
}

static int exit_during_callback()
{
    int *d = nullptr;
    CHECK_CUDA(cudaMalloc(&d, 64 * sizeof(int)));
    add_kernel<<<1, 64>>>(d, 64, 1);   // a launch for the statistics file
    CHECK_CUDA(cudaDeviceSynchronize());
    std::thread t([] { cudaLaunchHostFunc(0, block_forever, nullptr); });
    t.detach();
    while (!callback_entered.load())
        std::this_thread::yield();
    std::printf("rt_threads: exiting while a host function blocks\n");
    std::fflush(stdout);
    std::exit(0);
}

int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "exit-during-callback") == 0)
        return exit_during_callback();
    std::atomic<int> start{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++)
        threads.emplace_back(worker, t, &start);
    start = 1;
    // The main thread keeps asking too while the workers run.
    for (int i = 0; i < 200; i++) {
        size_t free_b = 0, total_b = 0;
        CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
        CHECK(free_b <= total_b);
        CHECK_CUDA(cudaDeviceSynchronize());
    }
    for (auto &t : threads)
        t.join();
    // Callbacks ran on a runtime thread, never on the thread that added them.
    CHECK(callbacks_on_caller.load() == 0);
    test_last_error_per_thread();
    std::printf("rt_threads: all checks passed (%d threads x %d rounds)\n",
                kThreads, kRounds);
    return 0;
}
