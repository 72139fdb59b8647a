/*
 * teg_params.c — TEG's parameters (the teg.* keys), the thesis's GT200 set
 * and the class of an instruction.
 *
 * One key table describes teg_params (csrc/util/config_keys.h does the
 * parsing, range checks and printing). The GT200 set is a source table: each
 * value beside where it comes from, 003 Lnnnn being a line of the thesis
 * (../shared/seeds/003_*.txt), G-numbers the decisions of
 * ../shared/design/teg.md §4. A value the thesis does not give says
 * ASSUMED and why.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "teg.h"
#include "../config/gpu_config.h"
#include "../ptx/ptx.h"
#include "../util/config_keys.h"

const char *const teg_class_names[TEG_CLASS_COUNT] = {
#define TEG_CLASS_NAME(id, key, doc) [TEG_##id] = key,
    TEG_CLASSES(TEG_CLASS_NAME)
#undef TEG_CLASS_NAME
};

const char *const teg_slot_names[TEG_SLOT_COUNT] = {
#define TEG_SLOT_NAME(id, key, doc) [TEG_SLOT_##id] = key,
    TEG_SLOTS(TEG_SLOT_NAME)
#undef TEG_SLOT_NAME
};

static const char *const unit_names[] = { "sp", "sfu", "dpu", "int", "ldst", "branch", NULL };
static const char *const policy_names[] = { "lrr", "gto", NULL };
static const char *const regbank_names[] = { "none", "kepler4", NULL };

#define P32(nm, fld, lo, hi, dc) CK_KEY_U32(nm, teg_params, fld, lo, hi, dc)
#define CLASS_KEYS(id, key, doc)                                                           \
    CK_KEY_ENUM(key ".unit", teg_params, cls[TEG_##id].unit, unit_names,                   \
                "unit that executes " doc),                                                \
    P32(key ".exec", cls[TEG_##id].exec, 0, 100000,                                        \
        "execution latency: issue to a dependent's issue (" doc ")"),                      \
    P32(key ".accept", cls[TEG_##id].accept, 1, 100000,                                    \
        "multiple-warp issue latency: the unit's next accept (" doc ")"),                  \
    P32(key ".warp_busy", cls[TEG_##id].warp_busy, 1, 100000,                              \
        "same-warp issue latency: the warp's next issue (" doc ")"),
#define UNIT_KEYS(nm, u)                                                                   \
    P32("units." nm ".private", unit[u].private_units, 0, 64, nm " units per engine"),    \
    P32("units." nm ".shared", unit[u].shared_units, 0, 64, nm " units shared by the SM's engines"),

static const ck_key teg_keys[] = {
    P32("sms", sms, 1, 1024, "SMs"),
    P32("sm.max_warps", max_warps, 1, 1024, "warp slots per SM (occupancy)"),
    P32("sm.max_ctas", max_ctas, 1, 1024, "CTAs per SM (occupancy)"),
    P32("sm.regs", regs, 1, 1u << 24, "32-bit registers per SM (occupancy)"),
    P32("sm.smem_bytes", smem_bytes, 0, 1u << 30, "shared memory per SM, bytes (occupancy)"),
    P32("engines", engines, 1, 16, "issue engines (schedulers) per SM; warp slot w on engine w mod engines"),
    P32("issue_interval", issue_interval, 1, 64, "cycles between an engine's issue slots"),
    CK_KEY_ENUM("policy", teg_params, policy, policy_names,
                "lrr: scan from the last issued warp + 1; gto: oldest warp first"),
    P32("sb_entries", sb_entries, 0, TEG_SB_MAX,
        "scoreboard: instructions with a destination pending per warp; 0 = no cap (G6)"),
    P32("barrier_lat", barrier_lat, 0, 100000, "a barrier releases this long after its last arrival"),
    CK_KEY_ENUM("regbank", teg_params, regbank, regbank_names,
                "register-bank rule: none, or kepler4 (Table 4.1; SASS register numbers)"),
    CK_KEY_BOOL("exec_from_source", teg_params, exec_from_source,
                "an instruction's own latency (a SASS trace's opcode table) replaces its class's exec"),
    TEG_CLASSES(CLASS_KEYS)
    UNIT_KEYS("sp", GPU_UNIT_SP) UNIT_KEYS("sfu", GPU_UNIT_SFU) UNIT_KEYS("dpu", GPU_UNIT_DPU)
    UNIT_KEYS("int", GPU_UNIT_INT) UNIT_KEYS("ldst", GPU_UNIT_LDST) UNIT_KEYS("branch", GPU_UNIT_BRANCH)
    P32("smem.latency", smem_latency, 0, 100000, "shared access, conflict-free: issue to a dependent's issue"),
    P32("smem.banks", smem_banks, 1, 64, "shared-memory banks"),
    P32("smem.bank_bytes", smem_bank_bytes, 1, 64, "bytes per bank word"),
    P32("smem.group", smem_group, 1, 32, "lanes served together (16: half-warps)"),
    CK_KEY_DOUBLE("smem.pass_cycles", teg_params, smem_pass_cycles, 0, 100000,
                  "cycles per pass beyond one per group (latency and the unit's accept)"),
    P32("gmem.latency", gmem_latency, 0, 1000000, "global access: departure to completion"),
    P32("gmem.sector_bytes", gmem_sector_bytes, 1, 4096, "coalescing unit"),
    P32("gmem.group", gmem_group, 1, 32, "lanes coalesced together (16: half-warps)"),
    P32("gmem.sms_per_group", gmem_sms_per_group, 1, 1024, "SMs sharing one memory pipeline (a TPC)"),
    P32("gmem.inflight_bytes", gmem_inflight_bytes, 1, 1u << 30,
        "bytes in flight per group of SMs (Little's law, Eq. 3.1)"),
    P32("gmem.channels", gmem_channels, 1, 1024, "memory channels"),
    P32("gmem.channel_bytes", gmem_channel_bytes, 1, 1u << 20, "interleaving: bytes per channel in turn"),
    P32("gmem.channel_inflight_bytes", gmem_channel_inflight_bytes, 1, 1u << 30, "bytes in flight per channel"),
};
#define NKEYS (sizeof teg_keys / sizeof teg_keys[0])

/* The GT200 set. Cycles are shader cycles (003 L436). */
static const ck_source gt200_sources[] = {
    { "sms", "30", "GTX 280: 30 SMs (003 L1155, Table 1.1 003 L418-432)" },
    { "sm.max_warps", "32", "GT200: 1024 threads per SM (CUDA guide, compute 1.3)" },
    { "sm.max_ctas", "8", "GT200: 8 blocks per SM (CUDA guide, compute 1.3)" },
    { "sm.regs", "16384", "Table 1.1: 16 K registers (003 L418-432)" },
    { "sm.smem_bytes", "16384", "Table 1.1: 16 KB shared memory (003 L418-432)" },
    { "engines", "1", "one issue engine per SM (Table 1.1: 1 scheduler, 003 L418-432)" },
    { "issue_interval", "2", "\"every 2 cycles, the issue engine selects one ready warp instruction\" (003 L962; G2)" },
    { "policy", "lrr", "round robin from the last issued warp (003 L1227; G7)" },
    { "sb_entries", "0", "no scoreboard capacity in the thesis (003 L967; G6)" },
    { "barrier_lat", "8", "ASSUMED: the thesis gives no barrier cost (G8, G17)" },
    { "regbank", "none", "GT200 has no Kepler register banks (003 L1373 is GTX680)" },
    { "int.unit", "sp", "the 8 SPs are one unit (003 L960)" },
    { "int.exec", "24", "Table 3.1 Integer ADD (003 L1041-1053)" },
    { "int.accept", "4", "Table 3.1 Integer ADD: 32 / 8 ops per clock (003 L1031)" },
    { "int.warp_busy", "8", "Table 3.1 Integer ADD (003 L1041-1053)" },
    { "int_mul.unit", "sp", "32-bit integer multiply runs as 16-bit multiplies on the SPs (003 L1039)" },
    { "int_mul.exec", "96", "ASSUMED: 4 x the 16-bit row (003 L1039, L1055; G8)" },
    { "int_mul.accept", "16", "ASSUMED: 4 x the 16-bit row (G8)" },
    { "int_mul.warp_busy", "32", "ASSUMED: 4 x the 16-bit row (G8)" },
    { "fp32.unit", "sp", "003 L960" },
    { "fp32.exec", "24", "Table 3.1 Float ADD / Float MAD; 21 dependent FADD32 in 514 cycles (003 L1023-1027)" },
    { "fp32.accept", "4", "Table 3.1 Float ADD / Float MAD" },
    { "fp32.warp_busy", "8", "Table 3.1 Float ADD / Float MAD" },
    { "fmul.unit", "sp", "FMUL issues to the SPs or the SFUs (003 L1039): one unit at the combined rate" },
    { "fmul.exec", "24", "Table 3.1 Float MUL" },
    { "fmul.accept", "2", "Table 3.1 Float MUL: SP or SFU (003 L1039)" },
    { "fmul.warp_busy", "8", "Table 3.1 Float MUL" },
    { "fp64.unit", "dpu", "one DPU per SM (003 L1055)" },
    { "fp64.exec", "48", "Table 3.1 Double ADD/MUL/FMA" },
    { "fp64.accept", "32", "Table 3.1 Double ADD/MUL/FMA: one DPU (003 L1055)" },
    { "fp64.warp_busy", "32", "Table 3.1 Double ADD/MUL/FMA" },
    { "sfu.unit", "sfu", "003 L960" },
    { "sfu.exec", "48", "ASSUMED: not in Table 3.1 (G8)" },
    { "sfu.accept", "16", "32 / 2 ops per clock (CUDA guide, compute 1.3), as 003 L1031 derives it (G8)" },
    { "sfu.warp_busy", "16", "ASSUMED: not in Table 3.1 (G8)" },
    { "conv.unit", "sp", "ASSUMED: as Integer ADD (G8)" },
    { "conv.exec", "24", "ASSUMED: as Integer ADD (G8)" },
    { "conv.accept", "4", "ASSUMED: as Integer ADD (G8)" },
    { "conv.warp_busy", "8", "ASSUMED: as Integer ADD (G8)" },
    { "smem.unit", "ldst", "shared accesses go to the LD/ST unit (003 L960)" },
    { "smem.exec", "0", "unused: smem.latency and the passes decide (G9)" },
    { "smem.accept", "4", "ASSUMED: as a global load's multiple-warp latency (003 L1035)" },
    { "smem.warp_busy", "8", "ASSUMED: shared load same-warp latency (G8)" },
    { "gload.unit", "ldst", "global loads go to the LD/ST unit (003 L960)" },
    { "gload.exec", "0", "unused: gmem.latency and the queues decide (G10)" },
    { "gload.accept", "4", "global load multiple-warp issue latency (003 L1035)" },
    { "gload.warp_busy", "60", "GLD.U32 same-warp issue latency about 60 (003 L1035-1037)" },
    { "gstore.unit", "ldst", "003 L960" },
    { "gstore.exec", "0", "unused: a store writes no register" },
    { "gstore.accept", "4", "ASSUMED: stores as loads (G8)" },
    { "gstore.warp_busy", "60", "ASSUMED: stores as loads (G8)" },
    { "lmem.unit", "ldst", "ASSUMED: local memory is off-chip like global (G8)" },
    { "lmem.exec", "0", "unused: gmem.latency and the queues decide" },
    { "lmem.accept", "4", "ASSUMED: as global loads (G8)" },
    { "lmem.warp_busy", "60", "ASSUMED: as global loads (G8)" },
    { "const.unit", "sp", "ASSUMED: a constant-cache hit, as an ALU operation (G8)" },
    { "const.exec", "24", "ASSUMED: as Integer ADD (G8)" },
    { "const.accept", "4", "ASSUMED: as Integer ADD (G8)" },
    { "const.warp_busy", "8", "ASSUMED: as Integer ADD (G8)" },
    { "branch.unit", "branch", "003 L960 lists no branch unit; a unit of its own so branches do not take SP slots (G8)" },
    { "branch.exec", "0", "ASSUMED: branch exec 0 (G8)" },
    { "branch.accept", "2", "ASSUMED: the engine's interval (G8)" },
    { "branch.warp_busy", "8", "ASSUMED (G8)" },
    { "s2r.unit", "sp", "ASSUMED (G8)" },
    { "s2r.exec", "24", "S2R then SHL costs 24 + 4 (003 L1021)" },
    { "s2r.accept", "4", "ASSUMED: as Integer ADD (G8)" },
    { "s2r.warp_busy", "8", "ASSUMED: as Integer ADD (G8)" },
    { "units.sp.private", "1", "the 8 SPs are one unit (003 L960)" },
    { "units.sfu.private", "1", "003 L960" },
    { "units.dpu.private", "1", "one DPU per SM (003 L1055)" },
    { "units.int.private", "1", "unused by the GT200 classes" },
    { "units.ldst.private", "1", "003 L960" },
    { "units.branch.private", "1", "G8" },
    { "smem.latency", "38", "shared memory about 38 cycles (003 L1075)" },
    { "smem.banks", "16", "16 banks (003 L1099)" },
    { "smem.bank_bytes", "4", "4-byte banks (003 L1099)" },
    { "smem.group", "16", "evaluated per half-warp (003 L1099)" },
    { "smem.pass_cycles", "6.4", "(266 - 74) / (32 - 2): FADD32 with a shared operand, conflict-free vs one bank (003 L1101; G9)" },
    { "gmem.latency", "440", "436-443 cycles without TLB miss (003 L1075; G12)" },
    { "gmem.sector_bytes", "32", "32-byte transactions (003 L1105; G11)" },
    { "gmem.group", "16", "coalescing per half-warp (003 L1105)" },
    { "gmem.sms_per_group", "3", "three SMs of a TPC share one memory pipeline (003 L969)" },
    { "gmem.inflight_bytes", "4811", "Eq. 3.1: 141.7 GB/s x 440 / (10 TPCs x 1.296 GHz) (003 L1077-1083; G10)" },
    { "gmem.channels", "8", "8 channels (003 L969)" },
    { "gmem.channel_bytes", "256", "channel width 256 B (003 L1109)" },
    { "gmem.channel_inflight_bytes", "6013", "141.7 GB/s x 440 / (8 x 1.296 GHz): each channel at most 1/8 of peak (003 L969; G10)" },
    { NULL, NULL, NULL },
};

