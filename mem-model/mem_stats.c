/*
 * mem_stats.c — the memory statistics as JSON members and as a readable
 * summary. Derived values (rates, averages) are computed here only.
 */
#include "mem.h"

#include <inttypes.h>

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

double mem_dram_row_hit_rate(const mem_stats *s)
{
    return ratio(s->dram_row_hits, s->dram_reads + s->dram_writes);
}

double mem_dram_bytes_per_cycle(const mem_stats *s)
{
    return ratio(s->dram_bytes, s->cycles);
}

double mem_mshr_occupancy_avg_per_sm(const mem_stats *s, uint32_t num_sms)
{
    return ratio(s->l1_mshr_occ_sum, s->cycles * num_sms);
}

static const char *const op_names[3] = { "load", "store", "atomic" };
static const char *const l2_names[3] = { "read", "write", "atomic" };

void mem_stats_json(const mem_system *m, FILE *out)
{
    const mem_stats *s = mem_get_stats(m);
    const mem_config *c = mem_get_config(m);
    fprintf(out, "\"cycles\": %" PRIu64 ",\n", s->cycles);
    fprintf(out, "\"coalescer\": {\"transactions\": %" PRIu64
            ", \"coherent_insts\": %" PRIu64 ", \"divergent_insts\": %" PRIu64 "},\n",
            s->transactions, s->coherent_insts, s->divergent_insts);
    fprintf(out, "\"l1d\": {");
    for (int k = 0; k < 3; k++)
        fprintf(out, "\"%s_hits\": %" PRIu64 ", \"%s_misses\": %" PRIu64 ", ",
                op_names[k], s->l1_hit[k], op_names[k], s->l1_miss[k]);
    fprintf(out, "\"fills\": %" PRIu64 ", \"evictions\": %" PRIu64
            ", \"write_evicts\": %" PRIu64 "},\n",
            s->l1_fills, s->l1_evictions, s->l1_write_evicts);
    /* the instruction cache, only when there is one (so that the JSON of
     * an ideal one is unchanged) */
    if (c->l1i_sets)
        fprintf(out, "\"l1i\": {\"hits\": %" PRIu64 ", \"misses\": %" PRIu64
                ", \"merges\": %" PRIu64 ", \"refused\": %" PRIu64 ", \"fills\": %" PRIu64
                "},\n", s->l1i_hit, s->l1i_miss, s->l1i_merge, s->l1i_fail, s->l1i_fills);
    fprintf(out, "\"mshr\": {\"entries_per_sm\": %u, \"allocations\": %" PRIu64
            ", \"merges\": %" PRIu64 ", \"duplicate_allocations\": %" PRIu64
            ", \"duplicate_fraction\": %.6f, \"dup_window\": %u"
            ", \"requests_per_entry\": %.6f, \"occupancy_avg_per_sm\": %.6f"
            ", \"occupancy_max\": %u, \"requests_per_entry_hist\": [",
            c->l1d_mshr_entries, s->l1_mshr_alloc, s->l1_mshr_merge, s->l1_mshr_dup,
            ratio(s->l1_mshr_dup, s->l1_mshr_alloc), c->dup_window,
            ratio(s->l1_mshr_targets, s->l1_mshr_released),
            mem_mshr_occupancy_avg_per_sm(s, c->num_sms), s->l1_mshr_occ_max);
    for (uint32_t i = 1; i <= c->l1d_mshr_max_merge && i <= 64; i++)
        fprintf(out, "%s%" PRIu64, i > 1 ? ", " : "", s->l1_mshr_merge_hist[i]);
    size_t ns;
    const double *series = mem_occupancy_series(m, &ns);
    fprintf(out, "], \"occupancy_series\": {\"interval\": %u, \"avg_entries_per_sm\": [",
            c->sample_interval);
    for (size_t i = 0; i < ns; i++)
        fprintf(out, "%s%.4f", i ? ", " : "", series[i]);
    fprintf(out, "]}},\n");
    fprintf(out, "\"ldst\": {\"busy_cycles\": %" PRIu64 ", \"stall_coal\": %" PRIu64
            ", \"stall_mshr\": %" PRIu64 ", \"stall_icnt\": %" PRIu64,
            s->ldst_busy_cycles, s->stall_coal, s->stall_mshr, s->stall_icnt);
    /* MASCAR's re-execution queue, only when it is on (so that the JSON is
     * unchanged without it) */
    if (mem_reexec_entries(m))
        fprintf(out, ", \"reexec_accesses\": %" PRIu64 ", \"mascar_replay\": %" PRIu64,
                s->reexec_accesses, s->mascar_replay);
    fprintf(out, "},\n");
    fprintf(out, "\"smem\": {\"accesses\": %" PRIu64 ", \"bank_cycles\": %" PRIu64
            "},\n\"const\": {\"accesses\": %" PRIu64 ", \"cycles\": %" PRIu64 "},\n",
            s->smem_accesses, s->smem_bank_cycles, s->const_accesses, s->const_cycles);
    fprintf(out, "\"icnt\": {\"up_packets\": %" PRIu64 ", \"up_bytes\": %" PRIu64
            ", \"down_packets\": %" PRIu64 ", \"down_bytes\": %" PRIu64 "},\n",
            s->icnt_up_packets, s->icnt_up_bytes, s->icnt_down_packets,
            s->icnt_down_bytes);
    fprintf(out, "\"l2\": {");
    for (int k = 0; k < 3; k++)
        fprintf(out, "\"%s_hits\": %" PRIu64 ", \"%s_misses\": %" PRIu64 ", ",
                l2_names[k], s->l2_hit[k], l2_names[k], s->l2_miss[k]);
    fprintf(out, "\"mshr_merges\": %" PRIu64 ", \"writebacks\": %" PRIu64 "},\n",
            s->l2_mshr_merge, s->l2_writebacks);
    fprintf(out, "\"dram\": {\"reads\": %" PRIu64 ", \"writes\": %" PRIu64
            ", \"row_hits\": %" PRIu64 ", \"row_hit_rate\": %.6f, \"bytes\": %" PRIu64
            ", \"bytes_per_cycle\": %.6f, \"bus_utilisation\": %.6f},\n",
            s->dram_reads, s->dram_writes, s->dram_row_hits,
            mem_dram_row_hit_rate(s), s->dram_bytes, mem_dram_bytes_per_cycle(s),
            ratio(s->dram_busy_cycles, s->cycles * c->l2_partitions));
    fprintf(out, "\"loads\": {\"completed\": %" PRIu64 ", \"avg_latency\": %.6f"
            ", \"max_latency\": %" PRIu64 "}\n",
            s->load_insts_done, ratio(s->load_latency_sum, s->load_insts_done),
            s->load_latency_max);
}

