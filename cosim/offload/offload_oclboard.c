/*
 * offload_oclboard.c -- the "ocl-board" offload transport: the board RTL
 * kernel (fpga/board/sched_kernel.sv) on an FPGA accelerator card through
 * the OpenCL host API, loaded with clCreateProgramWithBinary from an
 * xclbin (AMD Vitis) or aocx (Intel FPGA SDK for OpenCL) file.
 *
 * NEVER RUN ON A BOARD: no bitstream has been built for this project and
 * no accelerator was available; only the failure paths ran here
 * (tests/offload/test_offload_board.c). The path it would take is the one
 * "vl-board" exercises on the Verilated kernel with the same record format
 * (offload_board.h); docs/offload.md, "Board kernel", says what the binary
 * must contain.
 *
 * arg: the binary's path. The binary must hold, per compute unit i = 1..U
 * (U = lanes / NumLanes rounded up, NumLanes given as ",lanes=N", default
 * 4), the RTL kernel sched_kernel:{sched_kernel_i} (scalar arguments
 * n_cycles, n_lanes) with its streams connected to two data movers,
 * sched_mm2s:{sched_mm2s_i} (global buffer of 64-bit input beats, beat
 * count) and sched_s2mm:{sched_s2mm_i} (global buffer for output beats,
 * beat count), the Vitis "RTL kernel with k2k streams and mm data movers"
 * pattern.
 *
 * Failures name their cause: no binary argument, an unreadable binary, no
 * OpenCL platform or no device of type ACCELERATOR ("no accelerator: ..."),
 * or the OpenCL call that failed with its error code.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "offload_board.h"
#include "offload_transport.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ocl_unit {
    cl_kernel core, mm2s, s2mm;
    unsigned  lanes;
} ocl_unit;

struct offload_dev {
    sched_params     params;
    unsigned         lanes, units, lanes_per_unit;
    unsigned         in_bits, out_bits, in_beats, out_beats;
    cl_context       ctx;
    cl_command_queue q;
    cl_program       prog;
    ocl_unit        *u;
    uint64_t        *beats;   /* host staging for one unit's records */
};

static void ob_close(offload_dev *d)
{
    if (!d) return;
    for (unsigned i = 0; d->u && i < d->units; i++) {
        if (d->u[i].core) clReleaseKernel(d->u[i].core);
        if (d->u[i].mm2s) clReleaseKernel(d->u[i].mm2s);
        if (d->u[i].s2mm) clReleaseKernel(d->u[i].s2mm);
    }
    if (d->prog) clReleaseProgram(d->prog);
    if (d->q) clReleaseCommandQueue(d->q);
    if (d->ctx) clReleaseContext(d->ctx);
    free(d->u);
    free(d->beats);
    free(d);
}

/* The whole file, or NULL with a message. */
static unsigned char *read_binary(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read the kernel binary '%s': %s", path, strerror(errno));
        return NULL;
    }
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 20;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                snprintf(err, errlen, "'%s': out of host memory", path);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || n == 0) {
        free(buf);
        snprintf(err, errlen, "cannot read the kernel binary '%s': %s", path,
                 bad ? "read error" : "empty file");
        return NULL;
    }
    *len = n;
    return buf;
}

/* The first device of type ACCELERATOR on any platform, or -1 with a
 * message that starts with "no accelerator". */
static int find_accelerator(cl_device_id *dev, char *err, size_t errlen)
{
    cl_uint np = 0;
    cl_int rc = clGetPlatformIDs(0, NULL, &np);
    if (rc != CL_SUCCESS || np == 0) {
        snprintf(err, errlen, "no accelerator: no OpenCL platform (clGetPlatformIDs: %s)",
                 rc == CL_SUCCESS ? "0 platforms" : rc == -1001 ? "error -1001, no ICD found"
                                                                 : "error");
        return -1;
    }
    cl_platform_id plats[16];
    if (np > 16) np = 16;
    if (clGetPlatformIDs(np, plats, NULL) != CL_SUCCESS) {
        snprintf(err, errlen, "no accelerator: clGetPlatformIDs failed");
        return -1;
    }
    char names[256] = "";
    size_t nl = 0;
    for (cl_uint i = 0; i < np; i++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ACCELERATOR, 1, dev, &nd) == CL_SUCCESS &&
            nd > 0)
            return 0;
        char name[96] = "?";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        name[sizeof name - 1] = '\0';
        if (nl + strlen(name) + 3 < sizeof names)
            nl += (size_t)snprintf(names + nl, sizeof names - nl, "%s'%s'", i ? ", " : "", name);
    }
    snprintf(err, errlen, "no accelerator: no OpenCL device of type ACCELERATOR on the %u "
             "platform(s) found (%s)", np, names);
    return -1;
}

