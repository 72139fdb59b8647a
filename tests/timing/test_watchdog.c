/*
 * test_watchdog.c — issue 24: a kernel that makes no progress is reported
 * hung (SMC_ERR_LAUNCH_TIMEOUT with kernel, CTA, warp, lane, pc) within the
 * configured budget, the same way in functional mode and in timing mode
 * under every scheduler back end (c, rtl, lockstep); a long kernel that
 * stays inside the budget is not. docs/emulator.md, "No progress":
 *
 *   progress  = a warp exits, a barrier completes, a CTA starts;
 *   gpu.watchdog_insts  = warp-instructions ONE warp may execute without
 *                         progress (both modes; smc_device_opts.watchdog
 *                         is the same budget);
 *   gpu.watchdog_cycles = cycles without progress (timing mode).
 *
 * The kernels are PTX text written here (no nvcc needed):
 *   spin     every thread waits for a flag no one sets (volatile loads);
 *   mutual   CTA b waits for flag[1-b], then would set flag[b]: each of the
 *            two CTAs waits for the other (livelock across CTAs);
 *   loop     each thread counts to n and stores the count: a long loop that
 *            does make progress at its end;
 *   deadlock bar.sync 1, 96 in a block of 64 threads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smcosim.h"
#include "timing.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n\n"

static const char *spin_ptx = HDR
    ".visible .entry spin(.param .u64 flag)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [flag];\n"                         /* pc 0 */
    "WAIT:\n"
    "ld.volatile.global.u32 %r1, [%rd1];\n"                /* pc 1 */
    "setp.eq.u32 %p1, %r1, 0;\n"                           /* pc 2 */
    "@%p1 bra WAIT;\n"                                     /* pc 3 */
    "ret;\n}\n";

static const char *mutual_ptx = HDR
    ".visible .entry mutual(.param .u64 flags)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [flags];\n"                        /* pc 0 */
    "mov.u32 %r1, %ctaid.x;\n"                             /* pc 1 */
    "xor.b32 %r2, %r1, 1;\n"                               /* pc 2: the other CTA */
    "mul.wide.u32 %rd2, %r2, 4;\n"                         /* pc 3 */
    "add.s64 %rd3, %rd1, %rd2;\n"                          /* pc 4 */
    "WAIT:\n"
    "ld.volatile.global.u32 %r3, [%rd3];\n"                /* pc 5 */
    "setp.eq.u32 %p1, %r3, 0;\n"                           /* pc 6 */
    "@%p1 bra WAIT;\n"                                     /* pc 7 */
    "mul.wide.u32 %rd4, %r1, 4;\n"
    "add.s64 %rd5, %rd1, %rd4;\n"
    "mov.u32 %r4, 1;\n"
    "st.volatile.global.u32 [%rd5], %r4;\n"
    "ret;\n}\n";

/* 3 warp-instructions per iteration (add, setp, bra) */
static const char *loop_ptx = HDR
    ".visible .entry loop(.param .u64 out, .param .u32 n)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\nmov.u32 %r2, 0;\n"
    "LOOP:\n"
    "add.u32 %r2, %r2, 1;\n"
    "setp.lt.u32 %p1, %r2, %r1;\n"
    "@%p1 bra LOOP;\n"
    "mov.u32 %r3, %tid.x;\nmul.wide.u32 %rd2, %r3, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r2;\n"
    "ret;\n}\n";

static const char *deadlock_ptx = HDR
    ".visible .entry deadlock()\n{\n"
    ".reg .b32 %r<2>;\n"
    "mov.u32 %r1, %tid.x;\n"                               /* pc 0 */
    "bar.sync 1, 96;\n"                                    /* pc 1 */
    "ret;\n}\n";

/* ---- the modes ------------------------------------------------------------ */

