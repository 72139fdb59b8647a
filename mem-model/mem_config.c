/*
 * mem_config.c — the key table of the memory configuration, the three
 * presets and the consistency checks.
 *
 * Sources of the numbers (seed papers in ../shared/seeds/):
 *   [OAWS-T1]  001 (OAWS, PACT'16) Table 1, baseline GPGPU-Sim configuration
 *   [OAWS-2]   001 §2.1/§2.2 (32 MSHR entries per SM, write-evict L1D,
 *              stores need no MSHR) and §5.1 (allocate-on-fill L1D)
 *   [G-T41]    000 (Gong thesis) Table 4.1, Kepler K20X baseline
 *   [G-T52]    000 Table 5.2, AMD Radeon 7970 (Southern Islands) baseline
 *   [G-T63]    000 Table 6.3 (16 MSHRs/SM, 8 requests/MSHR, Kepler)
 *   [G-61]     000 §6.1 (duplicate-MSHR window of 2000 cycles)
 *   [G321...]  GPGPU-Sim 3.2.1 (fermi_gtx480 below lists its tags)
 * A value marked "assumed" is not given by the papers; the reason is next to
 * it, and docs/memory-model.md lists all of them.
 */
#include "mem.h"

#include "coalesce.h"
#include "config_keys.h"
#include "fail.h"

#include <string.h>

static const char *const index_names[] = { "linear", "hash", "fermi", NULL };
static const char *const alloc_names[] = { "on_miss", "on_fill", NULL };
static const char *const write_miss_names[] = { "allocate", "fetch", NULL };

#define K32(name, field, lo, hi, doc) CK_KEY_U32(name, mem_config, field, lo, hi, doc)

static const ck_key mem_keys[] = {
    K32("mem.num_sms", num_sms, 1, MEM_MAX_SMS, "SMs (each has an L1D, MSHRs, shared memory, LD/ST unit)"),
    K32("mem.warp_size", warp_size, 1, MEM_MAX_LANES, "lanes per warp instruction"),
    K32("mem.dup_window", dup_window, 1, 100000000, "cycles W: an MSHR allocation is a duplicate if another SM allocated the same line within W cycles"),
    K32("clock.core_mhz", clock_core_mhz, 0, 100000, "core clock, MHz; 0: one clock for the whole memory system (the cycles of every key are core cycles)"),
    K32("clock.icnt_mhz", clock_icnt_mhz, 0, 100000, "interconnect clock, MHz (0: the core clock); icnt.* cycles are in it"),
    K32("clock.l2_mhz", clock_l2_mhz, 0, 100000, "L2 clock, MHz (0: the core clock); l2.latency is in it"),
    K32("clock.dram_mhz", clock_dram_mhz, 0, 100000, "DRAM command clock, MHz (0: the core clock); dram.t* and dram.bytes_per_cycle are in it"),
    CK_KEY_BOOL("mem.store_acks", mem_config, store_acks, "a store instruction completes when the L2 has acknowledged each of its writes (an acknowledgement carries only its header; a write hit or an allocating miss is acknowledged at once, a miss under l2.write_miss = fetch when its line's read arrives), and a CTA leaves its SM only when its stores are complete; off: a store completes when the LD/ST unit has sent it (posted writes)"),
    CK_KEY_BOOL("mem.keep_caches", mem_config, keep_caches, "L1D and L2 contents persist from one kernel launch to the next (GPGPU-Sim flushes neither by default); off: every launch starts cold"),
    K32("mem.sample_interval", sample_interval, 0, 100000000, "cycles per sample of the MSHR occupancy time series (0: off)"),
    K32("l1d.sets", l1d_sets, 1, 65536, "L1D sets per SM (power of two)"),
    K32("l1d.ways", l1d_ways, 1, 64, "L1D associativity"),
    K32("l1d.line_bytes", l1d_line_bytes, 16, 4096, "L1D line size (power of two)"),
    K32("l1d.sector_bytes", l1d_sector_bytes, 16, 4096, "coalescing/fill unit; = line_bytes for per-line transactions, 32 for sectors"),
    K32("l1d.latency", l1d_latency, 1, 10000, "L1D hit latency, cycles"),
    CK_KEY_ENUM("l1d.index", mem_config, l1d_index, index_names, "set index function: linear; hash (higher line-address bits XOR-folded onto the index); fermi (Fermi's hash [Nugteren HPCA'14], 128-B lines, 32 or 64 sets)"),
    CK_KEY_ENUM("l1d.alloc", mem_config, l1d_alloc, alloc_names, "line allocation on a read miss: reserve at miss time, or at fill time"),
    K32("l1d.mshr_entries", l1d_mshr_entries, 1, 1024, "MSHR entries per SM, shared by all warps"),
    K32("l1d.mshr_max_merge", l1d_mshr_max_merge, 1, 64, "maximum requests merged into one MSHR entry"),
    K32("l1d.ports", l1d_ports, 1, MEM_MAX_TX, "transactions (L1D accesses) the LD/ST unit makes per cycle: 1 = one per cycle, a divergent instruction holds the unit a cycle per block (GPGPU-Sim); more = that many in one cycle (Multi2Sim: every lane's access in the cycle it is admitted)"),
    K32("mem.ldst_inflight", ldst_inflight, 0, 4096, "memory instructions that have left the LD/ST unit and are not complete, per SM, at most; the unit takes no instruction while this many are (Multi2Sim's vector-memory buffer); 0: no limit"),
    K32("l1i.sets", l1i_sets, 0, 65536, "L1 instruction cache sets per SM (power of two; 0: an ideal instruction cache, every fetch hits and the other l1i.* keys but the layout ones are unused)"),
    K32("l1i.ways", l1i_ways, 0, 64, "L1I associativity (LRU; lines allocated when their fill arrives)"),
    K32("l1i.line_bytes", l1i_line_bytes, 0, 4096, "L1I line size (power of two, >= 16); a miss reads the whole line through the interconnect and the L2"),
    K32("l1i.mshr_entries", l1i_mshr_entries, 0, 64, "L1I MSHR entries per SM (lines being fetched)"),
    K32("l1i.mshr_max_merge", l1i_mshr_max_merge, 0, 64, "warps whose fetches one L1I MSHR entry holds"),
    K32("l1i.miss_queue", l1i_miss_queue, 0, 64, "L1I miss queue: requests waiting for the SM's injection queue; a fetch that misses is refused while it is full"),
    K32("l1i.inst_bytes", l1i_inst_bytes, 0, 64, "bytes per instruction in the code's layout: instruction pc of a kernel is at l1i.code_base + the kernel's offset + pc x this"),
    K32("l1i.code_base", l1i_code_base, 0, 4294967295u, "address of the first kernel's code; kernels are laid out one after another in the order of their first launch"),
    K32("smem.banks", smem_banks, 1, 64, "shared-memory banks"),
    K32("smem.bank_bytes", smem_bank_bytes, 4, 8, "bank width in bytes (power of two)"),
    K32("smem.latency", smem_latency, 1, 10000, "shared-memory access latency, cycles (without conflicts)"),
    K32("const.latency", const_latency, 1, 10000, "constant-cache hit latency, cycles"),
    K32("icnt.latency", icnt_latency, 1, 10000, "interconnect traversal latency, interconnect cycles, each direction"),
    K32("icnt.bytes_per_cycle", icnt_bytes_per_cycle, 1, 4096, "channel width: bytes per interconnect cycle per port and direction"),
    K32("icnt.queue_entries", icnt_queue_entries, 1, 4096, "packets in each SM injection / ejection queue"),
    K32("icnt.header_bytes", icnt_header_bytes, 0, 256, "bytes of address/control per packet"),
    K32("icnt.sms_per_cluster", icnt_sms_per_cluster, 1, MEM_MAX_SMS, "SMs per cluster: they share one interconnect node (its two ports) and its ejection queue"),
    K32("l2.partitions", l2_partitions, 1, 64, "memory partitions (L2 slice + DRAM channel each)"),
    K32("l2.sets", l2_sets, 1, 1048576, "L2 sets per slice (power of two)"),
    K32("l2.ways", l2_ways, 1, 64, "L2 associativity"),
    K32("l2.line_bytes", l2_line_bytes, 16, 4096, "L2 line size (power of two, >= l1d.line_bytes)"),
    K32("l2.interleave_bytes", l2_interleave_bytes, 0, 1048576, "bytes of consecutive addresses one partition holds before the next (power of two, >= l2.line_bytes; 0: l2.line_bytes)"),
    K32("l2.latency", l2_latency, 1, 10000, "L2 lookup pipeline latency, L2 cycles (after the ROP delay line, if any)"),
    K32("l2.mshr_entries", l2_mshr_entries, 1, 4096, "L2 MSHR entries per slice"),
    K32("l2.mshr_max_merge", l2_mshr_max_merge, 1, 64, "maximum requests merged into one L2 MSHR entry"),
    K32("l2.queue_entries", l2_queue_entries, 1, 4096, "packets in each slice's input and output queue"),
    K32("l2.rop_latency", l2_rop_latency, 0, 100000, "core cycles a request spends in the ROP delay line (unbounded) before the slice's input queue; 0: none"),
    CK_KEY_ENUM("l2.write_miss", mem_config, l2_write_miss, write_miss_names, "a write that misses in the L2: allocate = the line is allocated dirty without a read (a full-line write); fetch = GPGPU-Sim's write-allocate: the write goes on to DRAM and the line is read into an L2 MSHR (a merge slot per write), clean when it arrives"),
    K32("dram.banks", dram_banks, 1, 64, "banks per DRAM channel"),
    K32("dram.row_bytes", dram_row_bytes, 64, 1048576, "row (page) size per bank, bytes (power of two, >= l2.line_bytes)"),
    K32("dram.queue_entries", dram_queue_entries, 1, 4096, "FR-FCFS request queue per channel"),
    K32("dram.bytes_per_cycle", dram_bytes_per_cycle, 1, 4096, "data-bus bandwidth per channel, bytes per DRAM cycle"),
    K32("dram.latency", dram_latency, 0, 10000, "fixed latency added to every DRAM read after its burst, core cycles"),
    K32("dram.queue_latency", dram_queue_latency, 0, 100000, "core cycles a request spends in the delay line (unbounded, behind the L2's l2.queue_entries-deep DRAM queue) before the scheduler's queue; 0: none"),
    K32("dram.tCL", dram_tCL, 1, 1000, "CAS latency, DRAM cycles"),
    K32("dram.tRP", dram_tRP, 1, 1000, "precharge time, DRAM cycles"),
    K32("dram.tRC", dram_tRC, 1, 1000, "activate-to-activate, same bank, DRAM cycles"),
    K32("dram.tRAS", dram_tRAS, 1, 1000, "activate-to-precharge, DRAM cycles"),
    K32("dram.tRCD", dram_tRCD, 1, 1000, "activate-to-column, DRAM cycles"),
    K32("dram.tRRD", dram_tRRD, 1, 1000, "activate-to-activate, different banks, DRAM cycles"),
    K32("dram.tWR", dram_tWR, 1, 1000, "write recovery before precharge, DRAM cycles"),
    K32("dram.tCDLR", dram_tCDLR, 1, 1000, "write-to-read delay in a bank, DRAM cycles"),
    K32("dram.atom_bytes", dram_atom_bytes, 0, 4096, "bytes one column command moves (bus width x chips x burst length); a line takes l2.line_bytes / this many commands (0: one per line)"),
    K32("dram.bank_groups", dram_bank_groups, 1, 64, "bank groups per channel (dram.banks / this many consecutive banks each)"),
    K32("dram.tCCD", dram_tCCD, 0, 1000, "column-to-column, any bank, DRAM cycles (0: none)"),
    K32("dram.tCCDL", dram_tCCDL, 0, 1000, "column-to-column, same bank group, DRAM cycles (0: none)"),
    K32("dram.tRTP", dram_tRTP, 0, 1000, "read column to precharge, same bank, DRAM cycles (0: none)"),
    K32("dram.tRTPL", dram_tRTPL, 0, 1000, "read column to precharge, same bank group, DRAM cycles (0: none)"),
    K32("dram.tWL", dram_tWL, 0, 1000, "write column to data, DRAM cycles (0: tCL)"),
};
#define NKEYS (sizeof mem_keys / sizeof mem_keys[0])

