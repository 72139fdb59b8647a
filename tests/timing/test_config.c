/*
 * test_config.c — the GPU configuration: presets carry the seed papers'
 * numbers, overrides and files apply and fail naming the key, printing
 * round-trips, and the policy syntax.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_config.h"

static char err[512];

static void test_presets_valid(void **state)
{
    (void)state;
    for (size_t i = 0; gpu_preset_names[i]; i++) {
        gpu_config c;
        assert_int_equal(gpu_config_preset(&c, gpu_preset_names[i], err, sizeof err), 0);
        if (gpu_config_check(&c, err, sizeof err) != 0)
            fail_msg("%s: %s", gpu_preset_names[i], err);
        assert_string_equal(c.preset, gpu_preset_names[i]);
    }
}

/* Numbers typed in from the tables, not from gpu_config.c. */
static void test_kepler_table_4_1(void **state)
{
    (void)state;
    gpu_config c;
    assert_int_equal(gpu_config_preset(&c, "kepler-k20x", err, sizeof err), 0);
    assert_int_equal(c.mem.num_sms, 14);
    assert_int_equal(c.max_warps_per_sm, 64);
    assert_int_equal(c.max_ctas_per_sm, 16);
    assert_int_equal(c.max_threads_per_sm, 2048);
    assert_int_equal(c.regs_per_sm, 65536);
    assert_int_equal(c.clock_mhz, 732);
    assert_int_equal(c.num_schedulers, 4);
    /* 6 SPU = 4 private + 2 shared; 4 BRU private; 2 DPU, 1 IMU, 1 SFU, 1 LSU */
    assert_int_equal(c.unit[GPU_UNIT_SP].private_units * 4 + c.unit[GPU_UNIT_SP].shared_units, 6);
    assert_int_equal(c.unit[GPU_UNIT_BRANCH].private_units * 4 + c.unit[GPU_UNIT_BRANCH].shared_units, 4);
    assert_int_equal(c.unit[GPU_UNIT_DPU].shared_units, 2);
    assert_int_equal(c.unit[GPU_UNIT_INT].shared_units, 1);
    assert_int_equal(c.unit[GPU_UNIT_SFU].shared_units, 1);
    assert_int_equal(c.mem.l1d_sets * c.mem.l1d_ways * c.mem.l1d_line_bytes, 16 * 1024);
    assert_int_equal(c.mem.l1d_mshr_entries, 16);          /* Table 6.3 */
    assert_int_equal(c.policy, GPU_POLICY_LRR);            /* Table 6.3 */
}

static void test_fermi_and_si(void **state)
{
    (void)state;
    gpu_config c;
    assert_int_equal(gpu_config_preset(&c, "fermi-gtx480", err, sizeof err), 0);
    assert_int_equal(c.mem.num_sms, 30);
    assert_int_equal(c.max_threads_per_sm, 1536);
    assert_int_equal(c.regs_per_sm, 32 * 1024);
    assert_int_equal(c.smem_per_sm, 48 * 1024);
    assert_int_equal(c.clock_mhz, 700);                     /* GPGPU-Sim 3.2.1 core clock */
    assert_int_equal(c.mem.clock_core_mhz, 700);
    assert_int_equal(c.mem.clock_icnt_mhz, 1400);
    assert_int_equal(c.mem.clock_dram_mhz, 924);
    assert_int_equal(c.mem.icnt_sms_per_cluster, 2);        /* 15 clusters of 2 */
    assert_int_equal(c.policy, GPU_POLICY_GTO);
    assert_int_equal(c.unit[GPU_UNIT_SP].ii, 1);            /* 32 lanes at 700 MHz */
    assert_int_equal(c.unit[GPU_UNIT_SP].shared_units, 2);  /* -gpgpu_num_sp_units 2 */
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    c.clock_mhz = 1400;                                     /* one core clock, two values */
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'clock.core_mhz'"));
    assert_int_equal(gpu_config_preset(&c, "fermi-gtx480-v1", err, sizeof err), 0);
    assert_int_equal(c.clock_mhz, 1400);
    assert_int_equal(c.mem.clock_core_mhz, 0);              /* one clock */
    assert_int_equal(c.unit[GPU_UNIT_SP].ii, 2);            /* SIMD width 16 */
    assert_int_equal(gpu_config_preset(&c, "si-7970", err, sizeof err), 0);
    assert_int_equal(c.mem.num_sms, 32);
    assert_int_equal(c.max_warps_per_sm, 40);
    assert_int_equal(c.smem_per_sm, 64 * 1024);
    assert_int_equal(c.clock_mhz, 1000);
    assert_int_equal(c.num_schedulers, 4);
}

