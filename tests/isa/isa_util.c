/*
 * isa_util.c — shared harness of the instruction-set conformance tests.
 * See isa_util.h for the conventions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa_util.h"

/* Large enough for every generated module. */
#define ISA_PTX_MAX 65536

static int contains_word(const char *msg, const char *word)
{
    for (const char *p = msg; *p; p++) {
        size_t i = 0;
        while (word[i] && p[i] && tolower((unsigned char)p[i]) == word[i])
            i++;
        if (word[i] == '\0')
            return 1;
    }
    return 0;
}

/* The emulator's explicit statement that a feature is not implemented. */
static int contains_unsupported(const char *msg)
{
    return msg != NULL &&
           (contains_word(msg, "unsupported") || contains_word(msg, "not supported"));
}

int isa_setup(void **state)
{
    isa_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return -1;
    c->tcase = *state;
    smc_device_opts opts;
    memset(&opts, 0, sizeof opts);
    smc_status st = smc_device_create(&opts, &c->dev);
    if (st != SMC_OK) {
        print_error("smc_device_create: %s\n", smc_status_name(st));
        free(c);
        return -1;
    }
    *state = c;
    return 0;
}

int isa_teardown(void **state)
{
    isa_ctx *c = *state;
    if (c != NULL) {
        smc_device_destroy(c->dev);
        for (unsigned i = 0; i < c->nowned; i++)
            free(c->owned[i]);
        free(c);
    }
    return 0;
}

void *isa_calloc(isa_ctx *c, size_t n, size_t size)
{
    assert_true(c->nowned < sizeof c->owned / sizeof c->owned[0]);
    void *p = calloc(n ? n : 1, size ? size : 1);
    assert_non_null(p);
    c->owned[c->nowned++] = p;
    return p;
}

static void dump_ptx(isa_ctx *c, const char *ptx)
{
    const char *dir = getenv("ISA_DUMP_PTX");
    if (dir == NULL || *dir == '\0')
        return;
    static unsigned global_counter;   /* unique across tests of one binary */
    char path[512];
    snprintf(path, sizeof path, "%s/%s-%u.ptx", dir,
             c->tcase ? ((const isa_case_head *)c->tcase)->name : "t",
             global_counter++);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == '/' || *p == ' ')
            *p = '_';
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(ptx, f);
        fclose(f);
    }
    c->dumped++;
}

smc_module *isa_load(isa_ctx *c, const char *ptx)
{
    dump_ptx(c, ptx);
    smc_module *m = NULL;
    smc_status st = smc_module_load_ptx(c->dev, "isa-test.ptx", ptx,
                                        strlen(ptx), &m);
    if (st != SMC_OK) {
        const char *msg = smc_last_message(c->dev);
        if (st == SMC_ERR_INVALID_PTX && contains_unsupported(msg)) {
            print_message("SKIP (emulator reports unsupported): %s\n", msg);
            skip();
        }
        fail_msg("smc_module_load_ptx: %s: %s\n--- PTX ---\n%s",
                 smc_status_name(st), msg ? msg : "(no message)", ptx);
    }
    c->mod = m;
    return m;
}

smc_module *isa_loadf(isa_ctx *c, const char *fmt, ...)
{
    char *buf = isa_calloc(c, ISA_PTX_MAX, 1);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, ISA_PTX_MAX, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && n < ISA_PTX_MAX);
    return isa_load(c, buf);
}

smc_status isa_launch(isa_ctx *c, const char *name, smc_dim3 grid,
                      smc_dim3 block, uint32_t dyn_smem, unsigned nargs,
                      const uint64_t *args)
{
    smc_kernel *k = NULL;
    assert_non_null(c->mod);
    smc_status st = smc_module_get_kernel(c->mod, name, &k);
    if (st != SMC_OK)
        fail_msg("smc_module_get_kernel(%s): %s: %s", name,
                 smc_status_name(st), smc_last_message(c->dev));
    smc_kernel_info info;
    memset(&info, 0, sizeof info);
    smc_kernel_get_info(k, &info);
    assert_int_equal(info.num_params, nargs);
    unsigned char pbuf[4096];
    memset(pbuf, 0, sizeof pbuf);
    assert_true(info.param_bytes <= sizeof pbuf);
    for (unsigned i = 0; i < nargs; i++) {
        uint32_t off = 0, size = 0;
        st = smc_kernel_param(k, i, &off, &size);
        assert_int_equal(st, SMC_OK);
        assert_true(size <= 8 && off + size <= info.param_bytes);
        memcpy(pbuf + off, &args[i], size);   /* little-endian low bytes */
    }
    return smc_launch(c->dev, k, grid, block, dyn_smem, 0, pbuf,
                      info.param_bytes, NULL);
}

