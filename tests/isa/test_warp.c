/*
 * test_warp.c — warp-level and CTA-level cooperation, and special registers:
 * shfl.sync (idx/up/down/bfly, clamp and segment masks, predicate output,
 * out-of-range lanes keeping their own value, sources that do not execute
 * the shfl giving 0, active sources outside the member mask), vote.sync (all/any/uni/
 * ballot), activemask (full, partial warp, divergent), match.any/all,
 * bar.sync/bar.arrive producer-consumer, bar.red.popc/and/or, and
 * %tid/%ntid/%ctaid/%nctaid in 3D, %laneid, %lanemask_*, %warpid/%nwarpid,
 * %smid/%nsmid, %clock/%clock64.
 *
 * The shfl reference is the PTX ISA pseudocode re-written in C.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_util.h"

#define D1(n) ((smc_dim3){ (n), 1, 1 })
#define ARGS(...) (sizeof((uint64_t[]){ __VA_ARGS__ }) / 8), (uint64_t[]){ __VA_ARGS__ }

/* ---- shfl.sync -------------------------------------------------------- */

enum shfl_mode { UP, DOWN, BFLY, IDX };
static const char *mode_name[] = { "up", "down", "bfly", "idx" };

/* Source lane and predicate for `lane`, from the PTX ISA pseudocode. */
static void shfl_ref(enum shfl_mode m, int lane, uint32_t b, uint32_t c,
                     int *src, int *pred)
{
    int bval = (int)(b & 31), cval = (int)(c & 31), seg = (int)((c >> 8) & 31);
    int maxl = (lane & seg) | (cval & ~seg);
    int minl = lane & seg;
    int j = 0, p = 0;
    switch (m) {
    case UP:   j = lane - bval; p = j >= maxl; break;
    case DOWN: j = lane + bval; p = j <= maxl; break;
    case BFLY: j = lane ^ bval; p = j <= maxl; break;
    case IDX:  j = minl | (bval & ~seg); p = j <= maxl; break;
    }
    *src = p ? j : lane;
    *pred = p;
}

/* One case per mode and lane-operand range, so that a problem in one does
 * not hide the others. */
typedef struct shfl_case {
    const char *name;        /* isa_case_head */
    enum shfl_mode mode;
    int high_b;              /* lane operands >= 32: only b[4:0] counts */
} shfl_case;

static const shfl_case shfl_cases[] = {
    { "shfl.sync.up", UP, 0 }, { "shfl.sync.down", DOWN, 0 },
    { "shfl.sync.bfly", BFLY, 0 }, { "shfl.sync.idx", IDX, 0 },
    { "shfl.sync.up b>=32", UP, 1 }, { "shfl.sync.down b>=32", DOWN, 1 },
    { "shfl.sync.bfly b>=32", BFLY, 1 }, { "shfl.sync.idx b>=32", IDX, 1 },
};

static void run_shfl(void **state)
{
    isa_ctx *c = *state;
    const shfl_case *tc = c->tcase;
    const char *m = mode_name[tc->mode];
    isa_loadf(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout, .param .u32 pb, .param .u32 pc)\n{\n"
        "\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<12>;\n\t.reg .b64 %%rd<4>;\n"
        "\tmov.u32 %%r1, %%tid.x;\n\tmad.lo.u32 %%r2, %%r1, 3, 100;\n"
        "\tld.param.u32 %%r3, [pb];\n\tld.param.u32 %%r4, [pc];\n"
        "\tshfl.sync.%s.b32 %%r5|%%p1, %%r2, %%r3, %%r4, 0xffffffff;\n"
        "\tselp.u32 %%r6, 1, 0, %%p1;\n"
        "\tld.param.u64 %%rd1, [pout];\n\tcvta.to.global.u64 %%rd1, %%rd1;\n"
        "\tmul.wide.u32 %%rd2, %%r1, 8;\n\tadd.u64 %%rd3, %%rd1, %%rd2;\n"
        "\tst.global.v2.u32 [%%rd3], {%%r5, %%r6};\n\tret;\n}\n", m);
    static const uint32_t low_bs[] = { 0, 1, 3, 5, 16, 31 };
    static const uint32_t high_bs[] = { 32, 33, 63, 0xffffffe1u };
    const uint32_t *bs = tc->high_b ? high_bs : low_bs;
    size_t nb = tc->high_b ? sizeof high_bs / sizeof high_bs[0]
                           : sizeof low_bs / sizeof low_bs[0];
    /* c: clamp value in bits 4:0, segment mask in bits 12:8 */
    static const uint32_t cs[] = { 0x1f, 0x00, 0x181f, 0x1800, 0x1c1f, 0x0f, 0x1007, 0x1e03 };
    uint64_t dout = isa_alloc(c, 32 * 8);
    unsigned bad = 0;
    for (size_t bi = 0; bi < nb; bi++)
        for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++) {
            isa_launch_ok(c, "k", D1(1), D1(32), 0, ARGS(dout, bs[bi], cs[ci]));
            uint32_t out[64];
            isa_read(c, out, dout, sizeof out);
            for (int lane = 0; lane < 32; lane++) {
                int src, pred;
                shfl_ref(tc->mode, lane, bs[bi], cs[ci], &src, &pred);
                uint32_t want = (uint32_t)src * 3 + 100;
                if ((out[2 * lane] != want || out[2 * lane + 1] != (uint32_t)pred) &&
                    bad++ < 10)
                    print_error("shfl.%s b=%u c=0x%x lane %d: got (%u,%u) want (%u,%d)\n",
                                m, bs[bi], cs[ci], lane, out[2 * lane],
                                out[2 * lane + 1], want, pred);
            }
        }
    if (bad)
        fail_msg("%s: %u lanes wrong", tc->name, bad);
}

