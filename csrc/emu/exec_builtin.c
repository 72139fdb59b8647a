/*
 * exec_builtin.c — the device-runtime calls the linker turns into builtins
 * (calls with a mode other than MD_NONE): vprintf, malloc/free on the
 * device heap, __assertfail.
 */
#include "exec_internal.h"

#include <stdio.h>

/* ---- device-runtime builtins: vprintf, __assertfail ------------------------ */
static bool read_cstr(const ctx *X, int lane, uint64_t addr, char *buf, size_t cap) {
    size_t i = 0;
    for (; i + 1 < cap; i++) {
        const char *p = emu_xlate(X, lane, SP_GENERIC, addr + i, 1, false, NULL);
        if (!p) return false;
        if (!(buf[i] = *p)) return true;
    }
    buf[i] = 0;
    return true;
}

static bool read_slot(const ctx *X, int lane, const ptx_operand *o, uint64_t *v) {
    const uint8_t *p = emu_xlate(X, lane, SP_LOCAL, addr_of(X, o, lane), 8, false, NULL);
    if (!p) return false;
    *v = load_bytes(p, 8);
    return true;
}

/* Format one lane's printf into out (CUDA's vprintf: arguments packed in a
 * buffer, each aligned to its size; floats arrive as doubles). Returns the
 * number of conversions, or -1 after a fault. */
/* Next argument of the packed buffer: sz bytes at off rounded up to sz. */
static bool next_arg(const ctx *X, int lane, uint64_t args, size_t *off, uint32_t sz, uint64_t *v) {
    *off = (*off + sz - 1) / sz * sz;
    const uint8_t *p = emu_xlate(X, lane, SP_GENERIC, args + *off, sz, false, NULL);
    if (!p) return false;
    *v = load_bytes(p, sz);
    *off += sz;
    return true;
}

static int format_lane(const ctx *X, int lane, const char *fmt, uint64_t args, char *out, size_t cap) {
    size_t n = 0, off = 0;
    int count = 0;
    for (const char *f = fmt; *f && n + 1 < cap; f++) {
        if (*f != '%') { out[n++] = *f; continue; }
        if (f[1] == '%') { out[n++] = '%'; f++; continue; }
        char spec[64]; size_t k = 0;
        spec[k++] = '%';
        f++;
        while (*f && strchr("-+ #0", *f) && k < 8) spec[k++] = *f++;
        uint64_t star;
        if (*f == '*') {                     /* width from an int argument */
            f++;
            if (!next_arg(X, lane, args, &off, 4, &star)) return -1;
            long long wv = (int32_t)star;    /* negative: the '-' flag and |width| */
            if (wv < 0) { spec[k++] = '-'; wv = -wv; }
            if (wv > 4095) wv = 4095;        /* the output buffer's size anyway */
            k += (size_t)snprintf(spec + k, sizeof spec - k, "%lld", wv);
        } else {
            while (*f >= '0' && *f <= '9' && k < 24) spec[k++] = *f++;
        }
        if (*f == '.') {
            f++;
            if (*f == '*') {                 /* precision from an int argument; negative: none */
                f++;
                if (!next_arg(X, lane, args, &off, 4, &star)) return -1;
                int32_t pv = (int32_t)star;
                if (pv >= 0) k += (size_t)snprintf(spec + k, sizeof spec - k, ".%d", pv > 4095 ? 4095 : pv);
            } else {
                spec[k++] = '.';
                while (*f >= '0' && *f <= '9' && k < 40) spec[k++] = *f++;
            }
        }
        int lng = 0, shrt = 0;               /* l/ll/z/j/t/L; h (1) or hh (2) */
        while (*f && strchr("hlLzjt", *f)) { if (*f == 'h') shrt++; else lng++; f++; }
        char conv = *f;
        if (!conv) break;
        uint32_t sz = (strchr("diuxXoc", conv) && !lng) ? 4 : 8;
        if (!strchr("diuxXocfFeEgGaAsp", conv)) {       /* unknown: print as written */
            if (n + 2 < cap) { out[n++] = '%'; out[n++] = conv; }
            continue;
        }
        uint64_t v;
        if (!next_arg(X, lane, args, &off, sz, &v)) return -1;
        count++;
        if (!lng && shrt) {                  /* the int argument converted to (unsigned) short/char */
            bool sg = strchr("di", conv) != NULL;
            if (shrt == 1) v = sg ? (uint64_t)(int64_t)(int16_t)v : (uint16_t)v;
            else v = sg ? (uint64_t)(int64_t)(int8_t)v : (uint8_t)v;
            if (sg) sz = 8;                  /* already sign-extended to 64 bits */
        }
        int w = 0;
        if (strchr("di", conv)) {
            spec[k++] = 'l'; spec[k++] = 'l'; spec[k++] = conv; spec[k] = 0;
            long long sv = sz == 4 ? (long long)(int32_t)v : (long long)v;
            w = snprintf(out + n, cap - n, spec, sv);
        } else if (strchr("uxXo", conv)) {
            spec[k++] = 'l'; spec[k++] = 'l'; spec[k++] = conv; spec[k] = 0;
            w = snprintf(out + n, cap - n, spec, (unsigned long long)v);
        } else if (conv == 'c') {
            spec[k++] = 'c'; spec[k] = 0;
            w = snprintf(out + n, cap - n, spec, (int)(unsigned char)v);
        } else if (conv == 's') {
            char str[1024];
            if (v == 0) snprintf(str, sizeof str, "(null)");
            else if (!read_cstr(X, lane, v, str, sizeof str)) return -1;
            spec[k++] = 's'; spec[k] = 0;
            w = snprintf(out + n, cap - n, spec, str);
        } else if (conv == 'p') {
            w = snprintf(out + n, cap - n, "0x%llx", (unsigned long long)v);
        } else {
            spec[k++] = conv; spec[k] = 0;
            w = snprintf(out + n, cap - n, spec, f64(v));
        }
        if (w > 0) n += (size_t)w < cap - n ? (size_t)w : cap - n - 1;
    }
    out[n] = 0;
    return count;
}

