/*
 * teg_report.h — TEG's results as Markdown and JSON (teg_report.c).
 */
#ifndef SMC_TEG_REPORT_H
#define SMC_TEG_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "teg.h"

/* n kernels; ref_cycles (may be NULL): the cycle model's, for --compare.
 * The error is (TEG - model) / TEG, as the thesis divides (G14). */
void teg_report_markdown(const teg_params *p, const teg_result *r, size_t n,
                         const uint64_t *ref_cycles, FILE *out);
/* Written whole or not at all. 0, or -1 with a message. */
int  teg_report_json(const teg_params *p, uint32_t whatif, const teg_result *r, size_t n,
                     const uint64_t *ref_cycles, const char *path, char *err, size_t errlen);

#endif
