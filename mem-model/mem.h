/*
 * mem.h — the memory hierarchy model of smcosim (issue 4).
 *
 * One mem_system models, for every SM: the coalescer, the LD/ST unit, the L1
 * data cache with its MSHR table, shared-memory banks and a constant cache;
 * and, shared by all SMs: the interconnect (SM -> L2 and back), the L2 sliced
 * per memory partition with its own MSHRs, and one DRAM channel per partition
 * (banks with row buffers, FR-FCFS). It is a timing model only: no data is
 * stored, the functional emulator owns memory contents.
 *
 * The SM timing model drives it cycle by cycle (docs/memory-model.md gives
 * every call's timing):
 *
 *     each cycle t (mem_now() == t):
 *         mem_free_mshrs(m, sm)       MSHRs free for the OAWS qualification
 *         if (mem_ldst_ready(m, sm))  LD/ST unit can take an instruction
 *             mem_submit(m, &req, &info)
 *         mem_cycle(m)                simulate cycle t; now becomes t + 1
 *         n = mem_collect(m, sm, buf, cap)   completions with cycle <= t + 1
 *
 * Every submitted instruction produces exactly one completion: a load when
 * all its data is in registers, an atomic when all its responses are back, a
 * global/local store when its last transaction has left the LD/ST unit, a
 * shared-memory access when its last bank cycle is done.
 *
 * Deterministic: the same sequence of calls gives the same answers.
 */
#ifndef SMC_MEM_H
#define SMC_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MEM_MAX_LANES 64      /* a Southern Islands wavefront */
#define MEM_MAX_DST   4       /* v4 loads */
#define MEM_MAX_SMS   256

/* ---- configuration -------------------------------------------------------- */

/* L1D set index: linear (line address modulo sets); hash (every higher
 * line-address bit XOR-folded onto the index bits, any geometry); fermi
 * (Fermi's function, Nugteren et al. HPCA 2014; 128-byte lines, 32 or 64
 * sets). */
enum mem_index_fn { MEM_INDEX_LINEAR = 0, MEM_INDEX_HASH = 1, MEM_INDEX_FERMI = 2 };
enum mem_alloc_policy { MEM_ALLOC_ON_MISS = 0, MEM_ALLOC_ON_FILL = 1 };
/* A write that misses in the L2: allocate the line dirty without reading it
 * (a full-line write), or GPGPU-Sim's write-allocate (dl2 `W`, wr_miss_wa):
 * the write goes on to DRAM and the line is read into an L2 MSHR, clean. */
enum mem_l2_write_miss { MEM_L2_WM_ALLOCATE = 0, MEM_L2_WM_FETCH = 1 };

/* All fields are described (range, meaning, source) by the key table in
 * mem_config.c; docs/memory-model.md holds the generated Markdown. */