int exec_builtin(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    if (in->mode == MD_MALLOC || in->mode == MD_FREE) {
        /* malloc/free in a kernel: the device heap (DM_HEAP allocations of
         * device memory, at most heap_limit bytes in use: CUDA's
         * cudaLimitMallocHeapSize). Lanes in order, so addresses are
         * deterministic. malloc returns NULL when the heap is full, as on a
         * GPU; free(NULL) does nothing; freeing anything else than a live
         * malloc() block is a fault naming the address. */
        devmem *m = X->c->l->d.mem;
        uint64_t limit = m->heap_limit ? m->heap_limit : DEVMEM_HEAP_DEFAULT;
        LANES(act) {
            uint64_t arg = 0;
            if (in->nops < 2 || !read_slot(X, (int)lane, &in->ops[1], &arg)) return EMU_FAULT;
            if (in->mode == MD_MALLOC) {
                uint64_t addr = 0;
                if (arg > 0 && arg <= limit - m->heap_in_use) {
                    addr = devmem_alloc_bytes(m, arg, DM_HEAP);
                    if (addr) m->heap_in_use += arg;
                }
                if (in->ops[0].kind == OK_ADDR) {
                    uint8_t *p = emu_xlate(X, (int)lane, SP_LOCAL, addr_of(X, &in->ops[0], (int)lane), 8, true, NULL);
                    if (!p) return EMU_FAULT;
                    store_bytes(p, addr, 8);
                }
            } else if (arg) {
                int32_t i = devmem_find(m, arg, 1);
                if (i < 0 || m->a[i].start != arg || m->a[i].kind != DM_HEAP)
                    return emu_fault(X->c, X->wi, (int)lane, X->pc, SMC_ERR_ILLEGAL_ADDRESS, arg,
                                 "free(0x%llx): not a block from malloc() in a kernel", (unsigned long long)arg);
                m->heap_in_use -= m->a[i].size;
                devmem_free(m, arg);
            }
        }
        return EMU_OK;
    }
    if (in->mode == MD_ASSERTFAIL) {
        if (!act) return EMU_OK;
        int lane = __builtin_ctz(act);
        uint64_t msg = 0, file = 0, line = 0, func = 0;
        char m[128] = "?", f[96] = "?", fn[128] = "?";
        if (in->nops > 1 && read_slot(X, lane, &in->ops[1], &msg)) read_cstr(X, lane, msg, m, sizeof m);
        if (in->nops > 2 && read_slot(X, lane, &in->ops[2], &file)) read_cstr(X, lane, file, f, sizeof f);
        if (in->nops > 3) read_slot(X, lane, &in->ops[3], &line);
        if (in->nops > 4 && read_slot(X, lane, &in->ops[4], &func)) read_cstr(X, lane, func, fn, sizeof fn);
        if (X->c->l->fault.status != SMC_OK) return EMU_FAULT;
        return emu_fault(X->c, X->wi, lane, X->pc, SMC_ERR_ASSERT, 0, "assertion '%.80s' failed at %.60s:%u in %.80s",
                     m, f, (uint32_t)line, fn);
    }
    LANES(act) {
        uint64_t fmt, args = 0;
        if (in->nops < 2 || !read_slot(X, (int)lane, &in->ops[1], &fmt)) return EMU_FAULT;
        if (in->nops > 2 && !read_slot(X, (int)lane, &in->ops[2], &args)) return EMU_FAULT;
        char f[1024], out[4096];
        if (!read_cstr(X, (int)lane, fmt, f, sizeof f)) return EMU_FAULT;
        int cnt = format_lane(X, (int)lane, f, args, out, sizeof out);
        if (cnt < 0) return EMU_FAULT;
        fputs(out, stdout);
        if (in->ops[0].kind == OK_ADDR) {
            uint8_t *p = emu_xlate(X, (int)lane, SP_LOCAL, addr_of(X, &in->ops[0], (int)lane), 4, true, NULL);
            if (!p) return EMU_FAULT;
            store_bytes(p, (uint64_t)(uint32_t)cnt, 4);
        }
    }
    fflush(stdout);
    return EMU_OK;
}