#define CL_TRY(call, what)                                                                  \
    do {                                                                                    \
        cl_int rc_ = (call);                                                                \
        if (rc_ != CL_SUCCESS) {                                                            \
            snprintf(err, errlen, "%s: error %d", (what), (int)rc_);                        \
            return -1;                                                                      \
        }                                                                                   \
    } while (0)

/* "PATH[,lanes=N]" -> path (in buf) and NumLanes. */
static int parse_arg(const char *arg, char *path, size_t plen, unsigned *lanes_per_unit,
                     char *err, size_t errlen)
{
    *lanes_per_unit = 4;
    const char *comma = strstr(arg, ",lanes=");
    size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
    if (n == 0) {
        snprintf(err, errlen, "needs the path of an xclbin or aocx file (ocl-board:PATH)");
        return -1;
    }
    if (n >= plen) {
        snprintf(err, errlen, "binary path too long");
        return -1;
    }
    memcpy(path, arg, n);
    path[n] = '\0';
    if (comma) {
        char *end;
        unsigned long v = strtoul(comma + 7, &end, 10);
        if (*end || v == 0 || v > 4096) {
            snprintf(err, errlen, "argument '%s': lanes=N needs N in 1..4096", arg);
            return -1;
        }
        *lanes_per_unit = (unsigned)v;
    }
    return 0;
}

static int setup(offload_dev *d, const unsigned char *bin, size_t len, cl_device_id dev,
                 const char *path, char *err, size_t errlen)
{
    cl_int rc;
    d->ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
    CL_TRY(rc, "clCreateContext");
    /* out of order: the three kernels of an exchange run at once, joined by
     * their streams (an in-order queue would start the sink alone and wait
     * for it forever) */
    d->q = clCreateCommandQueue(d->ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &rc);
    CL_TRY(rc, "clCreateCommandQueue");
    cl_int bin_rc;
    d->prog = clCreateProgramWithBinary(d->ctx, 1, &dev, &len, &bin, &bin_rc, &rc);
    if (rc != CL_SUCCESS || bin_rc != CL_SUCCESS) {
        snprintf(err, errlen, "clCreateProgramWithBinary('%s'): error %d/%d (not a binary for "
                 "this device?)", path, (int)rc, (int)bin_rc);
        return -1;
    }
    CL_TRY(clBuildProgram(d->prog, 1, &dev, NULL, NULL, NULL), "clBuildProgram");
    for (unsigned i = 0; i < d->units; i++) {
        char name[96];
        cl_kernel *k[3] = { &d->u[i].core, &d->u[i].mm2s, &d->u[i].s2mm };
        const char *base[3] = { "sched_kernel", "sched_mm2s", "sched_s2mm" };
        for (int j = 0; j < 3; j++) {
            snprintf(name, sizeof name, "%s:{%s_%u}", base[j], base[j], i + 1);
            *k[j] = clCreateKernel(d->prog, name, &rc);
            if (rc != CL_SUCCESS) {
                snprintf(err, errlen, "'%s' has no kernel %s (error %d): %u lanes need %u "
                         "compute units of %u lanes", path, name, (int)rc, d->lanes, d->units,
                         d->lanes_per_unit);
                return -1;
            }
        }
    }
    return 0;
}

