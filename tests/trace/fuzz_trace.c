/* fuzz_trace.c — `make fuzz-trace`: fuzz the Accel-Sim trace reader
 * (csrc/trace/trace_reader.c, trace_file.c): a kernel trace's header, thread
 * blocks and instruction lines. Built with clang's libFuzzer when available;
 * otherwise (FUZZ_STANDALONE) a seeded mutation loop over the files given on
 * the command line. Any crash, sanitizer report or leak fails the run, and
 * so does an error message that does not name the file. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/fuzz-%ld.traceg", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    char err[512];
    trace_kernel *k = trace_kernel_open(path, err, sizeof err);
    if (!k) {
        if (!strstr(err, path)) { fprintf(stderr, "unlocated error: %s\n", err); abort(); }
        return 0;
    }
    trace_tb tb;
    int r;
    while ((r = trace_kernel_next_tb(k, &tb, err, sizeof err)) == 1)
        trace_tb_free(&tb);
    if (r < 0 && !strstr(err, path)) { fprintf(stderr, "unlocated error: %s\n", err); abort(); }
    trace_kernel_close(k);
    return 0;
}

#ifdef FUZZ_STANDALONE
/* Seeded mutation loop: flip, truncate, insert and delete bytes. */
int main(int argc, char **argv)
{
    unsigned seconds = 60;
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    char *seeds[64]; size_t lens[64]; int ns = 0;
    for (int i = 1; i < argc && ns < 64; i++) {
        if (!strncmp(argv[i], "-max_total_time=", 16)) { seconds = (unsigned)atoi(argv[i] + 16); continue; }
        FILE *f = fopen(argv[i], "rb");
        if (!f) continue;
        seeds[ns] = malloc(1 << 20);
        lens[ns] = fread(seeds[ns], 1, (1 << 20) - 1, f);
        fclose(f);
        ns++;
    }
    if (!ns) { fprintf(stderr, "usage: fuzz_trace [-max_total_time=S] FILE.traceg...\n"); return 2; }
    static char buf[1 << 21];
    uint64_t iters = 0;
    time_t end = time(NULL) + seconds;
    while (time(NULL) < end) {
        for (int r = 0; r < 50; r++, iters++) {
            rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
            int s = (int)(rng % (uint64_t)ns);
            size_t n = lens[s];
            memcpy(buf, seeds[s], n);
            int muts = 1 + (int)(rng >> 40) % 8;
            for (int k = 0; k < muts && n > 1; k++) {
                rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
                size_t pos = (size_t)(rng % n);
                switch ((rng >> 32) % 4) {
                case 0: buf[pos] = (char)(rng >> 48); break;
                case 1: n = pos; break;
                case 2: if (n + 8 < sizeof buf) { memmove(buf + pos + 1, buf + pos, n - pos); buf[pos] = " \n#=,.0f9-Rx"[(rng >> 50) % 12]; n++; } break;
                case 3: { size_t m = (size_t)((rng >> 20) % 64); if (pos + m < n) { memmove(buf + pos, buf + pos + m, n - pos - m); n -= m; } } break;
                }
            }
            LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
        }
    }
    printf("fuzz-trace: %llu inputs, no crash\n", (unsigned long long)iters);
    for (int i = 0; i < ns; i++) free(seeds[i]);
    return 0;
}
#endif
