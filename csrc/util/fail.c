/*
 * fail.c — see fail.h.
 */
#include "fail.h"

#include <stdarg.h>
#include <stdio.h>

int smc_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}
