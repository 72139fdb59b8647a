/*
 * vsched_shim.h -- extern "C" API over the Verilated sched_core models.
 *
 * Implemented in vsched_shim.cpp (the project's only C++). One Verilated
 * model class exists per parameter set listed in cosim/module.mk
 * (VSCHED_CONFIGS); vsched_create() picks the one matching the parameters.
 * Each instance has its own VerilatedContext, so several may live in one
 * process (one per SM). C code normally uses sched_rtl_create() instead.
 */
#ifndef SMCOSIM_VSCHED_SHIM_H
#define SMCOSIM_VSCHED_SHIM_H

#include "sched_if.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vsched vsched;

/* NULL on failure (unknown parameter set, no traced build, file error). */
vsched *vsched_create(const sched_params *p, const sched_trace_opts *trace,
                      char *err, size_t errlen);
void    vsched_reset(vsched *v);                           /* cycle 0 */
void    vsched_step(vsched *v, const sched_inputs *in);    /* one rising edge */
void    vsched_get_outputs(vsched *v, sched_outputs *out);
/* "" while no RTL assertion has failed; else the first failure, "RTL
 * assertion failed: FILE:LINE" (sticky until destroy). */
const char *vsched_failure(const vsched *v);
/* The Verilated model class the instance runs, e.g. "Vsc_64_4_8_2_6_4_0_0_o3"
 * (the variant chosen for the parameters' omit mask). */
const char *vsched_model(const vsched *v);
void    vsched_destroy(vsched *v);                         /* closes the trace */
/* Test-only (in the shim object built with -DVSCHED_MUTANTS, see
 * cosim/module.mk): the 32/1/8/1/8/1 model with planted bug `mutant`
 * (rtl/, SCHED_MUTANTS; 0 = none). */
vsched *vsched_create_mutant(const sched_params *p, unsigned mutant, char *err, size_t errlen);
/* ... and, while nonzero, what vsched_create() (so sched_rtl_create() and
 * sched_lockstep_create()) gives for 32/1/8/1/8/1 without tracing. */
extern unsigned vsched_create_mutant_default;
/* The parameter sets built into this library, e.g. "64/4/8/2/6/4, ...". */
const char *vsched_configs(void);

#ifdef __cplusplus
}
#endif
#endif