typedef struct mem_config {
    uint32_t num_sms;
    uint32_t warp_size;
    uint32_t dup_window;          /* duplicate-MSHR window W (seed 000 §6.1) */
    uint32_t keep_caches;         /* caches persist across kernel launches */
    uint32_t store_acks;          /* a store completes when the L2 acknowledges it */
    /* clock domains (MHz); core 0: one clock for everything, the others 0:
     * the core's (docs/memory-model.md, "Clock domains") */
    uint32_t clock_core_mhz, clock_icnt_mhz, clock_l2_mhz, clock_dram_mhz;
    uint32_t sample_interval;     /* MSHR occupancy time series, 0 = off */

    uint32_t l1d_sets, l1d_ways, l1d_line_bytes, l1d_sector_bytes;
    uint32_t l1d_latency;
    uint32_t l1d_index;           /* enum mem_index_fn */
    uint32_t l1d_alloc;           /* enum mem_alloc_policy */
    uint32_t l1d_mshr_entries, l1d_mshr_max_merge;
    uint32_t l1d_ports;           /* transactions the LD/ST unit sends per cycle */
    uint32_t ldst_inflight;       /* instructions past the unit not yet complete, 0: no limit */

    /* L1 instruction cache (mem_l1i.c; l1i_sets 0: an ideal one, no fetch
     * ever misses) and where the program's instructions are: instruction pc
     * of a kernel at code_base + the kernel's offset + pc * inst_bytes */
    uint32_t l1i_sets, l1i_ways, l1i_line_bytes;
    uint32_t l1i_mshr_entries, l1i_mshr_max_merge, l1i_miss_queue;
    uint32_t l1i_inst_bytes, l1i_code_base;

    uint32_t smem_banks, smem_bank_bytes, smem_latency;
    uint32_t const_latency;

    uint32_t icnt_latency, icnt_bytes_per_cycle, icnt_queue_entries;
    uint32_t icnt_header_bytes;
    uint32_t icnt_sms_per_cluster; /* SMs sharing one node and its ports */

    uint32_t l2_partitions, l2_sets, l2_ways, l2_line_bytes, l2_latency;
    uint32_t l2_mshr_entries, l2_mshr_max_merge, l2_queue_entries;
    uint32_t l2_rop_latency;      /* core cycles of the ROP delay line, 0: none */
    uint32_t l2_write_miss;       /* enum mem_l2_write_miss */
    uint32_t l2_interleave_bytes; /* partition interleave, 0: l2_line_bytes */

    uint32_t dram_banks, dram_row_bytes, dram_queue_entries;
    uint32_t dram_bytes_per_cycle, dram_latency;
    uint32_t dram_queue_latency;  /* core cycles of the delay line before the
                                     scheduler queue, 0: none */
    uint32_t dram_tCL, dram_tRP, dram_tRC, dram_tRAS, dram_tRCD, dram_tRRD;
    uint32_t dram_tWR, dram_tCDLR;
    /* column commands (0: the single-command model: one per line, data
     * after tCL, no column-to-column or read-to-precharge spacing) */
    uint32_t dram_atom_bytes, dram_bank_groups;
    uint32_t dram_tCCD, dram_tCCDL, dram_tRTP, dram_tRTPL, dram_tWL;
} mem_config;

/* Clock domains. With clock.core_mhz 0 every domain is the core clock (one
 * clock: each key's cycles are core cycles). Otherwise the model's time
 * base is the least common multiple of the four frequencies (46,200 MHz for
 * 700:1400:700:924), each domain steps on the multiples of its period in
 * that base, and a component's cycles are its own domain's
 * (docs/memory-model.md, "Clock domains"). */
enum mem_clock { MEM_CLK_CORE = 0, MEM_CLK_ICNT, MEM_CLK_L2, MEM_CLK_DRAM };
#define MEM_CLOCK_BASE_MAX 10000000u
/* A domain's frequency in MHz (a 0 key is the core's); 0 with one clock. */
uint32_t mem_clock_mhz(const mem_config *cfg, unsigned domain);
/* The time base in MHz (1 with one clock), or 0 above MEM_CLOCK_BASE_MAX. */
uint32_t mem_clock_base_mhz(const mem_config *cfg);

/* Names of the presets, NULL-terminated. */
extern const char *const mem_preset_names[];

/* Fill *cfg with a preset. -1 and a message naming it when unknown. */
int mem_config_preset(mem_config *cfg, const char *name, char *err, size_t errlen);
/* Range and consistency checks; the message names the offending key. */
int mem_config_check(const mem_config *cfg, char *err, size_t errlen);
/* Overrides: one "key=value", or a file of "key = value" lines. */
int mem_config_apply(mem_config *cfg, const char *assignment, char *err,
                     size_t errlen);
int mem_config_load_file(mem_config *cfg, const char *path, char *err,
                         size_t errlen);
void mem_config_print(const mem_config *cfg, FILE *out);
/* Markdown key table; cfg NULL leaves out the value column. */
void mem_config_markdown(const mem_config *cfg, FILE *out);
/* The preset as a table of values with their sources (struct ck_source,
 * csrc/util/config_keys.h), or NULL for a preset written as code. */
struct ck_source;
const struct ck_source *mem_preset_sources(const char *name);
/* The key table itself (struct ck_key from csrc/util/config_keys.h), so that
 * a larger configuration embedding a mem_config can include these keys. */