/* Shuffle sources that do not execute the shfl (docs/isa-coverage.md,
 * "Shuffle sources that do not execute"). One warp of a 24-thread CTA:
 *   lanes 24..31   do not exist (partial warp),
 *   lanes 20..23   exit before the shfl,
 *   lanes 3,7,..19 branch around it (diverged, parked at the reconvergence point),
 *   lanes 5, 13    reach it with a false guard (@%p3),
 * every other lane executes it with its member mask = its own 8-lane tile
 * restricted to the lanes that execute, so sources in other tiles are active
 * but outside the mask. Every lane sets the source register before any of
 * that, so a shuffle that read the register of a lane that does not execute
 * would see lane * 7 + 11, not 0. Expected: out of range (p false) -> own
 * value; in range and executing -> its value, mask or not; in range and not
 * executing -> 0; p is the range check either way. The same lanes then run
 * vote.sync.ballot (all true) and match.any with the same masks: both give
 * member lanes only, never an active lane of another tile or one that does
 * not execute. Not silicon-measured here: bench/microbench/shfl_probe.cu
 * measures the same cases on a GPU. */
static const shfl_case shfl_inactive_cases[] = {
    { "shfl.sync.up inactive sources", UP, 0 }, { "shfl.sync.down inactive sources", DOWN, 0 },
    { "shfl.sync.bfly inactive sources", BFLY, 0 }, { "shfl.sync.idx inactive sources", IDX, 0 },
};

static int shfl_lane_executes(int lane)
{
    return lane < 20 && (lane & 3) != 3 && (lane & 7) != 5;
}

static void run_shfl_inactive(void **state)
{
    isa_ctx *c = *state;
    const shfl_case *tc = c->tcase;
    const char *m = mode_name[tc->mode];
    isa_loadf(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout, .param .u32 pb, .param .u32 pc)\n{\n"
        "\t.reg .pred %%p<6>;\n\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<4>;\n"
        "\tmov.u32 %%r1, %%laneid;\n\tmad.lo.u32 %%r2, %%r1, 7, 11;\n"
        "\tld.param.u32 %%r3, [pb];\n\tld.param.u32 %%r4, [pc];\n"
        "\tld.param.u64 %%rd1, [pout];\n\tcvta.to.global.u64 %%rd1, %%rd1;\n"
        "\tmul.wide.u32 %%rd2, %%r1, 16;\n\tadd.u64 %%rd3, %%rd1, %%rd2;\n"
        "\tsetp.ge.u32 %%p1, %%r1, 20;\n\t@%%p1 exit;\n"
        "\tand.b32 %%r5, %%r1, 3;\n\tsetp.eq.u32 %%p2, %%r5, 3;\n\t@%%p2 bra DONE;\n"
        "\tand.b32 %%r6, %%r1, 7;\n\tsetp.ne.u32 %%p3, %%r6, 5;\n"
        "\tactivemask.b32 %%r7;\n\tvote.sync.ballot.b32 %%r8, %%p3, %%r7;\n"
        "\tand.b32 %%r9, %%r1, 24;\n\tmov.u32 %%r10, 255;\n\tshl.b32 %%r10, %%r10, %%r9;\n"
        "\tand.b32 %%r10, %%r10, %%r8;\n"
        "\tmov.u32 %%r11, 0xdead;\n\tmov.u32 %%r12, 2;\n"
        "\tmov.u32 %%r13, 0xdead;\n\tmov.u32 %%r14, 0xdead;\n"
        "\t@%%p3 shfl.sync.%s.b32 %%r11|%%p4, %%r2, %%r3, %%r4, %%r10;\n"
        "\t@%%p3 selp.u32 %%r12, 1, 0, %%p4;\n"
        "\tsetp.eq.u32 %%p5, %%r1, %%r1;\n"
        "\t@%%p3 vote.sync.ballot.b32 %%r13, %%p5, %%r10;\n"
        "\tshr.u32 %%r15, %%r1, 1;\n\tand.b32 %%r15, %%r15, 1;\n"
        "\t@%%p3 match.any.sync.b32 %%r14, %%r15, %%r10;\n"
        "\tst.global.v4.u32 [%%rd3], {%%r11, %%r12, %%r13, %%r14};\n"
        "DONE:\n\tret;\n}\n", m);
    /* b: sources diverged (3), guarded off (5), exited (21), beyond the CTA
     * (27), in another tile (8, 9, 16); c: no clamp, 8-lane segments, clamp 0 */
    static const uint32_t bs[] = { 0, 1, 3, 5, 8, 9, 16, 21, 27 };
    static const uint32_t cs[] = { 0x1f, 0x181f, 0x00 };
    uint64_t dout = isa_alloc(c, 32 * 16);
    uint32_t exec = 0, odd_pair = 0;              /* lanes executing; lanes with (lane >> 1) & 1 */
    for (int k = 0; k < 32; k++) {
        exec |= (uint32_t)shfl_lane_executes(k) << k;
        odd_pair |= (uint32_t)(k >> 1 & 1) << k;
    }
    unsigned bad = 0, zeros = 0, outside = 0;
    for (size_t bi = 0; bi < sizeof bs / sizeof bs[0]; bi++)
        for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++) {
            uint32_t out[128];
            assert_int_equal(smc_memset(c->dev, dout, 0, sizeof out), SMC_OK);
            isa_launch_ok(c, "k", D1(1), D1(24), 0, ARGS(dout, bs[bi], cs[ci]));
            isa_read(c, out, dout, sizeof out);
            for (int lane = 0; lane < 32; lane++) {
                uint32_t want[4] = { 0, 0, 0, 0 };
                if (shfl_lane_executes(lane)) {
                    int src, pred;
                    shfl_ref(tc->mode, lane, bs[bi], cs[ci], &src, &pred);
                    uint32_t mask = (0xffu << (lane & 24)) & exec;
                    want[0] = shfl_lane_executes(src) ? (uint32_t)src * 7 + 11 : 0;
                    want[1] = (uint32_t)pred;
                    want[2] = mask;               /* vote/match: member lanes only */
                    want[3] = mask & (odd_pair >> lane & 1 ? odd_pair : ~odd_pair);
                    zeros += pred && !shfl_lane_executes(src);
                    outside += pred && shfl_lane_executes(src) && (src ^ lane) & 24;
                } else if (lane < 20 && (lane & 3) != 3) {
                    want[0] = want[2] = want[3] = 0xdead;  /* guarded off: not written */
                    want[1] = 2;
                }
                const uint32_t *o = out + 4 * lane;
                if (memcmp(o, want, sizeof want) && bad++ < 10)
                    print_error("shfl.%s b=%u c=0x%x lane %d: got (%u,%u) ballot 0x%x match 0x%x;"
                                " want (%u,%u) 0x%x 0x%x\n", m, bs[bi], cs[ci], lane,
                                o[0], o[1], o[2], o[3], want[0], want[1], want[2], want[3]);
            }
        }
    if (bad)
        fail_msg("%s: %u lanes wrong", tc->name, bad);
    /* the cases reach both kinds of source in every mode */
    assert_true(zeros > 0);
    assert_true(outside > 0);
}

