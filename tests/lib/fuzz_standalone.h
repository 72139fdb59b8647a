/* The fuzz targets' own mutation loop, for machines without libFuzzer
 * (clang's -fsanitize=fuzzer): a target built with -DFUZZ_STANDALONE
 * includes this header and calls fuzz_standalone_main() from its main().
 *
 *   fuzz_standalone_main(argc, argv, "fuzz_ptx", "FILE.ptx", "{}[];,%.0f9-+|@!")
 *
 * The seeds are the files named on the command line (64 at most, 1 MiB
 * each); "-max_total_time=S" sets the time (60 s). Each input is a seed with
 * 1 to 8 mutations: a byte changed, the tail cut off, a byte of ALPHABET
 * (the characters that matter to the target's syntax) inserted, or up to 63
 * bytes deleted. Seeded: the same files give the same inputs. The target is
 * the file's LLVMFuzzerTestOneInput(), which aborts on what it must not do. */
#ifndef SMC_TESTS_FUZZ_STANDALONE_H
#define SMC_TESTS_FUZZ_STANDALONE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t fuzz_next(uint64_t *rng)
{
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    return *rng;
}

static int fuzz_standalone_main(int argc, char **argv, const char *name,
                                const char *seed_kind, const char *alphabet)
{
    unsigned seconds = 60;
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    char *seeds[64];
    size_t lens[64];
    int ns = 0;
    for (int i = 1; i < argc && ns < 64; i++) {
        if (!strncmp(argv[i], "-max_total_time=", 16)) {
            seconds = (unsigned)atoi(argv[i] + 16);
            continue;
        }
        FILE *f = fopen(argv[i], "rb");
        if (!f)
            continue;
        seeds[ns] = malloc(1 << 20);
        lens[ns] = fread(seeds[ns], 1, (1 << 20) - 1, f);
        fclose(f);
        ns++;
    }
    if (!ns) {
        fprintf(stderr, "usage: %s [-max_total_time=S] %s...\n", name, seed_kind);
        return 2;
    }
    static char buf[1 << 21];
    size_t alphabet_len = strlen(alphabet);
    uint64_t iters = 0;
    time_t end = time(NULL) + seconds;
    while (time(NULL) < end) {
        for (int r = 0; r < 50; r++, iters++) {
            fuzz_next(&rng);
            int s = (int)(rng % (uint64_t)ns);
            size_t n = lens[s];
            memcpy(buf, seeds[s], n);
            int muts = 1 + (int)(rng >> 40) % 8;
            for (int k = 0; k < muts && n > 1; k++) {
                fuzz_next(&rng);
                size_t pos = (size_t)(rng % n);
                switch ((rng >> 32) % 4) {
                case 0:   /* change a byte */
                    buf[pos] = (char)(rng >> 48);
                    break;
                case 1:   /* cut the tail */
                    n = pos;
                    break;
                case 2:   /* insert a syntax character */
                    if (n + 8 < sizeof buf) {
                        memmove(buf + pos + 1, buf + pos, n - pos);
                        buf[pos] = alphabet[(rng >> 50) % alphabet_len];
                        n++;
                    }
                    break;
                case 3: { /* delete a run */
                    size_t m = (size_t)((rng >> 20) % 64);
                    if (pos + m < n) {
                        memmove(buf + pos, buf + pos + m, n - pos - m);
                        n -= m;
                    }
                    break;
                }
                }
            }
            LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
        }
    }
    printf("%s: %llu inputs, no crash\n", name, (unsigned long long)iters);
    for (int i = 0; i < ns; i++)
        free(seeds[i]);
    return 0;
}

#endif
