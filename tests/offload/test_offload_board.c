/*
 * test_offload_board.c -- the board RTL kernel (fpga/board/) through its
 * hosts (docs/offload.md, "Board kernel"):
 *
 *   - "vl-board", the Verilated kernel driven over AXI4-Lite and
 *     AXI4-Stream, gives output tokens identical, every word of every lane
 *     and cycle, to the "cmodel" transport on the same token stream:
 *     contract-respecting random stimulus (cosim/sched_stim.c, a seed per
 *     lane, HAWS/OAWS/grouped), held lanes fed garbage tokens, resets in
 *     the middle of a run, exchanges of k = 1, 7 and 64 cycles, 1, 4 and 6
 *     lanes (6: two kernel instances), with no stalls and with random
 *     valid/ready stalls on every channel (20 % to 70 %); one run of a
 *     million lane-cycles (16 lanes on four kernel instances; a quarter
 *     million in make test, the million with SMCOSIM_TEST_LONG=1);
 *   - vl-board's argument and parameter-set errors;
 *   - "ocl-board" fails cleanly here: no binary argument, an unreadable
 *     binary, no accelerator device (PoCL has only a CPU device), no
 *     OpenCL platform at all (a child process with an empty ICD directory).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "offload_transport.h"
#include "sched_stim.h"

/* Linked from $(VLBOARD_LIB) and $(OCLBOARD_OBJ): offload_transports.c
 * refers to them only weakly, so naming them here pulls them in. */
extern const offload_transport offload_transport_vl_board, offload_transport_ocl_board;

/* fpga/param-sets/tiny.conf with the RTL's other defaults: the set the
 * Verilated kernel of `make test` is built for (VLBOARD_CONFIGS). On demand
 * another built set, SMCOSIM_VLBOARD_SET=W_S_R_D_E_P_C_N (docs/offload.md,
 * "Board kernel"). */
