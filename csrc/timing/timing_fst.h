/*
 * timing_fst.h — the combined RTL + C-side waveform (fst.c). Used by
 * timing_wave.c through weak references: fst.c is linked only where the RTL
 * is (else it comes from the plugin libsmc_vsched.so).
 */
#ifndef SMC_TIMING_FST_H
#define SMC_TIMING_FST_H

#include <stddef.h>
#include <stdint.h>

typedef struct tm_fst tm_fst;
struct sched_params;

/* Final waveform at path, cycles [from, to) of every launch (to 0 = no end);
 * core ("RTL", "C model") names the traced back end in the .gtkw groups; p
 * gives the port layout (the .gtkw splits the ports per scheduler).
 * The traced back end writes its own FST (its signals) to tm_fst_rtl_path(),
 * one file per launch: it is closed after every launch that dumped, merged,
 * and a fresh back end traces the next launch. */
tm_fst     *tm_fst_create(const char *path, const char *core, const struct sched_params *p,
                           uint64_t from, uint64_t to, char *err, size_t errlen);
const char *tm_fst_rtl_path(const tm_fst *f, char *buf, size_t len);
/* Declare a C-side variable (before the first sample); returns its index. */
int         tm_fst_var(tm_fst *f, const char *scope, const char *name, uint32_t width);
/* The RTL's reset / the step ending `cycle`: 1 when the RTL dumps the state
 * that follows (then sample every variable). */
int         tm_fst_reset(tm_fst *f);
int         tm_fst_step(tm_fst *f, uint64_t cycle);
int         tm_fst_sample(tm_fst *f, uint32_t var, uint64_t value);
/* Did the launch since the last finish dump anything (the back end's file
 * then has to be closed and merged)? Has the window ended (or a merge
 * failed: trace no more)? Has the final file been written? */
int         tm_fst_pending(const tm_fst *f);
int         tm_fst_closed(const tm_fst *f);
int         tm_fst_written(const tm_fst *f);
/* After the back end has closed its file of this launch (the segment, at
 * tm_fst_rtl_path, times counted from the launch's reset): merge it and the
 * C side into the final file (the earlier launches' part copied; temporary
 * name, then rename), write FILE.gtkw, remove the segment. When nothing was
 * pending: removes the (empty) segment, 0. */
int         tm_fst_finish(tm_fst *f, char *err, size_t errlen);
void        tm_fst_destroy(tm_fst *f);

#endif