void mem_stats_print(const mem_system *m, FILE *out)
{
    const mem_stats *s = mem_get_stats(m);
    const mem_config *c = mem_get_config(m);
    uint64_t l1h = s->l1_hit[MEM_LOAD], l1m = s->l1_miss[MEM_LOAD];
    uint64_t l2h = s->l2_hit[0], l2m = s->l2_miss[0];
    fprintf(out, "memory: %" PRIu64 " cycles, %" PRIu64 " transactions "
            "(%" PRIu64 " coherent / %" PRIu64 " divergent instructions)\n",
            s->cycles, s->transactions, s->coherent_insts, s->divergent_insts);
    fprintf(out, "  L1D loads   %" PRIu64 " hits, %" PRIu64 " misses (%.1f%% hit); "
            "stores %" PRIu64 ", write-evicts %" PRIu64 "\n", l1h, l1m,
            100.0 * ratio(l1h, l1h + l1m), s->l1_hit[1] + s->l1_miss[1],
            s->l1_write_evicts);
    if (c->l1i_sets)
        fprintf(out, "  L1I         %" PRIu64 " hits, %" PRIu64 " misses (%" PRIu64
                " merged), %" PRIu64 " refused\n", s->l1i_hit, s->l1i_miss, s->l1i_merge,
                s->l1i_fail);
    fprintf(out, "  MSHR        %" PRIu64 " allocations, %" PRIu64 " merges, "
            "%.2f requests/entry, %.1f%% duplicates (W=%u), occupancy avg %.2f "
            "max %u of %u\n", s->l1_mshr_alloc, s->l1_mshr_merge,
            ratio(s->l1_mshr_targets, s->l1_mshr_released),
            100.0 * ratio(s->l1_mshr_dup, s->l1_mshr_alloc), c->dup_window,
            mem_mshr_occupancy_avg_per_sm(s, c->num_sms), s->l1_mshr_occ_max,
            c->l1d_mshr_entries);
    fprintf(out, "  LD/ST       %" PRIu64 " busy cycles: coalescing %" PRIu64
            ", MSHR %" PRIu64 ", interconnect %" PRIu64 " stall cycles\n",
            s->ldst_busy_cycles, s->stall_coal, s->stall_mshr, s->stall_icnt);
    if (mem_reexec_entries(m))
        fprintf(out, "  re-exec     %" PRIu64 " accesses queued, %" PRIu64
                " cycles with the head unsendable (MASCAR_Replay)\n",
                s->reexec_accesses, s->mascar_replay);
    fprintf(out, "  L2 reads    %" PRIu64 " hits, %" PRIu64 " misses (%.1f%% hit); "
            "writes %" PRIu64 ", writebacks %" PRIu64 "\n", l2h, l2m,
            100.0 * ratio(l2h, l2h + l2m), s->l2_hit[1] + s->l2_miss[1],
            s->l2_writebacks);
    fprintf(out, "  DRAM        %" PRIu64 " reads, %" PRIu64 " writes, row-hit "
            "rate %.1f%%, %.2f bytes/cycle (bus %.1f%% busy)\n",
            s->dram_reads, s->dram_writes,
            100.0 * mem_dram_row_hit_rate(s), mem_dram_bytes_per_cycle(s),
            100.0 * ratio(s->dram_busy_cycles, s->cycles * c->l2_partitions));
    fprintf(out, "  loads       %" PRIu64 " completed, average latency %.1f, "
            "max %" PRIu64 " cycles\n", s->load_insts_done,
            ratio(s->load_latency_sum, s->load_insts_done), s->load_latency_max);
}
