/*
 * test_config_keys.c — the generic key-table helper (csrc/util/config_keys)
 * on a small struct of its own, and the memory configuration built on it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config_keys.h"
#include "mem.h"

typedef struct demo {
    uint32_t ways;
    uint64_t bytes;
    uint32_t fast;
    uint32_t policy;
    double   rate;
} demo;

static const char *const policies[] = { "lru", "fifo", "random", NULL };

static const ck_key keys[] = {
    CK_KEY_U32("c.ways", demo, ways, 1, 16, "associativity"),
    CK_KEY_U64("c.bytes", demo, bytes, 0, 1ull << 40, "size"),
    CK_KEY_BOOL("c.fast", demo, fast, "fast mode"),
    CK_KEY_ENUM("c.policy", demo, policy, policies, "replacement"),
    CK_KEY_DOUBLE("c.rate", demo, rate, 0.0, 1.0, "miss rate"),
};
#define NK (sizeof keys / sizeof keys[0])

static void test_set_and_ranges(void **state)
{
    (void)state;
    demo d = { 4, 0, 0, 0, 0.5 };
    char err[256];
    assert_int_equal(ck_set(keys, NK, &d, "c.ways", "8", err, sizeof err), 0);
    assert_int_equal(d.ways, 8);
    assert_int_equal(ck_set(keys, NK, &d, "c.ways", "17", err, sizeof err), -1);
    assert_non_null(strstr(err, "'c.ways'"));
    assert_non_null(strstr(err, "[1, 16]"));
    assert_int_equal(d.ways, 8);                       /* unchanged */
    assert_int_equal(ck_set(keys, NK, &d, "c.ways", "0", err, sizeof err), -1);
    assert_int_equal(ck_set(keys, NK, &d, "c.ways", "-1", err, sizeof err), -1);
    assert_int_equal(ck_set(keys, NK, &d, "c.ways", "4x", err, sizeof err), -1);
    assert_int_equal(ck_set(keys, NK, &d, "c.ways", "0x10", err, sizeof err), 0);
    assert_int_equal(d.ways, 16);
    assert_int_equal(ck_set(keys, NK, &d, "c.bytes", "768K", err, sizeof err), 0);
    assert_int_equal(d.bytes, 768 * 1024);
    assert_int_equal(ck_set(keys, NK, &d, "c.bytes", "2G", err, sizeof err), 0);
    assert_int_equal(d.bytes, 2ull << 30);
    assert_int_equal(ck_set(keys, NK, &d, "c.fast", "yes", err, sizeof err), 0);
    assert_int_equal(d.fast, 1);
    assert_int_equal(ck_set(keys, NK, &d, "c.fast", "maybe", err, sizeof err), -1);
    assert_int_equal(ck_set(keys, NK, &d, "c.policy", "fifo", err, sizeof err), 0);
    assert_int_equal(d.policy, 1);
    assert_int_equal(ck_set(keys, NK, &d, "c.policy", "plru", err, sizeof err), -1);
    assert_non_null(strstr(err, "lru|fifo|random"));
    assert_int_equal(ck_set(keys, NK, &d, "c.rate", "0.25", err, sizeof err), 0);
    assert_true(d.rate == 0.25);
    assert_int_equal(ck_set(keys, NK, &d, "c.rate", "1.5", err, sizeof err), -1);
    assert_int_equal(ck_set(keys, NK, &d, "c.size", "1", err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown configuration key 'c.size'"));
}

static void test_apply_and_text(void **state)
{
    (void)state;
    demo d = { 4, 0, 0, 0, 0.5 };
    char err[256];
    assert_int_equal(ck_apply(keys, NK, &d, "c.ways = 2", err, sizeof err), 0);
    assert_int_equal(d.ways, 2);
    assert_int_equal(ck_apply(keys, NK, &d, "c.ways", err, sizeof err), -1);
    assert_int_equal(ck_apply(keys, NK, &d, "c.ways=", err, sizeof err), -1);
    assert_non_null(strstr(err, "missing value"));
    const char *text = "# a comment\n\n c.ways = 3   # trailing\nc.policy=random\n";
    assert_int_equal(ck_load_text(keys, NK, &d, text, "t.cfg", err, sizeof err), 0);
    assert_int_equal(d.ways, 3);
    assert_int_equal(d.policy, 2);
    const char *bad = "c.ways = 3\n# ok\nc.ways = 99\n";
    assert_int_equal(ck_load_text(keys, NK, &d, bad, "t.cfg", err, sizeof err), -1);
    assert_non_null(strstr(err, "t.cfg:3:"));
    assert_non_null(strstr(err, "'c.ways'"));
    const char *junk = "c.ways = 3\nnot an assignment\n";
    assert_int_equal(ck_load_text(keys, NK, &d, junk, "j.cfg", err, sizeof err), -1);
    assert_non_null(strstr(err, "j.cfg:2:"));
}

static void test_print_round_trip_and_markdown(void **state)
{
    (void)state;
    demo d = { 7, 12345, 1, 2, 0.125 }, back = { 1, 0, 0, 0, 0 };
    char path[] = "/tmp/ck_testXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    ck_print(keys, NK, &d, f);
    fclose(f);
    char err[256];
    assert_int_equal(ck_load_file(keys, NK, &back, path, err, sizeof err), 0);
    assert_int_equal(back.ways, 7);
    assert_int_equal(back.bytes, 12345);
    assert_int_equal(back.fast, 1);
    assert_int_equal(back.policy, 2);
    assert_true(back.rate == 0.125);
    unlink(path);
    assert_int_equal(ck_load_file(keys, NK, &back, "/nonexistent/x.cfg", err,
                                  sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.cfg"));

    char *buf = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&buf, &len);
    ck_markdown(keys, NK, &d, mf);
    fclose(mf);
    assert_non_null(strstr(buf, "| key | type, range | value | description |"));
    assert_non_null(strstr(buf, "| `c.policy` | one of lru, fifo, random | random | replacement |"));
    assert_non_null(strstr(buf, "| `c.ways` | integer 1..16 | 7 | associativity |"));
    free(buf);
}

/* CK_STR: a char array with a length limit; "" and an empty value are
 * the empty string; '#' (a comment in files) is refused; it prints quoted
 * when empty so that the printed text loads back. */
typedef struct sdemo { uint32_t n; char path[8]; } sdemo;
static const ck_key skeys[] = {
    CK_KEY_U32("s.n", sdemo, n, 0, 9, "a number"),
    CK_KEY_STR("s.path", sdemo, path, "a path"),
};
static void test_string_key(void **state)
{
    (void)state;
    sdemo d = { 1, "" };
    char err[256];
    assert_int_equal(ck_set(skeys, 2, &d, "s.path", "abc", err, sizeof err), 0);
    assert_string_equal(d.path, "abc");
    assert_int_equal(ck_set(skeys, 2, &d, "s.path", "\"a b\"", err, sizeof err), 0);
    assert_string_equal(d.path, "a b");
    assert_int_equal(ck_set(skeys, 2, &d, "s.path", "12345678", err, sizeof err), -1);
    assert_non_null(strstr(err, "'s.path'"));
    assert_non_null(strstr(err, "7 characters"));
    assert_string_equal(d.path, "a b");                      /* unchanged */
    assert_int_equal(ck_set(skeys, 2, &d, "s.path", "x#y", err, sizeof err), -1);
    assert_int_equal(ck_apply(skeys, 2, &d, "s.path =", err, sizeof err), 0);
    assert_string_equal(d.path, "");
    assert_int_equal(ck_apply(skeys, 2, &d, "s.n =", err, sizeof err), -1);  /* numbers need one */
    assert_non_null(strstr(err, "missing value"));
    char buf[64];
    ck_format(&skeys[1], &d, buf, sizeof buf);
    assert_string_equal(buf, "\"\"");
    assert_int_equal(ck_load_text(skeys, 2, &d, "s.path = p.txt # comment\n", "t", err, sizeof err), 0);
    assert_string_equal(d.path, "p.txt");
    memset(d.path, 'z', sizeof d.path);                      /* not terminated */
    assert_int_equal(ck_check(skeys, 2, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "s.path"));
}

static void test_check_struct(void **state)
{
    (void)state;
    demo d = { 0, 0, 0, 0, 0.5 };
    char err[256];
    assert_int_equal(ck_check(keys, NK, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "'c.ways'"));
    d.ways = 1;
    d.policy = 3;
    assert_int_equal(ck_check(keys, NK, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "'c.policy'"));
    d.policy = 0;
    assert_int_equal(ck_check(keys, NK, &d, err, sizeof err), 0);
}

/* ---- the memory configuration ---- */

static void test_mem_presets(void **state)
{
    (void)state;
    char err[256];
    mem_config c;
    for (int i = 0; mem_preset_names[i]; i++) {
        assert_int_equal(mem_config_preset(&c, mem_preset_names[i], err, sizeof err), 0);
        if (mem_config_check(&c, err, sizeof err) != 0)
            fail_msg("%s: %s", mem_preset_names[i], err);
    }
    assert_int_equal(mem_config_preset(&c, "volta", err, sizeof err), -1);
    assert_non_null(strstr(err, "'volta'"));
    /* numbers straight from the seed tables */
    mem_config_preset(&c, "fermi-gtx480", err, sizeof err);
    assert_int_equal(c.l1d_sets * c.l1d_ways * c.l1d_line_bytes, 32 * 1024);
    assert_int_equal(c.l2_partitions * c.l2_sets * c.l2_ways * c.l2_line_bytes,
                     768 * 1024);
    assert_int_equal(c.l1d_mshr_entries, 32);
    mem_config_preset(&c, "kepler-k20x", err, sizeof err);
    assert_int_equal(c.l1d_sets * c.l1d_ways * c.l1d_line_bytes, 16 * 1024);
    assert_int_equal(c.l2_partitions * c.l2_sets * c.l2_ways * c.l2_line_bytes,
                     1536 * 1024);
    assert_int_equal(c.l1d_mshr_entries, 16);
    assert_int_equal(c.l1d_mshr_max_merge, 8);
    mem_config_preset(&c, "si-7970", err, sizeof err);
    assert_int_equal(c.l1d_sets, 64);
    assert_int_equal(c.l1d_line_bytes, 64);
    assert_int_equal(c.l2_sets * c.l2_ways * c.l2_line_bytes, 128 * 1024);
}

static void test_mem_config_errors(void **state)
{
    (void)state;
    char err[256];
    mem_config c;
    mem_config_preset(&c, "kepler-k20x", err, sizeof err);
    assert_int_equal(mem_config_apply(&c, "l1d.sets=48", err, sizeof err), 0);
    assert_int_equal(mem_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'l1d.sets'"));
    assert_non_null(mem_create(&c, err, sizeof err) == NULL ? "ok" : NULL);
    mem_config_preset(&c, "kepler-k20x", err, sizeof err);
    assert_int_equal(mem_config_apply(&c, "l1d.mshr_entries=0", err, sizeof err), -1);
    assert_non_null(strstr(err, "'l1d.mshr_entries'"));
    assert_int_equal(c.l1d_mshr_entries, 16);          /* unchanged */
    assert_int_equal(mem_config_apply(&c, "dram.tFAW=3", err, sizeof err), -1);
    assert_non_null(strstr(err, "'dram.tFAW'"));
    assert_int_equal(mem_config_apply(&c, "l1d.alloc=on_miss", err, sizeof err), 0);
    assert_int_equal(c.l1d_alloc, MEM_ALLOC_ON_MISS);
    assert_int_equal(mem_config_apply(&c, "l1d.sector_bytes=256", err, sizeof err), 0);
    assert_int_equal(mem_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'l1d.sector_bytes'"));
    mem_config_preset(&c, "kepler-k20x", err, sizeof err);
    assert_int_equal(mem_config_apply(&c, "l2.line_bytes=64", err, sizeof err), 0);
    assert_int_equal(mem_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'l2.line_bytes'"));
    /* l2.write_miss = fetch queues two DRAM requests at once */
    mem_config_preset(&c, "fermi-gtx480", err, sizeof err);
    assert_int_equal(mem_config_apply(&c, "l2.queue_entries=1", err, sizeof err), 0);
    assert_int_equal(mem_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'l2.queue_entries'"));
    assert_int_equal(mem_config_apply(&c, "l2.write_miss=allocate", err, sizeof err), 0);
    assert_int_equal(mem_config_check(&c, err, sizeof err), 0);
    assert_int_equal(mem_config_apply(&c, "l2.write_miss=fetch", err, sizeof err), 0);
    assert_int_equal(mem_config_apply(&c, "dram.queue_latency=0", err, sizeof err), 0);
    assert_int_equal(mem_config_apply(&c, "dram.queue_entries=1", err, sizeof err), 0);
    assert_int_equal(mem_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'dram.queue_entries'"));
    /* an instruction cache needs its geometry; an ideal one (l1i.sets = 0)
     * ignores it */
    mem_config_preset(&c, "kepler-k20x", err, sizeof err);
    assert_int_equal(c.l1i_sets, 0);
    assert_int_equal(mem_config_apply(&c, "l1i.sets=4", err, sizeof err), 0);
    assert_int_equal(mem_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'l1i.ways'"));
    mem_config_preset(&c, "fermi-gtx480", err, sizeof err);
    assert_int_equal(mem_config_check(&c, err, sizeof err), 0);
    assert_int_equal(mem_config_apply(&c, "l1i.sets=3", err, sizeof err), 0);
    assert_int_equal(mem_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'l1i.sets'"));
    assert_int_equal(mem_config_apply(&c, "l1i.sets=4", err, sizeof err), 0);
    assert_int_equal(mem_config_apply(&c, "l1i.line_bytes=8", err, sizeof err), 0);
    assert_int_equal(mem_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'l1i.line_bytes'"));
    assert_int_equal(mem_config_apply(&c, "l1i.mshr_entries=65", err, sizeof err), -1);
    assert_non_null(strstr(err, "'l1i.mshr_entries'"));

    /* a config file: error names file and line */
    char path[] = "/tmp/memcfg_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# test\nl2.latency = 50\n\nl1d.ways = 100\n");
    fclose(f);
    mem_config_preset(&c, "kepler-k20x", err, sizeof err);
    assert_int_equal(mem_config_load_file(&c, path, err, sizeof err), -1);
    char want[300];
    snprintf(want, sizeof want, "%s:4: key 'l1d.ways'", path);
    assert_non_null(strstr(err, want));
    assert_int_equal(c.l2_latency, 20);                /* the preset's: nothing applied */
    unlink(path);
}

/* A configuration too large for the memory available: mem_create fails
 * with a message naming the keys that size it, not a crash. Run in a child
 * whose address space is capped at 1 GiB (not under AddressSanitizer, which
 * reserves far more address space than that for itself; GCC defines
 * __SANITIZE_ADDRESS__ with -fsanitize=address). */
static void test_mem_too_big(void **state)
{
    (void)state;
#ifdef __SANITIZE_ADDRESS__
    skip();
#else
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        struct rlimit lim = { 1ull << 30, 1ull << 30 };
        setrlimit(RLIMIT_AS, &lim);
        mem_config c;
        char err[512] = "";
        mem_config_preset(&c, "kepler-k20x", err, sizeof err);
        c.num_sms = 64;
        c.l1d_sets = 65536;
        c.l1d_ways = 16;             /* 64 M ways: over a GiB of tags */
        mem_system *m = mem_create(&c, err, sizeof err);
        if (write(fds[1], err, strlen(err)) < 0 || m)
            _exit(2);
        _exit(0);
    }
    close(fds[1]);
    char msg[512] = "";
    ssize_t n = read(fds[0], msg, sizeof msg - 1);
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(n > 0);
    if (!strstr(msg, "out of memory") || !strstr(msg, "mem.num_sms x l1d.sets x l1d.ways") ||
        !strstr(msg, "GiB"))
        fail_msg("unexpected message: %s", msg);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_and_ranges),
        cmocka_unit_test(test_apply_and_text),
        cmocka_unit_test(test_print_round_trip_and_markdown),
        cmocka_unit_test(test_check_struct),
        cmocka_unit_test(test_string_key),
        cmocka_unit_test(test_mem_presets),
        cmocka_unit_test(test_mem_config_errors),
        cmocka_unit_test(test_mem_too_big),
    };
    return cmocka_run_group_tests_name("config_keys", tests, NULL, NULL);
}
