/*
 * test_malformed.c — the PTX loader on bad input: every malformed module
 * must give SMC_ERR_INVALID_PTX and a message naming the place as
 * `file:line:col`, and must never crash (this suite also runs under
 * ASan/UBSan).
 *
 *  - the files in tests/isa/ptx/malformed/: one defect each (truncated, unknown
 *    opcode, bad or missing operand, huge numbers, unterminated string,
 *    comment, parameter list and block, undeclared register, unknown label,
 *    duplicates, missing .version, empty file). The expected line ranges
 *    agree with what ptxas reports for the same files.
 *  - generated: random bytes, every truncation of a valid module, random
 *    byte mutations of it, 100000 nested blocks, a 1 MiB identifier, an
 *    embedded NUL byte.
 *
 * The suite runs from the repository root (as `make check` does).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_util.h"

#define MALFORMED_DIR "tests/isa/ptx/malformed/"

/* Does msg contain "name:L:C" with lo <= L <= hi and C >= 1? */
static int has_location(const char *msg, const char *name, unsigned lo, unsigned hi)
{
    size_t nl = strlen(name);
    for (const char *p = strstr(msg, name); p; p = strstr(p + 1, name)) {
        const char *q = p + nl;
        if (*q++ != ':' || !isdigit((unsigned char)*q))
            continue;
        unsigned long line = strtoul(q, (char **)&q, 10);
        if (*q++ != ':' || !isdigit((unsigned char)*q))
            continue;
        unsigned long col = strtoul(q, NULL, 10);
        if (line >= lo && line <= hi && col >= 1)
            return 1;
    }
    return 0;
}

/* Load text under `name` and require a located INVALID_PTX error. */
static void expect_error(isa_ctx *c, const char *name, const char *text, size_t len,
                         unsigned lo, unsigned hi)
{
    smc_module *m = NULL;
    smc_status st = smc_module_load_ptx(c->dev, name, text, len, &m);
    const char *msg = smc_last_message(c->dev);
    if (st != SMC_ERR_INVALID_PTX)
        fail_msg("%s: status %s, want SMC_ERR_INVALID_PTX (message: %s)", name,
                 smc_status_name(st), msg ? msg : "(none)");
    assert_non_null(msg);
    if (!has_location(msg, name, lo, hi))
        fail_msg("%s: message lacks %s:LINE:COL with LINE in [%u, %u]: \"%s\"", name,
                 name, lo, hi, msg);
}

/* ---- the file set ------------------------------------------------------- */

typedef struct bad_file {
    const char *name;        /* isa_case_head: the file name */
    unsigned lo, hi;         /* acceptable line range of the reported error */
} bad_file;

static const bad_file files[] = {
    { "truncated.ptx", 9, 10 },
    { "unknown_opcode.ptx", 9, 9 },
    { "missing_operand.ptx", 9, 9 },
    { "bad_operand.ptx", 9, 9 },
    { "trailing_garbage.ptx", 9, 9 },
    { "operand_type_mismatch.ptx", 9, 9 },
    { "undeclared_register.ptx", 9, 9 },
    { "unknown_label.ptx", 9, 9 },
    { "huge_immediate.ptx", 9, 9 },
    { "huge_register_count.ptx", 8, 8 },
    { "huge_float_literal.ptx", 8, 8 },
    { "unterminated_string.ptx", 5, 5 },
    { "unterminated_block.ptx", 5, 11 },
    { "unterminated_comment.ptx", 7, 11 },
    { "unterminated_params.ptx", 5, 6 },
    { "extra_brace.ptx", 10, 10 },
    { "missing_version.ptx", 1, 2 },
    { "duplicate_label.ptx", 10, 10 },
    { "duplicate_kernel.ptx", 9, 9 },
    { "empty.ptx", 1, 1 },
};

