/*
 * trace_export.c — Accel-Sim traces from programs run on the emulator
 * (trace_export.h; docs/traces.md "Exporting").
 *
 * A launch runs functionally: CTAs one after another; inside a CTA the
 * warps take turns, one instruction each (a warp at a barrier waits until
 * the emulator releases it). Every executed warp-instruction becomes one
 * line, kept per warp and written when the CTA is done, in the tracer's
 * layout (version 4): PC (the instruction index x 16, as SASS instructions
 * are 16 bytes), the lanes that executed it, destination and source
 * registers (the allocated 32-bit registers; predicates are not traced, as
 * the NVBit tracer does not trace them), the PTX-level opcode, and for
 * memory instructions the bytes per lane and the addresses, compressed as
 * the tracer does: base+stride when the active lanes are contiguous with a
 * constant stride, otherwise base+deltas.
 *
 * Files are complete after every launch (a CUDA program never destroys its
 * device).
 */
#include "trace_export.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../ptx/ptx.h"
#include "../ptx/link.h"

struct trace_export {
    char    *dir;
    uint32_t kernels;
};

static const char *const class_names[EC_COUNT] = {
    [EC_INT] = "INT", [EC_FP32] = "FP32", [EC_FP64] = "FP64", [EC_SFU] = "SFU",
    [EC_MEM] = "MEM", [EC_BRANCH] = "BRANCH", [EC_BARRIER] = "BARRIER", [EC_EXIT] = "EXIT",
    [EC_WARP] = "WARP", [EC_NOP] = "NOP",
};

static void upper(char *s)
{
    for (; *s; s++)
        *s = (char)toupper((unsigned char)*s);
}

void trace_ptx_opcode(const emu_inst_info *in, char *buf, size_t cap)
{
    const char *cls = in->op_class < EC_COUNT ? class_names[in->op_class] : "NOP";
    if (in->op_class == EC_MEM && in->mem_space < SP_COUNT)
        snprintf(buf, cap, "%s.%s.%s", ptx_op_name[in->op], cls, ptx_space_name[in->mem_space]);
    else
        snprintf(buf, cap, "%s.%s", ptx_op_name[in->op], cls);
    upper(buf);
}

/* Compare a dot-separated field (length n) with a name, ignoring case. */
static int field_is(const char *f, size_t n, const char *name)
{
    if (strlen(name) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (toupper((unsigned char)f[i]) != toupper((unsigned char)name[i]))
            return 0;
    return 1;
}

int trace_ptx_opcode_parse(const char *opcode, emu_inst_info *in)
{
    const char *f[3];
    size_t n[3];
    unsigned nf = 0;
    for (const char *p = opcode; nf < 3; nf++) {
        f[nf] = p;
        n[nf] = strcspn(p, ".");
        p += n[nf];
        if (!*p) {
            nf++;
            break;
        }
        p++;
    }
    if (nf < 2)
        return -1;
    int op = -1, cls = -1, sp = -1;
    for (int i = 0; i < OP_COUNT && op < 0; i++)
        if (ptx_op_name[i] && field_is(f[0], n[0], ptx_op_name[i]))
            op = i;
    for (int i = 0; i < EC_COUNT && cls < 0; i++)
        if (field_is(f[1], n[1], class_names[i]))
            cls = i;
    if (op < 0 || cls < 0)
        return -1;
    if (cls == EC_MEM) {
        if (nf != 3)
            return -1;
        for (int i = 0; i < SP_COUNT && sp < 0; i++)
            if (field_is(f[2], n[2], ptx_space_name[i]))
                sp = i;
        if (sp < 0)
            return -1;
    } else if (nf != 2) {
        return -1;
    }
    in->op = (uint8_t)op;
    in->op_class = (uint8_t)cls;
    in->mem_space = (uint8_t)(sp < 0 ? 0 : sp);
    emu_inst_flags(in);
    return 0;
}

/* ---- files ------------------------------------------------------------------- */

trace_export *trace_export_open(const char *dir, char *err, size_t errlen)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create the folder: %s", dir, strerror(errno));
        return NULL;
    }
    trace_export *x = calloc(1, sizeof *x);
    if (!x || !(x->dir = strdup(dir))) {
        free(x);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        trace_export_close(x);
        return NULL;
    }
    fclose(f);
    return x;
}