/* ---- vote, activemask, match --------------------------------------------- */

static const char vote_ptx[] = ISA_PTX_HEADER
    ".visible .entry vote(.param .u64 pout, .param .u64 pin)\n{\n"
    "\t.reg .pred %p<8>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tld.param.u64 %rd1, [pin];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
    "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
    "\tld.global.u32 %r2, [%rd3];\n\tsetp.ne.u32 %p1, %r2, 0;\n"
    "\tactivemask.b32 %r3;\n"
    "\tvote.sync.all.pred %p2, %p1, %r3;\n"
    "\tvote.sync.any.pred %p3, %p1, %r3;\n"
    "\tvote.sync.uni.pred %p4, %p1, %r3;\n"
    "\tvote.sync.ballot.b32 %r4, %p1, %r3;\n"
    "\tvote.sync.all.pred %p5, !%p1, %r3;\n"
    "\tselp.u32 %r5, 1, 0, %p2;\n\tselp.u32 %r6, 2, 0, %p3;\n"
    "\tselp.u32 %r7, 4, 0, %p4;\n\tselp.u32 %r8, 8, 0, %p5;\n"
    "\tor.b32 %r5, %r5, %r6;\n\tor.b32 %r5, %r5, %r7;\n\tor.b32 %r5, %r5, %r8;\n"
    "\tmov.u32 %r9, 0;\n\tmov.u32 %r10, 0;\n\tmov.u32 %r11, 0;\n"
    "MATCH\n"
    "\tld.param.u64 %rd4, [pout];\n\tcvta.to.global.u64 %rd4, %rd4;\n"
    "\tmul.wide.u32 %rd5, %r1, 24;\n\tadd.u64 %rd6, %rd4, %rd5;\n"
    "\tst.global.u32 [%rd6], %r3;\n\tst.global.u32 [%rd6+4], %r4;\n"
    "\tst.global.u32 [%rd6+8], %r5;\n\tst.global.u32 [%rd6+12], %r9;\n"
    "\tst.global.u32 [%rd6+16], %r10;\n\tst.global.u32 [%rd6+20], %r11;\n"
    "\tret;\n}\n"
    /* activemask inside a divergent branch: odd lanes only */
    ".visible .entry divmask(.param .u64 pout)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, 0;\n"
    "\tand.b32 %r3, %r1, 1;\n\tsetp.eq.u32 %p1, %r3, 0;\n\t@%p1 bra SKIP;\n"
    "\tactivemask.b32 %r2;\n"
    "\tand.b32 %r4, %r1, 3;\n\tsetp.eq.u32 %p1, %r4, 1;\n"   /* lanes 1, 5, 9, ... */
    "\tvote.sync.ballot.b32 %r5, %p1, %r2;\n"
    "\tshl.b32 %r5, %r5, 1;\n\txor.b32 %r2, %r2, %r5;\n"    /* mask ^ (ballot << 1) */
    "SKIP:\n"
    "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
    "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
    "\tst.global.u32 [%rd3], %r2;\n\tret;\n}\n";

/* vote_ptx with the MATCH placeholder replaced: by match.any/.all, or by
 * nothing (the outputs then stay 0 and are not checked). */
static void load_vote(isa_ctx *c, int with_match)
{
    static const char match[] =
        "\tmatch.any.sync.b32 %r9, %r2, %r3;\n"
        "\tmatch.all.sync.b32 %r10|%p6, %r2, %r3;\n\tselp.u32 %r11, 1, 0, %p6;\n";
    char buf[sizeof vote_ptx + sizeof match];
    const char *at = strstr(vote_ptx, "MATCH\n");
    assert_non_null(at);
    int n = (int)(at - vote_ptx);
    snprintf(buf, sizeof buf, "%.*s%s%s", n, vote_ptx, with_match ? match : "",
             at + strlen("MATCH\n"));
    isa_load(c, buf);
}