void teg_params_gt200(teg_params *p)
{
    char err[256];
    memset(p, 0, sizeof *p);
    if (ck_apply_sources(teg_keys, NKEYS, p, gt200_sources, err, sizeof err) != 0) {
        /* the table is checked by the tests; a bad entry is a build bug */
        fprintf(stderr, "teg: gt200 set: %s\n", err);
    }
    snprintf(p->name, sizeof p->name, "gt200");
}

unsigned teg_config_unit(const gpu_config *cfg, unsigned u)
{
    if (cfg->unit[u].private_units == 0 && cfg->unit[u].shared_units == 0 && u != GPU_UNIT_LDST)
        return GPU_UNIT_SP;                    /* no such unit in this machine */
    return u;
}

void teg_params_from_config(teg_params *p, const gpu_config *cfg)
{
    const mem_config *m = &cfg->mem;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "from-config %s", cfg->preset[0] ? cfg->preset : "(file)");
    p->sms = m->num_sms;
    p->max_warps = cfg->max_warps_per_sm;
    p->max_ctas = cfg->max_ctas_per_sm;
    p->regs = cfg->regs_per_sm;
    p->smem_bytes = cfg->smem_per_sm;
    p->engines = cfg->num_schedulers;
    p->issue_interval = 1;                     /* G2: the preset's cycle, one issue per cycle */
    p->policy = cfg->policy == GPU_POLICY_GTO ? TEG_POLICY_GTO : TEG_POLICY_LRR;
    p->sb_entries = cfg->sb_entries < TEG_SB_MAX ? cfg->sb_entries : TEG_SB_MAX;   /* G6 */
    p->barrier_lat = 1;                        /* ASSUMED: the release edge */
    p->exec_from_source = 1;
    p->units_cfg = cfg;                        /* the cycle model's unit rule (§5.2) */
    for (unsigned u = 0; u < TEG_UNIT_COUNT; u++) {
        p->unit[u].private_units = cfg->unit[u].private_units;
        p->unit[u].shared_units = cfg->unit[u].shared_units;
    }
    /* the LD/ST unit has no count keys: one per SM */
    p->unit[GPU_UNIT_LDST].private_units = 0;
    p->unit[GPU_UNIT_LDST].shared_units = 1;
    static const struct { enum teg_class c; unsigned unit; } map[] = {
        { TEG_INT, GPU_UNIT_SP }, { TEG_INT_MUL, GPU_UNIT_INT }, { TEG_FP32, GPU_UNIT_SP },
        { TEG_FMUL, GPU_UNIT_SP }, { TEG_FP64, GPU_UNIT_DPU }, { TEG_SFU, GPU_UNIT_SFU },
        { TEG_CONV, GPU_UNIT_SP }, { TEG_SMEM, GPU_UNIT_LDST }, { TEG_GLOAD, GPU_UNIT_LDST },
        { TEG_GSTORE, GPU_UNIT_LDST }, { TEG_LMEM, GPU_UNIT_LDST }, { TEG_CONST, GPU_UNIT_SP },
        { TEG_BRANCH, GPU_UNIT_BRANCH }, { TEG_S2R, GPU_UNIT_SP },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        unsigned u = teg_config_unit(cfg, map[i].unit);
        teg_class_params *k = &p->cls[map[i].c];
        k->unit = u;
        k->exec = u == GPU_UNIT_LDST ? 0 : cfg->unit[u].latency;
        k->accept = u == GPU_UNIT_LDST || !cfg->unit[u].ii ? 1 : cfg->unit[u].ii;
        k->warp_busy = 1;                      /* sched.ibuf_depth >= 2: the next one is buffered */
    }
    p->cls[TEG_CONST].exec = m->const_latency ? m->const_latency : p->cls[TEG_CONST].exec;
    p->smem_latency = m->smem_latency;
    p->smem_banks = m->smem_banks;
    p->smem_bank_bytes = m->smem_bank_bytes;
    p->smem_group = 32;
    p->smem_pass_cycles = 1;
    /* ASSUMED round trip of a miss to DRAM; `teg calibrate` measures it */
    p->gmem_latency = m->l1d_latency + m->l2_latency + m->dram_latency + m->dram_tCL;
    p->gmem_sector_bytes = m->l1d_sector_bytes;
    p->gmem_group = 32;
    p->gmem_sms_per_group = 1;
    uint64_t peak = (uint64_t)m->dram_bytes_per_cycle * m->l2_partitions;
    uint64_t per_sm = peak * p->gmem_latency / (m->num_sms ? m->num_sms : 1);
    p->gmem_inflight_bytes = (uint32_t)(per_sm ? per_sm : 1);
    p->gmem_channels = m->l2_partitions ? m->l2_partitions : 1;
    p->gmem_channel_bytes = m->l2_interleave_bytes ? m->l2_interleave_bytes : m->l2_line_bytes;
    uint64_t ch = (uint64_t)m->dram_bytes_per_cycle * p->gmem_latency;
    p->gmem_channel_inflight_bytes = (uint32_t)(ch ? ch : 1);
}

