/* ptx_info.c — `smcosim ptx-info [--hints] [--set KEY=VALUE]... FILE.ptx...`:
 * load each module and print, per kernel, what `ptxas -v` reports: registers
 * (after our allocation), predicates, shared/local/const/param bytes.
 *
 * --hints adds the HAWS hint pass (hints/haws_pass.h, docs/haws.md): a
 * summary line per kernel, every instruction with its hint word decoded and
 * the chains. --set applies configuration keys first (the haws.* keys are
 * the pass's options: haws.mem_hints, haws.branch_hints,
 * haws.cross_stall_points, haws.validate, haws.hints_file). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "smcosim.h"
#include "../config/gpu_config.h"
#include "../emu/emu.h"
#include "../../hints/haws_pass.h"

/* The PTX source, split into lines, to show each instruction's text. */
typedef struct src_text { char *text; char **line; uint32_t nlines; } src_text;

static void src_load(src_text *s, const char *path)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "rb");
    if (!f) return;
    size_t cap = 1 << 16, len = 0, n;
    char *t = malloc(cap);
    while (t && (n = fread(t + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len <= 1) { char *b = realloc(t, cap *= 2); if (!b) { free(t); t = NULL; } else t = b; }
    }
    fclose(f);
    if (!t) return;
    t[len] = '\0';
    uint32_t nl = 1;
    for (size_t i = 0; i < len; i++) nl += t[i] == '\n';
    s->line = calloc(nl + 1, sizeof *s->line);
    if (!s->line) { free(t); return; }
    s->text = t;
    char *p = t;
    s->line[s->nlines++] = p;
    for (; *p; p++)
        if (*p == '\n') { *p = '\0'; s->line[s->nlines++] = p + 1; }
}

