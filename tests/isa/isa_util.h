/*
 * isa_util.h — shared harness of the instruction-set conformance tests.
 *
 * Every test builds a small PTX module as text, loads it through the public
 * API (smcosim.h), launches it and compares what comes back with values the
 * test computes itself (hand-derived constants or an independent C reference).
 *
 * Conventions
 *   - One fresh device per test (isa_setup / isa_teardown), so a sticky fault
 *     in one test cannot leak into the next.
 *   - A feature the emulator explicitly reports as unsupported (load status
 *     SMC_ERR_INVALID_PTX, or launch status SMC_ERR_ILLEGAL_INSTRUCTION, with
 *     "unsupported" or "not supported" in the message) makes the test print the reason and
 *     skip(). Anything else that goes wrong is a failure.
 *   - With ISA_DUMP_PTX=<dir> in the environment every generated module is
 *     also written to <dir>/<test>-<n>.ptx, so the PTX itself can be checked
 *     with `ptxas -arch=sm_75` (see docs/isa-coverage.md).
 *
 * Must be included after the cmocka prerequisites and cmocka.h.
 */
#ifndef ISA_UTIL_H
#define ISA_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "smcosim.h"

/* The module header every generated kernel starts with (what nvcc 13 emits). */
#define ISA_PTX_HEADER ".version 9.0\n.target sm_75\n.address_size 64\n\n"

typedef struct isa_ctx {
    smc_device *dev;
    smc_module *mod;        /* last module loaded by isa_load() */
    unsigned    dumped;     /* counter for ISA_DUMP_PTX file names */
    const void *tcase;      /* table-driven tests: the case being run */
    void       *owned[32];  /* freed by isa_teardown (a failed or skipped
                               test leaves by longjmp and cannot free) */
    unsigned    nowned;
} isa_ctx;

/* cmocka setup/teardown: *state becomes an isa_ctx with a fresh device. A
 * non-NULL initial state (a table case, see isa_run_table) goes to ->tcase. */
int isa_setup(void **state);
int isa_teardown(void **state);

/* Load PTX text (NUL-terminated) and return the module; fails the test with
 * the loader's message, or skips it when the loader says "unsupported". */
smc_module *isa_load(isa_ctx *c, const char *ptx);
/* printf-style: format the PTX into a buffer, then isa_load(). */
smc_module *isa_loadf(isa_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Launch kernel `name` of the last loaded module. Arguments are given as
 * 64-bit values and placed at the offsets smc_kernel_param() reports (the low
 * `size` bytes of each). Returns the launch status without judging it. */
smc_status isa_launch(isa_ctx *c, const char *name, smc_dim3 grid,
                      smc_dim3 block, uint32_t dyn_smem, unsigned nargs,
                      const uint64_t *args);
/* Same, but the launch must succeed (skip on an explicit "unsupported"). */
void isa_launch_ok(isa_ctx *c, const char *name, smc_dim3 grid,
                   smc_dim3 block, uint32_t dyn_smem, unsigned nargs,
                   const uint64_t *args);

/* Zeroed host memory owned by the test context (freed in teardown). */
void *isa_calloc(isa_ctx *c, size_t n, size_t size);

/* Device memory helpers that fail the test on error. */
uint64_t isa_alloc(isa_ctx *c, size_t bytes);
uint64_t isa_alloc_copy(isa_ctx *c, const void *src, size_t bytes);
void     isa_read(isa_ctx *c, void *dst, uint64_t src, size_t bytes);

/* ---- element-wise harness -------------------------------------------------
 * Thread i (global index) loads a[i], b[i], c[i] (the ones with a type) into
 * registers %xa %xb %xc, runs `body`, and stores %xd to d[i]. Types are PTX
 * type names without the dot ("u32", "f64", "b16", "s64"). `decls` adds
 * declarations (temporaries); the predicates %p1..%p7 and the scratch
 * registers %t16_<0..7> (.b16), %t32_<0..7> (.b32) and %t64_<0..7> (.b64)
 * are always declared.
 */
typedef struct isa_elem_op {
    const char *dtype;
    const char *atype, *btype, *ctype;  /* NULL: operand not used */
    const char *decls;                  /* NULL or extra declarations */
    const char *body;
} isa_elem_op;

/* Runs the op over n elements; a/b/c/d are host arrays of the types' sizes. */
void isa_elem_run(isa_ctx *c, const isa_elem_op *op, unsigned n,
                  const void *a, const void *b, const void *cc, void *d);

/* Size in bytes of a PTX scalar type name ("u32" -> 4). */
size_t isa_type_size(const char *type);

/* ---- comparisons ------------------------------------------------------- */

/* Distance in units in the last place between two floats of the same sign
 * class (ordered-integer mapping); NaN vs NaN counts as 0, NaN vs non-NaN as
 * UINT64_MAX. */
uint64_t isa_ulp_diff_f32(float a, float b);
uint64_t isa_ulp_diff_f64(double a, double b);
/* Bit-exact equality, except that any NaN equals any NaN (PTX does not fix
 * NaN payloads for most instructions). */
int isa_same_f32(float a, float b);
int isa_same_f64(double a, double b);

float    isa_f32(uint32_t bits);
uint32_t isa_bits32(float f);
double   isa_f64(uint64_t bits);
uint64_t isa_bits64(double d);

/* Does the device's last message / fault say "unsupported"? Prints and
 * skips when it does. Used after expected-to-fail checks too. */
void isa_skip_if_unsupported(isa_ctx *c, smc_status st);

/* ---- running ----------------------------------------------------------------
 * Known emulator bugs: tests/isa/known-failures.txt lists, one per line,
 * "group | test name | reason" ("san:group" for a bug that only the
 * ASan/UBSan build shows). Such a test still runs, in a child process;
 * in its place the group shows "KNOWN BUG: <name>", which passes while the
 * real test fails and fails as soon as it passes (so the list must be kept
 * exact). ISA_NO_KNOWN=1 ignores the list (the real failures then show);
 * ISA_KNOWN_FAILURES=<file> reads another list. */
#define ISA_KNOWN_FAILURES_FILE "tests/isa/known-failures.txt"

/* cmocka_run_group_tests with the known-bug handling above. */
int isa_run_group(const char *group, const struct CMUnitTest *tests, size_t n);

/* Runs a table of tests whose state is a pointer to a case description:
 * builds CMUnitTest entries named after each case. */
typedef struct isa_case_head { const char *name; } isa_case_head;
int isa_run_table(const char *group, void (*fn)(void **state),
                  const void *cases, size_t case_size, size_t ncases);

#endif /* ISA_UTIL_H */
