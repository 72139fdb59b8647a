#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

smc_device *tu_device(uint64_t watchdog) {
    smc_device_opts o = { 0 };
    o.watchdog = watchdog;
    smc_device *dev = NULL;
    assert_int_equal(smc_device_create(&o, &dev), SMC_OK);
    return dev;
}

smc_module *tu_load(smc_device *dev, const char *ptx) {
    smc_module *m = NULL;
    smc_status st = smc_module_load_ptx(dev, "test.ptx", ptx, strlen(ptx), &m);
    if (st != SMC_OK) fail_msg("load failed: %s", smc_last_message(dev));
    return m;
}

smc_module *tu_load_file(smc_device *dev, const char *path) {
    smc_module *m = NULL;
    smc_status st = smc_module_load_ptx_file(dev, path, &m);
    if (st != SMC_OK) fail_msg("load of %s failed: %s", path, smc_last_message(dev));
    return m;
}

smc_kernel *tu_kernel(smc_module *m, const char *name) {
    smc_kernel *k = NULL;
    assert_int_equal(smc_module_get_kernel(m, name, &k), SMC_OK);
    return k;
}

size_t tu_pack(const smc_kernel *k, void *buf, size_t cap, const void *const *args, uint32_t nargs) {
    smc_kernel_info in;
    smc_kernel_get_info(k, &in);
    assert_int_equal(in.num_params, nargs);
    assert_true(in.param_bytes <= cap);
    memset(buf, 0, in.param_bytes);
    for (uint32_t i = 0; i < nargs; i++) {
        uint32_t off, sz;
        assert_int_equal(smc_kernel_param(k, i, &off, &sz), SMC_OK);
        memcpy((char *)buf + off, args[i], sz);
    }
    return in.param_bytes;
}

smc_status tu_launch(smc_device *dev, smc_kernel *k, uint32_t grid, uint32_t block, uint32_t dyn,
                     const void *const *args, uint32_t nargs) {
    char buf[4096];
    size_t n = tu_pack(k, buf, sizeof buf, args, nargs);
    smc_dim3 g = { grid, 1, 1 }, b = { block, 1, 1 };
    return smc_launch(dev, k, g, b, dyn, 0, buf, n, NULL);
}

char *tu_wrap(const char *decls, const char *body) {
    static const char head[] =
        ".version 9.0\n.target sm_75\n.address_size 64\n%s\n"
        ".visible .entry k(.param .u64 k_out, .param .u64 k_in, .param .u32 k_n)\n{\n"
        "\t.reg .pred %%p<16>;\n\t.reg .b32 %%r<64>;\n\t.reg .b64 %%rd<32>;\n\t.reg .f32 %%f<32>;\n\t.reg .f64 %%fd<16>;\n"
        "\tld.param.u64 %%rd0, [k_out];\n\tld.param.u64 %%rd1, [k_in];\n\tld.param.u32 %%r0, [k_n];\n"
        "\tmov.u32 %%r1, %%tid.x;\n\tmov.u32 %%r2, %%ctaid.x;\n\tmov.u32 %%r3, %%ntid.x;\n"
        "\tmad.lo.s32 %%r4, %%r2, %%r3, %%r1;\n\tmul.wide.u32 %%rd2, %%r4, 4;\n"
        "\tadd.s64 %%rd3, %%rd0, %%rd2;\n\tadd.s64 %%rd4, %%rd1, %%rd2;\n"
        "%s\n\tret;\n}\n";
    size_t n = sizeof head + strlen(decls) + strlen(body) + 16;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, head, decls, body);
    return s;
}