typedef struct mode { const char *name; int mode; const char *sched; } mode;
static const mode modes[] = {
    { "functional", SMC_MODE_FUNCTIONAL, NULL },
    { "timing/c", SMC_MODE_TIMING, "c" },
    { "timing/rtl", SMC_MODE_TIMING, "rtl" },
    { "timing/lockstep", SMC_MODE_TIMING, "lockstep" },
};
#define NMODES (sizeof modes / sizeof modes[0])

typedef struct rig {
    smc_device *dev;
    smc_kernel *k;
    uint64_t buf;
    const mode *m;
} rig;

static void rig_open(rig *r, const mode *m, const char *set, uint64_t opt_watchdog,
                     const char *ptx, const char *kernel)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    smc_device_opts o;
    memset(&o, 0, sizeof o);
    o.mode = m->mode;
    o.sched = m->sched;
    o.set = set;
    o.watchdog = opt_watchdog;
    o.print_stats = -1;
    assert_int_equal(smc_device_create(&o, &r->dev), SMC_OK);
    smc_module *mod;
    if (smc_module_load_ptx(r->dev, kernel, ptx, strlen(ptx), &mod) != SMC_OK)
        fail_msg("PTX: %s", smc_last_message(r->dev));
    assert_int_equal(smc_module_get_kernel(mod, kernel, &r->k), SMC_OK);
    assert_int_equal(smc_malloc(r->dev, 4096, SMC_MEM_DEVICE, &r->buf), SMC_OK);
    assert_int_equal(smc_memset(r->dev, r->buf, 0, 4096), SMC_OK);
}

static smc_status rig_launch(rig *r, uint32_t grid, uint32_t block, uint32_t n)
{
    char params[12];
    memcpy(params, &r->buf, 8);
    memcpy(params + 8, &n, 4);
    return smc_launch(r->dev, r->k, (smc_dim3){ grid, 1, 1 }, (smc_dim3){ block, 1, 1 }, 0, 0,
                      params, 12, NULL);
}

/* The launch stopped hung: status, the fault record (kernel, CTA, warp,
 * lane, a pc in [pc_lo, pc_hi] and its PTX line), the reason naming
 * `key`; the host goes on and its next call sees the sticky error; a reset
 * clears it. */
static void expect_hang(rig *r, smc_status st, const char *kernel, uint32_t nctas,
                             uint32_t nwarps, uint32_t pc_lo, uint32_t pc_hi, const char *key)
{
    if (st != SMC_ERR_LAUNCH_TIMEOUT)
        fail_msg("%s: %s: expected SMC_ERR_LAUNCH_TIMEOUT, got %s: %s", r->m->name, kernel,
                 smc_status_name(st), smc_last_message(r->dev));
    smc_fault f;
    smc_device_fault(r->dev, &f);
    assert_int_equal(f.status, SMC_ERR_LAUNCH_TIMEOUT);
    assert_string_equal(f.kernel, kernel);
    assert_true(f.cta.x < nctas && f.cta.y == 0 && f.cta.z == 0);
    assert_true(f.warp < nwarps);
    assert_int_equal(f.lane, 0);
    if (f.pc < pc_lo || f.pc > pc_hi)
        fail_msg("%s: %s: pc %u outside %u..%u: %s", r->m->name, kernel, f.pc, pc_lo, pc_hi,
                 f.message);
    assert_true(f.ptx_line > 0);
    if (!strstr(f.message, key) || !strstr(f.message, "SMC_ERR_LAUNCH_TIMEOUT") ||
        !strstr(f.message, "warp") || !strstr(f.message, "lane") || !strstr(f.message, "pc"))
        fail_msg("%s: message '%s' lacks '%s' or the location", r->m->name, f.message, key);
    /* the host program continues: its next call reports the error */
    uint32_t v;
    assert_int_equal(smc_memcpy_dtoh(r->dev, &v, r->buf, 4), SMC_ERR_LAUNCH_TIMEOUT);
    smc_device_reset(r->dev);
    smc_device_fault(r->dev, &f);
    assert_int_equal(f.status, SMC_OK);
}

