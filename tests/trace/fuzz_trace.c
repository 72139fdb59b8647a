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
#include "../lib/fuzz_standalone.h"

int main(int argc, char **argv)
{
    return fuzz_standalone_main(argc, argv, "fuzz-trace", "FILE.traceg", " \n#=,.0f9-Rx");
}
#endif
