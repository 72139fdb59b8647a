/*
 * teg_report.c — TEG's results as Markdown (stdout) and JSON (a file written
 * whole: FILE.tmp, then renamed).
 */
#include <stdio.h>
#include <string.h>

#include "teg_report.h"

static const char *const unit_names[TEG_UNIT_COUNT] = { "sp", "sfu", "dpu", "int", "ldst", "branch" };

static double active_pct(const teg_params *p, const teg_result *r, unsigned u)
{
    uint64_t inst = (uint64_t)p->engines * p->unit[u].private_units + p->unit[u].shared_units;
    double denom = (double)r->cycles * p->sms * (inst ? inst : 1);
    return denom > 0 ? 100.0 * (double)r->unit[u].busy / denom : 0.0;
}

void teg_report_markdown(const teg_params *p, const teg_result *r, size_t n,
                         const uint64_t *ref_cycles, FILE *out)
{
    fprintf(out, "TEG estimate (parameters: %s)\n\n", p->name);
    fprintf(out, "| kernel | CTAs | CTAs/SM | warp-insts | TEG cycles |%s\n",
            ref_cycles ? " cycle model | error (TEG - model)/TEG |" : "");
    fprintf(out, "|---|---:|---:|---:|---:|%s\n", ref_cycles ? "---:|---:|" : "");
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "| %s | %u | %u | %llu | %llu |", r[i].kernel, r[i].ctas, r[i].ctas_per_sm,
                (unsigned long long)r[i].warp_insts, (unsigned long long)r[i].cycles);
        if (ref_cycles)
            fprintf(out, " %llu | %+.2f %% |", (unsigned long long)ref_cycles[i],
                    r[i].cycles ? 100.0 * ((double)r[i].cycles - (double)ref_cycles[i]) / (double)r[i].cycles
                                : 0.0);
        fputc('\n', out);
    }
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "\n%s: units (active %% = busy unit-cycles / (cycles x SMs x units))\n\n",
                r[i].kernel);
        fprintf(out, "| unit | issued | busy | active |\n|---|---:|---:|---:|\n");
        for (unsigned u = 0; u < TEG_UNIT_COUNT; u++)
            if (r[i].unit[u].issued)
                fprintf(out, "| %s | %llu | %llu | %.1f %% |\n", unit_names[u],
                        (unsigned long long)r[i].unit[u].issued, (unsigned long long)r[i].unit[u].busy,
                        active_pct(p, &r[i], u));
        fprintf(out, "\nshared: %llu extra passes; global: %llu bytes, %llu transactions queued",
                (unsigned long long)r[i].smem_extra_passes, (unsigned long long)r[i].gmem_bytes,
                (unsigned long long)r[i].gmem_queued);
        fprintf(out, "\nissue slots (all engines):");
        uint64_t tot = 0;
        for (unsigned k = 0; k < TEG_SLOT_COUNT; k++) tot += r[i].slots[k];
        for (unsigned k = 0; k < TEG_SLOT_COUNT; k++)
            if (r[i].slots[k])
                fprintf(out, " %s %llu (%.1f %%)", teg_slot_names[k], (unsigned long long)r[i].slots[k],
                        tot ? 100.0 * (double)r[i].slots[k] / (double)tot : 0.0);
        if (r[i].regbank_conflicts[2] || r[i].regbank_conflicts[3])
            fprintf(out, "; register banks: %llu 2-way, %llu 3-way",
                    (unsigned long long)r[i].regbank_conflicts[2],
                    (unsigned long long)r[i].regbank_conflicts[3]);
        fputc('\n', out);
    }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned char)*s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

int teg_report_json(const teg_params *p, uint32_t whatif, const teg_result *r, size_t n,
                    const uint64_t *ref_cycles, const char *path, char *err, size_t errlen)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write", tmp);
        return -1;
    }
    fprintf(f, "{\n  \"params\": ");
    json_str(f, p->name);
    fprintf(f, ",\n  \"what_if\": [");
    static const char *const wi[] = { "smem-conflict-free", "coalesced", "no-channel-skew", "regbank" };
    int first = 1;
    for (unsigned b = 0; b < 4; b++)
        if (whatif & (1u << b)) {
            fprintf(f, "%s\"%s\"", first ? "" : ", ", wi[b]);
            first = 0;
        }
    fprintf(f, "],\n  \"kernels\": [");
    for (size_t i = 0; i < n; i++) {
        const teg_result *k = &r[i];
        fprintf(f, "%s\n    {\"kernel\": ", i ? "," : "");
        json_str(f, k->kernel);
        fprintf(f, ", \"cycles\": %llu, \"warp_insts\": %llu, \"thread_insts\": %llu, \"ctas\": %u, "
                "\"ctas_per_sm\": %u,\n     \"units\": {",
                (unsigned long long)k->cycles, (unsigned long long)k->warp_insts,
                (unsigned long long)k->thread_insts, k->ctas, k->ctas_per_sm);
        for (unsigned u = 0; u < TEG_UNIT_COUNT; u++)
            fprintf(f, "%s\"%s\": {\"issued\": %llu, \"busy\": %llu, \"active_pct\": %.3f}", u ? ", " : "",
                    unit_names[u], (unsigned long long)k->unit[u].issued,
                    (unsigned long long)k->unit[u].busy, active_pct(p, k, u));
        fprintf(f, "},\n     \"classes\": {");
        for (unsigned c = 0; c < TEG_CLASS_COUNT; c++)
            fprintf(f, "%s\"%s\": %llu", c ? ", " : "", teg_class_names[c],
                    (unsigned long long)k->class_insts[c]);
        fprintf(f, "},\n     \"slots\": {");
        for (unsigned c = 0; c < TEG_SLOT_COUNT; c++)
            fprintf(f, "%s\"%s\": %llu", c ? ", " : "", teg_slot_names[c], (unsigned long long)k->slots[c]);
        fprintf(f, "},\n     \"smem_extra_passes\": %llu, \"gmem_bytes\": %llu, \"gmem_queued\": %llu, "
                "\"regbank_2way\": %llu, \"regbank_3way\": %llu",
                (unsigned long long)k->smem_extra_passes, (unsigned long long)k->gmem_bytes,
                (unsigned long long)k->gmem_queued, (unsigned long long)k->regbank_conflicts[2],
                (unsigned long long)k->regbank_conflicts[3]);
        if (ref_cycles) {
            double e = k->cycles ? ((double)k->cycles - (double)ref_cycles[i]) / (double)k->cycles : 0;
            double e2 = ref_cycles[i] ? ((double)k->cycles - (double)ref_cycles[i]) / (double)ref_cycles[i] : 0;
            fprintf(f, ",\n     \"model_cycles\": %llu, \"error_of_teg\": %.6f, \"error_of_model\": %.6f",
                    (unsigned long long)ref_cycles[i], e, e2);
        }
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]\n}\n");
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        remove(tmp);
        snprintf(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}
