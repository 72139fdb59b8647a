/*
 * test_trace.c — the Accel-Sim trace reader (csrc/trace/, docs/traces.md):
 * instruction lines in every address mode, with expected addresses computed
 * by hand from the format's definition; malformed lines of each kind, with
 * the message naming the field; kernel files and lists (plain and xz).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sass_ops.h"
#include "trace.h"

static trace_inst in;
static char err[512];

static void parse_ok(const char *line)
{
    int r = trace_parse_inst(line, 0, &in, err, sizeof err);
    if (r != 0)
        fail_msg("'%s': %s", line, err);
}

static void parse_bad(const char *line, const char *want)
{
    err[0] = '\0';
    assert_int_equal(trace_parse_inst(line, 0, &in, err, sizeof err), -1);
    if (!strstr(err, want))
        fail_msg("'%s': message '%s' lacks '%s'", line, err, want);
}

static void test_alu_line(void **state)
{
    (void)state;
    parse_ok("0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 ");
    assert_int_equal(in.pc, 0x38);
    assert_int_equal(in.mask, 0xffffffffu);
    assert_int_equal(in.ndst, 1);
    assert_int_equal(in.dst[0], 0);
    assert_string_equal(in.opcode, "XMAD.PSL.CBCC");
    assert_int_equal(in.nsrc, 3);
    assert_int_equal(in.src[0], 0);
    assert_int_equal(in.src[1], 3);
    assert_int_equal(in.src[2], 2);
    assert_int_equal(in.mem_width, 0);
    /* no destination, divergent mask, RZ as a source */
    parse_ok("0048 0000f00f 0 ISETP.GE.AND 2 R0 R255 0");
    assert_int_equal(in.mask, 0xf00f);
    assert_int_equal(in.ndst, 0);
    assert_int_equal(in.src[1], 255);
}

/* mode 0: one address per active lane, in lane order */
static void test_list_mode(void **state)
{
    (void)state;
    parse_ok("0098 00000005 1 R4 LDG.E 1 R4 4 0 0x1000 0x2008");
    assert_int_equal(in.mem_width, 4);
    assert_int_equal(in.addr_mode, TRACE_ADDR_LIST);
    assert_int_equal(in.addr[0], 0x1000);
    assert_int_equal(in.addr[1], 0);
    assert_int_equal(in.addr[2], 0x2008);
    for (unsigned l = 3; l < 32; l++)
        assert_int_equal(in.addr[l], 0);
}

/* mode 1: base + k * stride for the k-th active lane */
static void test_stride_mode(void **state)
{
    (void)state;
    parse_ok("0098 ffffffff 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500000 4 ");
    for (unsigned l = 0; l < 32; l++)
        assert_int_equal(in.addr[l], 0x7f2b2d500000ull + 4 * l);
    /* lanes 4..7 active, negative stride */
    parse_ok("00a0 000000f0 0 STG.E.64 2 R2 R4 8 1 0x100 -8");
    assert_int_equal(in.addr[3], 0);
    assert_int_equal(in.addr[4], 0x100);
    assert_int_equal(in.addr[5], 0xf8);
    assert_int_equal(in.addr[6], 0xf0);
    assert_int_equal(in.addr[7], 0xe8);
    assert_int_equal(in.addr[8], 0);
}

/* mode 2: base, then per further active lane the delta from the previous one */
static void test_delta_mode(void **state)
{
    (void)state;
    parse_ok("00b0 80000013 1 R2 LDS.U.32 1 R5 4 2 0x40 4 -8 100");
    /* lanes 0, 1, 4, 31 */
    assert_int_equal(in.addr[0], 0x40);
    assert_int_equal(in.addr[1], 0x44);
    assert_int_equal(in.addr[4], 0x3c);
    assert_int_equal(in.addr[31], 0x3c + 100);
    assert_int_equal(in.addr[2], 0);
    /* a memory instruction no lane executed: base only */
    parse_ok("00b0 00000000 1 R2 LDG.E 1 R5 4 2 0x0");
    assert_int_equal(in.mask, 0);
    /* an optional trailing immediate is accepted */
    parse_ok("0010 ffffffff 1 R1 MOV 0 0 17");
}

