/*
 * sched_open.c — the one door to the scheduler back ends: sched_open() by
 * name, from one table. How a back end is found is hidden here:
 *
 *   - the C model is always linked (libsmc_sched.a, and the device library);
 *   - the Verilated RTL and the lockstep pair live in $(VSCHED_LIB) (C++ and
 *     the Verilator runtime inside). They are weak references so that a
 *     program which does not need them (most tests) links without Verilator
 *     and libstdc++; a program that links $(VSCHED_LIB) gets them directly
 *     (csrc/timing/module.mk, TIMING_RTL_LINK). Where they are not linked —
 *     the drop-in libcudart.so.13, loaded into arbitrary nvcc-built programs
 *     — they come from the plugin libsmc_vsched.so, built from the same
 *     sources, which is dlopen'ed on first use (sched_plugin_symbol).
 *
 * A new back end is one more row of sched_kinds[] below: its name, its
 * create function as a weak reference, and the symbol to look for in the
 * plugin when it is not linked; a kind that takes an argument ("offload:
 * cmodel") has a create function with the argument instead, and a kind
 * that steps all SMs at once its own group opener (sched_group.h). Nothing
 * that opens back ends changes.
 */
#define _GNU_SOURCE   /* dladdr */
#include "sched_if.h"
#include "sched_group_impl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef sched_backend *(*sched_create_fn)(const sched_params *p, const sched_trace_opts *trace,
                                          char *err, size_t errlen);

/* Weak: NULL in a program that does not link $(VSCHED_LIB). */
extern sched_backend *sched_rtl_create(const sched_params *p, const sched_trace_opts *trace,
                                       char *err, size_t errlen) __attribute__((weak));
extern sched_backend *sched_lockstep_create(const sched_params *p, const sched_trace_opts *trace,
                                            char *err, size_t errlen) __attribute__((weak));

/* Weak, like the RTL: the traced C model uses fstapi, which is in
 * $(VSCHED_LIB) (and the plugin). */
extern sched_backend *sched_cmodel_create_traced(const sched_params *p,
                                                 const sched_trace_opts *trace,
                                                 char *err, size_t errlen) __attribute__((weak));

/* The C model is always linked; with a trace (--fst) it is the traced C
 * model (cosim/sched_ctrace.c: an FST of its ports, as the RTL writes
 * them), linked or from the plugin. */
static sched_backend *open_cmodel(const sched_params *p, const sched_trace_opts *trace,
                                  char *err, size_t errlen)
{
    if (!trace || !trace->path)
        return sched_cmodel_create(p, err, errlen);
    sched_create_fn traced = sched_cmodel_create_traced;
    /* POSIX: a data pointer from dlsym converts to a function pointer */
    if (!traced)
        *(void **)&traced = sched_plugin_symbol("--fst with --sched c",
                                                "sched_cmodel_create_traced", err, errlen);
    return traced ? traced(p, trace, err, errlen) : NULL;
}

typedef sched_backend *(*sched_create_arg_fn)(const sched_params *p, const char *arg,
                                              const sched_trace_opts *trace, char *err,
                                              size_t errlen);

static const struct sched_kind {
    const char         *name;          /* as --sched names it */
    sched_create_fn     linked;        /* NULL when not linked into this program */
    const char         *plugin_symbol; /* where to find it otherwise; NULL = always linked */
    sched_create_arg_fn with_arg;      /* instead of linked: "name[:arg]" (always linked) */
    const char         *default_arg;   /* ... when the spec has no ":arg" */
    sched_group_open_fn group;         /* its own group (sched_group.h); NULL = a loop
                                          over one back end per member */
} sched_kinds[] = {
    { "c",        open_cmodel,           NULL,                    NULL, NULL, NULL },
    { "rtl",      sched_rtl_create,      "sched_rtl_create",      NULL, NULL, NULL },
    { "lockstep", sched_lockstep_create, "sched_lockstep_create", NULL, NULL, NULL },
    /* the core on a device through an offload transport (docs/offload.md) */
    { "offload",  NULL,                  NULL, offload_backend_open, "netlist",
      offload_group_open },
};
#define SCHED_NUM_KINDS (sizeof sched_kinds / sizeof sched_kinds[0])

/* ---- the plugin libsmc_vsched.so ---------------------------------------- */

static void *plugin;   /* stays loaded for the life of the process */

/* Where the plugin is looked for: $SMCOSIM_VSCHED_PLUGIN, else next to the
 * object that holds this code (build/lib/libcudart.so.13 ->
 * build/lib/libsmc_vsched.so), else the dynamic loader's search path. */
