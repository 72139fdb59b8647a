/*
 * test_fatbin.c — the fatbinary parser on crafted, truncated and corrupt
 * input. Expected values are written out by hand from the layout in
 * csrc/runtime/fatbin.h; real nvcc output is covered by the CUDA programs in
 * this folder (run_cuda_tests.sh).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "fatbin.h"

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* A growing fatbinary image. */
typedef struct image { uint8_t buf[4096]; size_t len; } image;

static void begin(image *im)
{
    memset(im, 0, sizeof *im);
    put32(im->buf, FATBIN_MAGIC);
    put16(im->buf + 4, 1);
    put16(im->buf + 6, 16);
    im->len = 16;
}

/* Append an entry with an 80-byte header (as CUDA 13 writes) and the given
 * payload, padded to 8 bytes. */
static void add_entry(image *im, uint16_t kind, uint32_t arch, uint64_t flags,
                      const void *payload, size_t plen, uint32_t csize,
                      uint64_t usize)
{
    uint8_t *e = im->buf + im->len;
    size_t padded = (plen + 7) & ~(size_t)7;
    put16(e, kind);
    put16(e + 2, 0x0101);
    put32(e + 4, 80);
    put64(e + 8, padded);
    put32(e + 16, csize);
    put16(e + 24, 0);
    put16(e + 26, 9);
    put32(e + 28, arch);
    put64(e + 40, flags);
    put64(e + 56, usize);
    memcpy(e + 80, payload, plen);
    im->len += 80 + padded;
    put64(im->buf + 8, im->len - 16);
}

static const char ptx60[] = ".version 9.0\n.target sm_60\n";
static const char ptx75[] = ".version 9.0\n.target sm_75\n";
static const char ptx80[] = ".version 9.0\n.target sm_80\n";
static const uint8_t fake_elf[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 };

static void build_multi(image *im)
{
    begin(im);
    add_entry(im, FATBIN_KIND_ELF, 75, 0x11, fake_elf, sizeof fake_elf, 0, 0);
    add_entry(im, FATBIN_KIND_PTX, 60, 0x11, ptx60, sizeof ptx60, 0, 0);
    add_entry(im, FATBIN_KIND_PTX, 80, 0x11, ptx80, sizeof ptx80, 0, 0);
    add_entry(im, FATBIN_KIND_PTX, 75, 0x11, ptx75, sizeof ptx75, 0, 0);
}