const char *const mem_preset_names[] = { "kepler-k20x", "kepler-k20x-v1", "fermi-gtx480",
                                         "fermi-gtx480-v1", "si-7970", "si-7970-v1",
                                         "pascal-titanx", "turing-rtx2080ti", NULL };

/* GDDR5 timing and controller of OAWS Table 1, shared by all presets (the
 * Gong thesis gives no DRAM timing; assumed the same for Kepler and SI). */
static void gddr5_oaws(mem_config *c)
{
    c->dram_banks = 16;          /* nbk=16 [OAWS-T1] */
    c->dram_tCL = 12;            /* [OAWS-T1] */
    c->dram_tRP = 12;
    c->dram_tRC = 40;
    c->dram_tRAS = 28;
    c->dram_tRCD = 12;
    c->dram_tRRD = 6;
    c->dram_tWR = 12;
    c->dram_tCDLR = 5;
    c->dram_queue_entries = 32;  /* FR-FCFS, max request queue length 32 [OAWS-T1] */
    c->dram_row_bytes = 2048;    /* assumed: 2 KB GDDR5 page */
}

/* The first fermi-gtx480 (kept as fermi-gtx480-v1, and the base of the
 * other presets until they get their own machines): one clock, the L2 and
 * DRAM latencies folded into one round trip of Table 1's minimum. */