static void run_file(void **state)
{
    isa_ctx *c = *state;
    const bad_file *tc = c->tcase;
    char path[256];
    snprintf(path, sizeof path, MALFORMED_DIR "%s", tc->name);
    /* through the file API: the message names the path */
    smc_module *m = NULL;
    smc_status st = smc_module_load_ptx_file(c->dev, path, &m);
    const char *msg = smc_last_message(c->dev);
    if (st != SMC_ERR_INVALID_PTX)
        fail_msg("%s: status %s, want SMC_ERR_INVALID_PTX (message: %s)", path,
                 smc_status_name(st), msg ? msg : "(none)");
    if (!has_location(msg, path, tc->lo, tc->hi))
        fail_msg("%s: message lacks %s:LINE:COL with LINE in [%u, %u]: \"%s\"", path,
                 path, tc->lo, tc->hi, msg);
    /* and through the text API under another name */
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    expect_error(c, "text.ptx", buf, n, tc->lo, tc->hi);
}

/* ---- generated inputs ---------------------------------------------------- */

static uint32_t rng(uint32_t *s)
{
    *s ^= *s << 13; *s ^= *s >> 17; *s ^= *s << 5;
    return *s;
}

static const char valid_ptx[] = ISA_PTX_HEADER
    ".visible .entry k(.param .u64 pout, .param .u32 pn)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tld.param.u32 %r2, [pn];\n"
    "\tsetp.ge.u32 %p1, %r1, %r2;\n\t@%p1 bra DONE;\n"
    "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
    "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
    "\tmul.lo.u32 %r3, %r1, %r1;\n\tst.global.u32 [%rd3], %r3;\n"
    "DONE:\n\tret;\n}\n";

static void test_valid_baseline(void **state)
{
    isa_ctx *c = *state;
    smc_module *m = NULL;
    smc_status st = smc_module_load_ptx(c->dev, "valid.ptx", valid_ptx,
                                        strlen(valid_ptx), &m);
    if (st != SMC_OK)
        fail_msg("the unmutated module must load: %s", smc_last_message(c->dev));
}

static void test_random_bytes(void **state)
{
    isa_ctx *c = *state;
    uint32_t s = 0x2545f491u;
    char *buf = isa_calloc(c, 4096, 1);
    for (int i = 0; i < 200; i++) {
        size_t n = 1 + rng(&s) % 4096;
        for (size_t k = 0; k < n; k++)
            buf[k] = (char)(rng(&s) >> 11);
        expect_error(c, "random.ptx", buf, n, 1, 100000);
    }
}

static void test_every_truncation(void **state)
{
    isa_ctx *c = *state;
    /* A prefix that ends inside the kernel cannot be complete; one that ends
     * before it may be a valid module without kernels (header only), or not
     * (".target sm_7"): then the error must still be located. */
    size_t entry = (size_t)(strstr(valid_ptx, ".visible") - valid_ptx);
    size_t last_brace = (size_t)(strrchr(valid_ptx, '}') - valid_ptx);
    for (size_t n = 0; n < last_brace; n++) {
        if (n > entry) {
            expect_error(c, "prefix.ptx", valid_ptx, n, 1, 100);
            continue;
        }
        smc_module *m = NULL;
        smc_status st = smc_module_load_ptx(c->dev, "prefix.ptx", valid_ptx, n, &m);
        if (st != SMC_OK)
            expect_error(c, "prefix.ptx", valid_ptx, n, 1, 100);
    }
}

static void test_mutations(void **state)
{
    isa_ctx *c = *state;
    size_t len = strlen(valid_ptx);
    char *buf = isa_calloc(c, len + 1, 1);
    uint32_t s = 0x1234567u;
    static const char alphabet[] = "{}()[];,.%<>:\"/*\\@!0123456789xZ \t\n\x01\xff";
    unsigned errors = 0;
    for (int i = 0; i < 400; i++) {
        memcpy(buf, valid_ptx, len + 1);
        for (int k = 0, nmut = 1 + (int)(rng(&s) % 3); k < nmut; k++)
            buf[rng(&s) % len] = alphabet[rng(&s) % (sizeof alphabet - 1)];
        smc_module *m = NULL;
        smc_status st = smc_module_load_ptx(c->dev, "mut.ptx", buf, len, &m);
        if (st == SMC_OK)
            continue;   /* some mutations stay valid (e.g. in whitespace) */
        errors++;
        assert_int_equal(st, SMC_ERR_INVALID_PTX);
        const char *msg = smc_last_message(c->dev);
        if (!has_location(msg, "mut.ptx", 1, 100))
            fail_msg("mutation %d: message lacks mut.ptx:LINE:COL: \"%s\"\n--- text ---\n%s",
                     i, msg, buf);
    }
    assert_true(errors > 100);   /* the mutations do break most modules */
}