struct ck_key;
const struct ck_key *mem_config_keys(size_t *nkeys);

/* ---- requests -------------------------------------------------------------- */

typedef enum mem_op { MEM_LOAD = 0, MEM_STORE, MEM_ATOMIC } mem_op;
typedef enum mem_space {
    MEM_GLOBAL = 0, MEM_LOCAL, MEM_SHARED, MEM_CONST
} mem_space;

/* One warp memory instruction. Lanes whose bit is clear in active_mask are
 * ignored. size[lane] is 1, 2, 4, 8 or 16 bytes. */
typedef struct mem_request {
    uint32_t  sm, warp;
    mem_op    op;
    mem_space space;
    uint64_t  active_mask;
    uint64_t  addr[MEM_MAX_LANES];
    uint8_t   size[MEM_MAX_LANES];
    uint8_t   num_dst;            /* destination registers (loads, atomics) */
    uint16_t  dst[MEM_MAX_DST];
    uint64_t  tag;                /* opaque to the model, returned as is */
} mem_request;

/* What the coalescer saw (OAWS's DLC needs #acc and #sets). */
typedef struct mem_coalesce_info {
    uint32_t transactions;        /* L1 accesses (lines or sectors) */
    uint32_t lines;               /* distinct L1 lines */
    uint32_t sets;                /* distinct L1 sets touched */
    bool     coherent;            /* global/local: lines <= 2 */
    uint32_t bank_conflict;       /* shared: serialisation degree, else 0 */
} mem_coalesce_info;

typedef struct mem_completion {
    uint32_t sm, warp;
    mem_op   op;
    mem_space space;
    uint8_t  num_dst;
    uint16_t dst[MEM_MAX_DST];
    uint64_t tag;
    uint64_t submit_cycle;
    uint64_t cycle;               /* data in registers / instruction done */
} mem_completion;

/* One instruction leaving the LD/ST unit: its last L1D access (or shared /
 * constant cycle) was accepted, or moved into MASCAR's re-execution queue
 * (OAWS, docs/oaws.md: Miss_inflight's decrement, the OCW trigger, "fully
 * cached" = a load with no L1 miss). */
typedef struct mem_ldst_retire {
    uint64_t  tag;                /* the request's tag */
    uint32_t  warp;
    mem_op    op;
    mem_space space;
    uint32_t  transactions;       /* L1 accesses (global/local; 0 otherwise) */
    uint32_t  sets;               /* distinct L1 sets of those */
    bool      coherent;           /* global/local: lines <= 2 */
    uint32_t  l1_hits, l1_misses; /* loads: accesses that hit / missed in the L1
                                     (a merge into a pending MSHR is a miss; a
                                     replayed access counts once; one moved
                                     into the re-execution queue is a miss) */
    uint64_t  replay_mshr;        /* cycles replayed for want of an MSHR (or a
                                     merge slot, or a reservable way) */
    uint64_t  replay_icnt;        /* ... of injection-queue room */
    uint64_t  cycle;              /* the cycle its last access was accepted */
} mem_ldst_retire;

/* ---- statistics ------------------------------------------------------------ */