static void fermi_gtx480_v1(mem_config *c)
{
    memset(c, 0, sizeof *c);
    c->icnt_sms_per_cluster = 1; /* every SM its own node */
    c->dram_bank_groups = 1;     /* one command per line, no groups */
    c->num_sms = 30;             /* 30 SMs (15 clusters of 2) [OAWS-T1] */
    c->warp_size = 32;           /* [OAWS-T1] */
    c->dup_window = 2000;        /* [G-61] */
    c->sample_interval = 1000;   /* assumed: resolution of the occupancy plot */
    c->l1d_sets = 32;            /* 32 KB / 128 B / 8 ways [OAWS-T1] */
    c->l1d_ways = 8;
    c->l1d_line_bytes = 128;
    c->l1d_sector_bytes = 128;   /* per-line transactions (128 B port) [OAWS-2] */
    c->l1d_latency = 28;         /* assumed: typical Fermi L1 hit latency */
    /* "pseudo-random hashing" [OAWS-T1]: Fermi's set index function as
     * reverse-engineered by Nugteren et al., "A Detailed GPU Cache Model
     * Based on Reuse Distance Theory", HPCA 2014 (coalesce.c) */
    c->l1d_index = MEM_INDEX_FERMI;
    c->l1d_alloc = MEM_ALLOC_ON_FILL; /* [OAWS-2] §5.1 */
    c->l1d_mshr_entries = 32;    /* [OAWS-2] */
    c->l1d_mshr_max_merge = 8;   /* assumed: GPGPU-Sim 3.x GTX480 default */
    c->l1d_ports = 1;            /* one transaction per cycle (GPGPU-Sim) */
    c->smem_banks = 32;          /* 32 banks x 4 B */
    c->smem_bank_bytes = 4;
    c->smem_latency = 24;        /* assumed */
    c->const_latency = 20;       /* assumed */
    c->icnt_latency = 10;        /* assumed */
    c->icnt_bytes_per_cycle = 32; /* 32 B channel width [OAWS-T1] */
    c->icnt_queue_entries = 8;   /* assumed */
    c->icnt_header_bytes = 8;    /* assumed */
    c->l2_partitions = 6;        /* 6 memory partitions [OAWS-T1] */
    c->l2_sets = 64;             /* 768 KB / 6 / 128 B / 16 ways [OAWS-T1] */
    c->l2_ways = 16;
    c->l2_line_bytes = 128;
    /* Min. L2 latency 120 cycles [OAWS-T1]: with the round trip
     * 2*icnt.latency + l2.latency + ser(request) + ser(response)
     * = 20 + 94 + 1 + 5 = 120 (docs/memory-model.md). */
    c->l2_latency = 94;
    c->l2_mshr_entries = 32;     /* assumed */
    c->l2_mshr_max_merge = 8;    /* assumed */
    c->l2_queue_entries = 8;     /* assumed */
    gddr5_oaws(c);
    /* GTX 480: 177.4 GB/s over 6 channels at the 1.4 GHz core clock
     * [OAWS-T1] = 21 B per core cycle per channel (assumed from the board). */
    c->dram_bytes_per_cycle = 21;
    /* min latency 100 cycles [OAWS-T1] = tRCD + tCL + burst(128 B / 21 = 7)
     * + dram.latency, so dram.latency = 100 - 12 - 12 - 7 = 69. */
    c->dram_latency = 69;
}

/* The OAWS paper's machine (issue 36, ../shared/design/fidelity.md):
 * GPGPU-Sim 3.2.1's GTX480 configuration with Table 1's overrides, every
 * value with its source (`smcosim config --config fermi-gtx480` prints
 * them). Tags:
 *   [G321]      GPGPU-Sim 3.2.1 (gpgpu-sim_distribution, commit "version
 *               3.2.1", 63ced796), configs/GTX480/gpgpusim.config
 *   [G321-src]  the same version's source: what an option does (file named)
 *   [G321-icnt] configs/GTX480/config_fermi_islip.icnt
 * Cycles: core keys in 700-MHz core cycles, icnt.* in 1400-MHz interconnect
 * cycles, l2.latency in L2 cycles, dram.t* in 924-MHz DRAM command cycles;
 * the two delay lines count core cycles as GPGPU-Sim does (gpu_sim_cycle).
 * docs/memory-model.md works the unloaded latencies. */
