/*
 * splitmix64.h — the splitmix64 generator that drives the memory model's
 * seeded random request streams: the mem-digest scenarios (mem_digest.c)
 * and the randomised tests (tests/mem/test_mem_random.c, test_mem_skip.c).
 * One definition keeps their streams the same: a digest recorded before a
 * change and the tests' seeds stay meaningful only while the sequence does.
 */
#ifndef SMC_MEM_SPLITMIX64_H
#define SMC_MEM_SPLITMIX64_H

#include <stdint.h>

/* The next value of the sequence whose state is *s (advances *s). */
static inline uint64_t splitmix64_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#endif