static void test_deep_nesting(void **state)
{
    isa_ctx *c = *state;
    enum { DEPTH = 100000 };
    size_t cap = strlen(ISA_PTX_HEADER) + 64 + 2 * DEPTH;
    char *buf = isa_calloc(c, cap, 1);
    size_t n = (size_t)snprintf(buf, cap, "%s.visible .entry k()\n{\n", ISA_PTX_HEADER);
    for (int i = 0; i < DEPTH; i++)
        buf[n++] = '{';
    buf[n] = '\0';
    expect_error(c, "deep.ptx", buf, n, 1, 100);
}

static void test_huge_identifier(void **state)
{
    isa_ctx *c = *state;
    enum { IDLEN = 1 << 20 };
    size_t cap = strlen(ISA_PTX_HEADER) + 128 + IDLEN;
    char *buf = isa_calloc(c, cap, 1);
    size_t n = (size_t)snprintf(buf, cap, "%s.visible .entry k()\n{\n\tbra ", ISA_PTX_HEADER);
    memset(buf + n, 'L', IDLEN);
    n += IDLEN;
    n += (size_t)snprintf(buf + n, cap - n, ";\n\tret;\n}\n");
    expect_error(c, "longid.ptx", buf, n, 7, 7);   /* unknown label, line 7 */
}

static void test_embedded_nul(void **state)
{
    isa_ctx *c = *state;
    size_t len = strlen(valid_ptx);
    char *buf = isa_calloc(c, len, 1);
    memcpy(buf, valid_ptx, len);
    char *at = strstr(buf, "mul.lo.u32");        /* on line 18 */
    assert_non_null(at);
    *at = '\0';
    expect_error(c, "nul.ptx", buf, len, 18, 18);
}

/* An unknown opcode is an error of the input, never "not supported" (which
 * the ISA tests would turn into a skip); a PTX instruction the emulator does
 * not implement says so, naming it. */
static void test_unknown_vs_unsupported_opcode(void **state)
{
    isa_ctx *c = *state;
    static const char unknown[] = ISA_PTX_HEADER
        ".visible .entry k()\n{\n\tfrobnicate.b32 %r1;\n\tret;\n}\n";
    expect_error(c, "unknown_op.ptx", unknown, strlen(unknown), 7, 7);
    const char *msg = smc_last_message(c->dev);
    if (!strstr(msg, "unknown instruction 'frobnicate.b32'") ||
        strstr(msg, "unsupported") || strstr(msg, "not supported"))
        fail_msg("unknown opcode: \"%s\"", msg);

    static const char unimplemented[] = ISA_PTX_HEADER
        ".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tprefetchu.L1 [%rd1];\n\tret;\n}\n";
    expect_error(c, "unimpl_op.ptx", unimplemented, strlen(unimplemented), 8, 8);
    msg = smc_last_message(c->dev);
    if (!strstr(msg, "PTX instruction 'prefetchu.L1' is not supported"))
        fail_msg("unimplemented PTX instruction: \"%s\"", msg);

    /* an instruction of a newer target names the target it needs */
    static const char newer[] = ISA_PTX_HEADER
        ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tredux.sync.add.u32 %r1, %r2, -1;\n\tret;\n}\n";
    expect_error(c, "newer_op.ptx", newer, strlen(newer), 8, 8);
    msg = smc_last_message(c->dev);
    if (!strstr(msg, "'redux.sync.add.u32' is not supported") || !strstr(msg, "needs sm_80") ||
        !strstr(msg, "compute capability 7.5"))
        fail_msg("instruction of a newer target: \"%s\"", msg);
}

int main(void)
{
    int rc = isa_run_table("isa_malformed_files", run_file, files, sizeof files[0],
                           sizeof files / sizeof files[0]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_valid_baseline, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_random_bytes, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_every_truncation, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_mutations, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_deep_nesting, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_huge_identifier, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_embedded_nul, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_unknown_vs_unsupported_opcode, isa_setup, isa_teardown),
    };
    rc |= isa_run_group("isa_malformed", tests, sizeof tests / sizeof tests[0]);
    return rc;
}