void isa_skip_if_unsupported(isa_ctx *c, smc_status st)
{
    if (st != SMC_ERR_ILLEGAL_INSTRUCTION && st != SMC_ERR_INVALID_PTX &&
        st != SMC_ERR_UNSUPPORTED)
        return;
    smc_fault f;
    memset(&f, 0, sizeof f);
    smc_device_fault(c->dev, &f);
    const char *msg = smc_last_message(c->dev);
    if (contains_unsupported(f.message) || contains_unsupported(msg)) {
        print_message("SKIP (emulator reports unsupported): %s\n",
                      f.message[0] ? f.message : msg);
        skip();
    }
}

void isa_launch_ok(isa_ctx *c, const char *name, smc_dim3 grid,
                   smc_dim3 block, uint32_t dyn_smem, unsigned nargs,
                   const uint64_t *args)
{
    smc_status st = isa_launch(c, name, grid, block, dyn_smem, nargs, args);
    if (st == SMC_OK)
        return;
    isa_skip_if_unsupported(c, st);
    smc_fault f;
    memset(&f, 0, sizeof f);
    smc_device_fault(c->dev, &f);
    fail_msg("launch of %s: %s: %s | fault: %s", name, smc_status_name(st),
             smc_last_message(c->dev), f.message);
}

uint64_t isa_alloc(isa_ctx *c, size_t bytes)
{
    uint64_t p = 0;
    smc_status st = smc_malloc(c->dev, bytes, SMC_MEM_DEVICE, &p);
    if (st != SMC_OK)
        fail_msg("smc_malloc(%zu): %s", bytes, smc_status_name(st));
    st = smc_memset(c->dev, p, 0, bytes);
    assert_int_equal(st, SMC_OK);
    return p;
}

uint64_t isa_alloc_copy(isa_ctx *c, const void *src, size_t bytes)
{
    uint64_t p = isa_alloc(c, bytes);
    assert_int_equal(smc_memcpy_htod(c->dev, p, src, bytes), SMC_OK);
    return p;
}

void isa_read(isa_ctx *c, void *dst, uint64_t src, size_t bytes)
{
    assert_int_equal(smc_memcpy_dtoh(c->dev, dst, src, bytes), SMC_OK);
}

size_t isa_type_size(const char *type)
{
    size_t n = strlen(type);
    if (n >= 2 && strcmp(type + n - 2, "64") == 0) return 8;
    if (n >= 2 && strcmp(type + n - 2, "32") == 0) return 4;
    if (n >= 2 && strcmp(type + n - 2, "16") == 0) return 2;
    if (n >= 1 && strcmp(type + n - 1, "8") == 0) return 1;
    fail_msg("isa_type_size: bad type '%s'", type);
    return 0;
}

/* Register type for a loaded value: 8-bit loads go into 16-bit registers. */
static const char *reg_type(const char *type, char *buf, size_t cap)
{
    if (isa_type_size(type) == 1) {
        snprintf(buf, cap, "%c16", type[0]);
        return buf;
    }
    return type;
}