static void check_vote(isa_ctx *c, const uint32_t *in, unsigned nthreads, int with_match)
{
    uint64_t din = isa_alloc_copy(c, in, 64 * 4), dout = isa_alloc(c, 64 * 24);
    isa_launch_ok(c, "vote", D1(1), D1(nthreads), 0, ARGS(dout, din));
    uint32_t out[64 * 6];
    isa_read(c, out, dout, sizeof out);
    for (unsigned w = 0; w * 32 < nthreads; w++) {
        unsigned n = nthreads - w * 32 < 32 ? nthreads - w * 32 : 32;
        uint32_t active = n == 32 ? 0xffffffffu : (1u << n) - 1, ballot = 0;
        for (unsigned l = 0; l < n; l++)
            ballot |= (uint32_t)(in[w * 32 + l] != 0) << l;
        int all = ballot == active, any = ballot != 0, uni = all || !any,
            none = ballot == 0;
        uint32_t flags = (uint32_t)(all | any << 1 | uni << 2 | none << 3);
        int match_all = 1;
        for (unsigned l = 1; l < n; l++)
            match_all &= in[w * 32 + l] == in[w * 32];
        for (unsigned l = 0; l < n; l++) {
            const uint32_t *o = out + 6 * (w * 32 + l);
            uint32_t same = 0;
            for (unsigned k = 0; k < n; k++)
                same |= (uint32_t)(in[w * 32 + k] == in[w * 32 + l]) << k;
            if (!with_match) {
                same = 0;
                match_all = 0;
            }
            if (o[0] != active || o[1] != ballot || o[2] != flags || o[3] != same ||
                o[4] != (match_all ? active : 0) || o[5] != (uint32_t)match_all)
                fail_msg("vote/match warp %u lane %u: got active=0x%x ballot=0x%x flags=%u"
                         " any=0x%x all=0x%x/%u; want 0x%x 0x%x %u 0x%x 0x%x/%d",
                         w, l, o[0], o[1], o[2], o[3], o[4], o[5], active, ballot,
                         flags, same, match_all ? active : 0, match_all);
        }
    }
}

typedef struct vote_case {
    const char *name;        /* isa_case_head */
    int pattern;             /* see vote_input() */
    unsigned nthreads;
    int with_match;
} vote_case;

static void vote_input(int pattern, uint32_t *in)
{
    for (int i = 0; i < 64; i++)
        in[i] = pattern == 0 ? 1                        /* all true, all equal */
              : pattern == 1 ? 0                        /* all false */
              : pattern == 2 ? (uint32_t)(i % 3)        /* mixed, 3 classes */
              : pattern == 3 ? (uint32_t)(i == 37)      /* a single lane */
              : (uint32_t)(i / 8 + 1);                  /* groups of 8 */
}

static const vote_case vote_cases[] = {
    { "vote all true", 0, 64, 0 }, { "vote all false", 1, 64, 0 },
    { "vote mixed", 2, 64, 0 }, { "vote single lane", 3, 64, 0 },
    { "vote partial warp", 4, 52, 0 },
    { "match all equal", 0, 64, 1 }, { "match mixed", 2, 64, 1 },
    { "match partial warp", 4, 52, 1 },
};

static void run_vote(void **state)
{
    isa_ctx *c = *state;
    const vote_case *tc = c->tcase;
    load_vote(c, tc->with_match);
    uint32_t in[64];
    vote_input(tc->pattern, in);
    check_vote(c, in, tc->nthreads, tc->with_match);
}

static void test_activemask_divergent(void **state)
{
    isa_ctx *c = *state;
    load_vote(c, 0);
    uint64_t dout = isa_alloc(c, 64 * 4);
    isa_launch_ok(c, "divmask", D1(1), D1(48), 0, ARGS(dout));
    uint32_t out[48];
    isa_read(c, out, dout, sizeof out);
    for (unsigned t = 0; t < 48; t++) {
        uint32_t want = 0;
        if (t & 1) {   /* activemask ^ (ballot of lanes 1 mod 4, shifted by one) */
            uint32_t mask = t < 32 ? 0xaaaaaaaau : 0x0000aaaau;   /* warp 1: 16 lanes */
            uint32_t ballot = mask & 0x22222222u;
            want = mask ^ (ballot << 1);
        }
        assert_int_equal(out[t], want);
    }
}

/* WARP_SZ, the predefined constant `warpSize` compiles to (as nvcc 13
 * emits it: `mov.u32 %r1, WARP_SZ;`), also as an arithmetic operand. */
static void test_warp_sz(void **state)
{
    isa_ctx *c = *state;
    isa_loadf(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 out)\n{\n"
        "\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<4>;\n"
        "\tld.param.u64 %%rd1, [out];\n\tcvta.to.global.u64 %%rd1, %%rd1;\n"
        "\tmov.u32 %%r1, WARP_SZ;\n\tmov.u32 %%r2, %%tid.x;\n"
        "\trem.u32 %%r3, %%r2, WARP_SZ;\n\tadd.u32 %%r3, %%r3, %%r1;\n"
        "\tmul.wide.u32 %%rd2, %%r2, 4;\n\tadd.s64 %%rd3, %%rd1, %%rd2;\n"
        "\tst.global.u32 [%%rd3], %%r3;\n\tret;\n}\n");
    uint64_t dout = isa_alloc(c, 40 * 4);
    isa_launch_ok(c, "k", D1(1), D1(40), 0, ARGS(dout));
    uint32_t out[40];
    isa_read(c, out, dout, sizeof out);
    for (unsigned t = 0; t < 40; t++)
        assert_int_equal(out[t], 32 + t % 32);
}

/* The `d|p` destination pair with registers declared without '%', as the
 * inline asm of CUB's warp scan writes it:
 *   { .reg .u32 r0; .reg .pred p; shfl.sync.up.b32 r0|p, ...; @p add.u32 r0, r0, x; }
 * Lane t gets the inclusive prefix sum of the lanes' values (t + 1). */
