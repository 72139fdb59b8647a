/* fuzz_ptx.c — `make fuzz-ptx`: fuzz the PTX parser, the linker and (briefly)
 * the emulator. Built with clang's libFuzzer (-fsanitize=fuzzer,address,
 * undefined) when available; otherwise (FUZZ_STANDALONE) a seeded mutation
 * loop over the PTX files given on the command line. Either way any crash,
 * sanitizer report or leak fails the run. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../csrc/emu/emu.h"
#include "../../csrc/ptx/link.h"
#include "../../csrc/ptx/ptx.h"

static uint64_t fake_addr(void *ctx, const ptx_var *v) {
    (void)ctx;
    return 0x300000000000ull + (uint64_t)(uintptr_t)v % 4096 * 64;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static devmem mem;
    static int mem_ok = -1;
    if (mem_ok < 0) { char e[256]; mem_ok = devmem_init(&mem, e, sizeof e) == 0; }
    char err[512];
    ptx_module *m = ptx_parse("fuzz.ptx", (const char *)data, size, err, sizeof err);
    if (!m) {
        if (!strstr(err, "fuzz.ptx")) { fprintf(stderr, "unlocated error: %s\n", err); abort(); }
        return 0;
    }
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const ptx_func *f = &m->funcs[i];
        if (!f->is_entry || !f->has_body) continue;
        ptx_kernel *k = ptx_link(m, f, fake_addr, NULL, err, sizeof err);
        if (!k) continue;
        emu_kernel *ek = emu_kernel_create(k);
        if (!ek) { ptx_kernel_free(k); continue; }
        if (mem_ok && k->static_smem < 65536 && k->local_bytes < 65536) {
            static uint8_t params[32768];
            emu_launch_desc d = { .kernel = ek, .grid = { 1, 1, 1 }, .block = { 40, 1, 1 },
                                  .params = params, .param_bytes = sizeof params, .mem = &mem,
                                  .num_sms = 1, .watchdog = 2000 };
            emu_launch *l = emu_launch_create(&d);
            if (l) { emu_run_functional(l); emu_launch_destroy(l); }
        }
        emu_kernel_destroy(ek);
    }
    ptx_module_free(m);
    return 0;
}

#ifdef FUZZ_STANDALONE
/* Seeded mutation loop: flip, insert, delete and splice bytes/tokens. */
int main(int argc, char **argv) {
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
    if (!ns) { fprintf(stderr, "usage: fuzz_ptx [-max_total_time=S] FILE.ptx...\n"); return 2; }
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
                case 1: n = pos; break;                                  /* truncate */
                case 2: if (n + 8 < sizeof buf) { memmove(buf + pos + 1, buf + pos, n - pos); buf[pos] = "{}[];,%.0f9-+|@!"[(rng >> 50) % 16]; n++; } break;
                case 3: { size_t m = (size_t)((rng >> 20) % 64); if (pos + m < n) { memmove(buf + pos, buf + pos + m, n - pos - m); n -= m; } } break;
                }
            }
            LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
        }
    }
    printf("fuzz-ptx: %llu inputs, no crash\n", (unsigned long long)iters);
    for (int i = 0; i < ns; i++) free(seeds[i]);
    return 0;
}
#endif