static const ck_source fermi_gtx480_sources[] = {
    { "clock.core_mhz", "700", "[G321] -gpgpu_clock_domains 700.0:1400.0:700.0:924.0 (core:icnt:l2:dram); each domain steps on its own edges [G321-src gpu-sim.cc next_clock_domain]; Table 1's 1400 MHz x SIMD 16 is the same SM at half the clock with 32-wide units" },
    { "clock.icnt_mhz", "1400", "[G321] -gpgpu_clock_domains; [OAWS-T1] interconnect 1400MHz" },
    { "clock.l2_mhz", "700", "[G321] -gpgpu_clock_domains" },
    { "clock.dram_mhz", "924", "[G321] -gpgpu_clock_domains" },
    { "mem.num_sms", "30", "[OAWS-T1] 30 SMs (15 clusters of 2)" },
    { "icnt.sms_per_cluster", "2", "[OAWS-T1] 15 clusters of 2; a cluster is one interconnect node [G321-src shader.cc simt_core_cluster]" },
    { "mem.warp_size", "32", "[OAWS-T1] warp: 32 threads" },
    { "mem.dup_window", "2000", "[G-61] duplicate-MSHR window (a statistic, not timing)" },
    { "mem.sample_interval", "1000", "assumed: resolution of the occupancy plot (a statistic, not timing)" },
    { "mem.store_acks", "1", "[G321-src shader.cc] a warp is done (hardware_done) only when its stores are acknowledged (stores_done; store_ack); [G321-src l2cache.cc] a write hit is answered at once, [G321-src dram.cc] a write the L2 sent on returns when DRAM has written it; [G321-src gpu-sim.cc] a write's answer carries only the control bytes" },
    { "mem.keep_caches", "1", "[G321-src gpu-sim.cc] -gpgpu_flush_l1_cache and -gpgpu_flush_l2_cache default to 0, the config sets neither" },
    { "l1d.sets", "32", "[OAWS-T1] 32KB/128B-line/8-way" },
    { "l1d.ways", "8", "[OAWS-T1] 32KB/128B-line/8-way" },
    { "l1d.line_bytes", "128", "[OAWS-T1] 128B line" },
    { "l1d.sector_bytes", "128", "[OAWS-2] per-line transactions" },
    { "l1d.latency", "1", "[G321-src shader.cc] the LD/ST unit takes an instruction from OC_EX_MEM at the end of a cycle and accesses the L1D the next, where a hit releases its registers (ldst_unit::cycle; 3.2.1 has no hit-latency option); the stages before (ID_OC_MEM, a collector unit, OC_EX_MEM) are the timing model's LD/ST path (ldst.*)" },
    { "l1d.index", "fermi", "[OAWS-T1] pseudo-random hashing [25] (Nugteren et al., HPCA 2014)" },
    { "l1d.alloc", "on_fill", "[OAWS-2] §5.1 allocate-on-fill (3.2.1's dl1 says m, on miss: the paper's baseline wins)" },
    { "l1d.mshr_entries", "32", "[OAWS-2] 32 MSHR entries; [G321] -gpgpu_cache:dl1 ...,A:32:8,8" },
    { "l1d.mshr_max_merge", "8", "[G321] -gpgpu_cache:dl1 ...,A:32:8" },
    { "l1d.ports", "1", "[G321-src shader.cc] ldst_unit::memory_cycle sends one access of the instruction per cycle (the rest wait in its access queue)" },
    { "mem.ldst_inflight", "0", "[G321-src shader.cc] no limit on memory instructions past the LD/ST unit (they wait for their data in the scoreboard only)" },
    { "l1i.sets", "4", "[G321] -gpgpu_cache:il1 4:128:4 (2 KB); linear set index [G321-src gpu-cache.h cache_config::set_index]" },
    { "l1i.ways", "4", "[G321] -gpgpu_cache:il1 4:128:4,L (LRU)" },
    { "l1i.line_bytes", "128", "[G321] -gpgpu_cache:il1 4:128:4; a miss reads the line (mf->set_data_size(line) [G321-src gpu-cache.cc send_read_request])" },
    { "l1i.mshr_entries", "2", "[G321] -gpgpu_cache:il1 ...,A:2:32,4" },
    { "l1i.mshr_max_merge", "32", "[G321] -gpgpu_cache:il1 ...,A:2:32,4" },
    { "l1i.miss_queue", "4", "[G321] -gpgpu_cache:il1 ...,A:2:32,4; a miss is refused while it is full [G321-src gpu-cache.cc read_only_cache::access]" },
    { "l1i.inst_bytes", "8", "[G321-src cuda-sim.cc, ptx_ir.cc] MAX_INST_SIZE 8: a PTX instruction takes 8 bytes of instruction memory (4 for .half ones, not modelled)" },
    { "l1i.code_base", "4026531840", "[G321-src shader.cc] PROGRAM_MEM_START 0xF0000000; functions follow one another from it [G321-src cuda-sim.cc function_info::ptx_assemble] (in the order they are assembled; here: of first launch)" },
    { "smem.banks", "32", "[G321] -gpgpu_shmem_num_banks 32" },
    { "smem.bank_bytes", "4", "[G321-src shader.cc] 4-byte banks (Fermi)" },
    { "smem.latency", "4", "[G321-src shader.cc] the access cycle (1, as l1d.latency) + the LD/ST unit's 3 pipeline registers a shared access walks (pipelined_simd_unit depth 3)" },
    { "const.latency", "1", "[G321-src shader.cc] a constant-cache hit returns through the same path as an L1D hit" },
    { "icnt.latency", "2", "assumed from [G321-icnt]: one-stage butterfly (fly, n = 1), routing, VC-allocation and credit delays 0: the input and the output channel, one interconnect cycle each (booksim's default channel latency 1)" },
    { "icnt.bytes_per_cycle", "32", "[G321-icnt] flit_size 32; [OAWS-T1] 32B channel width" },
    { "icnt.queue_entries", "8", "[G321] dl1 miss queue ...,8 (injection); -gpgpu_n_cluster_ejection_buffer_size default 8 [G321-src gpu-sim.cc] (ejection)" },
    { "icnt.header_bytes", "8", "[G321-src shader.h] READ_PACKET_SIZE / WRITE_PACKET_SIZE 8" },
    { "l2.partitions", "6", "[OAWS-T1] 6 partitions; [G321] -gpgpu_n_mem 6" },
    { "l2.sets", "64", "[G321] -gpgpu_cache:dl2 64:128:16 = [OAWS-T1] 768KB / 6" },
    { "l2.ways", "16", "[OAWS-T1] 16-way" },
    { "l2.line_bytes", "128", "[OAWS-T1] 128B line" },
    { "l2.interleave_bytes", "256", "[G321] -gpgpu_mem_addr_mapping dramid@8: the channel is (address >> 8) mod 6 [G321-src addrdec.cc addrdec_tlx, 6 channels: not a power of two]" },
    { "l2.latency", "1", "[G321-src l2cache.cc cache_cycle] the ROP queue's front joins the input queue last in an L2 cycle and is handled the next" },
    { "l2.write_miss", "fetch", "[G321] -gpgpu_cache:dl2 64:128:16,L:B:m:W: W = write-allocate; [G321-src gpu-cache.cc] data_cache::wr_miss_wa sends the write to DRAM and a read for the block (L2_WR_ALLOC_R, not returned to the SM); a write to a line whose read is pending takes the same path" },
    { "l2.rop_latency", "120", "[G321] -rop_latency 120; [OAWS-T1] min. L2 latency 120 cycles (compute core clock); an unbounded queue entered while the input queue has room [G321-src l2cache.cc push]" },
    { "l2.mshr_entries", "32", "[G321] -gpgpu_cache:dl2 ...,A:32:4,4" },
    { "l2.mshr_max_merge", "4", "[G321] -gpgpu_cache:dl2 ...,A:32:4" },
    { "l2.queue_entries", "8", "[G321-src gpu-sim.cc] -gpgpu_dram_partition_queues default 8:8:8:8" },
    { "dram.banks", "16", "[OAWS-T1] nbk=16" },
    { "dram.row_bytes", "4096", "[G321] -gpgpu_mem_addr_mapping ...RRRR.BBBBCCCC.CCSSSSSS: 12 column+byte bits under the bank bits" },
    { "dram.queue_entries", "32", "[OAWS-T1] FR-FCFS, max request queue length 32 (3.2.1's config: 16)" },
    { "dram.bytes_per_cycle", "32", "[G321] a 64-B column command (dram.atom_bytes) holds the bus BL 8 / -dram_data_command_freq_ratio 4 = 2 DRAM cycles [G321-src dram.cc]; x 6 x 924 MHz = 177.4 GB/s" },
    { "dram.latency", "0", "[G321-src dram.cc] nothing after the burst: the delay is before the scheduler (dram.queue_latency)" },
    { "dram.queue_latency", "100", "[G321] -dram_latency 100; [OAWS-T1] min latency 100 cycles; an unbounded queue entered while the scheduler's queue has room [G321-src l2cache.cc dram_cycle]" },
    { "dram.tCL", "12", "[OAWS-T1] tCL = 12; [G321] CL=12" },
    { "dram.tRP", "12", "[OAWS-T1] tRP = 12" },
    { "dram.tRC", "40", "[OAWS-T1] tRC = 40" },
    { "dram.tRAS", "28", "[OAWS-T1] tRAS = 28" },
    { "dram.tRCD", "12", "[OAWS-T1] tRCD = 12" },
    { "dram.tRRD", "6", "[OAWS-T1] tRRD = 6" },
    { "dram.tWR", "12", "[OAWS-T1] tWR = 12" },
    { "dram.tCDLR", "5", "[OAWS-T1] tCDLR = 5" },
    { "dram.atom_bytes", "64", "[G321] -gpgpu_dram_buswidth 4 x -gpgpu_n_mem_per_ctrlr 2 x -gpgpu_dram_burst_length 8 (dram_atom_size, dram.cc)" },
    { "dram.bank_groups", "4", "[G321] -gpgpu_dram_timing_opt nbkgrp=4" },
    { "dram.tCCD", "2", "[G321] -gpgpu_dram_timing_opt CCD=2" },
    { "dram.tCCDL", "3", "[G321] -gpgpu_dram_timing_opt CCDL=3" },
    { "dram.tRTP", "2", "[G321-src dram.cc] RTPc = BL / data_command_freq_ratio = 8 / 4" },
    { "dram.tRTPL", "2", "[G321] -gpgpu_dram_timing_opt RTPL=2" },
    { "dram.tWL", "4", "[G321] -gpgpu_dram_timing_opt WL=4" },
    { NULL, NULL, NULL }
};