static offload_dev *ob_open(const sched_params *p, unsigned lanes, const char *arg, char *err,
                            size_t errlen)
{
    char path[4096];
    unsigned lpu;
    if (parse_arg(arg ? arg : "", path, sizeof path, &lpu, err, errlen) != 0) return NULL;
    size_t len = 0;
    unsigned char *bin = read_binary(path, &len, err, errlen);
    if (!bin) return NULL;
    cl_device_id dev;
    if (find_accelerator(&dev, err, errlen) != 0) {
        free(bin);
        return NULL;
    }
    offload_dev *d = calloc(1, sizeof *d);
    if (!d) {
        free(bin);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    d->params = *p;
    d->lanes = lanes;
    d->lanes_per_unit = lpu;
    d->units = (lanes + lpu - 1) / lpu;
    d->in_bits = offload_in_bits(p);
    d->out_bits = offload_out_bits(p);
    d->in_beats = offload_board_in_beats(d->in_bits);
    d->out_beats = offload_words(d->out_bits);
    d->u = calloc(d->units, sizeof *d->u);
    for (unsigned i = 0; d->u && i < d->units; i++)
        d->u[i].lanes = i + 1 < d->units ? lpu : lanes - i * lpu;
    if (!d->u || setup(d, bin, len, dev, path, err, errlen) != 0) {
        if (!d->u) snprintf(err, errlen, "out of host memory");
        free(bin);
        ob_close(d);
        return NULL;
    }
    free(bin);
    return d;
}

/* One exchange on one compute unit: stage its input records, run the
 * three kernels, read the output records back. */
static int run_unit(offload_dev *d, unsigned ui, unsigned k, const uint8_t *ctl,
                    const uint64_t *in, uint64_t *out, char *err, size_t errlen)
{
    ocl_unit *u = &d->u[ui];
    unsigned iw = offload_words(d->in_bits), ow = offload_words(d->out_bits);
    unsigned first = ui * d->lanes_per_unit, n = u->lanes;
    size_t recs = (size_t)k * n;
    cl_uint in_n = (cl_uint)(recs * d->in_beats), out_n = (cl_uint)(recs * d->out_beats);
    size_t need = (in_n > out_n ? in_n : out_n) * sizeof(uint64_t);
    uint64_t *b = realloc(d->beats, need);
    if (!b) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    d->beats = b;
    for (size_t r = 0; r < recs; r++) {
        size_t i = (r / n) * d->lanes + first + r % n;
        for (unsigned j = 0; j < d->in_beats; j++)
            b[r * d->in_beats + j] = offload_board_in_beat(ctl[i], in + i * iw, iw, j);
    }
    cl_int rc;
    cl_mem ibuf = clCreateBuffer(d->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 in_n * sizeof(uint64_t), b, &rc);
    CL_TRY(rc, "clCreateBuffer (input records)");
    cl_mem obuf = clCreateBuffer(d->ctx, CL_MEM_WRITE_ONLY, out_n * sizeof(uint64_t), NULL, &rc);
    if (rc != CL_SUCCESS) clReleaseMemObject(ibuf);
    CL_TRY(rc, "clCreateBuffer (output records)");
    cl_uint kc = k, nl = n;
    int ok = clSetKernelArg(u->mm2s, 0, sizeof ibuf, &ibuf) == CL_SUCCESS &&
             clSetKernelArg(u->mm2s, 1, sizeof in_n, &in_n) == CL_SUCCESS &&
             clSetKernelArg(u->s2mm, 0, sizeof obuf, &obuf) == CL_SUCCESS &&
             clSetKernelArg(u->s2mm, 1, sizeof out_n, &out_n) == CL_SUCCESS &&
             clSetKernelArg(u->core, 0, sizeof kc, &kc) == CL_SUCCESS &&
             clSetKernelArg(u->core, 1, sizeof nl, &nl) == CL_SUCCESS;
    /* the sink and the kernel first, so that the source never waits on them;
     * clFinish joins all three before the (blocking) read */
    ok = ok && clEnqueueTask(d->q, u->s2mm, 0, NULL, NULL) == CL_SUCCESS &&
         clEnqueueTask(d->q, u->core, 0, NULL, NULL) == CL_SUCCESS &&
         clEnqueueTask(d->q, u->mm2s, 0, NULL, NULL) == CL_SUCCESS &&
         clFinish(d->q) == CL_SUCCESS &&
         clEnqueueReadBuffer(d->q, obuf, CL_TRUE, 0, out_n * sizeof(uint64_t), b, 0, NULL,
                             NULL) == CL_SUCCESS;
    clReleaseMemObject(ibuf);
    clReleaseMemObject(obuf);
    if (!ok) {
        snprintf(err, errlen, "compute unit %u: enqueueing or running the kernels failed", ui + 1);
        return -1;
    }
    for (size_t r = 0; r < recs; r++) {
        size_t i = (r / n) * d->lanes + first + r % n;
        memcpy(out + i * ow, b + r * d->out_beats, ow * sizeof(uint64_t));
    }
    return 0;
}

static int ob_run(offload_dev *d, unsigned k, const uint8_t *ctl, const uint64_t *in,
                  uint64_t *out, char *err, size_t errlen)
{
    for (unsigned ui = 0; k && ui < d->units; ui++)
        if (run_unit(d, ui, k, ctl, in, out, err, errlen) != 0) return -1;
    return 0;
}

const offload_transport offload_transport_ocl_board = {
    .name = "ocl-board", .open = ob_open, .run = ob_run, .close = ob_close,
};