static void test_lineinfo(void **state)
{
    (void)state;
    assert_int_equal(trace_parse_inst("42 0010 ffffffff 1 R1 MOV 0 0", 1, &in, err, sizeof err), 0);
    assert_int_equal(in.src_line, 42);
    assert_int_equal(in.pc, 0x10);
}

/* one malformed line per field */
static void test_malformed(void **state)
{
    (void)state;
    parse_bad("", "field 'PC'");
    parse_bad("00g8 ffffffff 1 R1 MOV 0 0", "field 'PC'");
    parse_bad("0008 fffffffff 1 R1 MOV 0 0", "field 'mask'");
    parse_bad("0008 xyz 1 R1 MOV 0 0", "field 'mask'");
    parse_bad("0008 ffffffff 99 R1 MOV 0 0", "field 'dest_num'");
    parse_bad("0008 ffffffff 1 X1 MOV 0 0", "field 'reg_dests'");
    parse_bad("0008 ffffffff 1 R256 MOV 0 0", "field 'reg_dests'");
    parse_bad("0008 ffffffff 2 R1", "field 'reg_dests' (2 of 2)");
    parse_bad("0008 ffffffff 1 R1 1MOV 0 0", "field 'opcode'");
    parse_bad("0008 ffffffff 1 R1 MOV x 0", "field 'src_num'");
    parse_bad("0008 ffffffff 1 R1 MOV 2 R1", "field 'reg_srcs' (2 of 2)");
    parse_bad("0008 ffffffff 1 R1 MOV 0", "field 'mem_width'");
    parse_bad("0008 ffffffff 1 R1 LDG.E 1 R2 4", "field 'address mode'");
    parse_bad("0008 ffffffff 1 R1 LDG.E 1 R2 4 3 0x0", "field 'address mode'");
    parse_bad("0008 00000003 1 R1 LDG.E 1 R2 4 0 0x10", "field 'addresses' (2 of 2, lane 1)");
    parse_bad("0008 ffffffff 1 R1 LDG.E 1 R2 4 1 zz 4", "field 'base address'");
    parse_bad("0008 ffffffff 1 R1 LDG.E 1 R2 4 1 0x10", "field 'stride'");
    parse_bad("0008 00000007 1 R1 LDG.E 1 R2 4 2 0x10 4", "field 'deltas' (2 of 2, lane 2)");
    parse_bad("0008 ffffffff 1 R1 MOV 0 0 5 extra", "unexpected 'extra'");
    parse_bad("0008 ffffffff 1 R1 MOV 0 0 junk", "unexpected 'junk'");
}

static void test_opcodes(void **state)
{
    (void)state;
    const sass_arch *p = sass_arch_of(61), *v = sass_arch_of(70), *t = sass_arch_of(75),
                    *a = sass_arch_of(86);
    assert_non_null(p);
    assert_non_null(v);
    assert_non_null(t);
    assert_non_null(a);
    assert_null(sass_arch_of(35));
    sass_op op;
    assert_int_equal(sass_op_lookup(p, "FFMA", &op), 0);
    assert_int_equal(op.latency, 6);          /* [JIA18]: Pascal 6 */
    assert_int_equal(sass_op_lookup(v, "FFMA.FTZ", &op), 0);
    assert_int_equal(op.latency, 4);          /* [JIA18]: Volta 4 */
    assert_int_equal(sass_op_lookup(p, "XMAD.PSL.CBCC", &op), 0);
    assert_int_equal(sass_op_lookup(v, "XMAD", &op), -1);   /* Pascal only */
    assert_int_equal(sass_op_lookup(p, "IADD3", &op), -1);  /* Volta+ */
    assert_int_equal(sass_op_lookup(t, "LDG.E.64.SYS", &op), 0);
    assert_true(op.flags & SASS_LOAD);
    assert_int_equal(sass_op_lookup(a, "LDGSTS.E.BYPASS", &op), 0);
    assert_int_equal(sass_op_lookup(p, "FOO", &op), -1);
    assert_int_equal(sass_op_lookup(p, "LDGX", &op), -1);   /* the whole base name */
}

/* ---- files ----------------------------------------------------------------------- */

static char dir[64];