/* The Gong thesis's machines (issue 37, ../shared/design/fidelity.md items
 * 7, 9, 11): the thesis's tables and, where it is silent, Multi2Sim's
 * models (docs/memory-model.md, "The Multi2Sim presets"). Tags:
 *   [M2S-mem]  Multi2Sim's memory system (github Multi2Sim/multi2sim, master
 *              77b16e0): src/memory/ (Module.cc, SystemEvents.cc, System.cc)
 *   [M2S-SI]   its Southern Islands timing model, src/arch/southern-islands/
 *              timing/ (VectorMemoryUnit.cc, ComputeUnit.cc, Timing.cc
 *              WriteMemoryConfiguration: the memory it builds by default)
 *   [M2S-KPL]  its Kepler timing model, branch iiswc2016 (74cac63), src/arch/
 *              kepler/timing/ (Lsu.cc, Timing.cc WriteMemoryConfiguration)
 * Multi2Sim's memory has one 1000-MHz clock; its main memory is a fixed
 * latency (no DRAM timing), its networks one switch with 264-B/cycle links.
 * Derived values say how (a link, the switch, a link: 3 network cycles each
 * way; a 528-B buffer holds 528 / (line + 8) replies). */
#define M2S_COMMON \
    { "mem.dup_window", "2000", "[G-61] duplicate-MSHR window (a statistic, not timing)" }, \
    { "mem.sample_interval", "1000", "assumed: resolution of the occupancy plot (a statistic, not timing)" }, \
    { "mem.store_acks", "0", "[M2S-SI] VectorMemoryUnit.cc / [M2S-mem] SystemEvents.cc: a store's witness is counted when the L1 takes it (a non-coherent store at nc_store_finish in the L1), nothing waits for the L2" }, \
    { "mem.keep_caches", "0", "[M2S-mem] the caches are built once and never flushed, but every kernel launch gets a new address space (Timing.cc: ndrange/grid->address_space = mmu->newSpace; Mmu.cc allocates physical pages afresh on first touch), so no line of one launch is hit by the next: equivalent to cold caches" }, \
    { "mem.ldst_inflight", "32", "[M2S-SI] VectorMemoryUnit.cc max_inflight_mem_accesses 32 (instructions in its memory buffer); [M2S-KPL] Lsu.cc has 1 in a unit whose cache access is commented out, so the working unit's value is taken" }, \
    { "l1d.index", "linear", "[M2S-mem] the set is the block number modulo the sets" }, \
    { "l1d.alloc", "on_miss", "[M2S-mem] find_and_lock picks and locks the victim when the miss starts" }, \
    { "l1d.mshr_entries", "16", "[G-T63] 16 MSHR entries / SM (the text of 000 §6.1 says 8 for the real Kepler; the simulated machine's table wins); [M2S-mem] MSHR default 16" }, \
    { "l1d.ports", "128", "[M2S-SI] VectorMemoryUnit.cc Memory: every active lane's access is made in the cycle the instruction is admitted ([M2S-KPL] Lsu.cc the same, commented out); the lanes refused for want of an MSHR are retried the next cycle" }, \
    { "l1i.sets", "0", "[M2S-SI] / [M2S-KPL] instruction fetch does not go through the caches (a fetch latency only)" }, \
    { "l1i.ways", "0", "unused (l1i.sets 0)" }, { "l1i.line_bytes", "0", "unused" }, \
    { "l1i.mshr_entries", "0", "unused" }, { "l1i.mshr_max_merge", "0", "unused" }, \
    { "l1i.miss_queue", "0", "unused" }, { "l1i.inst_bytes", "8", "unused (an ideal instruction cache)" }, \
    { "l1i.code_base", "0", "unused" }, \
    { "smem.bank_bytes", "4", "assumed: 4-byte banks" }, \
    { "const.latency", "20", "assumed (as kepler-k20x-v1)" }, \
    { "icnt.bytes_per_cycle", "264", "[M2S-SI] / [M2S-KPL] Timing.cc networks: DefaultBandwidth 264" }, \
    { "icnt.header_bytes", "8", "[M2S-mem] SystemEvents.cc: a request message is 8 bytes, a reply the block + 8" }, \
    { "icnt.sms_per_cluster", "1", "[M2S-KPL] / [M2S-SI] every L1 has its own link to the switch" }, \
    { "icnt.latency", "3", "derived from [M2S-mem] network/Link.cc, Switch.cc: (size - 1) / bandwidth + 1 = 1 cycle on the link to the switch, in the switch and on the link from it" }, \
    { "l2.partitions", "6", "[M2S-SI] / [M2S-KPL] Timing.cc: 6 L2 modules" }, \
    { "l2.ways", "16", "[G-T41] / [G-T52] 16-way" }, \
    { "l2.mshr_entries", "4096", "[M2S-mem] requests from an L1 are not counted against any MSHR (only the entry module's canAccess checks one): no limit, the key's maximum" }, \
    { "l2.mshr_max_merge", "64", "[M2S-mem] a read of a block whose directory entry another access holds waits for it and is then served from the L2 (no second memory read): the key's maximum" }, \
    { "l2.rop_latency", "0", "[M2S-mem] no delay line" }, \
    { "l2.write_miss", "fetch", "[M2S-mem] NMOESI write-back caches: a write miss reads the block from below first (write-allocate)" }, \
    { "dram.banks", "16", "assumed: [M2S-mem] main memory has no banks (a fixed latency); with every timing 1 the banks do not shape it" }, \
    { "dram.row_bytes", "2048", "assumed: unused with every timing 1" }, \
    { "dram.queue_entries", "4096", "[M2S-mem] main memory has no request queue but its network buffer: the key's maximum" }, \
    { "dram.bytes_per_cycle", "264", "[M2S-SI] / [M2S-KPL] Timing.cc: the L2-to-memory networks, DefaultBandwidth 264" }, \
    { "dram.queue_latency", "0", "[M2S-mem] no delay line" }, \
    { "dram.tCL", "1", "[M2S-mem] main memory is a fixed latency (dram.latency), no DRAM timing" }, \
    { "dram.tRP", "1", "[M2S-mem] as dram.tCL" }, { "dram.tRC", "1", "[M2S-mem] as dram.tCL" }, \
    { "dram.tRAS", "1", "[M2S-mem] as dram.tCL" }, { "dram.tRCD", "1", "[M2S-mem] as dram.tCL" }, \
    { "dram.tRRD", "1", "[M2S-mem] as dram.tCL" }, { "dram.tWR", "1", "[M2S-mem] as dram.tCL" }, \
    { "dram.tCDLR", "1", "[M2S-mem] as dram.tCL" }, \
    { "dram.atom_bytes", "0", "[M2S-mem] one access per block" }, \
    { "dram.bank_groups", "1", "[M2S-mem] no bank groups" }, \
    { "dram.tCCD", "0", "[M2S-mem] none" }, { "dram.tCCDL", "0", "[M2S-mem] none" }, \
    { "dram.tRTP", "0", "[M2S-mem] none" }, { "dram.tRTPL", "0", "[M2S-mem] none" }, \
    { "dram.tWL", "0", "[M2S-mem] none" }