void trace_export_close(trace_export *x)
{
    if (!x)
        return;
    free(x->dir);
    free(x);
}

/* Append a line to kernelslist.g (0, or -1). */
static int list_line(trace_export *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int list_line(trace_export *x, const char *fmt, ...)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/kernelslist.g", x->dir);
    FILE *f = fopen(path, "a");
    if (!f)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    return fclose(f) == 0 ? 0 : -1;
}

void trace_export_memcpy(trace_export *x, uint64_t dst, uint64_t bytes)
{
    if (list_line(x, "MemcpyHtoD,0x%016" PRIx64 ",%" PRIu64 "\n", dst, bytes) != 0)
        fprintf(stderr, "smcosim: trace export: %s/kernelslist.g: cannot write\n", x->dir);
}

/* One executed instruction as a trace line. */
static void write_line(FILE *f, const emu_inst_info *in, const emu_exec_info *e)
{
    fprintf(f, "%04x %08x", in->pc * 16, e->active);
    fprintf(f, " %u", in->ndst);
    for (unsigned i = 0; i < in->ndst; i++)
        fprintf(f, " R%u", in->dst[i]);
    char op[64];
    trace_ptx_opcode(in, op, sizeof op);
    fprintf(f, " %s %u", op, in->nsrc);
    for (unsigned i = 0; i < in->nsrc; i++)
        fprintf(f, " R%u", in->src[i]);
    if (in->op_class != EC_MEM) {
        fputs(" 0\n", f);
        return;
    }
    unsigned width = e->access_size ? e->access_size : in->access_size ? in->access_size : 4;
    fprintf(f, " %u", width);
    /* base+stride when the active lanes are one run with a constant stride */
    uint32_t m = e->active;
    int first = m ? __builtin_ctz(m) : 0, last = m ? 31 - __builtin_clz(m) : 0;
    int run = m && (uint64_t)(m >> first) + 1 == (UINT64_C(1) << (last - first + 1));
    int64_t stride = 0;
    if (run && last > first) {
        stride = (int64_t)(e->addr[first + 1] - e->addr[first]);
        for (int l = first + 1; l <= last && run; l++)
            run = (int64_t)(e->addr[l] - e->addr[l - 1]) == stride && stride >= INT32_MIN &&
                  stride <= INT32_MAX;
    }
    if (!m) {
        fputs(" 1 0x0 0\n", f);
    } else if (run) {
        fprintf(f, " 1 0x%" PRIx64 " %" PRId64 "\n", e->addr[first], stride);
    } else {
        fprintf(f, " 2 0x%" PRIx64, e->addr[first]);
        uint64_t prev = e->addr[first];
        for (int l = first + 1; l < 32; l++)
            if ((m >> l) & 1) {
                fprintf(f, " %" PRId64, (int64_t)(e->addr[l] - prev));
                prev = e->addr[l];
            }
        fputc('\n', f);
    }
}