static void test_parse_and_pick(void **state)
{
    (void)state;
    image im;
    build_multi(&im);
    fatbin_entry e[8];
    size_t n;
    char err[256];
    assert_int_equal(fatbin_declared_size(im.buf, im.len), im.len);
    assert_int_equal(fatbin_parse(im.buf, im.len, e, 8, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(e[0].kind, FATBIN_KIND_ELF);
    assert_int_equal(e[1].arch, 60);
    assert_int_equal(e[3].ptx_major, 9);
    /* best PTX <= 75 is the compute_75 entry, not compute_80 */
    assert_int_equal(fatbin_pick_ptx(e, n, 75), 3);
    /* with a lower limit compute_60 is chosen */
    assert_int_equal(fatbin_pick_ptx(e, n, 70), 1);
    assert_int_equal(fatbin_pick_ptx(e, n, 50), -1);

    char *text;
    size_t len;
    assert_int_equal(fatbin_entry_text(&e[3], &text, &len, err, sizeof err), 0);
    assert_string_equal(text, ptx75);
    assert_int_equal(len, strlen(ptx75));
    free(text);
    /* asking for the text of the ELF entry is an error, not a crash */
    assert_int_equal(fatbin_entry_text(&e[0], &text, &len, err, sizeof err), -1);

    char desc[256];
    fatbin_describe(e, n, desc, sizeof desc);
    assert_string_equal(desc, "sm_75 (SASS), compute_60 (PTX), compute_80 (PTX), "
                              "compute_75 (PTX)");
}

static void test_every_truncation_fails_cleanly(void **state)
{
    (void)state;
    image im;
    build_multi(&im);
    fatbin_entry e[8];
    size_t n;
    char err[256];
    /* Each prefix is copied to an exactly-sized heap block so that ASan
     * catches any read past the declared length. */
    for (size_t cut = 0; cut < im.len; cut++) {
        uint8_t *p = malloc(cut ? cut : 1);
        memcpy(p, im.buf, cut);
        err[0] = '\0';
        assert_int_equal(fatbin_parse(p, cut, e, 8, &n, err, sizeof err), -1);
        assert_true(strlen(err) > 0);
        free(p);
    }
}

static void test_corrupt_headers(void **state)
{
    (void)state;
    image im;
    fatbin_entry e[8];
    size_t n;
    char err[256];

    build_multi(&im);
    put32(im.buf, 0x12345678);                 /* bad magic */
    assert_int_equal(fatbin_parse(im.buf, im.len, e, 8, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a fatbinary"));
    assert_int_equal(fatbin_declared_size(im.buf, im.len), 0);

    build_multi(&im);
    put64(im.buf + 16 + 8, UINT64_MAX - 8);    /* payload size wraps around */
    assert_int_equal(fatbin_parse(im.buf, im.len, e, 8, &n, err, sizeof err), -1);

    build_multi(&im);
    put32(im.buf + 16 + 4, 8);                 /* entry header too small */
    assert_int_equal(fatbin_parse(im.buf, im.len, e, 8, &n, err, sizeof err), -1);

    build_multi(&im);                          /* more entries than room */
    assert_int_equal(fatbin_parse(im.buf, im.len, e, 2, &n, err, sizeof err), -1);

    build_multi(&im);
    put64(im.buf + 8, 1u << 30);               /* body larger than the buffer */
    assert_int_equal(fatbin_parse(im.buf, im.len, e, 8, &n, err, sizeof err), -1);
}

/* token 0x13: 1 literal '\n', match of 3+4 = 7 at distance 1 -> 8 newlines;
 * token 0x30: 3 final literals "abc". */
static const uint8_t lz4_block[] = { 0x13, '\n', 0x01, 0x00, 0x30, 'a', 'b', 'c' };
static const char lz4_text[] = "\n\n\n\n\n\n\n\nabc";

static void test_lz4_decode(void **state)
{
    (void)state;
    uint8_t out[64];
    long n = fatbin_lz4_decode(lz4_block, sizeof lz4_block, out, sizeof out);
    assert_int_equal(n, 11);
    assert_memory_equal(out, lz4_text, 11);

    /* long literal run: 15 + 5 = 20 literals */
    uint8_t lit[2 + 20];
    lit[0] = 0xf0;
    lit[1] = 5;
    for (int i = 0; i < 20; i++)
        lit[2 + i] = (uint8_t)('A' + i);
    assert_int_equal(fatbin_lz4_decode(lit, sizeof lit, out, sizeof out), 20);
    assert_int_equal(out[19], 'A' + 19);

    /* output does not fit */
    assert_int_equal(fatbin_lz4_decode(lz4_block, sizeof lz4_block, out, 10), -1);
    /* distance 0 and distance beyond what was written */
    const uint8_t bad0[] = { 0x10, 'x', 0x00, 0x00, 0x10, 'y' };
    assert_int_equal(fatbin_lz4_decode(bad0, sizeof bad0, out, sizeof out), -1);
    const uint8_t bad2[] = { 0x10, 'x', 0x02, 0x00, 0x10, 'y' };
    assert_int_equal(fatbin_lz4_decode(bad2, sizeof bad2, out, sizeof out), -1);
    /* literal run longer than the input, and every truncation of the block */
    const uint8_t badlit[] = { 0x50, 'x' };
    assert_int_equal(fatbin_lz4_decode(badlit, sizeof badlit, out, sizeof out), -1);
    for (size_t cut = 1; cut < sizeof lz4_block; cut++) {
        uint8_t *p = malloc(cut);
        memcpy(p, lz4_block, cut);
        long r = fatbin_lz4_decode(p, cut, out, sizeof out);
        /* a prefix may happen to be a valid shorter block; it must never
         * claim more output than the full block has */
        assert_true(r == -1 || (r >= 0 && r <= 11));
        free(p);
    }
}

static void test_compressed_entries(void **state)
{
    (void)state;
    image im;
    fatbin_entry e[4];
    size_t n;
    char err[256];
    char *text;
    size_t len;

    begin(&im);
    add_entry(&im, FATBIN_KIND_PTX, 75, 0x2011, lz4_block, sizeof lz4_block,
              sizeof lz4_block, 11);
    assert_int_equal(fatbin_parse(im.buf, im.len, e, 4, &n, err, sizeof err), 0);
    assert_int_equal(fatbin_entry_text(&e[0], &text, &len, err, sizeof err), 0);
    assert_string_equal(text, lz4_text);
    free(text);

    /* header claims a different uncompressed size than the data gives */
    e[0].uncompressed_size = 12;
    assert_int_equal(fatbin_entry_text(&e[0], &text, &len, err, sizeof err), -1);
    assert_non_null(strstr(err, "decompressed"));
    /* absurd sizes are refused before any allocation */
    e[0].uncompressed_size = (uint64_t)FATBIN_MAX_IMAGE_BYTES + 1;
    assert_int_equal(fatbin_entry_text(&e[0], &text, &len, err, sizeof err), -1);
    e[0].uncompressed_size = 11;
    e[0].compressed_size = e[0].payload_size + 1;
    assert_int_equal(fatbin_entry_text(&e[0], &text, &len, err, sizeof err), -1);

    /* a Zstandard entry whose data is garbage: an error (whether or not
     * libzstd is installed), never a crash */
    static const uint8_t junk[16] = { 0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3, 4, 5 };
    begin(&im);
    add_entry(&im, FATBIN_KIND_PTX, 75, 0x8011, junk, sizeof junk, sizeof junk, 100);
    assert_int_equal(fatbin_parse(im.buf, im.len, e, 4, &n, err, sizeof err), 0);
    assert_int_equal(fatbin_entry_text(&e[0], &text, &len, err, sizeof err), -1);
    assert_null(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_and_pick),
        cmocka_unit_test(test_every_truncation_fails_cleanly),
        cmocka_unit_test(test_corrupt_headers),
        cmocka_unit_test(test_lz4_decode),
        cmocka_unit_test(test_compressed_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