static const ck_source kepler_k20x_sources[] = {
    M2S_COMMON,
    { "clock.core_mhz", "732", "[G-T63] 732 MHz: core keys count 732-MHz cycles" },
    { "clock.icnt_mhz", "1000", "[M2S-mem] System.cc frequency 1000: the memory hierarchy's one clock" },
    { "clock.l2_mhz", "1000", "[M2S-mem] as clock.icnt_mhz" },
    { "clock.dram_mhz", "1000", "[M2S-mem] as clock.icnt_mhz" },
    { "mem.num_sms", "14", "[G-T41] / [G-T63] 14 SMs" },
    { "mem.warp_size", "32", "[G-T41] warp size 32" },
    { "l1d.sets", "32", "[G-T41] 16 KB, 4-way, 128 B = [M2S-KPL] kpl-geo-l1 32 x 4 x 128" },
    { "l1d.ways", "4", "[G-T41] / [G-T63]" },
    { "l1d.line_bytes", "128", "[G-T41] / [G-T63] 128 B" },
    { "l1d.sector_bytes", "128", "[M2S-mem] whole blocks" },
    { "l1d.latency", "5", "derived from [M2S-KPL] kpl-geo-l1 Latency 6 (memory cycles): 6 ns at 1000 MHz, seen at the next 732-MHz edge = 5 core cycles" },
    { "l1d.mshr_max_merge", "8", "[G-T63] max memory requests / MSHR 8" },
    { "smem.banks", "32", "assumed: 32 banks (Kepler)" },
    { "smem.latency", "24", "assumed (as kepler-k20x-v1; [M2S-KPL]'s LSU is a fixed pipeline)" },
    { "icnt.queue_entries", "3", "derived from [M2S-KPL] Timing.cc buffers of 528 B: 528 / (128 + 8) = 3 replies" },
    { "l2.sets", "128", "[G-T41] 1536 KB / 6 / 128 B / 16 ways ([M2S-KPL]'s kpl-geo-l2 has 32 sets: the thesis wins)" },
    { "l2.line_bytes", "128", "[G-T41] 128 B" },
    { "l2.interleave_bytes", "128", "[M2S-KPL] AddressRange ADDR DIV 128 MOD 6" },
    { "l2.latency", "20", "[M2S-KPL] kpl-geo-l2 Latency 20" },
    { "l2.queue_entries", "3", "derived as icnt.queue_entries" },
    { "dram.latency", "220", "derived from [M2S-KPL] main memory Latency 300 + [M2S-mem] its DirectoryLatency 1: 301 memory cycles = 220 core cycles at 732 MHz (the key counts core cycles)" },
    { NULL, NULL, NULL }
};

static const ck_source si_7970_sources[] = {
    M2S_COMMON,
    { "clock.core_mhz", "0", "[G-T52] 1000 MHz = [M2S-mem] the memory's 1000 MHz: one clock" },
    { "clock.icnt_mhz", "0", "one clock" }, { "clock.l2_mhz", "0", "one clock" },
    { "clock.dram_mhz", "0", "one clock" },
    { "mem.num_sms", "32", "[G-T52] 32 compute units" },
    { "mem.warp_size", "64", "[G-T52] wavefront of 64 work-items (the emulator's warps are 32 wide: docs/config.md)" },
    { "l1d.sets", "64", "[G-T52] 16 KB, 64 sets, 4 way, 64 B = [M2S-SI] si-geo-vector-l1" },
    { "l1d.ways", "4", "[G-T52]" },
    { "l1d.line_bytes", "64", "[G-T52]" },
    { "l1d.sector_bytes", "64", "[M2S-mem] whole blocks" },
    { "l1d.latency", "1", "[M2S-SI] si-geo-vector-l1 Latency 1" },
    { "l1d.mshr_max_merge", "64", "[M2S-mem] Module.cc canCoalesce: a load joins any in-flight load of its block, without a limit (the key's maximum)" },
    { "smem.banks", "32", "[G-T52] LDS 64 KB, 32 banks x 4 B" },
    { "smem.latency", "2", "[M2S-SI] ComputeUnit.cc lds_latency 2" },
    { "icnt.queue_entries", "7", "derived from [M2S-SI] Timing.cc buffers of 528 B: 528 / (64 + 8) = 7 replies" },
    { "l2.sets", "128", "[G-T52] 128 sets, 16 way, 64 B = [M2S-SI] si-geo-l2 (128 KB per module; Table 5.2's 128 KB is one module)" },
    { "l2.line_bytes", "64", "[G-T52]" },
    { "l2.interleave_bytes", "64", "[M2S-SI] AddressRange ADDR DIV 64 MOD 6" },
    { "l2.latency", "10", "[M2S-SI] si-geo-l2 Latency 10" },
    { "l2.queue_entries", "7", "derived as icnt.queue_entries" },
    { "dram.latency", "101", "[M2S-SI] main memory Latency 100 + [M2S-mem] its DirectoryLatency 1 (one clock: core cycles)" },
    { NULL, NULL, NULL }
};

/* A preset written as a table: every key from it (the table lists them all). */
static int from_sources(mem_config *c, const ck_source *t, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    return ck_apply_sources(mem_keys, NKEYS, c, t, err, errlen);
}

static const ck_preset_sources sourced_presets[] = {
    { "fermi-gtx480", fermi_gtx480_sources },
    { "kepler-k20x", kepler_k20x_sources },
    { "si-7970", si_7970_sources },
    { NULL, NULL }
};

const ck_source *mem_preset_sources(const char *name)
{
    return ck_sources_of(sourced_presets, name);
}

static void kepler_k20x_v1(mem_config *c)
{
    fermi_gtx480_v1(c);            /* same interconnect/L2/DRAM structure (assumed) */
    c->num_sms = 14;             /* [G-T41] */
    c->l1d_sets = 32;            /* 16 KB / 128 B / 4 ways [G-T41], [G-T63] */
    c->l1d_ways = 4;
    c->l1d_index = MEM_INDEX_LINEAR; /* assumed: Multi2Sim indexes linearly */
    c->l1d_mshr_entries = 16;    /* [G-T63] */
    c->l1d_mshr_max_merge = 8;   /* [G-T63] */
    c->l2_partitions = 6;        /* assumed: K20X has a 384-bit bus, 6 x 64-bit controllers */
    c->l2_sets = 128;            /* 1536 KB / 6 / 128 B / 16 ways [G-T41] */
    c->l2_ways = 16;
    /* K20X: 250 GB/s over 6 channels at the 732 MHz core clock [G-T63]
     * = 57 B per core cycle per channel (assumed from the board). */
    c->dram_bytes_per_cycle = 57;
    c->dram_latency = 73;        /* 100 - 12 - 12 - burst 3 (assumed as Fermi) */
}