/* Whether an assignment sets a class's unit, exec or accept: then the
 * classes decide for every instruction (teg_params.units_cfg). */
static int sets_class_timing(const char *assignment)
{
    while (*assignment == ' ' || *assignment == '\t') assignment++;
    for (size_t i = 0; i < TEG_CLASS_COUNT; i++) {
        size_t n = strlen(teg_class_names[i]);
        if (strncmp(assignment, teg_class_names[i], n) || assignment[n] != '.') continue;
        const char *f = assignment + n + 1;
        return !strncmp(f, "unit", 4) || !strncmp(f, "exec", 4) || !strncmp(f, "accept", 6);
    }
    return 0;
}

int teg_params_apply(teg_params *p, const char *assignment, char *err, size_t errlen)
{
    if (!strncmp(assignment, "teg.", 4)) assignment += 4;
    if (ck_apply(teg_keys, NKEYS, p, assignment, err, errlen) != 0) return -1;
    if (sets_class_timing(assignment)) p->units_cfg = NULL;
    return 0;
}

int teg_params_load_file(teg_params *p, const char *path, char *err, size_t errlen)
{
    if (ck_load_file(teg_keys, NKEYS, p, path, err, errlen) != 0) return -1;
    snprintf(p->name, sizeof p->name, "%s", path);
    return 0;
}

