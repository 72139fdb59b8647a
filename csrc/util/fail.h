/*
 * fail.h — the one error-reporting helper of the C side.
 *
 * Functions that can fail take a caller's buffer (char *err, size_t errlen)
 * and return -1 with a message in it; smc_fail() writes that message and
 * returns the -1, so that a check reads
 *
 *     if (x > max)
 *         return smc_fail(err, errlen, "x %u exceeds %u", x, max);
 *
 * err may be NULL (or errlen 0): the message is then dropped.
 */
#ifndef SMC_FAIL_H
#define SMC_FAIL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* printf-style message into err (truncated to errlen - 1 characters and
 * terminated); returns -1. */
int smc_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif /* SMC_FAIL_H */