static void si_7970_v1(mem_config *c)
{
    fermi_gtx480_v1(c);
    c->num_sms = 32;             /* 32 compute units [G-T52] */
    c->warp_size = 64;           /* wavefront of 64 work-items (4 x 16 lanes) [G-T52] */
    c->l1d_sets = 64;            /* 16 KB, 64 sets, 4 way, 64 B [G-T52] */
    c->l1d_ways = 4;
    c->l1d_line_bytes = 64;
    c->l1d_sector_bytes = 64;
    c->l1d_latency = 20;         /* assumed */
    c->l1d_index = MEM_INDEX_LINEAR; /* assumed */
    c->l1d_mshr_entries = 16;    /* assumed (as Kepler [G-T63]) */
    c->l1d_mshr_max_merge = 8;   /* assumed */
    c->smem_banks = 32;          /* LDS 64 KB, 32 banks x 4 B [G-T52] */
    c->smem_latency = 24;        /* assumed */
    c->l2_partitions = 6;        /* assumed: Multi2Sim SI default, 6 L2 modules */
    c->l2_sets = 128;            /* 128 KB, 128 sets, 16 way, 64 B per module [G-T52] */
    c->l2_ways = 16;
    c->l2_line_bytes = 64;
    /* 264 GB/s over 6 channels at 1 GHz [G-T52 clock] = 44 B/cycle (assumed) */
    c->dram_bytes_per_cycle = 44;
    c->dram_latency = 74;        /* 100 - 12 - 12 - burst 2 (assumed as Fermi) */
    /* round trip 2*10 + l2 + 1 + 3 = 120 (assumed as Fermi) */
    c->l2_latency = 96;
}

/* The GPUs of traced applications (Accel-Sim traces, docs/traces.md).
 * Sources (csrc/config/gpu_config.c has the same tags):
 *   [TXP]    NVIDIA TITAN X (Pascal) specifications: 28 SMs, 1417 MHz base,
 *            384-bit GDDR5X at 480 GB/s, 3 MB L2
 *   [GP104]  NVIDIA GeForce GTX 1080 whitepaper (2016): a GP10x SM has a
 *            48 KB L1/texture cache and 96 KB of shared memory
 *   [2080TI] NVIDIA GeForce RTX 2080 Ti specifications: 68 SMs, 1350 MHz
 *            base, 352-bit GDDR6 at 616 GB/s, 5.5 MB L2
 *   [TU]     NVIDIA Turing architecture whitepaper (2018): 96 KB of L1 and
 *            shared memory per SM (64 KB shared + 32 KB L1 chosen here)
 *   [JIA18]  Jia et al., arXiv:1804.06826, §3 (memory latencies, P100):
 *            L1 hit ~82 cycles, shared memory ~24, L2 hit ~234; L1 lines of
 *            128 B in 32-byte sectors
 *   [JIA19]  Jia et al., arXiv:1903.07486, §3 (T4): L1 hit ~32 cycles,
 *            shared memory ~19, L2 hit ~188
 * The GP102/TU102 latencies are the measured P100/T4 ones (ASSUMED equal);
 * DRAM timing is the GDDR5 set of the other presets (ASSUMED). */
static void pascal_titanx(mem_config *c)
{
    fermi_gtx480_v1(c);          /* structure; every number below replaces it */
    c->num_sms = 28;             /* [TXP] */
    c->l1d_sets = 64;            /* 48 KB / 128 B / 6 ways [GP104] */
    c->l1d_ways = 6;
    c->l1d_line_bytes = 128;
    c->l1d_sector_bytes = 32;    /* [JIA18] */
    c->l1d_latency = 82;         /* [JIA18] */
    c->l1d_index = MEM_INDEX_LINEAR;   /* assumed */
    c->l1d_alloc = MEM_ALLOC_ON_FILL;  /* assumed (as Fermi) */
    c->l1d_mshr_entries = 32;    /* assumed */
    c->l1d_mshr_max_merge = 8;   /* assumed */
    c->smem_banks = 32;          /* 32 banks x 4 B [GP104] */
    c->smem_bank_bytes = 4;
    c->smem_latency = 24;        /* [JIA18] */
    c->l2_partitions = 12;       /* 384-bit bus = 12 x 32-bit channels [TXP] */
    c->l2_sets = 128;            /* 3 MB / 12 / 128 B / 16 ways [TXP] (ways assumed) */
    c->l2_ways = 16;
    c->l2_line_bytes = 128;
    /* L2 hit ~234 [JIA18] = 2*icnt.latency + l2.latency + ser(req) + ser(resp)
     * = 20 + 208 + 1 + 5 */
    c->l2_latency = 208;
    /* 480 GB/s over 12 channels at 1417 MHz [TXP] = 28 B per core cycle */
    c->dram_bytes_per_cycle = 28;
    c->dram_latency = 100;       /* assumed */
}

static void turing_rtx2080ti(mem_config *c)
{
    pascal_titanx(c);
    c->num_sms = 68;             /* [2080TI] */
    c->l1d_sets = 64;            /* 32 KB / 128 B / 4 ways [TU] (ways assumed) */
    c->l1d_ways = 4;
    c->l1d_latency = 32;         /* [JIA19] */
    c->smem_latency = 19;        /* [JIA19] */
    c->l2_partitions = 11;       /* 352-bit bus = 11 x 32-bit channels [2080TI] */
    c->l2_sets = 256;            /* 5.5 MB / 11 / 128 B / 16 ways [2080TI] (ways assumed) */
    /* L2 hit ~188 [JIA19] = 20 + 162 + 1 + 5 */
    c->l2_latency = 162;
    /* 616 GB/s over 11 channels at 1350 MHz [2080TI] = 41 B per core cycle */
    c->dram_bytes_per_cycle = 41;
}

int mem_config_preset(mem_config *cfg, const char *name, char *err, size_t errlen)
{
    if (strcmp(name, "fermi-gtx480") == 0)
        return from_sources(cfg, fermi_gtx480_sources, err, errlen);
    else if (strcmp(name, "fermi-gtx480-v1") == 0)
        fermi_gtx480_v1(cfg);
    else if (strcmp(name, "kepler-k20x") == 0)
        return from_sources(cfg, kepler_k20x_sources, err, errlen);
    else if (strcmp(name, "kepler-k20x-v1") == 0)
        kepler_k20x_v1(cfg);
    else if (strcmp(name, "si-7970") == 0)
        return from_sources(cfg, si_7970_sources, err, errlen);
    else if (strcmp(name, "si-7970-v1") == 0)
        si_7970_v1(cfg);
    else if (strcmp(name, "pascal-titanx") == 0)
        pascal_titanx(cfg);
    else if (strcmp(name, "turing-rtx2080ti") == 0)
        turing_rtx2080ti(cfg);
    else
        return smc_fail(err, errlen, "unknown memory preset '%s' (kepler-k20x, kepler-k20x-v1, "
                    "fermi-gtx480, fermi-gtx480-v1, si-7970, si-7970-v1, pascal-titanx, "
                    "turing-rtx2080ti)", name);
    return 0;
}