int teg_params_check(const teg_params *p, char *err, size_t errlen)
{
    if (ck_check(teg_keys, NKEYS, p, err, errlen) != 0) return -1;
    for (unsigned c = 0; c < TEG_CLASS_COUNT; c++) {
        const teg_unit_params *u = &p->unit[p->cls[c].unit];
        if (u->private_units == 0 && u->shared_units == 0) {
            snprintf(err, errlen, "teg.%s.unit = %s, but units.%s.private and units.%s.shared are 0",
                     teg_class_names[c], unit_names[p->cls[c].unit], unit_names[p->cls[c].unit],
                     unit_names[p->cls[c].unit]);
            return -1;
        }
    }
    return 0;
}

void teg_params_print(const teg_params *p, FILE *out)
{
    fprintf(out, "# TEG parameters: %s\n", p->name);
    ck_print(teg_keys, NKEYS, p, out);
}

/* Table 3.1's rows (003 L1041-1053) and the class that carries each. */
static const struct { const char *row; enum teg_class cls; } table31[] = {
    { "Integer ADD", TEG_INT },
    { "Integer MUL (16-bit)", TEG_INT },
    { "Integer MAD (16-bit)", TEG_INT },
    { "Float ADD", TEG_FP32 },
    { "Float MUL", TEG_FMUL },
    { "Float MAD", TEG_FP32 },
    { "Double ADD", TEG_FP64 },
    { "Double MUL", TEG_FP64 },
    { "Double FMA", TEG_FP64 },
};