typedef struct mem_stats {
    uint64_t cycles;
    uint64_t insts[3][4];              /* [mem_op][mem_space] submitted */
    uint64_t completions;
    uint64_t transactions;             /* global/local L1 accesses */
    uint64_t coherent_insts, divergent_insts;

    /* L1I (mem_l1i.c): fetch lookups that hit, that missed (a new MSHR or
     * a merge into a pending one), that merged, and that could not be
     * accepted (no MSHR, merge slot or miss-queue room: fetched again later) */
    uint64_t l1i_hit, l1i_miss, l1i_merge, l1i_fail, l1i_fills;

    /* L1D: [mem_op] */
    uint64_t l1_hit[3], l1_miss[3];
    uint64_t l1_mshr_merge;            /* misses merged into an entry */
    uint64_t l1_mshr_alloc;            /* entries allocated */
    uint64_t l1_mshr_dup;              /* ... of which duplicates across SMs */
    uint64_t l1_mshr_targets;          /* requests served by released entries */
    uint64_t l1_mshr_released;
    uint64_t l1_mshr_merge_hist[65];   /* entries by #requests (cap at 64) */
    uint64_t l1_mshr_occ_sum;          /* sum over cycles and SMs of entries in use */
    uint32_t l1_mshr_occ_max;
    uint64_t l1_fills, l1_evictions, l1_write_evicts;
    /* CCWS victim tag array (not in the JSON of the memory model; the
     * timing model reports them under policy ccws) */
    uint64_t vta_inserts, vta_hits, vta_hits_dropped;

    /* LD/ST unit (OAWS Fig. 2) */
    uint64_t ldst_busy_cycles;         /* cycles with an instruction in the unit */
    uint64_t stall_coal, stall_mshr, stall_icnt;
    /* MASCAR's re-execution queue (mem_reexec_enable; in the JSON only when
     * it is on): load accesses moved into it, and the SM-cycles in which it
     * held an access whose head could not be sent (seed 001 Fig. 9,
     * MASCAR_Replay) */
    uint64_t reexec_accesses, mascar_replay;

    /* shared memory, constant cache */
    uint64_t smem_accesses, smem_bank_cycles;
    uint64_t const_accesses, const_cycles;

    /* interconnect */
    uint64_t icnt_up_packets, icnt_up_bytes, icnt_down_packets, icnt_down_bytes;

    /* L2: [0] read, [1] write, [2] atomic */
    uint64_t l2_hit[3], l2_miss[3];
    uint64_t l2_mshr_merge, l2_writebacks;

    /* DRAM */
    uint64_t dram_reads, dram_writes, dram_row_hits, dram_bytes;
    uint64_t dram_busy_cycles;         /* data-bus busy, summed over partitions */

    /* loads */
    uint64_t load_insts_done, load_latency_sum, load_latency_max;
} mem_stats;

/* ---- the system ---------------------------------------------------------- */

typedef struct mem_system mem_system;

/* NULL and a message when the configuration is invalid or memory is short. */
mem_system *mem_create(const mem_config *cfg, char *err, size_t errlen);
void        mem_destroy(mem_system *m);
const mem_config *mem_get_config(const mem_system *m);

uint64_t mem_now(const mem_system *m);

/* Can the LD/ST unit of `sm` take a new instruction this cycle? False while
 * an earlier instruction still has transactions to process (divergence,
 * bank conflicts) or is being replayed (MSHR / interconnect full). */
bool mem_ldst_ready(const mem_system *m, uint32_t sm);

/* mem_ldst_ready for every SM at once: writes the ids of the SMs whose
 * LD/ST unit can take an instruction this cycle to sms[] (room for num_sms),
 * in ascending order, and returns how many. Submitting to one SM does not
 * change the answer for another, so a caller may submit to each listed SM
 * in turn. */
uint32_t mem_ldst_ready_list(const mem_system *m, uint32_t *sms);

/* The instruction that left the LD/ST unit of `sm` in the last simulated
 * cycle (mem_now() - 1), if any: 1 and *r filled, else 0. Instructions that
 * never occupy the unit (no active lane) have no record. */
int mem_ldst_retired(const mem_system *m, uint32_t sm, mem_ldst_retire *r);

/* Free L1D MSHR entries of `sm`, as of the start of this cycle. */
uint32_t mem_free_mshrs(const mem_system *m, uint32_t sm);

/* Peers of OAWS (docs/oaws.md, "Peers"). Free slots of SM sm's injection
 * queue into the interconnect (MASCAR's saturation test: seed 001 §5, "the
 * queue inside memory port has only 1 slot"). */
uint32_t mem_out_free_slots(const mem_system *m, uint32_t sm);
/* CCWS's victim tag array (mem_vta.c): turn it on for every SM with
 * entries_per_warp tags per warp in sets of `ways` (Table 3: 16, 8) for
 * warps 0..warps-1; 0, or -1 on bad sizes (entries not a multiple of ways,
 * warps > 64) or no memory. Call before the first cycle. */