uint32_t mem_clock_mhz(const mem_config *c, unsigned domain)
{
    uint32_t f[4] = { c->clock_core_mhz, c->clock_icnt_mhz, c->clock_l2_mhz, c->clock_dram_mhz };
    if (domain > MEM_CLK_DRAM)
        return 0;
    return f[domain] ? f[domain] : c->clock_core_mhz;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

uint32_t mem_clock_base_mhz(const mem_config *c)
{
    if (!c->clock_core_mhz)
        return 1;
    uint64_t l = 1;
    for (unsigned d = MEM_CLK_CORE; d <= MEM_CLK_DRAM; d++) {
        uint64_t f = mem_clock_mhz(c, d);
        l = l / gcd64(l, f) * f;
        if (l > MEM_CLOCK_BASE_MAX)
            return 0;
    }
    return (uint32_t)l;
}

static int is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

int mem_config_check(const mem_config *c, char *err, size_t errlen)
{
    if (ck_check(mem_keys, NKEYS, c, err, errlen) != 0)
        return -1;
    static const struct { const char *key; size_t off; } pow2[] = {
        { "l1d.sets", offsetof(mem_config, l1d_sets) },
        { "l1d.line_bytes", offsetof(mem_config, l1d_line_bytes) },
        { "l1d.sector_bytes", offsetof(mem_config, l1d_sector_bytes) },
        { "smem.bank_bytes", offsetof(mem_config, smem_bank_bytes) },
        { "l2.sets", offsetof(mem_config, l2_sets) },
        { "l2.line_bytes", offsetof(mem_config, l2_line_bytes) },
        { "dram.row_bytes", offsetof(mem_config, dram_row_bytes) },
    };
    for (size_t i = 0; i < sizeof pow2 / sizeof pow2[0]; i++) {
        uint32_t v = *(const uint32_t *)((const char *)c + pow2[i].off);
        if (!is_pow2(v))
            return smc_fail(err, errlen, "key '%s': %u is not a power of two",
                        pow2[i].key, v);
    }
    if (c->l1i_sets) {
        static const char *const l1i_keys[] = { "l1i.ways", "l1i.line_bytes", "l1i.mshr_entries",
                                                "l1i.mshr_max_merge", "l1i.miss_queue",
                                                "l1i.inst_bytes" };
        uint32_t v[] = { c->l1i_ways, c->l1i_line_bytes, c->l1i_mshr_entries,
                         c->l1i_mshr_max_merge, c->l1i_miss_queue, c->l1i_inst_bytes };
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            if (!v[i])
                return smc_fail(err, errlen, "key '%s': 0 while l1i.sets is %u (an instruction "
                            "cache needs it; l1i.sets = 0 makes the cache ideal)", l1i_keys[i],
                            c->l1i_sets);
        if (!is_pow2(c->l1i_sets))
            return smc_fail(err, errlen, "key 'l1i.sets': %u is not a power of two", c->l1i_sets);
        if (!is_pow2(c->l1i_line_bytes) || c->l1i_line_bytes < 16)
            return smc_fail(err, errlen, "key 'l1i.line_bytes': %u is not a power of two >= 16",
                        c->l1i_line_bytes);
    }
    if (c->l1d_sector_bytes > c->l1d_line_bytes)
        return smc_fail(err, errlen, "key 'l1d.sector_bytes': %u exceeds "
                    "l1d.line_bytes %u", c->l1d_sector_bytes, c->l1d_line_bytes);
    if (c->l1d_line_bytes / c->l1d_sector_bytes > 32)
        return smc_fail(err, errlen, "key 'l1d.sector_bytes': more than 32 sectors "
                    "per line");
    if (c->l1d_index == MEM_INDEX_FERMI &&
        (c->l1d_line_bytes != 128 || (c->l1d_sets != 32 && c->l1d_sets != 64)))
        return smc_fail(err, errlen, "key 'l1d.index': fermi is defined for 128-byte "
                    "lines and 32 or 64 sets (l1d.line_bytes %u, l1d.sets %u); use "
                    "hash for other geometries", c->l1d_line_bytes, c->l1d_sets);
    /* a write miss under fetch queues a DRAM write and a read at once */
    if (c->l2_write_miss == MEM_L2_WM_FETCH) {
        const char *key = c->dram_queue_latency ? "l2.queue_entries" : "dram.queue_entries";
        uint32_t q = c->dram_queue_latency ? c->l2_queue_entries : c->dram_queue_entries;
        if (q < 2)
            return smc_fail(err, errlen, "key '%s': l2.write_miss = fetch queues a DRAM "
                        "write and a read together and needs at least 2 entries (has %u)",
                        key, q);
    }
    if (c->l2_line_bytes < c->l1d_line_bytes)
        return smc_fail(err, errlen, "key 'l2.line_bytes': %u is smaller than "
                    "l1d.line_bytes %u", c->l2_line_bytes, c->l1d_line_bytes);
    if (!c->clock_core_mhz && (c->clock_icnt_mhz || c->clock_l2_mhz || c->clock_dram_mhz))
        return smc_fail(err, errlen, "key 'clock.core_mhz': 0 (one clock) while clock.icnt_mhz, "
                    "clock.l2_mhz or clock.dram_mhz is set; give the core clock too");
    if (c->clock_core_mhz && mem_clock_base_mhz(c) == 0)
        return smc_fail(err, errlen, "key 'clock.dram_mhz': the clocks %u:%u:%u:%u MHz have a "
                    "least common multiple above %u MHz (the model's time base); round one "
                    "of them", c->clock_core_mhz, mem_clock_mhz(c, 1), mem_clock_mhz(c, 2),
                    mem_clock_mhz(c, 3), MEM_CLOCK_BASE_MAX);
    if (c->l2_interleave_bytes &&
        (!is_pow2(c->l2_interleave_bytes) || c->l2_interleave_bytes < c->l2_line_bytes))
        return smc_fail(err, errlen, "key 'l2.interleave_bytes': %u is not a power of two "
                    ">= l2.line_bytes %u (or 0)", c->l2_interleave_bytes, c->l2_line_bytes);
    if (c->dram_atom_bytes && (!is_pow2(c->dram_atom_bytes) ||
                               c->dram_atom_bytes > c->l2_line_bytes))
        return smc_fail(err, errlen, "key 'dram.atom_bytes': %u is not a power of two "
                    "<= l2.line_bytes %u (or 0)", c->dram_atom_bytes, c->l2_line_bytes);
    if (c->dram_banks % c->dram_bank_groups)
        return smc_fail(err, errlen, "key 'dram.bank_groups': %u does not divide dram.banks %u",
                    c->dram_bank_groups, c->dram_banks);
    if (c->dram_row_bytes < c->l2_line_bytes)
        return smc_fail(err, errlen, "key 'dram.row_bytes': %u is smaller than "
                    "l2.line_bytes %u", c->dram_row_bytes, c->l2_line_bytes);
    return 0;
}

int mem_config_apply(mem_config *cfg, const char *assignment, char *err,
                     size_t errlen)
{
    mem_config tmp = *cfg;
    if (ck_apply(mem_keys, NKEYS, &tmp, assignment, err, errlen) != 0)
        return -1;
    *cfg = tmp;
    return 0;
}

int mem_config_load_file(mem_config *cfg, const char *path, char *err,
                         size_t errlen)
{
    mem_config tmp = *cfg;
    if (ck_load_file(mem_keys, NKEYS, &tmp, path, err, errlen) != 0)
        return -1;
    *cfg = tmp;
    return 0;
}

void mem_config_print(const mem_config *cfg, FILE *out)
{
    ck_print(mem_keys, NKEYS, cfg, out);
}

const struct ck_key *mem_config_keys(size_t *nkeys)
{
    *nkeys = NKEYS;
    return mem_keys;
}

void mem_config_markdown(const mem_config *cfg, FILE *out)
{
    ck_markdown(mem_keys, NKEYS, cfg, out);
}