void teg_params_table(const teg_params *p, FILE *out)
{
    fprintf(out, "TEG parameters: %s (cycles; engines %u, issue interval %u)\n\n", p->name,
            p->engines, p->issue_interval);
    fprintf(out, "| instruction | class | execution | issue, multiple warps | issue, same warp |\n");
    fprintf(out, "|---|---|---:|---:|---:|\n");
    for (size_t i = 0; i < sizeof table31 / sizeof table31[0]; i++) {
        const teg_class_params *c = &p->cls[table31[i].cls];
        fprintf(out, "| %s | %s | %u | %u | %u |\n", table31[i].row,
                teg_class_names[table31[i].cls], c->exec, c->accept, c->warp_busy);
    }
    fprintf(out, "\nThe other classes (not in Table 3.1):\n\n");
    fprintf(out, "| class | unit | execution | issue, multiple warps | issue, same warp |\n");
    fprintf(out, "|---|---|---:|---:|---:|\n");
    for (unsigned c = 0; c < TEG_CLASS_COUNT; c++) {
        if (c == TEG_INT || c == TEG_FP32 || c == TEG_FMUL || c == TEG_FP64) continue;
        const teg_class_params *k = &p->cls[c];
        fprintf(out, "| %s | %s | %u | %u | %u |\n", teg_class_names[c], unit_names[k->unit],
                k->exec, k->accept, k->warp_busy);
    }
    fprintf(out, "\nshared memory: latency %u, %u banks of %u bytes per %u lanes, %.2f cycles per extra pass\n",
            p->smem_latency, p->smem_banks, p->smem_bank_bytes, p->smem_group, p->smem_pass_cycles);
    fprintf(out, "global memory: latency %u, %u-byte sectors per %u lanes, %u bytes in flight per %u SMs, "
            "%u channels of %u bytes, %u bytes in flight each\n",
            p->gmem_latency, p->gmem_sector_bytes, p->gmem_group, p->gmem_inflight_bytes,
            p->gmem_sms_per_group, p->gmem_channels, p->gmem_channel_bytes,
            p->gmem_channel_inflight_bytes);
}

