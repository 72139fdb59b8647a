/*
 * rt_thread.c — the drop-in runtime and host threads: the API lock and the
 * callback thread.
 *
 * CUDA's runtime may be called from any number of host threads at once
 * (OpenMP loops, a thread per stream or per GPU). The simulated device is one
 * sequential machine, and every launch and copy completes inside its call
 * (docs/runtime.md), so the runtime serialises its API: each exported entry
 * point holds one recursive lock for its whole duration (RT_API in
 * rt_internal.h). Recursive, because entry points call each other (a graph
 * launch runs memcpy nodes through the copy path). What CUDA keeps per host
 * thread is thread-local instead: the last error, the <<<...>>> launch
 * configuration stack, the next launch's locality hint.
 *
 * Stream callbacks and host functions (cudaStreamAddCallback,
 * cudaLaunchHostFunc, graph host nodes) run on a thread of the runtime, as in
 * CUDA, not on the thread that enqueued them. The enqueuing call waits for
 * the function to return (everything before it in the stream is done, and
 * nothing after it may start), holding the API lock. CUDA forbids API calls
 * from a callback; here they return cudaErrorNotPermitted, as the CUDA
 * documentation of cudaStreamAddCallback says they will, instead of waiting
 * for the lock forever.
 */
#include "rt_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* ---- the API lock --------------------------------------------------------- */

static pthread_mutex_t api_lock;
static pthread_once_t api_lock_once = PTHREAD_ONCE_INIT;

static void api_lock_init(void)
{
    pthread_mutexattr_t a;
    if (pthread_mutexattr_init(&a) != 0 ||
        pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE) != 0 ||
        pthread_mutex_init(&api_lock, &a) != 0) {
        fprintf(stderr, "smcosim runtime: cannot create the API lock\n");
        abort();
    }
    pthread_mutexattr_destroy(&a);
}

int rt_lock_acquire(void)
{
    pthread_once(&api_lock_once, api_lock_init);
    pthread_mutex_lock(&api_lock);
    return 1;
}

/* At exit (the statistics file): another thread may be inside a CUDA call
 * that never returns to us (exit() called beside it); wait for it at most
 * two seconds rather than hang the exit. 1 when the lock is held. */
int rt_lock_acquire_at_exit(void)
{
    pthread_once(&api_lock_once, api_lock_init);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 2;
    return pthread_mutex_timedlock(&api_lock, &until) == 0;
}

void rt_lock_release(int *held)
{
    if (*held)
        pthread_mutex_unlock(&api_lock);
}

/* ---- the callback thread -------------------------------------------------- */

/* Set on the callback thread only. */
static _Thread_local int on_callback_thread;

int rt_on_callback_thread(void)
{
    return on_callback_thread;
}

/* One job at a time: the enqueuing call holds the API lock while it waits. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    void (*fn)(void *);
    void *arg;
    int pending;       /* a job is posted and not yet done */
} cb = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, 0 };

static pthread_once_t cb_once = PTHREAD_ONCE_INIT;
static int cb_started;

static void *callback_main(void *unused)
{
    (void)unused;
    on_callback_thread = 1;
    pthread_mutex_lock(&cb.mu);
    for (;;) {
        while (!cb.pending || !cb.fn)
            pthread_cond_wait(&cb.cv, &cb.mu);
        void (*fn)(void *) = cb.fn;
        void *arg = cb.arg;
        pthread_mutex_unlock(&cb.mu);
        fn(arg);
        pthread_mutex_lock(&cb.mu);
        cb.fn = NULL;
        cb.pending = 0;
        pthread_cond_broadcast(&cb.cv);
    }
    return NULL;
}

static void callback_start(void)
{
    pthread_t t;
    pthread_attr_t a;
    /* Detached: it waits for work until the process exits. */
    if (pthread_attr_init(&a) == 0 &&
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED) == 0 &&
        pthread_create(&t, &a, callback_main, NULL) == 0)
        cb_started = 1;
    else
        fprintf(stderr, "smcosim runtime: cannot start the callback thread; "
                "callbacks run on the calling thread\n");
    pthread_attr_destroy(&a);
}

void rt_run_host_fn(void (*fn)(void *), void *arg)
{
    pthread_once(&cb_once, callback_start);
    if (!cb_started || on_callback_thread) {
        fn(arg);
        return;
    }
    pthread_mutex_lock(&cb.mu);
    while (cb.pending)
        pthread_cond_wait(&cb.cv, &cb.mu);
    cb.fn = fn;
    cb.arg = arg;
    cb.pending = 1;
    pthread_cond_broadcast(&cb.cv);
    while (cb.pending)
        pthread_cond_wait(&cb.cv, &cb.mu);
    pthread_mutex_unlock(&cb.mu);
}
