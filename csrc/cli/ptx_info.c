/* ptx_info.c — `smcosim ptx-info FILE.ptx...`: load each module and print,
 * per kernel, what `ptxas -v` reports: registers (after our allocation),
 * predicates, shared/local/const/param bytes. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "smcosim.h"

int cli_ptx_info(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fprintf(argc < 2 ? stderr : stdout, "usage: smcosim ptx-info FILE.ptx...\n");
        return argc < 2 ? 2 : 0;
    }
    smc_device *dev;
    smc_status st = smc_device_create(NULL, &dev);
    if (st) { fprintf(stderr, "smcosim: cannot create device: %s\n", smc_status_string(st)); return 1; }
    int rc = 0;
    for (int a = 1; a < argc; a++) {
        smc_module *m;
        st = smc_module_load_ptx_file(dev, argv[a], &m);
        if (st) { fprintf(stderr, "%s\n", smc_last_message(dev)); rc = 1; continue; }
        uint32_t n = smc_module_kernel_count(m);
        for (uint32_t i = 0; i < n; i++) {
            smc_kernel_info k;
            smc_kernel_get_info(smc_module_kernel_at(m, i), &k);
            printf("%s: kernel %s\n", argv[a], k.name);
            printf("    Used %u registers, %u predicates, %u bytes smem, %u bytes lmem, %u bytes cmem, "
                   "%u bytes params (%u params)", k.regs_per_thread, k.pred_regs, k.static_smem_bytes,
                   k.local_bytes, k.const_bytes, k.param_bytes, k.num_params);
            if (k.max_threads_per_block) printf(", maxntid %u", k.max_threads_per_block);
            printf("\n");
        }
    }
    smc_device_destroy(dev);
    return rc;
}