static const char *src_line(const src_text *s, uint32_t line)
{
    if (line == 0 || line > s->nlines) return "";
    const char *p = s->line[line - 1];
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

/* One chain as text: members in path order, both sides of a branch. */
static void print_path(const haws_result *r, const emu_kernel *ek, uint32_t s, int off, int depth)
{
    for (int guard = 0; off != 0 && guard < 16; guard++) {
        int64_t m = (int64_t)s + off;
        if (m < 0 || m >= (int64_t)r->n) { printf(" -> ?"); return; }
        uint32_t w = r->hint[m];
        const emu_inst_info *x = emu_kernel_inst(ek, (uint32_t)m);
        printf(" -> %u", (uint32_t)m);
        if (x->is_branch && haws_hint_is_branch(w)) {
            if (haws_hint_direct(w)) { printf(" (bra)"); off = haws_hint_taken(w); continue; }
            if (depth > 8) return;
            printf(" (bra) { taken:");
            print_path(r, ek, s, haws_hint_taken(w), depth + 1);
            printf(" | fall:");
            print_path(r, ek, s, haws_hint_fallthru(w), depth + 1);
            printf(" }");
            return;
        }
        if (haws_hint_rename(w)) printf(" (r%u=>r%u)", x->ndst ? x->dst[0] : 0, haws_hint_dst(w));
        off = haws_hint_offset(w);
    }
}

static void describe(const haws_result *r, const emu_kernel *ek, uint32_t pc, char *buf, size_t len)
{
    uint32_t w = r->hint[pc];
    const emu_inst_info *x = emu_kernel_inst(ek, pc);
    if (r->stall[pc]) {
        if (w) snprintf(buf, len, "stall point, chain -> %d", (int)pc + haws_hint_offset(w));
        else snprintf(buf, len, "stall point, no chain");
        return;
    }
    if (r->chain[pc] == HAWS_NO_CHAIN) { snprintf(buf, len, "-"); return; }
    uint32_t s = r->chain[pc];
    int n = snprintf(buf, len, "member of %u", s);
    if (n < 0 || (size_t)n >= len) return;
    if (haws_hint_is_branch(w)) {
        char t[16], f[16];
        if (haws_hint_taken(w)) snprintf(t, sizeof t, "%d", (int)s + haws_hint_taken(w)); else snprintf(t, sizeof t, "end");
        if (haws_hint_fallthru(w)) snprintf(f, sizeof f, "%d", (int)s + haws_hint_fallthru(w)); else snprintf(f, sizeof f, "end");
        if (haws_hint_direct(w))
            snprintf(buf + n, len - (size_t)n, ", direct branch, taken -> %s", t);
        else
            snprintf(buf + n, len - (size_t)n, ", branch, taken -> %s, fall -> %s", t, f);
        return;
    }
    int off = haws_hint_offset(w);
    char next[32];
    if (off) snprintf(next, sizeof next, "next %d", (int)s + off); else snprintf(next, sizeof next, "end");
    if (haws_hint_rename(w))
        snprintf(buf + n, len - (size_t)n, ", %s, rename r%u => r%u", next, x->ndst ? x->dst[0] : 0, haws_hint_dst(w));
    else
        snprintf(buf + n, len - (size_t)n, ", %s", next);
}

static int print_hints(const char *file, const src_text *src, const smc_kernel *k, const haws_opts *o)
{
    const emu_kernel *ek = smc_kernel_emu(k);
    haws_result r;
    char err[512];
    if (haws_compute(ek, o, &r, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", file, err);
        return 1;
    }
    const haws_summary *s = &r.sum;
    printf("    HAWS: %u stall points, %u chains, %u hinted instructions (%u memory, %u branches), "
           "%u renames, longest chain %u; registers per thread %u, with renaming %u%s\n",
           s->stall_points, s->chains, s->hinted, s->mem_members, s->branch_members, s->renames,
           s->max_members, s->regs_per_thread, s->regs_haws, s->from_file ? " (hints from file)" : "");
    printf("    %5s %6s %-8s %-46s %s\n", "pc", "line", "word", "hint", "instruction");
    for (uint32_t pc = 0; pc < r.n; pc++) {
        const emu_inst_info *x = emu_kernel_inst(ek, pc);
        char d[128];
        describe(&r, ek, pc, d, sizeof d);
        printf("    %5u %6u %06x   %-46s %.70s\n", pc, x->ptx_line, r.hint[pc], d, src_line(src, x->ptx_line));
    }
    for (uint32_t pc = 0; pc < r.n; pc++) {
        if (!r.stall[pc] || !r.hint[pc]) continue;
        printf("    chain %u (line %u):", pc, emu_kernel_inst(ek, pc)->ptx_line);
        print_path(&r, ek, pc, haws_hint_offset(r.hint[pc]), 0);
        printf("\n");
    }
    haws_result_free(&r);
    return 0;
}

static int usage(FILE *f, int rc)
{
    fprintf(f, "usage: smcosim ptx-info [--hints] [--set KEY=VALUE]... FILE.ptx...\n"
               "  --hints          HAWS hint pass: each instruction's hint, the chains, per-kernel counts\n"
               "  --set KEY=VALUE  configuration key first (haws.mem_hints, haws.branch_hints,\n"
               "                   haws.cross_stall_points, haws.validate, haws.hints_file,\n"
               "                   sched.reg_id_width)\n");
    return rc;
}

int cli_ptx_info(int argc, char **argv) {
    int hints = 0, nfiles = 0;
    gpu_config cfg;
    char err[512];
    if (gpu_config_load_spec(&cfg, NULL, err, sizeof err) != 0) { fprintf(stderr, "smcosim: %s\n", err); return 1; }
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) return usage(stdout, 0);
        if (!strcmp(argv[a], "--hints")) { hints = 1; argv[a] = NULL; continue; }
        if (!strcmp(argv[a], "--set")) {
            if (a + 1 >= argc) { fprintf(stderr, "smcosim ptx-info: --set needs KEY=VALUE\n"); return usage(stderr, 2); }
            if (gpu_config_apply(&cfg, argv[a + 1], err, sizeof err) != 0) {
                fprintf(stderr, "smcosim ptx-info: --set %s: %s\n", argv[a + 1], err);
                return 2;
            }
            argv[a] = argv[a + 1] = NULL;
            a++;
            continue;
        }
        if (argv[a][0] == '-' && argv[a][1]) {
            fprintf(stderr, "smcosim ptx-info: unknown option '%s'\n", argv[a]);
            return usage(stderr, 2);
        }
        nfiles++;
    }
    if (nfiles == 0) return usage(stderr, 2);
    haws_opts o;
    haws_opts_from_config(&o, &cfg);
    smc_device *dev;
    smc_status st = smc_device_create(NULL, &dev);
    if (st) { fprintf(stderr, "smcosim: cannot create device: %s\n", smc_status_string(st)); return 1; }
    int rc = 0;
    for (int a = 1; a < argc; a++) {
        if (!argv[a]) continue;
        smc_module *m;
        st = smc_module_load_ptx_file(dev, argv[a], &m);
        if (st) { fprintf(stderr, "%s\n", smc_last_message(dev)); rc = 1; continue; }
        src_text src;
        if (hints) src_load(&src, argv[a]);
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
            if (hints && print_hints(argv[a], &src, smc_module_kernel_at(m, i), &o) != 0) rc = 1;
        }
        if (hints) { free(src.text); free(src.line); }
    }
    smc_device_destroy(dev);
    return rc;
}
