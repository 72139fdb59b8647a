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
#include "../lib/fuzz_standalone.h"

int main(int argc, char **argv)
{
    return fuzz_standalone_main(argc, argv, "fuzz-ptx", "FILE.ptx", "{}[];,%.0f9-+|@!");
}
#endif
