/*
 * timing_fst.h — the combined RTL + C-side waveform (fst.c). Used by
 * timing.c through weak references: fst.c is linked only where the RTL is.
 */
#ifndef SMC_TIMING_FST_H
#define SMC_TIMING_FST_H

#include <stddef.h>
#include <stdint.h>

typedef struct tm_fst tm_fst;

/* Final waveform at path, cycles [from, to) of every launch (to 0 = no end).
 * The RTL back end must write its own FST to tm_fst_rtl_path(). */
tm_fst     *tm_fst_create(const char *path, uint64_t from, uint64_t to, char *err, size_t errlen);
const char *tm_fst_rtl_path(const tm_fst *f, char *buf, size_t len);
/* Declare a C-side variable (before the first sample); returns its index. */
int         tm_fst_var(tm_fst *f, const char *scope, const char *name, uint32_t width);
/* The RTL's reset / the step ending `cycle`: 1 when the RTL dumps the state
 * that follows (then sample every variable). */
int         tm_fst_reset(tm_fst *f);
int         tm_fst_step(tm_fst *f, uint64_t cycle);
int         tm_fst_sample(tm_fst *f, uint32_t var, uint64_t value);
/* After the RTL back end has closed its file: merge, write FILE.gtkw. */
int         tm_fst_finish(tm_fst *f, char *err, size_t errlen);
void        tm_fst_destroy(tm_fst *f);

#endif