static void test_pred_pair_plain_names(void **state)
{
    isa_ctx *c = *state;
    isa_loadf(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 out)\n{\n"
        "\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<4>;\n"
        "\tld.param.u64 %%rd1, [out];\n\tcvta.to.global.u64 %%rd1, %%rd1;\n"
        "\tmov.u32 %%r2, %%tid.x;\n\tadd.u32 %%r1, %%r2, 1;\n\tmov.u32 %%r3, 1;\n"
        "SCAN:\n"
        "\t{  .reg .u32 r0;  .reg .pred p;  shfl.sync.up.b32 r0|p, %%r1, %%r3, 0, -1;"
        "  @p add.u32 r0, r0, %%r1;  mov.u32 %%r1, r0;}\n"
        "\tshl.b32 %%r3, %%r3, 1;\n\tsetp.lt.u32 %%p1, %%r3, 32;\n\t@%%p1 bra SCAN;\n"
        "\tmul.wide.u32 %%rd2, %%r2, 4;\n\tadd.s64 %%rd3, %%rd1, %%rd2;\n"
        "\tst.global.u32 [%%rd3], %%r1;\n\tret;\n}\n");
    uint64_t dout = isa_alloc(c, 32 * 4);
    isa_launch_ok(c, "k", D1(1), D1(32), 0, ARGS(dout));
    uint32_t out[32];
    isa_read(c, out, dout, sizeof out);
    for (unsigned t = 0; t < 32; t++)
        assert_int_equal(out[t], (t + 1) * (t + 2) / 2);
}

/* vote.sync over a membermask smaller than the active lanes: each lane
 * passes the mask of its 4-lane tile (what cooperative groups'
 * tiled_partition<4> does), plus a ballot with mask 0x0000ffff. The
 * reference is the PTX ISA definition evaluated per tile on the host. */
static void test_vote_membermask(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n{\n"
        "\t.reg .pred %p<8>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
        "\tmov.u32 %r1, %laneid;\n"
        "\tand.b32 %r2, %r1, 28;\n\tmov.u32 %r3, 15;\n\tshl.b32 %r3, %r3, %r2;\n" /* tile mask */
        "\tand.b32 %r4, %r1, 1;\n\tsetp.ne.u32 %p1, %r4, 0;\n"       /* odd lanes */
        "\tsetp.lt.u32 %p2, %r1, 8;\n"                                 /* tiles 0, 1 */
        "\tsetp.eq.u32 %p3, %r1, 5;\n"                                 /* tile 1 only */
        "\tvote.sync.ballot.b32 %r5, %p1, %r3;\n"
        "\tvote.sync.all.pred %p4, %p2, %r3;\n"
        "\tvote.sync.any.pred %p5, %p3, %r3;\n"
        "\tvote.sync.uni.pred %p6, %p3, %r3;\n"
        "\tvote.sync.ballot.b32 %r6, %p2, 0x0000ffff;\n"
        "\tselp.u32 %r7, 1, 0, %p4;\n\tselp.u32 %r8, 2, 0, %p5;\n\tselp.u32 %r9, 4, 0, %p6;\n"
        "\tor.b32 %r7, %r7, %r8;\n\tor.b32 %r7, %r7, %r9;\n"
        "\tmov.u32 %r10, %tid.x;\n"
        "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
        "\tmul.wide.u32 %rd2, %r10, 12;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
        "\tst.global.u32 [%rd3], %r5;\n\tst.global.u32 [%rd3+4], %r7;\n"
        "\tst.global.u32 [%rd3+8], %r6;\n\tret;\n}\n");
    uint64_t dout = isa_alloc(c, 32 * 12);
    isa_launch_ok(c, "k", D1(1), D1(32), 0, ARGS(dout));
    uint32_t out[32 * 3];
    isa_read(c, out, dout, sizeof out);
    for (unsigned l = 0; l < 32; l++) {
        unsigned t = l / 4;
        uint32_t tile = 0xfu << (4 * t), odd = 0, lt8 = 0, is5 = 0;
        for (unsigned k = 0; k < 32; k++) {
            odd |= (uint32_t)(k & 1) << k;
            lt8 |= (uint32_t)(k < 8) << k;
            is5 |= (uint32_t)(k == 5) << k;
        }
        int all = (lt8 & tile) == tile, any = (is5 & tile) != 0,
            uni = (is5 & tile) == 0 || (is5 & tile) == tile;
        assert_int_equal(out[3 * l], odd & tile);   /* 0xa per tile */
        assert_int_equal(out[3 * l + 1], (uint32_t)(all | any << 1 | uni << 2));
        /* lanes outside 0x0000ffff executing it are undefined in PTX */
        if (l < 16)
            assert_int_equal(out[3 * l + 2], lt8 & 0xffffu);
    }
}

/* ---- barriers ------------------------------------------------------------ */

