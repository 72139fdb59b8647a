/*
 * stats.c — printing and JSON of the per-launch timing statistics
 * (docs/statistics.md explains every field).
 */
#include "timing.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const timing_slot_names[TS_COUNT] = {
    "issued", "no_instruction", "scoreboard", "long_latency_dependence",
    "unit_busy", "barrier", "warp_limit", "occluded"
};

/* Slot i is shown: "occluded" only with OAWS on, so that records without it
 * stay byte-identical to those written before OAWS existed. */
static int slot_shown(const timing_stats *s, unsigned i)
{
    return i != TS_OCCLUDED || s->oaws.on;
}

void timing_stats_free(timing_stats *s)
{
    if (!s)
        return;
    free(s->mem_json);
    s->mem_json = NULL;
    free(s->per_sm);
    s->per_sm = NULL;
}

/* The members of an "issue_slots" object: the launch's, or one SM's. */
static void json_slots(const timing_stats *s, const uint64_t slots[TS_COUNT], FILE *out)
{
    for (unsigned i = 0; i < TS_COUNT; i++)
        if (slot_shown(s, i))
            fprintf(out, "%s\"%s\": %llu", i ? ", " : "", timing_slot_names[i],
                    (unsigned long long)slots[i]);
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

void timing_stats_print(const timing_stats *s, FILE *out)
{
    uint64_t slots = 0;
    for (unsigned i = 0; i < TS_COUNT; i++)
        slots += s->slots[i];
    fprintf(out, "kernel %s  grid (%u,%u,%u) block (%u,%u,%u)  config %s  sched %s  policy %s\n",
            s->kernel, s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1],
            s->block[2], s->config, s->backend, s->policy);
    if (s->status != SMC_OK)
        fprintf(out, "  status            %s (statistics up to the stop)\n", smc_status_name(s->status));
    fprintf(out, "  cycles            %llu\n", (unsigned long long)s->cycles);
    fprintf(out, "  warp-instructions %llu  (thread-instructions %llu)\n",
            (unsigned long long)s->warp_insts, (unsigned long long)s->thread_insts);
    fprintf(out, "  IPC               %.3f warp-instructions/cycle\n", s->ipc);
    fprintf(out, "  blocks            %llu  (%llu per SM at once, %llu waves)\n",
            (unsigned long long)s->ctas, (unsigned long long)s->ctas_per_sm_limit,
            (unsigned long long)s->waves);
    if (s->locality_hint)
        fprintf(out, "  locality hint     %u  (CTAs placed in chunks of %u adjacent blocks)\n",
                s->locality_hint, s->dispatch_chunk);
    if (s->locality_detected >= 0)
        fprintf(out, "  locality detected type %d  (%.1f %% of the first CTAs' lines shared; docs/locality.md)\n",
                s->locality_detected, 100.0 * s->locality_shared);
    if (s->warp_groups)
        fprintf(out, "  warp groups       %s  (grouped warp scheduling, docs/locality.md)\n",
                strcmp(s->warp_groups, "owl") == 0 ? "owl: CTA groups" : "by the locality hint");
    fprintf(out, "  issue slots       %llu of SMs with resident warps:\n", (unsigned long long)slots);
    if (s->haws.on) {
        const timing_haws_stats *h = &s->haws;
        fprintf(out, "  HAWS (%s)         %llu entries, %.2f instructions per entry, %llu hinted "
                "(%llu ALU, %llu memory, %llu branches), %llu renamed\n",
                h->on == 2 ? "all" : "warp", (unsigned long long)h->entries,
                h->entries ? (double)h->hinted_issues / (double)h->entries : 0.0,
                (unsigned long long)h->hinted_issues, (unsigned long long)h->hinted_alu,
                (unsigned long long)h->hinted_mem, (unsigned long long)h->hinted_branches,
                (unsigned long long)h->renamed);
        fprintf(out, "                    return pass: %llu skips, %llu copies, %llu re-executed; "
                "%llu flushed; ALU %.1f%% and long-latency loads %.1f%% in hint mode; "
                "registers %u -> %u\n",
                (unsigned long long)h->skips, (unsigned long long)h->copies,
                (unsigned long long)h->reexec, (unsigned long long)h->flushed,
                pct(h->hinted_alu, h->alu_insts), pct(h->hinted_long_mem, h->long_mem_insts),
                h->regs_per_thread, h->regs_per_thread_haws);
    }
    if (s->oaws.on) {
        const timing_oaws_stats *o = &s->oaws;
        fprintf(out, "  OAWS (%s)       fully cached loads: divergent %.1f%% of %llu, coherent "
                "%.1f%% of %llu; MSHR replay cycles: divergent %llu, coherent %llu; OCW %u..%u "
                "(avg %.2f); DLC up to %u entries\n",
                o->on == 2 ? "dynamic" : "static", pct(o->div_fully_cached, o->div_loads),
                (unsigned long long)o->div_loads, pct(o->coh_fully_cached, o->coh_loads),
                (unsigned long long)o->coh_loads, (unsigned long long)o->div_replay_mshr,
                (unsigned long long)o->coh_replay_mshr, o->ocw_min, o->ocw_max,
                o->ocw_events ? (double)o->ocw_sum / (double)o->ocw_events : (double)o->ocw_min,
                o->dlc_max);
    }
    for (unsigned i = 0; i < TS_COUNT; i++)
        if (slot_shown(s, i))
            fprintf(out, "    %-24s %12llu  %5.1f%%\n", timing_slot_names[i],
                    (unsigned long long)s->slots[i], pct(s->slots[i], slots));
    if (s->per_sm) {                    /* stats.per_sm: one line per SM */
        fprintf(out, "  per SM    %6s %13s", "CTAs", "active_cycles");
        for (unsigned i = 0; i < TS_COUNT; i++)
            if (slot_shown(s, i))
                fprintf(out, " %s", timing_slot_names[i]);
        fprintf(out, " idle_slots\n");
        for (uint32_t k = 0; k < s->num_sms; k++) {
            const timing_sm_stats *p = &s->per_sm[k];
            fprintf(out, "    sm%-4u %6llu %13llu", (unsigned)k, (unsigned long long)p->ctas,
                    (unsigned long long)p->active_cycles);
            for (unsigned i = 0; i < TS_COUNT; i++)
                if (slot_shown(s, i))
                    fprintf(out, " %*llu", (int)strlen(timing_slot_names[i]),
                            (unsigned long long)p->slots[i]);
            fprintf(out, " %10llu\n", (unsigned long long)p->idle_slots);
        }
    }
    const mem_stats *m = &s->mem;
    uint64_t l1h = m->l1_hit[0] + m->l1_hit[1] + m->l1_hit[2];
    uint64_t l1m = m->l1_miss[0] + m->l1_miss[1] + m->l1_miss[2];
    uint64_t l2h = m->l2_hit[0] + m->l2_hit[1] + m->l2_hit[2];
    uint64_t l2m = m->l2_miss[0] + m->l2_miss[1] + m->l2_miss[2];
    fprintf(out, "  L1D               %llu hits, %llu misses (%.1f%% hit)\n",
            (unsigned long long)l1h, (unsigned long long)l1m, pct(l1h, l1h + l1m));
    fprintf(out, "  L2                %llu hits, %llu misses (%.1f%% hit)\n",
            (unsigned long long)l2h, (unsigned long long)l2m, pct(l2h, l2h + l2m));
    /* Two averages of the MSHRs in use: per SM and cycle (the JSON's
     * memory.mshr.occupancy_avg_per_sm), and per cycle of an SM that has
     * resident warps (sm_active_cycles), which is what an SM that works sees
     * when some SMs idle (a small grid, the last wave). */
    fprintf(out, "  MSHR              %llu allocated, %llu merged, %llu duplicate, max %u in use, "
            "avg %.2f per SM, %.2f per SM with warps\n", (unsigned long long)m->l1_mshr_alloc,
            (unsigned long long)m->l1_mshr_merge, (unsigned long long)m->l1_mshr_dup,
            m->l1_mshr_occ_max,
            mem_mshr_occupancy_avg_per_sm(m, s->num_sms),
            s->sm_active_cycles ? (double)m->l1_mshr_occ_sum / (double)s->sm_active_cycles : 0.0);
    if (s->ldst_path_insts || s->ldst_path_full)
        fprintf(out, "  LD/ST path        %llu instructions, full %.1f%% of SM-cycles with warps\n",
                (unsigned long long)s->ldst_path_insts, pct(s->ldst_path_full, s->sm_active_cycles));
    fprintf(out, "  loads             %llu done, average latency %.1f cycles, max %llu\n",
            (unsigned long long)m->load_insts_done,
            m->load_insts_done ? (double)m->load_latency_sum / (double)m->load_insts_done : 0.0,
            (unsigned long long)m->load_latency_max);
    fprintf(out, "  DRAM              %llu reads, %llu writes, %llu row hits (%.1f%%), "
            "%.2f bytes/cycle\n",
            (unsigned long long)m->dram_reads, (unsigned long long)m->dram_writes,
            (unsigned long long)m->dram_row_hits, 100.0 * mem_dram_row_hit_rate(m),
            mem_dram_bytes_per_cycle(m));
    if (s->host_seconds > 0)
        fprintf(out, "  simulation        %.2f s host, %.0f SM-cycles/s\n", s->host_seconds,
                (double)s->sm_active_cycles / s->host_seconds);
}

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void timing_stats_json(const timing_stats *s, FILE *out)
{
    fprintf(out, "{\"kernel\": ");
    json_str(out, s->kernel);
    fprintf(out, ", \"config\": ");
    json_str(out, s->config);
    fprintf(out, ", \"sched\": ");
    json_str(out, s->backend);
    fprintf(out, ", \"policy\": ");
    json_str(out, s->policy);
    fprintf(out, ", \"status\": ");
    json_str(out, smc_status_name(s->status));
    fprintf(out, ",\n  \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u]",
            s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2]);
    fprintf(out, ",\n  \"cycles\": %llu, \"warp_insts\": %llu, \"thread_insts\": %llu, \"ipc\": %.6f",
            (unsigned long long)s->cycles, (unsigned long long)s->warp_insts,
            (unsigned long long)s->thread_insts, s->ipc);
    fprintf(out, ",\n  \"blocks\": %llu, \"blocks_per_sm\": %llu, \"waves\": %llu, "
            "\"sms\": %u, \"sm_active_cycles\": %llu",
            (unsigned long long)s->ctas, (unsigned long long)s->ctas_per_sm_limit,
            (unsigned long long)s->waves, s->num_sms, (unsigned long long)s->sm_active_cycles);
    /* only with a hint, so that hint-0 records stay byte-identical to those
     * written before locality placement existed */
    if (s->locality_hint)
        fprintf(out, ",\n  \"locality_hint\": %u, \"dispatch\": \"locality\", "
                "\"dispatch_chunk\": %u", s->locality_hint, s->dispatch_chunk);
    /* only under the grouped policy (a hint, or OWL) */
    if (s->warp_groups)
        fprintf(out, ",\n  \"warp_groups\": \"%s\"", s->warp_groups);
    /* only under gpu.locality_hint=auto, in a launch that detected */
    if (s->locality_detected >= 0)
        fprintf(out, ",\n  \"locality_detected\": %d, \"locality_shared_lines\": %.4f",
                s->locality_detected, s->locality_shared);
    /* only with HAWS on, so that records without it stay byte-identical */
    if (s->haws.on) {
        const timing_haws_stats *h = &s->haws;
        fprintf(out, ",\n  \"haws\": {\"mode\": \"%s\", \"entries\": %llu, \"exits\": %llu, "
                "\"hinted_issues\": %llu, \"hinted_alu\": %llu, \"hinted_mem\": %llu, "
                "\"hinted_long_mem\": %llu, \"hinted_branches\": %llu, \"renamed\": %llu, "
                "\"skips\": %llu, \"copies\": %llu, \"reexec\": %llu, \"flushed\": %llu, "
                "\"mode_warp_cycles\": %llu, \"alu_insts\": %llu, \"long_mem_insts\": %llu, "
                "\"insts_per_entry\": %.6f, \"alu_pct_hinted\": %.6f, \"mem_pct_hinted\": %.6f, "
                "\"regs_per_thread\": %u, \"regs_per_thread_haws\": %u}",
                h->on == 2 ? "all" : "warp", (unsigned long long)h->entries,
                (unsigned long long)h->exits, (unsigned long long)h->hinted_issues,
                (unsigned long long)h->hinted_alu, (unsigned long long)h->hinted_mem,
                (unsigned long long)h->hinted_long_mem, (unsigned long long)h->hinted_branches,
                (unsigned long long)h->renamed, (unsigned long long)h->skips,
                (unsigned long long)h->copies, (unsigned long long)h->reexec,
                (unsigned long long)h->flushed, (unsigned long long)h->mode_warp_cycles,
                (unsigned long long)h->alu_insts, (unsigned long long)h->long_mem_insts,
                h->entries ? (double)h->hinted_issues / (double)h->entries : 0.0,
                pct(h->hinted_alu, h->alu_insts), pct(h->hinted_long_mem, h->long_mem_insts),
                h->regs_per_thread, h->regs_per_thread_haws);
    }
    /* only with OAWS on, like "haws" */
    if (s->oaws.on) {
        const timing_oaws_stats *o = &s->oaws;
        fprintf(out, ",\n  \"oaws\": {\"mode\": \"%s\", \"smr\": %u, \"div_loads\": %llu, "
                "\"div_fully_cached\": %llu, \"coh_loads\": %llu, \"coh_fully_cached\": %llu, "
                "\"div_replay_mshr\": %llu, \"div_replay_icnt\": %llu, \"coh_replay_mshr\": %llu, "
                "\"coh_replay_icnt\": %llu, \"pred_div_loads\": %llu, \"pred_div_replay_mshr\": %llu, "
                "\"pred_div_min_avail\": %llu, \"eff_issued\": %llu, \"eff_retired\": %llu, "
                "\"offers_redirected\": %llu, \"ocw_events\": %llu, \"ocw_avg\": %.6f, "
                "\"ocw_min\": %u, \"ocw_max\": %u, \"dlc_max\": %u}",
                o->on == 2 ? "dynamic" : "static", o->smr, (unsigned long long)o->div_loads,
                (unsigned long long)o->div_fully_cached, (unsigned long long)o->coh_loads,
                (unsigned long long)o->coh_fully_cached, (unsigned long long)o->div_replay_mshr,
                (unsigned long long)o->div_replay_icnt, (unsigned long long)o->coh_replay_mshr,
                (unsigned long long)o->coh_replay_icnt, (unsigned long long)o->pred_div_loads,
                (unsigned long long)o->pred_div_replay_mshr,
                (unsigned long long)o->pred_div_min_avail, (unsigned long long)o->eff_issued,
                (unsigned long long)o->eff_retired, (unsigned long long)o->offers_redirected,
                (unsigned long long)o->ocw_events,
                o->ocw_events ? (double)o->ocw_sum / (double)o->ocw_events : (double)o->ocw_min,
                o->ocw_min, o->ocw_max, o->dlc_max);
    }
    /* only with a peer on, like "oaws" */
    if (s->peers.on) {
        const timing_peers_stats *p = &s->peers;
        fprintf(out, ",\n  \"peers\": {\"peer\": \"%s\", \"vta_hits\": %llu, \"vta_inserts\": %llu, "
                "\"sat_cycles\": %llu, \"div_loads\": %llu, \"div_fully_cached\": %llu, "
                "\"coh_loads\": %llu, \"coh_fully_cached\": %llu}", p->on == 1 ? "ccws" : "mascar",
                (unsigned long long)p->vta_hits, (unsigned long long)p->vta_inserts,
                (unsigned long long)p->sat_cycles, (unsigned long long)p->div_loads,
                (unsigned long long)p->div_fully_cached, (unsigned long long)p->coh_loads,
                (unsigned long long)p->coh_fully_cached);
    }
    fprintf(out, ",\n  \"issue_slots\": {");
    json_slots(s, s->slots, out);
    fprintf(out, "}, \"idle_slots\": %llu", (unsigned long long)s->idle_slots);
    if (s->per_sm) {                    /* stats.per_sm only: other records stay as they were */
        fprintf(out, ",\n  \"per_sm\": [");
        for (uint32_t k = 0; k < s->num_sms; k++) {
            const timing_sm_stats *p = &s->per_sm[k];
            fprintf(out, "%s{\"sm\": %u, \"ctas\": %llu, \"active_cycles\": %llu, \"issue_slots\": {",
                    k ? ",\n    " : "\n    ", (unsigned)k, (unsigned long long)p->ctas,
                    (unsigned long long)p->active_cycles);
            json_slots(s, p->slots, out);
            fprintf(out, "}, \"idle_slots\": %llu}", (unsigned long long)p->idle_slots);
        }
        fprintf(out, "]");
    }
    fprintf(out, ",\n  \"unit_insts\": {");
    for (unsigned i = 0; i < GPU_UNIT_COUNT; i++)
        fprintf(out, "%s\"%s\": %llu", i ? ", " : "", gpu_unit_name(i),
                (unsigned long long)s->unit_insts[i]);
    fprintf(out, "}");
    fprintf(out, ",\n  \"front_end\": {\"fetch_redirects\": %llu, \"held_pushes\": %llu, "
            "\"wb_port_stalls\": %llu}", (unsigned long long)s->fetch_redirects,
            (unsigned long long)s->held_pushes, (unsigned long long)s->wb_port_stalls);
    if (s->ldst_path_insts || s->ldst_path_full)
        fprintf(out, ",\n  \"ldst_path\": {\"insts\": %llu, \"full_cycles\": %llu}",
                (unsigned long long)s->ldst_path_insts, (unsigned long long)s->ldst_path_full);
    fprintf(out, ",\n  \"memory\": {%s}}", s->mem_json ? s->mem_json : "");
}

int timing_stats_write_json(const timing_stats *s, uint32_t n, const char *path,
                            char *err, size_t errlen)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 32);
    if (!tmp) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    snprintf(tmp, len + 32, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    fprintf(f, "{\"launches\": [");
    for (uint32_t i = 0; i < n; i++) {
        fprintf(f, "%s\n ", i ? "," : "");
        timing_stats_json(&s[i], f);
    }
    fprintf(f, "\n]}\n");
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