smc_status trace_export_launch(trace_export *x, emu_launch *l, const emu_kernel *ek,
                               const char *kernel_name, smc_dim3 grid, smc_dim3 block,
                               uint32_t smem_bytes, uint32_t regs_per_thread,
                               char *msg, size_t msglen)
{
    char name[64], path[4096];
    snprintf(name, sizeof name, "kernel-%u.traceg", ++x->kernels);
    snprintf(path, sizeof path, "%s/%s", x->dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(msg, msglen, "trace export: %s: cannot write: %s", path, strerror(errno));
        return SMC_ERR_LAUNCH_FAILED;
    }
    fprintf(f, "-kernel name = %s\n-kernel id = %u\n-grid dim = (%u,%u,%u)\n"
            "-block dim = (%u,%u,%u)\n-shmem = %u\n-nregs = %u\n-binary version = %d\n"
            "-cuda stream id = 0\n-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n"
            "-nvbit version = smcosim\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
            "mem_width [adrrescompress?] [mem_addresses]\n"
            "#smcosim trace-export: PTX-level opcodes (OP.CLASS[.SPACE]), docs/traces.md\n\n",
            kernel_name, x->kernels, grid.x, grid.y, grid.z, block.x, block.y, block.z,
            smem_bytes, regs_per_thread, TRACE_PTX_BINARY_VERSION);
    (void)ek;
    smc_status st = SMC_OK;
    uint32_t nctas = emu_launch_num_ctas(l);
    for (uint32_t c = 0; c < nctas && st == SMC_OK; c++) {
        emu_cta *cta = emu_cta_create(l, c, 0);
        if (!cta) {
            st = SMC_ERR_OUT_OF_MEMORY;
            snprintf(msg, msglen, "trace export: out of host memory");
            break;
        }
        uint32_t nw = emu_cta_num_warps(cta);
        char **buf = calloc(nw, sizeof *buf);
        size_t *len = calloc(nw, sizeof *len);
        FILE **wf = calloc(nw, sizeof *wf);
        uint64_t *cnt = calloc(nw, sizeof *cnt);
        int ok = buf && len && wf && cnt;
        for (uint32_t w = 0; ok && w < nw; w++)
            ok = (wf[w] = open_memstream(&buf[w], &len[w])) != NULL;
        if (!ok) {
            st = SMC_ERR_OUT_OF_MEMORY;
            snprintf(msg, msglen, "trace export: out of host memory");
        }
        while (st == SMC_OK && !emu_cta_done(cta)) {
            int progressed = 0;
            for (uint32_t w = 0; w < nw && st == SMC_OK; w++) {
                if (emu_warp_exited(cta, w) || !emu_warp_ready(cta, w))
                    continue;
                emu_exec_info e;
                int r = emu_warp_execute(cta, w, &e);
                if (r == EMU_FAULT) {
                    const smc_fault *fl = emu_launch_fault(l);
                    st = fl->status != SMC_OK ? fl->status : SMC_ERR_LAUNCH_FAILED;
                    snprintf(msg, msglen, "%s", fl->message);
                    break;
                }
                write_line(wf[w], emu_kernel_inst(ek, e.pc), &e);
                cnt[w]++;
                progressed = 1;
            }
            if (st == SMC_OK && !progressed) {
                st = SMC_ERR_LAUNCH_TIMEOUT;
                snprintf(msg, msglen, "trace export: kernel %s: CTA %u: no warp can go on "
                         "(barrier deadlock)", kernel_name, c);
            }
        }
        if (st == SMC_OK) {
            uint32_t gx = grid.x, gy = grid.y;
            fprintf(f, "#BEGIN_TB\n\nthread block = %u,%u,%u\n\n", c % gx, c / gx % gy, c / gx / gy);
            for (uint32_t w = 0; w < nw; w++) {
                fclose(wf[w]);
                wf[w] = NULL;
                fprintf(f, "warp = %u\ninsts = %" PRIu64 "\n", w, cnt[w]);
                fwrite(buf[w], 1, len[w], f);
                fputc('\n', f);
            }
            fputs("#END_TB\n\n", f);
        }
        for (uint32_t w = 0; w < nw; w++) {
            if (wf && wf[w])
                fclose(wf[w]);
            if (buf)
                free(buf[w]);
        }
        free(buf);
        free(len);
        free(wf);
        free(cnt);
        emu_cta_destroy(cta);
    }
    if (fclose(f) != 0 && st == SMC_OK) {
        snprintf(msg, msglen, "trace export: %s: write error", path);
        st = SMC_ERR_LAUNCH_FAILED;
    }
    if (st == SMC_OK && list_line(x, "%s\n", name) != 0) {
        snprintf(msg, msglen, "trace export: %s/kernelslist.g: cannot write", x->dir);
        st = SMC_ERR_LAUNCH_FAILED;
    }
    return st;
}