int mem_vta_enable(mem_system *m, uint32_t entries_per_warp, uint32_t ways, uint32_t warps);
/* The oldest VTA hit event of SM sm not yet taken: 1 and its warp, or 0. */
int mem_vta_hit_pop(mem_system *m, uint32_t sm, uint32_t *warp);
/* MASCAR's re-execution queue (mem_l1d.c, "Re-execution queue"; seed 001
 * §5: 32 entries): turn it on for every SM with `entries` L1D accesses
 * (0 = off, the default: the LD/ST unit replays in order). A global/local
 * load access that finds no MSHR (or merge slot, or reservable way) or a
 * full injection queue moves into the queue and the LD/ST unit goes on with
 * the next access; the queue's head is retried first every cycle. 0, or -1
 * when out of memory. Call before the first cycle. */
int mem_reexec_enable(mem_system *m, uint32_t entries);
/* Its size per SM (0: off). */
uint32_t mem_reexec_entries(const mem_system *m);

/* The L1 instruction cache (mem_l1i.c; GPGPU-Sim 3.2.1's read-only L1I as
 * shader_core_ctx::fetch uses it). A warp's fetch of the instruction at byte
 * address addr, at the current cycle, before mem_cycle:
 *   MEM_IFETCH_HIT   the line is in the L1I (always, with l1i.sets = 0);
 *   MEM_IFETCH_MISS  it is not: the fetch joined a pending MSHR or took a
 *                    new one, whose request goes to the L2 as a read; the
 *                    warp waits (mem_ifetch_waiting) until the fill has come
 *                    and its turn to be released (one warp per cycle);
 *   MEM_IFETCH_FAIL  no MSHR, merge slot or miss-queue room: nothing
 *                    happened, fetch again later.
 * A warp that waits must not fetch (-1: a caller error). */
enum { MEM_IFETCH_HIT = 0, MEM_IFETCH_MISS = 1, MEM_IFETCH_FAIL = 2 };
int  mem_ifetch(mem_system *m, uint32_t sm, uint32_t warp, uint64_t addr);
bool mem_ifetch_waiting(const mem_system *m, uint32_t sm, uint32_t warp);

/* Coalesce without submitting (pure function of the request and config). */
int mem_coalesce(const mem_system *m, const mem_request *req,
                 mem_coalesce_info *info, char *err, size_t errlen);

/* Submit an instruction at the current cycle. Returns 0; -1 with a message
 * when the request is malformed (bad SM, size, empty...) or the unit is not
 * ready (mem_ldst_ready false). info may be NULL. */
int mem_submit(mem_system *m, const mem_request *req, mem_coalesce_info *info,
               char *err, size_t errlen);

/* Simulate the current cycle; mem_now() advances by one. */
void mem_cycle(mem_system *m);

/* The unloaded latency of each level (mem_probe.c), in core cycles, on new
 * memory systems of configuration cfg: one 4-byte load of one lane by SM 0
 * submitted at core cycle `at` (a cold line: DRAM), the same line by the
 * last SM at l2_at (in the L2 now), by SM 0 again at l1_at (its L1). */
typedef struct mem_probe {
    uint64_t dram_at, dram, l2_at, l2, l1_at, l1;
} mem_probe;
int mem_probe_unloaded(const mem_config *cfg, uint64_t at, mem_probe *out, char *err,
                       size_t errlen);
/* Sustained bandwidth (mem_probe.c): SMs 0..nsms-1 each submit, whenever
 * their LD/ST unit is free, a fully coalesced load of warp_size x 4 bytes:
 * MEM_BW_L1 loops over half the L1 (hits), MEM_BW_L2 all SMs over one
 * region of twice the L1 (L1 misses, L2 hits), MEM_BW_DRAM never reuses a
 * line. *bytes_per_cycle: the load bytes completed per core cycle in
 * `window` cycles after `warm`. */