/* Statistics of the launch: warp-instructions (and cycles in timing mode). */
static void launch_counts(rig *r, uint64_t *warp_insts, uint64_t *cycles)
{
    smc_launch_stats s;
    assert_int_equal(smc_launch_get_stats(r->dev, smc_launch_count(r->dev) - 1, &s), SMC_OK);
    *warp_insts = s.warp_insts;
    *cycles = s.cycles;
}

/* ---- the budget in warp-instructions, every mode -------------------------- */

#define BUDGET 20000u

static void test_spin_insts(void **state)
{
    (void)state;
    for (size_t i = 0; i < NMODES; i++) {
        rig r;
        rig_open(&r, &modes[i], "gpu.watchdog_insts=20000", 0, spin_ptx, "spin");
        smc_status st = rig_launch(&r, 1, 64, 0);
        uint64_t wi, cyc;
        launch_counts(&r, &wi, &cyc);
        expect_hang(&r, st, "spin", 1, 2, 1, 3, "gpu.watchdog_insts");
        /* within the budget: no warp ran more than BUDGET (+ the one that
         * tripped it) instructions; the one that tripped ran exactly that */
        if (wi < BUDGET || wi > 2 * (BUDGET + 1))
            fail_msg("%s: %llu warp-instructions for a budget of %u per warp", modes[i].name,
                     (unsigned long long)wi, BUDGET);
        smc_device_destroy(r.dev);
    }
}

static void test_mutual_insts(void **state)
{
    (void)state;
    for (size_t i = 0; i < NMODES; i++) {
        rig r;
        rig_open(&r, &modes[i], "gpu.watchdog_insts=20000", 0, mutual_ptx, "mutual");
        smc_status st = rig_launch(&r, 2, 32, 0);
        uint64_t wi, cyc;
        launch_counts(&r, &wi, &cyc);
        expect_hang(&r, st, "mutual", 2, 1, 5, 7, "gpu.watchdog_insts");
        if (wi < BUDGET || wi > 2 * (BUDGET + 1) + 10)
            fail_msg("%s: %llu warp-instructions for a budget of %u per warp", modes[i].name,
                     (unsigned long long)wi, BUDGET);
        smc_device_destroy(r.dev);
    }
}

/* smc_device_opts.watchdog (SMCOSIM_WATCHDOG) is the same budget and wins
 * over the key; its default is the key's. */
static void test_opts_watchdog(void **state)
{
    (void)state;
    for (size_t i = 0; i < 2; i++) {
        rig r;
        rig_open(&r, &modes[i], "gpu.watchdog_insts=1000000", 5000, spin_ptx, "spin");
        smc_status st = rig_launch(&r, 1, 32, 0);
        uint64_t wi, cyc;
        launch_counts(&r, &wi, &cyc);
        expect_hang(&r, st, "spin", 1, 1, 1, 3, "5000 warp-instructions");
        assert_true(wi >= 5000 && wi <= 5001);
        smc_device_destroy(r.dev);
    }
    gpu_config c;
    char err[256];
    assert_int_equal(gpu_config_preset(&c, "kepler-k20x", err, sizeof err), 0);
    assert_int_equal(c.watchdog_insts, EMU_DEFAULT_WATCHDOG);
    assert_true(c.watchdog_insts >= UINT64_C(1000000000));   /* 10 x 10^8 */
}

/* ---- the budget in cycles, timing mode (issue 24's command) --------------- */