static void tiny(sched_params *p)
{
    sched_params_default(p);
    p->num_warps = 4;
    p->num_schedulers = 2;
    p->reg_id_width = 8;
    p->ibuf_depth = 2;
    const char *set = getenv("SMCOSIM_VLBOARD_SET");
    if (set && *set) {
        unsigned *f[8] = { &p->num_warps, &p->num_schedulers, &p->reg_id_width, &p->ibuf_depth,
                           &p->sb_entries, &p->wb_ports, &p->rcu_depth, &p->ren_entries };
        char err[256];
        if (sscanf(set, "%u_%u_%u_%u_%u_%u_%u_%u", f[0], f[1], f[2], f[3], f[4], f[5], f[6],
                   f[7]) != 8 || sched_params_check(p, err, sizeof err) != 0)
            fail_msg("SMCOSIM_VLBOARD_SET='%s': expected W_S_R_D_E_P_C_N of a valid set", set);
    }
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

/* Run `cycles` cycles of `lanes` lanes in exchanges of k through the device
 * spec and through "cmodel", comparing every output token. Lane l is held
 * in the cycles where (cycle + l) % 5 == 0 for odd l (its token is then
 * garbage, which it must ignore) and reset in cycle 40 + 31 * l (held
 * lanes too: a reset without an edge). */
static void compare(const char *spec, unsigned lanes, unsigned k, unsigned cycles)
{
    sched_params p;
    tiny(&p);
    char err[512];
    const offload_transport *td, *tc;
    offload_dev *dev = offload_open_spec(spec, &p, lanes, &td, err, sizeof err);
    if (!dev) fail_msg("%s: %s", spec, err);
    offload_dev *ref = offload_open_spec("cmodel", &p, lanes, &tc, err, sizeof err);
    assert_non_null(ref);

    unsigned iw = offload_words(offload_in_bits(&p)), ow = offload_words(offload_out_bits(&p));
    uint8_t *ctl = calloc((size_t)k * lanes, 1);
    uint64_t *in = calloc((size_t)k * lanes * iw, 8);
    uint64_t *out_d = calloc((size_t)k * lanes * ow, 8), *out_c = calloc((size_t)k * lanes * ow, 8);
    sched_stim **st = calloc(lanes, sizeof *st);
    sched_outputs *last = calloc(lanes, sizeof *last);   /* each lane's current outputs */
    /* a fresh device holds its lanes in reset: the outputs of a reset core
     * are what the stimulus sees first */
    {
        sched_backend *b = sched_cmodel_create(&p, err, sizeof err);
        for (unsigned l = 0; l < lanes; l++) last[l] = *sched_get_outputs(b);
        sched_destroy(b);
    }
    for (unsigned l = 0; l < lanes; l++) {
        sched_stim_opts so = { .seed = 1000 + 17 * l + k, .policy = -1, .haws = 1,
                               .groups = l % 2 };
        st[l] = sched_stim_create(&p, &so);
    }
    uint64_t steps = 0, held = 0, resets = 0, issues = 0;
    for (unsigned c0 = 0; c0 < cycles; c0 += k) {
        /* the stimulus of cycle c needs the outputs of cycle c - 1: the
         * reference (the cmodel transport) runs the batch one cycle at a
         * time as it is generated, then the device takes it whole */
        for (unsigned c = 0; c < k; c++) {
            size_t i0 = (size_t)c * lanes;
            for (unsigned l = 0; l < lanes; l++) {
                unsigned cyc = c0 + c;
                size_t i = i0 + l;
                uint64_t *t = in + i * iw;
                ctl[i] = 0;
                if (cyc == 40 + 31 * l) {
                    ctl[i] |= OFFLOAD_CTL_RESET;
                    sched_stim_destroy(st[l]);   /* a new life, a new stimulus */
                    sched_stim_opts so = { .seed = 5000 + l, .policy = -1, .haws = 1 };
                    st[l] = sched_stim_create(&p, &so);
                    resets++;
                    /* the stimulus sees the outputs of a reset core */
                    sched_backend *b = sched_cmodel_create(&p, err, sizeof err);
                    last[l] = *sched_get_outputs(b);
                    sched_destroy(b);
                }
                if (l % 2 == 1 && (cyc + l) % 5 == 0) {
                    for (unsigned w = 0; w < iw; w++) t[w] = mix(cyc * 131 + l * 7 + w);
                    held++;
                } else {
                    sched_inputs si;
                    sched_stim_next(st[l], &last[l], &si);
                    offload_pack_inputs(&p, &si, t);
                    ctl[i] |= OFFLOAD_CTL_STEP;
                    steps++;
                }
            }
            assert_int_equal(tc->run(ref, 1, ctl + i0, in + i0 * iw, out_c + i0 * ow, err,
                                     sizeof err), 0);
            for (unsigned l = 0; l < lanes; l++) {
                offload_unpack_outputs(&p, out_c + (i0 + l) * ow, &last[l]);
                for (unsigned s = 0; s < p.num_schedulers; s++) issues += last[l].issue[s].valid;
            }
        }
        if (td->run(dev, k, ctl, in, out_d, err, sizeof err) != 0)
            fail_msg("%s, lanes %u, k %u, cycle %u: %s", spec, lanes, k, c0, err);
        for (size_t i = 0; i < (size_t)k * lanes; i++)
            for (unsigned w = 0; w < ow; w++)
                if (out_d[i * ow + w] != out_c[i * ow + w]) {
                    sched_outputs a, b;
                    char sig[64];
                    uint64_t va, vb;
                    offload_unpack_outputs(&p, out_c + i * ow, &a);
                    offload_unpack_outputs(&p, out_d + i * ow, &b);
                    if (sched_outputs_compare(&p, &a, &b, sig, sizeof sig, &va, &vb))
                        snprintf(sig, sizeof sig, "a counter");
                    fail_msg("%s, lanes %u, k %u: cycle %zu lane %zu, %s: device %llx, cmodel "
                             "%llx (token word %u)", spec, lanes, k, c0 + i / lanes, i % lanes,
                             sig, (unsigned long long)vb, (unsigned long long)va, w);
                }
    }
    printf("  %-26s lanes %u, k %2u: %llu lane-cycles stepped, %llu held, %llu resets, "
           "%llu issues: tokens identical\n", spec, lanes, k, (unsigned long long)steps,
           (unsigned long long)held, (unsigned long long)resets, (unsigned long long)issues);
    /* the run exercised what it claims */
    assert_true(steps > 0 && issues > steps / 20);
    if (lanes > 1) assert_true(held > 0);
    assert_true(resets > 0);
    for (unsigned l = 0; l < lanes; l++) sched_stim_destroy(st[l]);
    free(st);
    free(last);
    free(ctl);
    free(in);
    free(out_d);
    free(out_c);
    td->close(dev);
    tc->close(ref);
}

/* Lanes x k x cycles, without stalls. */
static void test_vl_board_plain(void **state)
{
    (void)state;
    compare("vl-board", 1, 1, 3000);
    compare("vl-board", 4, 7, 3003);
    compare("vl-board", 6, 64, 3008);
    compare("vl-board", 3, 1, 1200);
}

/* The same with random valid/ready stalls on every channel: the tokens must
 * not change (latency insensitivity). */
static void test_vl_board_stalls(void **state)
{
    (void)state;
    compare("vl-board:stall=30,seed=7", 1, 7, 3003);
    compare("vl-board:stall=30,seed=8", 6, 1, 1200);
    compare("vl-board:stall=70,seed=9", 4, 64, 3008);
    compare("vl-board:seed=3,stall=50", 5, 7, 2002);
}

/* Both board transports are rows of the transport table. */
static void test_table(void **state)
{
    (void)state;
    assert_ptr_equal(offload_transport_find("vl-board"), &offload_transport_vl_board);
    assert_ptr_equal(offload_transport_find("ocl-board"), &offload_transport_ocl_board);
}

/* One million lane-cycles: 16 lanes (four kernel instances) x 62,500
 * cycles in exchanges of 64, with 20 % stalls, in `make check-long`
 * (SMCOSIM_TEST_LONG=1, tests/offload/module.mk); a quarter of it in
 * `make test` (the soak was three quarters of this test's 39 s). */
static void test_vl_board_million(void **state)
{
    (void)state;
    const char *l = getenv("SMCOSIM_TEST_LONG");
    compare("vl-board:stall=20,seed=11", 16, 64, l && !strcmp(l, "1") ? 62528 : 15616);
}

static void expect_open_error(const char *spec, const sched_params *p, const char *want)
{
    char err[512] = "";
    const offload_transport *t;
    offload_dev *d = offload_open_spec(spec, p, 4, &t, err, sizeof err);
    if (d) {
        t->close(d);
        fail_msg("%s opened; expected an error containing '%s'", spec, want);
    }
    if (!strstr(err, want)) fail_msg("%s: '%s' does not contain '%s'", spec, err, want);
}

static void test_vl_board_errors(void **state)
{
    (void)state;
    sched_params p;
    tiny(&p);
    expect_open_error("vl-board:stall=100", &p, "stall is a percentage 0..99");
    expect_open_error("vl-board:stall=x", &p, "'x' is not a number");
    expect_open_error("vl-board:speed=3", &p, "unknown key 'speed'");
    expect_open_error("vl-board:stall", &p, "expected stall=PERCENT,seed=N");
    sched_params odd = { .num_warps = 2, .num_schedulers = 1, .reg_id_width = 3,
                         .ibuf_depth = 1, .sb_entries = 1, .wb_ports = 1 };   /* never built */
    expect_open_error("vl-board", &odd, "no board kernel model for 2/1/3/1/1/1/0/0");
}

/* ocl-board without a board. The messages name the cause; where a machine
 * does have an accelerator device, the dummy binary is refused by
 * clCreateProgramWithBinary instead. */
static void test_ocl_board_fails_cleanly(void **state)
{
    (void)state;
    sched_params p;
    tiny(&p);
    expect_open_error("ocl-board", &p, "needs the path of an xclbin or aocx file");
    expect_open_error("ocl-board:/nonexistent/sched_kernel.xclbin", &p,
                      "cannot read the kernel binary '/nonexistent/sched_kernel.xclbin'");
    char path[] = "/tmp/smcosim-ocl-board-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "not a bitstream", 15), 15);
    close(fd);
    char spec[128], err[512] = "";
    snprintf(spec, sizeof spec, "ocl-board:%s", path);
    const offload_transport *t;
    offload_dev *d = offload_open_spec(spec, &p, 4, &t, err, sizeof err);
    assert_null(d);
    if (!strstr(err, "no accelerator: no OpenCL device of type ACCELERATOR") &&
        !strstr(err, "clCreateProgramWithBinary"))
        fail_msg("%s: unexpected message '%s'", spec, err);
    printf("  ocl-board here: %s\n", err);

    /* no platform: a child whose ICD loader finds no vendor files (ocl-icd
     * reads OCL_ICD_VENDORS once, at the first OpenCL call) */
    char dir[] = "/tmp/smcosim-no-icd-XXXXXX";
    assert_non_null(mkdtemp(dir));
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {   /* a fresh process: this one has initialised ocl-icd */
        setenv("OCL_ICD_VENDORS", dir, 1);
        execl("/proc/self/exe", "test_offload_board", "--no-platform", spec + 10, (char *)NULL);
        _exit(2);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    rmdir(dir);
    unlink(path);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* The child of test_ocl_board_fails_cleanly: open ocl-board on binary
 * path with no OpenCL platform. */
static int no_platform_child(const char *path)
{
    sched_params p;
    tiny(&p);
    char spec[600], err[512] = "";
    snprintf(spec, sizeof spec, "ocl-board:%s", path);
    const offload_transport *t;
    offload_dev *d = offload_open_spec(spec, &p, 4, &t, err, sizeof err);
    int ok = d == NULL && strstr(err, "no accelerator: no OpenCL platform");
    fprintf(stderr, "  ocl-board without a platform: %s\n", err);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--no-platform") == 0) return no_platform_child(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_vl_board_plain),
        cmocka_unit_test(test_vl_board_stalls),
        cmocka_unit_test(test_vl_board_million),
        cmocka_unit_test(test_vl_board_errors),
        cmocka_unit_test(test_ocl_board_fails_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