void isa_elem_run(isa_ctx *c, const isa_elem_op *op, unsigned n,
                  const void *a, const void *b, const void *cc, void *d)
{
    const char *types[3] = { op->atype, op->btype, op->ctype };
    const void *host[3] = { a, b, cc };
    static const char *names[3] = { "xa", "xb", "xc" };
    char *ptx = isa_calloc(c, ISA_PTX_MAX, 1);
    size_t len = 0;
#define EMIT(...) do { \
        len += (size_t)snprintf(ptx + len, ISA_PTX_MAX - len, __VA_ARGS__); \
        assert_true(len < ISA_PTX_MAX); } while (0)
    char tb[8];
    EMIT(ISA_PTX_HEADER);
    EMIT(".visible .entry k(.param .u64 pd, .param .u64 pa, .param .u64 pb,"
         " .param .u64 pc, .param .u32 pn)\n{\n");
    EMIT("\t.reg .pred %%p<8>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<16>;\n");
    EMIT("\t.reg .b16 %%t16_<8>;\n\t.reg .b32 %%t32_<8>;\n\t.reg .b64 %%t64_<8>;\n");
    EMIT("\t.reg .%s %%xd;\n", reg_type(op->dtype, tb, sizeof tb));
    for (int i = 0; i < 3; i++)
        if (types[i])
            EMIT("\t.reg .%s %%%s;\n", reg_type(types[i], tb, sizeof tb),
                 names[i]);
    if (op->decls)
        EMIT("\t%s\n", op->decls);
    EMIT("\tmov.u32 %%r1, %%tid.x;\n\tmov.u32 %%r2, %%ctaid.x;\n"
         "\tmov.u32 %%r3, %%ntid.x;\n\tmad.lo.u32 %%r4, %%r2, %%r3, %%r1;\n"
         "\tld.param.u32 %%r5, [pn];\n\tsetp.ge.u32 %%p0, %%r4, %%r5;\n"
         "\t@%%p0 bra DONE;\n\tcvt.u64.u32 %%rd1, %%r4;\n");
    static const char *pnames[3] = { "pa", "pb", "pc" };
    for (int i = 0; i < 3; i++) {
        if (!types[i])
            continue;
        EMIT("\tld.param.u64 %%rd2, [%s];\n\tcvta.to.global.u64 %%rd2, %%rd2;\n"
             "\tmad.lo.u64 %%rd3, %%rd1, %zu, %%rd2;\n"
             "\tld.global.%s %%%s, [%%rd3];\n",
             pnames[i], isa_type_size(types[i]), types[i], names[i]);
    }
    EMIT("%s\n", op->body);
    EMIT("\tld.param.u64 %%rd2, [pd];\n\tcvta.to.global.u64 %%rd2, %%rd2;\n"
         "\tmad.lo.u64 %%rd3, %%rd1, %zu, %%rd2;\n"
         "\tst.global.%s [%%rd3], %%xd;\nDONE:\n\tret;\n}\n",
         isa_type_size(op->dtype), op->dtype);
#undef EMIT
    isa_load(c, ptx);

    uint64_t dev[3] = { 0, 0, 0 };
    for (int i = 0; i < 3; i++)
        if (types[i])
            dev[i] = isa_alloc_copy(c, host[i], n * isa_type_size(types[i]));
    size_t dbytes = n * isa_type_size(op->dtype);
    uint64_t dd = isa_alloc(c, dbytes);
    const unsigned bs = 64;
    smc_dim3 grid = { (n + bs - 1) / bs, 1, 1 }, block = { bs, 1, 1 };
    uint64_t args[5] = { dd, dev[0], dev[1], dev[2], n };
    isa_launch_ok(c, "k", grid, block, 0, 5, args);
    isa_read(c, d, dd, dbytes);
}

/* ---- comparisons ------------------------------------------------------- */

float isa_f32(uint32_t bits) { float f; memcpy(&f, &bits, 4); return f; }
uint32_t isa_bits32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
double isa_f64(uint64_t bits) { double d; memcpy(&d, &bits, 8); return d; }
uint64_t isa_bits64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* Map float bits onto a line where adjacent floats differ by one. */
static int64_t ordered32(float f)
{
    int32_t i = (int32_t)isa_bits32(f);
    return i < 0 ? (int64_t)INT32_MIN - i : i;
}

static int64_t ordered64(double d)
{
    int64_t i = (int64_t)isa_bits64(d);
    return i < 0 ? INT64_MIN - i : i;
}

uint64_t isa_ulp_diff_f32(float a, float b)
{
    if (isnan(a) || isnan(b))
        return (isnan(a) && isnan(b)) ? 0 : UINT64_MAX;
    int64_t x = ordered32(a), y = ordered32(b);
    return (uint64_t)(x > y ? x - y : y - x);
}

uint64_t isa_ulp_diff_f64(double a, double b)
{
    if (isnan(a) || isnan(b))
        return (isnan(a) && isnan(b)) ? 0 : UINT64_MAX;
    int64_t x = ordered64(a), y = ordered64(b);
    /* both within int64 range of each other for all values we test */
    return x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
}

int isa_same_f32(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return isa_bits32(a) == isa_bits32(b);
}

int isa_same_f64(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return isa_bits64(a) == isa_bits64(b);
}

/* ---- known emulator bugs ----------------------------------------------- */

#define KNOWN_MAX 128
typedef struct known_bug {
    char group[64], name[128], reason[256];
    int  still_fails;      /* result of running the real test in a child */
} known_bug;

static known_bug known[KNOWN_MAX];
static size_t    nknown;

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t i = 0;
    while (isspace((unsigned char)s[i]))
        i++;
    memmove(s, s + i, n - i + 1);
}