/* ---- the class of an instruction ------------------------------------------ */

static int base_is(const char *name, const char *base)
{
    size_t n = strlen(base);
    return !strncmp(name, base, n) && (name[n] == '\0' || name[n] == '.');
}

enum teg_class teg_class_of(const emu_inst_info *in)
{
    /* a SASS trace (the source gives the unit): the opcode says more */
    if (in->unit && in->name) {
        const char *s = in->name;
        if (base_is(s, "FMUL") || base_is(s, "FMUL32I")) return TEG_FMUL;
        if (base_is(s, "S2R") || base_is(s, "CS2R")) return TEG_S2R;
        if (base_is(s, "IMUL") || base_is(s, "IMAD") || base_is(s, "IMUL32I") ||
            base_is(s, "IMAD32I") || base_is(s, "XMAD"))
            return TEG_INT_MUL;
        if (base_is(s, "F2I") || base_is(s, "I2F") || base_is(s, "F2F") || base_is(s, "I2I"))
            return TEG_CONV;
    }
    switch (in->op_class) {
    case EC_INT:
        if (!in->unit) {
            if (in->op == OP_MUL || in->op == OP_MAD || in->op == OP_MADC || in->op == OP_DIV ||
                in->op == OP_REM)
                return TEG_INT_MUL;
            if (in->op == OP_CVT) return TEG_CONV;
        }
        return TEG_INT;
    case EC_FP32:
        return !in->unit && in->op == OP_MUL ? TEG_FMUL : TEG_FP32;
    case EC_FP64: return TEG_FP64;
    case EC_SFU: return TEG_SFU;
    case EC_WARP: return TEG_INT;   /* shuffles and votes: the SPs (as pipeline.c) */
    case EC_MEM:
        switch (in->mem_space) {
        case SP_SHARED: return TEG_SMEM;
        case SP_LOCAL: return TEG_LMEM;
        case SP_CONST: case SP_PARAM: return TEG_CONST;
        default: return in->is_store && !in->is_atomic ? TEG_GSTORE : TEG_GLOAD;
        }
    default:
        return TEG_BRANCH;   /* branch, barrier, exit, no-op, warp-level */
    }
}