static void test_unknown_preset(void **state)
{
    (void)state;
    gpu_config c;
    assert_int_equal(gpu_config_preset(&c, "volta", err, sizeof err), -1);
    assert_non_null(strstr(err, "volta"));
}

static void test_apply_and_errors(void **state)
{
    (void)state;
    gpu_config c;
    assert_int_equal(gpu_config_preset(&c, "kepler-k20x-v1", err, sizeof err), 0);
    assert_int_equal(gpu_config_apply(&c, "unit.sp.latency=12", err, sizeof err), 0);
    assert_int_equal(c.unit[GPU_UNIT_SP].latency, 12);
    assert_int_equal(gpu_config_apply(&c, "l1d.latency = 33", err, sizeof err), 0);
    assert_int_equal(c.mem.l1d_latency, 33);
    assert_int_equal(gpu_config_apply(&c, "sched.policy=gto", err, sizeof err), 0);
    assert_int_equal(c.policy, GPU_POLICY_GTO);

    assert_int_equal(gpu_config_apply(&c, "unit.sp.latencyy=3", err, sizeof err), -1);
    assert_non_null(strstr(err, "unit.sp.latencyy"));
    assert_int_equal(gpu_config_apply(&c, "sm.max_warps=65", err, sizeof err), -1);
    assert_non_null(strstr(err, "sm.max_warps"));
    assert_int_equal(c.max_warps_per_sm, 64);                /* unchanged */
    assert_int_equal(gpu_config_apply(&c, "sched.policy=fifo", err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.policy"));

    /* cross-key rules */
    assert_int_equal(gpu_config_apply(&c, "sm.max_warps=62", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "sm.max_warps"));
    assert_int_equal(gpu_config_apply(&c, "sm.max_warps=64", err, sizeof err), 0);
    assert_int_equal(gpu_config_apply(&c, "ldst.id_oc=1", err, sizeof err), 0);   /* no collectors */
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'ldst.id_oc'"));
    assert_int_equal(gpu_config_apply(&c, "ldst.collectors=2", err, sizeof err), 0);
    assert_int_equal(gpu_config_apply(&c, "ldst.oc_ex=1", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    assert_int_equal(gpu_config_apply(&c, "ldst.id_oc=0", err, sizeof err), 0);    /* path off, stages left */
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'ldst.collectors'"));
    assert_int_equal(gpu_config_apply(&c, "unit.opcode_latency=g320", err, sizeof err), -1);
    assert_non_null(strstr(err, "unit.opcode_latency"));
}

static void test_file_and_spec(void **state)
{
    (void)state;
    char path[] = "/tmp/smc_cfg_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# comment\nunit.sfu.latency = 40\n\nmem.num_sms = 2\n");
    fclose(f);
    gpu_config c;
    char spec[128];
    snprintf(spec, sizeof spec, "fermi-gtx480-v1,%s", path);
    assert_int_equal(gpu_config_load_spec(&c, spec, err, sizeof err), 0);
    assert_int_equal(c.clock_mhz, 1400);
    assert_int_equal(c.unit[GPU_UNIT_SFU].latency, 40);
    assert_int_equal(c.mem.num_sms, 2);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);

    f = fopen(path, "w");
    fprintf(f, "unit.sfu.latency = 40\nsched.num = 0\n");
    fclose(f);
    assert_int_equal(gpu_config_load_spec(&c, path, err, sizeof err), -1);
    assert_non_null(strstr(err, ":2:"));
    assert_non_null(strstr(err, "sched.num"));
    unlink(path);

    assert_int_equal(gpu_config_load_spec(&c, "/nonexistent/x.cfg", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.cfg"));

    assert_int_equal(gpu_config_load_spec(&c, NULL, err, sizeof err), 0);
    assert_string_equal(c.preset, "kepler-k20x");
}

/* print -> load gives the same configuration, for every preset */
static void test_print_roundtrip(void **state)
{
    (void)state;
    for (size_t i = 0; gpu_preset_names[i]; i++) {
        gpu_config a, b;
        assert_int_equal(gpu_config_preset(&a, gpu_preset_names[i], err, sizeof err), 0);
        char path[] = "/tmp/smc_cfg_XXXXXX";
        int fd = mkstemp(path);
        FILE *f = fdopen(fd, "w");
        gpu_config_print(&a, f);
        fclose(f);
        /* start from a different preset so every key must come from the file */
        assert_int_equal(gpu_config_preset(&b, gpu_preset_names[(i + 1) % 3], err, sizeof err), 0);
        if (gpu_config_load_file(&b, path, err, sizeof err) != 0)
            fail_msg("%s", err);
        unlink(path);
        memcpy(b.preset, a.preset, sizeof a.preset);
        assert_memory_equal(&a, &b, sizeof a);
    }
}

static void test_policy_syntax(void **state)
{
    (void)state;
    gpu_config c;
    assert_int_equal(gpu_config_preset(&c, "kepler-k20x", err, sizeof err), 0);
    assert_int_equal(gpu_config_set_policy(&c, "swl:4", err, sizeof err), 0);
    assert_int_equal(c.policy, GPU_POLICY_GTO);
    assert_int_equal(c.warp_limit, 4);
    assert_int_equal(gpu_config_set_policy(&c, "two-level:6", err, sizeof err), 0);
    assert_int_equal(c.policy, GPU_POLICY_TWO_LEVEL);
    assert_int_equal(c.pool_size, 6);
    assert_int_equal(c.warp_limit, 0);
    assert_int_equal(gpu_config_set_policy(&c, "swl:x", err, sizeof err), -1);
    assert_int_equal(gpu_config_set_policy(&c, "oaws", err, sizeof err), -1);
    assert_non_null(strstr(err, "oaws"));
    assert_int_equal(gpu_config_set_backend(&c, "rtl", err, sizeof err), 0);
    assert_int_equal(c.backend, GPU_SCHED_RTL);
    assert_int_equal(gpu_config_set_backend(&c, "verilog", err, sizeof err), -1);
}

/* OAWS's peers (docs/oaws.md, "Peers"): off in every preset with Table 3's
 * parameters; --policy ccws / mascar set GTO and the peer, any other policy
 * clears it; the VTA's tags must fill whole sets. */
static void test_peer_keys(void **state)
{
    (void)state;
    gpu_config c;
    for (size_t i = 0; gpu_preset_names[i]; i++) {
        assert_int_equal(gpu_config_preset(&c, gpu_preset_names[i], err, sizeof err), 0);
        assert_int_equal(c.peer, GPU_PEER_NONE);
        assert_int_equal(c.ccws_base, 100);
        assert_int_equal(c.ccws_k_throttle, 8);
        assert_int_equal(c.ccws_vta_entries, 16);
        assert_int_equal(c.ccws_vta_ways, 8);
        assert_int_equal(c.mascar_reexec_entries, 32);   /* seed 001 §5 */
    }
    assert_int_equal(gpu_config_preset(&c, "fermi-gtx480", err, sizeof err), 0);
    c.warp_limit = 3;
    assert_int_equal(gpu_config_set_policy(&c, "ccws", err, sizeof err), 0);
    assert_int_equal(c.policy, GPU_POLICY_GTO);
    assert_int_equal(c.warp_limit, 0);
    assert_int_equal(c.peer, GPU_PEER_CCWS);
    char name[32];
    assert_string_equal(gpu_policy_string(&c, name, sizeof name), "ccws");
    assert_int_equal(gpu_config_set_policy(&c, "mascar", err, sizeof err), 0);
    assert_int_equal(c.peer, GPU_PEER_MASCAR);
    assert_string_equal(gpu_policy_string(&c, name, sizeof name), "mascar");
    assert_int_equal(gpu_config_set_policy(&c, "gto", err, sizeof err), 0);
    assert_int_equal(c.peer, GPU_PEER_NONE);
    assert_int_equal(gpu_config_apply(&c, "sched.peer=ccws", err, sizeof err), 0);
    assert_int_equal(c.peer, GPU_PEER_CCWS);
    assert_int_equal(gpu_config_apply(&c, "sched.peer=ccwss", err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.peer"));
    /* a cross-key rule: found by the check of the whole configuration */
    assert_int_equal(gpu_config_apply(&c, "sched.ccws_vta_entries=12", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.ccws_vta_entries"));
    assert_int_equal(gpu_config_apply(&c, "sched.ccws_vta_ways=4", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    assert_int_equal(gpu_config_apply(&c, "sched.ccws_base=0", err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.ccws_base"));
    assert_int_equal(gpu_config_apply(&c, "sched.ccws_k_throttle=41", err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.ccws_k_throttle"));
    /* MASCAR's re-execution queue: 0 (off) .. 256 entries */
    assert_int_equal(gpu_config_apply(&c, "sched.mascar_reexec_entries=0", err, sizeof err), 0);
    assert_int_equal(c.mascar_reexec_entries, 0);
    assert_int_equal(gpu_config_apply(&c, "sched.mascar_reexec_entries=256", err, sizeof err), 0);
    assert_int_equal(c.mascar_reexec_entries, 256);
    assert_int_equal(gpu_config_apply(&c, "sched.mascar_reexec_entries=257", err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.mascar_reexec_entries"));
    assert_int_equal(gpu_config_apply(&c, "sched.mascar_reexec_entries=-1", err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.mascar_reexec_entries"));
    assert_int_equal(c.mascar_reexec_entries, 256);   /* unchanged by the errors */
}

/* The HAWS keys: off with the spec's option defaults in every preset (so
 * that nothing changes), range errors naming the key, and the one text key
 * (haws.hints_file) with its empty value, quotes and round trip. */
static void test_haws_keys(void **state)
{
    (void)state;
    for (size_t i = 0; gpu_preset_names[i]; i++) {
        gpu_config c;
        assert_int_equal(gpu_config_preset(&c, gpu_preset_names[i], err, sizeof err), 0);
        assert_int_equal(c.haws, GPU_HAWS_OFF);
        assert_int_equal(c.haws_copy_latency, 2);
        assert_int_equal(c.haws_mem_hints, 1);
        assert_int_equal(c.haws_branch_hints, 1);
        assert_int_equal(c.haws_cross_stall_points, 0);
        assert_int_equal(c.haws_rename_occupancy, 1);
        assert_int_equal(c.haws_validate, 1);
        assert_string_equal(c.haws_hints_file, "");
    }
    gpu_config c;
    assert_int_equal(gpu_config_preset(&c, "kepler-k20x", err, sizeof err), 0);
    assert_int_equal(gpu_config_apply(&c, "sched.haws=warp", err, sizeof err), 0);
    assert_int_equal(c.haws, GPU_HAWS_WARP);
    assert_string_equal(gpu_haws_name(c.haws), "warp");
    assert_int_equal(gpu_config_apply(&c, "sched.haws = all", err, sizeof err), 0);
    assert_int_equal(c.haws, GPU_HAWS_ALL);
    assert_int_equal(gpu_config_apply(&c, "sched.haws=on", err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.haws"));
    assert_int_equal(gpu_config_apply(&c, "haws.copy_latency=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "haws.copy_latency"));
    /* a unit latency of 1 would give a writeback at the issue edge, which
     * the core ignores (docs/sched-interface.md): refused, not a hang */
    assert_int_equal(gpu_config_apply(&c, "unit.sp.latency=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "unit.sp.latency"));
    assert_int_equal(gpu_config_apply(&c, "haws.copy_latency=3", err, sizeof err), 0);
    assert_int_equal(c.haws_copy_latency, 3);
    assert_int_equal(gpu_config_apply(&c, "haws.mem_hints=off", err, sizeof err), 0);
    assert_int_equal(c.haws_mem_hints, 0);
    assert_int_equal(gpu_config_apply(&c, "haws.validate=2", err, sizeof err), -1);
    assert_non_null(strstr(err, "haws.validate"));
    assert_int_equal(gpu_config_apply(&c, "haws.hints_file=/tmp/my hints.txt", err, sizeof err), 0);
    assert_string_equal(c.haws_hints_file, "/tmp/my hints.txt");
    assert_int_equal(gpu_config_apply(&c, "haws.hints_file=a#b", err, sizeof err), -1);
    assert_non_null(strstr(err, "haws.hints_file"));
    char longpath[400];
    memset(longpath, 'x', sizeof longpath);
    memcpy(longpath, "haws.hints_file=", 16);
    longpath[16 + GPU_HAWS_PATH_MAX + 1] = '\0';                /* one character too many */
    assert_int_equal(gpu_config_apply(&c, longpath, err, sizeof err), -1);
    assert_non_null(strstr(err, "haws.hints_file"));
    assert_string_equal(c.haws_hints_file, "/tmp/my hints.txt");  /* unchanged */
    /* a config file with the text key, printed and read back */
    char path[] = "/tmp/smc_cfg_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    gpu_config_print(&c, f);
    fclose(f);
    gpu_config b;
    assert_int_equal(gpu_config_preset(&b, "kepler-k20x", err, sizeof err), 0);
    if (gpu_config_load_file(&b, path, err, sizeof err) != 0) fail_msg("%s", err);
    assert_string_equal(b.haws_hints_file, "/tmp/my hints.txt");
    assert_int_equal(b.haws, GPU_HAWS_ALL);
    assert_int_equal(b.haws_copy_latency, 3);
    /* empty again: "" and nothing after '=' */
    assert_int_equal(gpu_config_apply(&b, "haws.hints_file=\"\"", err, sizeof err), 0);
    assert_string_equal(b.haws_hints_file, "");
    assert_int_equal(gpu_config_apply(&c, "haws.hints_file=", err, sizeof err), 0);
    assert_string_equal(c.haws_hints_file, "");
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets_valid),
        cmocka_unit_test(test_kepler_table_4_1),
        cmocka_unit_test(test_fermi_and_si),
        cmocka_unit_test(test_unknown_preset),
        cmocka_unit_test(test_apply_and_errors),
        cmocka_unit_test(test_file_and_spec),
        cmocka_unit_test(test_print_roundtrip),
        cmocka_unit_test(test_policy_syntax),
        cmocka_unit_test(test_haws_keys),
        cmocka_unit_test(test_peer_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