static void test_bar_red(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout, .param .u32 pmod)\n{\n"
        "\t.reg .pred %p<8>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
        "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n"
        "\tld.param.u32 %r3, [pmod];\n"
        /* q = ((tid + ctaid) % mod == 0) */
        "\tadd.u32 %r4, %r1, %r2;\n\trem.u32 %r5, %r4, %r3;\n\tsetp.eq.u32 %p1, %r5, 0;\n"
        "\tbar.red.popc.u32 %r6, 0, %p1;\n"
        "\tbar.red.and.pred %p2, 1, %p1;\n"
        "\tbar.red.or.pred %p3, 2, %p1;\n"
        "\tselp.u32 %r7, 1, 0, %p2;\n\tselp.u32 %r8, 1, 0, %p3;\n"
        "\tmov.u32 %r9, %ntid.x;\n\tmad.lo.u32 %r10, %r2, %r9, %r1;\n"
        "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
        "\tmul.wide.u32 %rd2, %r10, 12;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
        "\tst.global.u32 [%rd3], %r6;\n\tst.global.u32 [%rd3+4], %r7;\n"
        "\tst.global.u32 [%rd3+8], %r8;\n\tret;\n}\n");
    enum { CTAS = 3, B = 80 };
    static const uint32_t mods[] = { 1, 2, 7, 1000 };
    uint64_t dout = isa_alloc(c, CTAS * B * 12);
    for (size_t mi = 0; mi < sizeof mods / sizeof mods[0]; mi++) {
        isa_launch_ok(c, "k", D1(CTAS), D1(B), 0, ARGS(dout, mods[mi]));
        uint32_t out[CTAS * B * 3];
        isa_read(c, out, dout, sizeof out);
        for (uint32_t cta = 0; cta < CTAS; cta++) {
            uint32_t cnt = 0;
            for (uint32_t t = 0; t < B; t++)
                cnt += (t + cta) % mods[mi] == 0;
            for (uint32_t t = 0; t < B; t++) {
                const uint32_t *o = out + 3 * (cta * B + t);
                if (o[0] != cnt || o[1] != (cnt == B) || o[2] != (cnt > 0))
                    fail_msg("bar.red mod %u cta %u t %u: got %u/%u/%u want %u/%d/%d",
                             mods[mi], cta, t, o[0], o[1], o[2], cnt, cnt == B, cnt > 0);
            }
        }
    }
}

static void test_bar_arrive(void **state)
{
    isa_ctx *c = *state;
    /* warp 1 produces into shared memory and arrives at barrier 1; warp 0
     * waits on barrier 1 (bar.sync 1, 64) and then consumes. Warp 0 comes
     * first in any in-order schedule, so the barrier must really block. */
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n{\n"
        "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
        "\t.shared .align 4 .u32 buf[32];\n"
        "\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 31;\n"
        "\tmov.u32 %r3, buf;\n\tmad.lo.u32 %r4, %r2, 4, %r3;\n"
        "\tsetp.lt.u32 %p1, %r1, 32;\n\t@%p1 bra CONSUMER;\n"
        "\tmul.lo.u32 %r5, %r2, %r2;\n\tadd.u32 %r5, %r5, 7;\n"
        "\tst.shared.u32 [%r4], %r5;\n"
        "\tbar.arrive 1, 64;\n"
        "\tbra.uni DONE;\n"
        "CONSUMER:\n"
        "\tbar.sync 1, 64;\n"
        "\txor.b32 %r6, %r2, 5;\n\tmad.lo.u32 %r7, %r6, 4, %r3;\n"
        "\tld.shared.u32 %r8, [%r7];\n"
        "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
        "\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
        "\tst.global.u32 [%rd3], %r8;\n"
        "DONE:\n\tret;\n}\n");
    uint64_t dout = isa_alloc(c, 32 * 4);
    isa_launch_ok(c, "k", D1(2), D1(64), 0, ARGS(dout));
    uint32_t out[32];
    isa_read(c, out, dout, sizeof out);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t s = l ^ 5;
        assert_int_equal(out[l], s * s + 7);
    }
}

/* ---- special registers -------------------------------------------------- */