static void *plugin_open(char *tried, size_t triedlen)
{
    const char *env = getenv("SMCOSIM_VSCHED_PLUGIN");
    if (env && *env) {
        void *h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
        if (!h)
            snprintf(tried, triedlen, "$SMCOSIM_VSCHED_PLUGIN: %s", dlerror());
        return h;
    }
    Dl_info info;
    char path[4096] = "";
    if (dladdr((void *)&plugin_open, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        if (slash)
            snprintf(path, sizeof path, "%.*s/libsmc_vsched.so",
                     (int)(slash - info.dli_fname), info.dli_fname);
    }
    void *h = path[0] ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!h) {
        snprintf(tried, triedlen, "%s", path[0] ? dlerror() : "");
        h = dlopen("libsmc_vsched.so", RTLD_NOW | RTLD_LOCAL);
        if (!h && !tried[0])
            snprintf(tried, triedlen, "%s", dlerror());
    }
    return h;
}

void *sched_plugin_symbol(const char *what, const char *name, char *err, size_t errlen)
{
    if (!plugin) {
        char tried[1024] = "";
        plugin = plugin_open(tried, sizeof tried);
        if (!plugin) {
            snprintf(err, errlen, "%s needs the Verilated scheduler RTL, which this program "
                     "does not link; its plugin libsmc_vsched.so (make "
                     "build/lib/libsmc_vsched.so, installed next to libcudart.so.13, or set "
                     "SMCOSIM_VSCHED_PLUGIN) could not be loaded: %s", what, tried);
            return NULL;
        }
    }
    void *sym = dlsym(plugin, name);
    if (!sym)
        snprintf(err, errlen, "%s: the plugin libsmc_vsched.so lacks %s "
                 "(rebuild it: make build/lib/libsmc_vsched.so)", what, name);
    return sym;
}

/* ---- the door ----------------------------------------------------------- */

/* The kind of a spec "name[:arg]"; *arg = what follows the colon (NULL
 * when none). A kind without with_arg takes no argument. */
static const struct sched_kind *kind_find(const char *spec, const char **arg)
{
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    *arg = colon ? colon + 1 : NULL;
    for (size_t i = 0; i < SCHED_NUM_KINDS; i++)
        if (strlen(sched_kinds[i].name) == n && strncmp(sched_kinds[i].name, spec, n) == 0)
            return colon && !sched_kinds[i].with_arg ? NULL : &sched_kinds[i];
    return NULL;
}

/* The create function of a kind, linked or from the plugin; NULL with a
 * message naming `what`. */
static sched_create_fn kind_create_fn(const struct sched_kind *k, const char *what,
                                      char *err, size_t errlen)
{
    if (k->linked || !k->plugin_symbol)
        return k->linked;
    sched_create_fn fn;
    /* POSIX: a data pointer from dlsym converts to a function pointer */
    *(void **)&fn = sched_plugin_symbol(what, k->plugin_symbol, err, errlen);
    return fn;
}

int sched_kind_available(const char *kind, const char *what, char *err, size_t errlen)
{
    const char *arg;
    const struct sched_kind *k = kind_find(kind, &arg);
    if (!k) {
        snprintf(err, errlen, "%s: no scheduler back end '%s'", what, kind);
        return -1;
    }
    if (k->with_arg)
        return 0;   /* always linked; its argument is checked when it opens */
    return kind_create_fn(k, what, err, errlen) ? 0 : -1;
}

sched_backend *sched_open(const char *kind, const sched_params *p, const sched_trace_opts *trace,
                          char *err, size_t errlen)
{
    const char *arg;
    const struct sched_kind *k = kind_find(kind, &arg);
    if (!k) {
        snprintf(err, errlen, "no scheduler back end '%s'", kind);
        return NULL;
    }
    if (k->with_arg)
        return k->with_arg(p, arg ? arg : k->default_arg, trace, err, errlen);
    char what[64];
    snprintf(what, sizeof what, "--sched %s", kind);
    sched_create_fn create = kind_create_fn(k, what, err, errlen);
    return create ? create(p, trace, err, errlen) : NULL;
}

int sched_kind_group(const char *kind, sched_group_open_fn *native, const char **arg,
                     char *err, size_t errlen)
{
    const struct sched_kind *k = kind_find(kind, arg);
    if (!k) {
        snprintf(err, errlen, "no scheduler back end '%s'", kind);
        return -1;
    }
    *native = k->group;
    if (!*arg)
        *arg = k->default_arg;
    return k->group ? 1 : 0;
}

/* The lockstep test hook, wherever the lockstep back end came from. */
extern void sched_lockstep_set_mutator(sched_backend *b, sched_mutator fn, void *ctx)
    __attribute__((weak));

int sched_open_set_mutator(sched_backend *b, sched_mutator fn, void *ctx, char *err, size_t errlen)
{
    void (*set)(sched_backend *, sched_mutator, void *) = sched_lockstep_set_mutator;
    if (!set)
        *(void **)&set = sched_plugin_symbol("--sched lockstep", "sched_lockstep_set_mutator",
                                             err, errlen);
    if (!set)
        return -1;
    set(b, fn, ctx);
    return 0;
}