static const char *write_file(const char *name, const char *text)
{
    static char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

#define HEADER \
    "-kernel name = k\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n" \
    "-shmem = 0\n-nregs = 8\n-binary version = 61\n-cuda stream id = 0\n" \
    "-shmem base_addr = 0x7f0000000000\n-local mem base_addr = 0x7e0000000000\n" \
    "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n" \
    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n"

#define TB(id) \
    "#BEGIN_TB\n\nthread block = " id ",0,0\n\nwarp = 0\ninsts = 2\n" \
    "0008 ffffffff 1 R1 MOV 0 0\n0010 ffffffff 0 EXIT 0 0\n\n" \
    "warp = 1\ninsts = 3\n0008 ffffffff 1 R1 MOV 0 0\n" \
    "0018 0000ffff 1 R2 LDG.E 1 R1 4 1 0x1000 4\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n\n"

static void test_kernel_file(void **state)
{
    (void)state;
    const char *path = write_file("kernel-1.traceg", HEADER TB("1") TB("0"));
    trace_kernel *k = trace_kernel_open(path, err, sizeof err);
    if (!k)
        fail_msg("%s", err);
    const trace_header *h = trace_kernel_header(k);
    assert_string_equal(h->name, "k");
    assert_int_equal(h->grid[0], 2);
    assert_int_equal(h->block[0], 64);
    assert_int_equal(h->binary_version, 61);
    assert_int_equal(h->tracer_version, 4);
    assert_int_equal(h->shmem_base, 0x7f0000000000ull);
    assert_int_equal(h->local_base, 0x7e0000000000ull);
    trace_tb tb;
    assert_int_equal(trace_kernel_next_tb(k, &tb, err, sizeof err), 1);
    assert_int_equal(tb.id[0], 1);
    assert_int_equal(tb.nwarps, 2);
    assert_int_equal(tb.ninst[0], 2);
    assert_int_equal(tb.ninst[1], 3);
    assert_int_equal(tb.total, 5);
    const trace_dyn *d = &tb.inst[1][1];
    assert_int_equal(d->mask, 0xffff);
    assert_int_not_equal(d->addr, UINT32_MAX);
    assert_int_equal(tb.addr[d->addr + 15], 0x1000 + 15 * 4);
    assert_int_equal(d->line, 29);
    /* three distinct pcs: 0x8, 0x10, 0x18 */
    assert_int_equal(trace_kernel_nstatic(k), 3);
    trace_tb_free(&tb);
    assert_int_equal(trace_kernel_next_tb(k, &tb, err, sizeof err), 1);
    assert_int_equal(tb.id[0], 0);
    trace_tb_free(&tb);
    assert_int_equal(trace_kernel_next_tb(k, &tb, err, sizeof err), 0);
    trace_kernel_close(k);

    /* the same file xz-compressed reads the same */
    char cmd[400];
    snprintf(cmd, sizeof cmd, "xz -kf %s", path);
    if (system(cmd) != 0)
        skip();
    snprintf(cmd, sizeof cmd, "%s.xz", path);
    k = trace_kernel_open(cmd, err, sizeof err);
    if (!k)
        fail_msg("%s", err);
    assert_int_equal(trace_kernel_next_tb(k, &tb, err, sizeof err), 1);
    assert_int_equal(tb.total, 5);
    trace_tb_free(&tb);
    assert_int_equal(trace_kernel_next_tb(k, &tb, err, sizeof err), 1);
    trace_tb_free(&tb);
    assert_int_equal(trace_kernel_next_tb(k, &tb, err, sizeof err), 0);
    trace_kernel_close(k);
}

/* A kernel file that is wrong at `what`: the first block's message must
 * contain want (file and line included). */
static void bad_kernel(const char *text, const char *want)
{
    const char *path = write_file("bad.traceg", text);
    err[0] = '\0';
    trace_kernel *k = trace_kernel_open(path, err, sizeof err);
    if (k) {
        trace_tb tb;
        int r = trace_kernel_next_tb(k, &tb, err, sizeof err);
        if (r == 1)
            trace_tb_free(&tb);
        trace_kernel_close(k);
        assert_int_equal(r, -1);
    }
    if (!strstr(err, want))
        fail_msg("message '%s' lacks '%s'", err, want);
}

static void test_kernel_errors(void **state)
{
    (void)state;
    bad_kernel("-kernel name = k\n#x\n", "bad.traceg: header field '-grid dim' is missing");
    bad_kernel("-kernel name = k\n-grid dim = (0,1,1)\n", "bad.traceg:2: field 'grid dim'");
    bad_kernel("-block dim = (2048,1,1)\n", "bad.traceg:1: field 'block dim'");
    bad_kernel(HEADER "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
               "0008 ffffffff 1 R1 MOV 0 0\n", "bad.traceg:21: end of file inside the thread block");
    bad_kernel(HEADER "#BEGIN_TB\nthread block = 5,0,0\n", "bad.traceg:18: field 'thread block': 5,0,0 is outside");
    bad_kernel(HEADER "#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\n", "bad.traceg:19: field 'warp'");
    bad_kernel(HEADER "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
               "0008 ffffffff 1 R1 MOV 0 0\nwarp = 1\n", "bad.traceg:22: field 'insts': warp 0 has 1");
    bad_kernel(HEADER "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
               "0008 ffffffff 1 R1 MOV q 0\n", "bad.traceg:21: field 'src_num'");
    bad_kernel(HEADER "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
               "0008 ffffffff 1 R1 MOV 0 0\n0008 ffffffff 1 R2 MOV 0 0\n", "bad.traceg:22: field 'opcode'/registers: pc 0x0008");
    bad_kernel(HEADER "garbage\n", "bad.traceg:17: expected '#BEGIN_TB'");
    bad_kernel("-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
               "-nregs = 8\n-binary version = 61\n-accelsim tracer version = 2\n",
               "bad.traceg:7: field 'accelsim tracer version': version 2 is not supported");
    /* a corrupt xz file */
    write_file("bad.traceg.xz", "not xz at all\n");
    char p[160];
    snprintf(p, sizeof p, "%s/bad.traceg.xz", dir);
    trace_kernel *k = trace_kernel_open(p, err, sizeof err);
    assert_null(k);
    assert_non_null(strstr(err, "xz decompression failed (not in xz format)"));
}

static void test_list(void **state)
{
    (void)state;
    const char *path = write_file("kernelslist.g",
        "MemcpyHtoD,0x00007f2b2d500000,400\n\nkernel-1.traceg\nMemcpyDtoH,0x1,4\nkernel-2.traceg.xz\n");
    trace_list l;
    if (trace_list_load(path, &l, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(l.n, 3);
    assert_int_equal(l.nkernels, 2);
    assert_int_equal(l.cmd[0].kind, TRACE_CMD_MEMCPY_HTOD);
    assert_int_equal(l.cmd[0].addr, 0x7f2b2d500000ull);
    assert_int_equal(l.cmd[0].bytes, 400);
    char want[200];
    snprintf(want, sizeof want, "%s/kernel-2.traceg.xz", dir);
    assert_string_equal(l.cmd[2].path, want);
    assert_int_equal(l.cmd[2].line, 5);
    trace_list_free(&l);
    path = write_file("kernelslist.g", "kernel-1.traceg\nMemcpyHtoD,0x10,abc\n");
    assert_int_equal(trace_list_load(path, &l, err, sizeof err), -1);
    assert_non_null(strstr(err, "kernelslist.g:2: field 'bytes' of MemcpyHtoD"));
    path = write_file("kernelslist.g", "kernel-1.trace\n");
    assert_int_equal(trace_list_load(path, &l, err, sizeof err), -1);
    assert_non_null(strstr(err, "kernelslist.g:1: expected"));
    path = write_file("kernelslist.g", "MemcpyHtoD,0x10,4\n");
    assert_int_equal(trace_list_load(path, &l, err, sizeof err), -1);
    assert_non_null(strstr(err, "no kernel trace file"));
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/smc-trace-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alu_line),
        cmocka_unit_test(test_list_mode),
        cmocka_unit_test(test_stride_mode),
        cmocka_unit_test(test_delta_mode),
        cmocka_unit_test(test_lineinfo),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_opcodes),
        cmocka_unit_test(test_kernel_file),
        cmocka_unit_test(test_kernel_errors),
        cmocka_unit_test(test_list),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