/* Reads the list once: lines "group | test name | reason", '#' comments. */
static void load_known(void)
{
    static int loaded;
    if (loaded)
        return;
    loaded = 1;
    const char *off = getenv("ISA_NO_KNOWN");
    if (off != NULL && *off != '\0' && strcmp(off, "0") != 0)
        return;
    const char *path = getenv("ISA_KNOWN_FAILURES");
    if (path == NULL)
        path = ISA_KNOWN_FAILURES_FILE;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    char line[512];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        trim(line);
        if (line[0] == '\0' || line[0] == '#')
            continue;
        char *bar1 = strchr(line, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
        if (bar2 == NULL || nknown == KNOWN_MAX) {
            fprintf(stderr, "%s:%u: expected 'group | test | reason'\n", path, lineno);
            continue;
        }
        *bar1 = *bar2 = '\0';
        known_bug *k = &known[nknown++];
        snprintf(k->group, sizeof k->group, "%.63s", line);
        snprintf(k->name, sizeof k->name, "%.127s", bar1 + 1);
        snprintf(k->reason, sizeof k->reason, "%.255s", bar2 + 1);
        trim(k->group);
        trim(k->name);
        trim(k->reason);
    }
    fclose(f);
}

#ifdef __SANITIZE_ADDRESS__
#define ISA_SAN_BUILD 1
#else
#define ISA_SAN_BUILD 0
#endif

/* A group written "san:<group>" names a bug seen only in the ASan/UBSan
 * build (an abort on undefined behaviour that is silent otherwise). */
static known_bug *find_known(const char *group, const char *name)
{
    for (size_t i = 0; i < nknown; i++) {
        const char *g = known[i].group;
        if (strncmp(g, "san:", 4) == 0) {
            if (!ISA_SAN_BUILD)
                continue;
            g += 4;
            while (isspace((unsigned char)*g))
                g++;
        }
        if (strcmp(g, group) == 0 && strcmp(known[i].name, name) == 0)
            return &known[i];
    }
    return NULL;
}

/* Runs one test in a child process with its output discarded; returns 1 when
 * it failed (or crashed). */
static int fails_in_child(const char *group, const struct CMUnitTest *t)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        int rc = _cmocka_run_group_tests(group, t, 1, NULL, NULL);
        _exit(rc != 0 ? 1 : 0);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0)
        return 1;
    return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void check_known_bug(void **state)
{
    const known_bug *k = *state;
    if (!k->still_fails)
        fail_msg("'%s' now passes: the emulator bug is fixed, remove the line from %s",
                 k->name, ISA_KNOWN_FAILURES_FILE);
    print_message("known emulator bug, still reproduces (run with ISA_NO_KNOWN=1 "
                  "to see the failure): %s\n", k->reason);
}

int isa_run_group(const char *group, const struct CMUnitTest *tests, size_t n)
{
    load_known();
    struct CMUnitTest *t = calloc(n, sizeof *t);
    char (*names)[160] = calloc(n, sizeof *names);
    if (t == NULL || names == NULL)
        return 1;
    for (size_t i = 0; i < n; i++) {
        t[i] = tests[i];
        known_bug *k = find_known(group, tests[i].name);
        if (k == NULL)
            continue;
        /* the real test runs in a child; the visible test checks that the
         * listed bug is still there, so a fix cannot go unnoticed */
        k->still_fails = fails_in_child(group, &tests[i]);
        snprintf(names[i], sizeof names[i], "KNOWN BUG: %s", tests[i].name);
        t[i].name = names[i];
        t[i].test_func = check_known_bug;
        t[i].setup_func = NULL;
        t[i].teardown_func = NULL;
        t[i].initial_state = k;
    }
    int rc = _cmocka_run_group_tests(group, t, n, NULL, NULL);
    free(t);
    free(names);
    return rc;
}

int isa_run_table(const char *group, void (*fn)(void **state),
                  const void *cases, size_t case_size, size_t ncases)
{
    struct CMUnitTest *t = calloc(ncases, sizeof *t);
    if (t == NULL)
        return 1;
    for (size_t i = 0; i < ncases; i++) {
        const isa_case_head *h =
            (const isa_case_head *)((const char *)cases + i * case_size);
        t[i].name = h->name;
        t[i].test_func = fn;
        t[i].setup_func = isa_setup;
        t[i].teardown_func = isa_teardown;
        t[i].initial_state = (void *)h;
    }
    int rc = isa_run_group(group, t, ncases);
    free(t);
    return rc;
}