static void check_sregs(isa_ctx *c, smc_dim3 grid, smc_dim3 block)
{
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n{\n"
        "\t.reg .pred %p<4>;\n\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<16>;\n"
        "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n\tmov.u32 %r3, %tid.z;\n"
        "\tmov.u32 %r4, %ntid.x;\n\tmov.u32 %r5, %ntid.y;\n\tmov.u32 %r6, %ntid.z;\n"
        "\tmov.u32 %r7, %ctaid.x;\n\tmov.u32 %r8, %ctaid.y;\n\tmov.u32 %r9, %ctaid.z;\n"
        "\tmov.u32 %r10, %nctaid.x;\n\tmov.u32 %r11, %nctaid.y;\n\tmov.u32 %r12, %nctaid.z;\n"
        "\tmov.u32 %r13, %laneid;\n\tmov.u32 %r14, %warpid;\n\tmov.u32 %r15, %nwarpid;\n"
        "\tmov.u32 %r16, %smid;\n\tmov.u32 %r17, %nsmid;\n"
        "\tmov.u32 %r28, %lanemask_eq;\n\tmov.u32 %r29, %lanemask_lt;\n"
        "\tmov.u32 %r30, %lanemask_le;\n\tmov.u32 %r31, %lanemask_gt;\n"
        "\tmov.u32 %r32, %lanemask_ge;\n"
        "\tmov.u64 %rd1, %clock64;\n\tmov.u32 %r18, %clock;\n"
        /* some work between the clock reads */
        "\tmov.u32 %r19, 0;\n"
        "LOOP:\n\tadd.u32 %r19, %r19, 1;\n\tsetp.lt.u32 %p1, %r19, 50;\n\t@%p1 bra LOOP;\n"
        "\tmov.u64 %rd2, %clock64;\n\tmov.u32 %r20, %clock;\n"
        "\tsub.u64 %rd3, %rd2, %rd1;\n\tcvt.u32.u64 %r21, %rd3;\n"   /* clock64 delta */
        "\tsetp.gt.u64 %p2, %rd2, %rd1;\n\tselp.u32 %r22, 1, 0, %p2;\n"
        "\tsub.u32 %r23, %r20, %r18;\n"                              /* clock delta (wraps) */
        /* linear index: ((ctaid.z*ny + ctaid.y)*nx + ctaid.x) * threads + tid linear */
        "\tmad.lo.u32 %r24, %r9, %r11, %r8;\n\tmad.lo.u32 %r24, %r24, %r10, %r7;\n"
        "\tmul.lo.u32 %r25, %r4, %r5;\n\tmul.lo.u32 %r25, %r25, %r6;\n"
        "\tmad.lo.u32 %r26, %r3, %r5, %r2;\n\tmad.lo.u32 %r26, %r26, %r4, %r1;\n"
        "\tmad.lo.u32 %r27, %r24, %r25, %r26;\n"
        "\tld.param.u64 %rd4, [pout];\n\tcvta.to.global.u64 %rd4, %rd4;\n"
        "\tmul.wide.u32 %rd5, %r27, 112;\n\tadd.u64 %rd6, %rd4, %rd5;\n"
        "\tst.global.v4.u32 [%rd6], {%r1, %r2, %r3, %r4};\n"
        "\tst.global.v4.u32 [%rd6+16], {%r5, %r6, %r7, %r8};\n"
        "\tst.global.v4.u32 [%rd6+32], {%r9, %r10, %r11, %r12};\n"
        "\tst.global.v4.u32 [%rd6+48], {%r13, %r14, %r15, %r16};\n"
        "\tst.global.v4.u32 [%rd6+64], {%r17, %r21, %r22, %r23};\n"
        "\tst.global.v4.u32 [%rd6+80], {%r28, %r29, %r30, %r31};\n"
        "\tst.global.u32 [%rd6+96], %r32;\n"
        "\tret;\n}\n");
    const uint32_t per = block.x * block.y * block.z;
    const uint32_t N = per * grid.x * grid.y * grid.z;
    uint64_t dout = isa_alloc(c, N * 112);
    isa_launch_ok(c, "k", grid, block, 0, ARGS(dout));
    uint32_t *out = isa_calloc(c, N, 112);
    isa_read(c, out, dout, N * 112);
    smc_device_props props;
    smc_device_get_props(c->dev, &props);
    unsigned idx = 0;
    for (uint32_t cz = 0; cz < grid.z; cz++)
        for (uint32_t cy = 0; cy < grid.y; cy++)
            for (uint32_t cx = 0; cx < grid.x; cx++)
                for (uint32_t tz = 0; tz < block.z; tz++)
                    for (uint32_t ty = 0; ty < block.y; ty++)
                        for (uint32_t tx = 0; tx < block.x; tx++, idx++) {
                            const uint32_t *o = out + 28 * idx;
                            uint32_t lin = tx + block.x * (ty + block.y * tz);
                            uint32_t want[13] = { tx, ty, tz, block.x, block.y, block.z,
                                                  cx, cy, cz, grid.x, grid.y, grid.z,
                                                  lin % 32 };
                            for (int k = 0; k < 13; k++)
                                if (o[k] != want[k])
                                    fail_msg("thread %u: sreg #%d = %u, want %u", idx, k,
                                             o[k], want[k]);
                            assert_true(o[13] < o[14]);          /* warpid < nwarpid */
                            assert_true(o[14] >= (per + 31) / 32);   /* a CTA's warps fit */
                            assert_true(o[15] < o[16]);          /* smid < nsmid */
                            assert_true(o[16] >= props.num_sms);    /* may be sparse (PTX ISA) */
                            assert_true(o[17] > 0);              /* clock64 advanced */
                            assert_int_equal(o[18], 1);
                            assert_true(o[19] > 0 && o[19] < 0x80000000u); /* %clock too */
                            uint32_t l = lin % 32, eq = 1u << l;
                            uint32_t lanes[5] = { eq, eq - 1, eq | (eq - 1), ~(eq | (eq - 1)), ~(eq - 1) };
                            for (int k = 0; k < 5; k++)
                                if (o[20 + k] != lanes[k])
                                    fail_msg("thread %u: %%lanemask #%d = 0x%x, want 0x%x", idx, k,
                                             o[20 + k], lanes[k]);
                        }
}

static void test_sregs(void **state)
{
    isa_ctx *c = *state;
    check_sregs(c, (smc_dim3){ 3, 2, 2 }, (smc_dim3){ 8, 4, 2 });
}

static void test_sregs_odd_shape(void **state)
{
    isa_ctx *c = *state;
    /* 35 threads per CTA: a full warp and one of 3 lanes */
    check_sregs(c, (smc_dim3){ 2, 3, 1 }, (smc_dim3){ 5, 7, 1 });
}

/* %envreg0..31 read 0 in a plain launch; a cooperative launch
 * (smc_launch_ext.cooperative) puts its grid-barrier workspace in
 * %envreg1:%envreg2, and nvcc's grid.sync() sequence (cooperative_groups for
 * compute_75) completes across CTAs in functional mode: each CTA stores its
 * id, waits at the grid barrier, then reads the next CTA's store. */