static void test_cycles_timing(void **state)
{
    (void)state;
    for (size_t i = 1; i < NMODES; i++) {
        const char *ks[] = { "spin", "mutual" };
        for (int k = 0; k < 2; k++) {
            rig r;
            rig_open(&r, &modes[i], "gpu.watchdog_cycles=20000", 0,
                     k ? mutual_ptx : spin_ptx, ks[k]);
            smc_status st = rig_launch(&r, k ? 2 : 1, 64, 0);
            uint64_t wi, cyc;
            launch_counts(&r, &wi, &cyc);
            /* no progress after the CTAs started (cycle 0 or 1): reported
             * the cycle the budget ran out */
            if (cyc < 20000 || cyc > 20000 + 8)
                fail_msg("%s: %s stopped at cycle %llu for gpu.watchdog_cycles=20000",
                         modes[i].name, ks[k], (unsigned long long)cyc);
            expect_hang(&r, st, ks[k], k ? 2 : 1, 2, k ? 5 : 1, k ? 7 : 3, "gpu.watchdog_cycles");
            smc_device_destroy(r.dev);
        }
    }
}

/* ---- a long loop that makes progress at its end is not a hang ------------- */

/* The default budget is 10 x a 10^8-instruction loop in one warp; scaled
 * down by 10^5 here: a budget of 10000 warp-instructions (and, as the
 * defaults, 100 x as many cycles) lets a warp run 1000 iterations of 3
 * instructions and more — also 4 such warps side by side, 12000
 * warp-instructions together, over the budget were it the launch's (it is
 * per warp) — and stops the same loop when it is longer than the budget.
 * (The Verilated back ends run the loop's cycles one by one: 10^5, not
 * 10^4, and 4 warps, not 32, keep the test at about a second.) */
static void test_long_loop(void **state)
{
    (void)state;
    const char *set = "gpu.watchdog_insts=10000;gpu.watchdog_cycles=1000000";
    for (size_t i = 0; i < NMODES; i++) {
        uint32_t blocks[] = { 32, 128 };
        for (int b = 0; b < 2; b++) {
            rig r;
            rig_open(&r, &modes[i], set, 0, loop_ptx, "loop");
            smc_status st = rig_launch(&r, 1, blocks[b], 1000);
            if (st != SMC_OK)
                fail_msg("%s: block %u: %s: %s", modes[i].name, blocks[b], smc_status_name(st),
                         smc_last_message(r.dev));
            uint64_t wi, cyc;
            launch_counts(&r, &wi, &cyc);
            assert_true(wi > (uint64_t)blocks[b] / 32 * 3000);
            uint32_t v[128];
            assert_int_equal(smc_memcpy_dtoh(r.dev, v, r.buf, blocks[b] * 4), SMC_OK);
            for (uint32_t t = 0; t < blocks[b]; t++)
                assert_int_equal(v[t], 1000);
            if (b == 0) {
                /* 4000 iterations = 12000 instructions in one warp: over */
                st = rig_launch(&r, 1, 32, 4000);
                expect_hang(&r, st, "loop", 1, 1, 3, 5, "gpu.watchdog_insts");
            }
            smc_device_destroy(r.dev);
        }
    }
}

/* ---- a barrier that cannot complete: reported when it happens ------------- */

static void test_deadlock(void **state)
{
    (void)state;
    for (size_t i = 0; i < NMODES; i++) {
        rig r;
        rig_open(&r, &modes[i], NULL, 0, deadlock_ptx, "deadlock");
        smc_status st = smc_launch(r.dev, r.k, (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 64, 1, 1 }, 0, 0,
                                   NULL, 0, NULL);
        uint64_t wi, cyc;
        launch_counts(&r, &wi, &cyc);
        expect_hang(&r, st, "deadlock", 1, 1, 1, 1, "deadlock");
        assert_true(wi == 4);                      /* mov + bar, two warps */
        assert_true(cyc < 1000);                   /* not after a watchdog */
        smc_device_destroy(r.dev);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spin_insts),
        cmocka_unit_test(test_mutual_insts),
        cmocka_unit_test(test_opts_watchdog),
        cmocka_unit_test(test_cycles_timing),
        cmocka_unit_test(test_long_loop),
        cmocka_unit_test(test_deadlock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