typedef enum mem_bw_level { MEM_BW_L1 = 0, MEM_BW_L2, MEM_BW_DRAM } mem_bw_level;
int mem_probe_bandwidth(const mem_config *cfg, mem_bw_level level, uint32_t nsms,
                        uint64_t warm, uint64_t window, double *bytes_per_cycle, char *err,
                        size_t errlen);
/* Two comment lines for a printed configuration: the clock domains and
 * clusters, and the probe's latencies (nothing if cfg is invalid). */
void mem_probe_print(const mem_config *cfg, FILE *out);

/* The memory system across kernel launches (mem.keep_caches): each launch
 * gets a new system (its clock and statistics start at 0), which takes over
 * the cache contents of the previous launch's, `prev`: every SM's L1D and
 * L1I lines with their LRU order and the L2 slices' lines with their dirty bits and
 * LRU order. DRAM rows start closed; MSHRs and queues start empty: prev
 * is first run until it drains (the stores still in flight when its kernel
 * ended reach the L2, as they would during the next launch), and if it does
 * not within 10^7 cycles nothing is taken (cold caches) and 0 is returned;
 * 1 when taken. m and prev must have the same configuration. */
int mem_inherit_caches(mem_system *m, mem_system *prev);

/* Skipping idle cycles. mem_next_event returns a cycle t >= mem_now() such
 * that, without new submissions, every mem_cycle call before cycle t would
 * only advance the clock and the per-cycle counters, and no completion
 * becomes collectable before t (t may be earlier than the next real event,
 * never later; mem_now() while an LD/ST unit works or a completion is
 * already due). UINT64_MAX when nothing is in flight or queued.
 * mem_skip_to(m, t) for mem_now() <= t <= mem_next_event(m) has exactly the
 * effect of mem_cycle until mem_now() == t (statistics, occupancy samples,
 * later timing), in O(1) plus the cost of mem_next_event (O(SMs +
 * partitions)); returns 0, or -1 and does nothing for any other t. A
 * caller ticking its own model may skip its idle stretches with it:
 *
 *     if (nothing to submit before cycle u)
 *         mem_skip_to(m, min(u, mem_next_event(m)));  then collect
 */
uint64_t mem_next_event(const mem_system *m);
int      mem_skip_to(mem_system *m, uint64_t t);

/* Move up to `cap` completions of `sm` whose cycle <= mem_now() into out, in
 * (cycle, submission order) order. Returns how many. */
size_t mem_collect(mem_system *m, uint32_t sm, mem_completion *out, size_t cap);

/* mem_collect for every SM in one call: SM 0's completions first, then
 * SM 1's, ...; each SM's in (cycle, submission) order. Visits only SMs with
 * queued completions. Returns how many were written (at most cap); fewer
 * than cap means every completion due has been taken. */
size_t mem_collect_all(mem_system *m, mem_completion *out, size_t cap);

/* Instructions submitted and not yet collected, over all SMs. */
uint64_t mem_outstanding(const mem_system *m);
/* True when nothing is in flight anywhere (all queues and units empty). */
bool mem_idle(const mem_system *m);

const mem_stats *mem_get_stats(const mem_system *m);
/* MSHR occupancy over time: sample i is the average number of L1D MSHR
 * entries in use per SM during cycles [i*interval, (i+1)*interval). */
const double *mem_occupancy_series(const mem_system *m, size_t *n);
/* Statistics as JSON members (no enclosing braces): "l1d": {...}, ... so that
 * a caller can embed them in its own object. */
void mem_stats_json(const mem_system *m, FILE *out);
/* Derived figures, the same the JSON and the summary give: DRAM row hits
 * per access (reads + writes), DRAM bytes moved per cycle, and the L1 MSHRs
 * in use per SM and cycle ("occupancy_avg_per_sm"; num_sms = mem.num_sms). */
double mem_dram_row_hit_rate(const mem_stats *s);
double mem_dram_bytes_per_cycle(const mem_stats *s);
double mem_mshr_occupancy_avg_per_sm(const mem_stats *s, uint32_t num_sms);
void mem_stats_print(const mem_system *m, FILE *out);

#ifdef __cplusplus
}
#endif
#endif /* SMC_MEM_H */