#define COOP_PTX ISA_PTX_HEADER \
    ".visible .entry k(.param .u64 pout)\n{\n" \
    "\t.reg .pred %p<4>;\n\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<16>;\n" \
    "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n" \
    "\tmov.u32 %r1, %envreg1;\n\tmov.u32 %r2, %envreg2;\n" \
    "\tmov.u32 %r3, %envreg0;\n\tmov.u32 %r4, %envreg31;\n" \
    "\tmov.u32 %r5, %ctaid.x;\n\tmov.u32 %r6, %nctaid.x;\n\tmov.u32 %r7, %tid.x;\n" \
    "\tmul.wide.u32 %rd2, %r5, 16;\n\tadd.s64 %rd3, %rd1, %rd2;\n" \
    "\tsetp.ne.u32 %p1, %r7, 0;\n\t@%p1 bra SKIP;\n" \
    "\tst.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n" \
    "SKIP:\n" \
    "\tmul.wide.u32 %rd4, %r5, 4;\n\tadd.s64 %rd5, %rd1, 4096;\n\tadd.s64 %rd6, %rd5, %rd4;\n" \
    "\tadd.u32 %r8, %r5, 100;\n\t@!%p1 st.global.u32 [%rd6], %r8;\n" \
    "\tcvt.u64.u32 %rd7, %r2;\n\tcvt.u64.u32 %rd8, %r1;\n\tbfi.b64 %rd9, %rd8, %rd7, 32, 32;\n" \
    "\tsetp.eq.s64 %p2, %rd9, 0;\n\t@%p2 bra DONE;\n" \
    "\tbarrier.sync 0;\n\t@%p1 bra WAITED;\n" \
    "\tadd.s64 %rd10, %rd9, 4;\n" \
    "\tsetp.eq.u32 %p3, %r5, 0;\n\tmov.u32 %r9, -2147483647;\n\tsub.s32 %r10, %r9, %r6;\n" \
    "\tselp.b32 %r11, %r10, 1, %p3;\n" \
    "\tatom.add.release.gpu.u32 %r12, [%rd10], %r11;\n" \
    "SPIN:\n\tld.acquire.gpu.u32 %r13, [%rd10];\n\txor.b32 %r14, %r13, %r12;\n" \
    "\tsetp.gt.s32 %p3, %r14, -1;\n\t@%p3 bra SPIN;\n" \
    "WAITED:\n\tbarrier.sync 0;\n" \
    "\tadd.u32 %r15, %r5, 1;\n\trem.u32 %r15, %r15, %r6;\n" \
    "\tmul.wide.u32 %rd11, %r15, 4;\n\tadd.s64 %rd12, %rd5, %rd11;\n\tld.global.u32 %r16, [%rd12];\n" \
    "\tadd.s64 %rd13, %rd1, 8192;\n\tadd.s64 %rd14, %rd13, %rd4;\n" \
    "\t@!%p1 st.global.u32 [%rd14], %r16;\n" \
    "DONE:\n\tret;\n}\n"

static void test_envreg_coop(void **state)
{
    isa_ctx *c = *state;
    const uint32_t G = 7;
    isa_load(c, COOP_PTX);
    uint64_t dout = isa_alloc(c, 12288);
    /* plain launch: every %envreg reads 0, the kernel skips the barrier */
    isa_launch_ok(c, "k", (smc_dim3){ G, 1, 1 }, (smc_dim3){ 64, 1, 1 }, 0, ARGS(dout));
    uint32_t *out = isa_calloc(c, 3072, 4);
    isa_read(c, out, dout, 12288);
    for (uint32_t b = 0; b < G; b++) {
        for (int k = 0; k < 4; k++) assert_int_equal(out[4 * b + k], 0);
        assert_int_equal(out[1024 + b], b + 100);
        assert_int_equal(out[2048 + b], 0);
    }
    /* cooperative launch: the workspace address, the barrier completes */
    smc_kernel *k = NULL;
    assert_int_equal(smc_module_get_kernel(c->mod, "k", &k), SMC_OK);
    smc_launch_ext ext;
    memset(&ext, 0, sizeof ext);
    ext.cooperative = 1;
    smc_status st = smc_launch(c->dev, k, (smc_dim3){ G, 1, 1 }, (smc_dim3){ 64, 1, 1 }, 0, 0,
                               &dout, sizeof dout, &ext);
    if (st != SMC_OK) fail_msg("cooperative launch: %s: %s", smc_status_name(st), smc_last_message(c->dev));
    isa_read(c, out, dout, 12288);
    uint64_t ws = (uint64_t)out[0] << 32 | out[1];
    assert_true(ws != 0);
    for (uint32_t b = 0; b < G; b++) {
        assert_int_equal((uint64_t)out[4 * b] << 32 | out[4 * b + 1], ws);
        assert_int_equal(out[4 * b + 2], 0);
        assert_int_equal(out[4 * b + 3], 0);
        assert_int_equal(out[2048 + b], (b + 1) % G + 100);
    }
    /* the workspace is freed after the launch */
    assert_null(smc_host_ptr(c->dev, ws, 8));
    /* a grid larger than fits co-resident is refused */
    smc_device_props props;
    smc_device_get_props(c->dev, &props);
    uint32_t fit = smc_kernel_occupancy(c->dev, k, 64, 0) * props.num_sms;
    assert_true(fit > 0);
    st = smc_launch(c->dev, k, (smc_dim3){ fit + 1, 1, 1 }, (smc_dim3){ 64, 1, 1 }, 0, 0,
                    &dout, sizeof dout, &ext);
    assert_int_equal(st, SMC_ERR_COOPERATIVE_TOO_LARGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_activemask_divergent, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_warp_sz, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_pred_pair_plain_names, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_vote_membermask, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_bar_red, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_bar_arrive, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_sregs, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_sregs_odd_shape, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_envreg_coop, isa_setup, isa_teardown),
    };
    int rc = isa_run_table("isa_shfl", run_shfl, shfl_cases, sizeof shfl_cases[0],
                           sizeof shfl_cases / sizeof shfl_cases[0]);
    rc |= isa_run_table("isa_shfl_inactive", run_shfl_inactive, shfl_inactive_cases,
                        sizeof shfl_inactive_cases[0],
                        sizeof shfl_inactive_cases / sizeof shfl_inactive_cases[0]);
    rc |= isa_run_table("isa_vote", run_vote, vote_cases, sizeof vote_cases[0],
                        sizeof vote_cases / sizeof vote_cases[0]);
    rc |= isa_run_group("isa_warp", tests, sizeof tests / sizeof tests[0]);
    return rc;
}
