/*
 * teg_validate.h — `smcosim teg validate` (teg_validate.c): seed 003's
 * validation kernels through the device API, then TEG beside the cycle model
 * on their trace.
 */
#ifndef SMC_TEG_VALIDATE_H
#define SMC_TEG_VALIDATE_H

#include <stdio.h>

/* argv[0] is "validate". 0, 1 (a failure, message on stderr), 2 (bad
 * arguments, usage on stderr). */
int teg_validate_cli(int argc, char **argv, FILE *out);

#endif
