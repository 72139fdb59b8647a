/*
 * sass_ops.c — SASS opcode tables for the trace-driven mode (sass_ops.h).
 *
 * One row per base opcode (the name before the first '.'): the emulator's
 * operation class (what the timing model already understands), the
 * functional-unit kind (the unit.KIND.* keys of docs/config.md), a latency
 * category, flags and, for memory instructions, the space. Which
 * architectures have the opcode is a mask per row; the latency of each
 * category is per architecture (arch_lat below).
 *
 * Sources (docs/traces.md lists them with the same tags):
 *   [NV-ISA]   NVIDIA, "CUDA Binary Utilities", §4 "Instruction Set
 *              Reference": the opcode lists of Maxwell/Pascal, Volta,
 *              Turing and Ampere (which opcodes exist per architecture, and
 *              what each does: unit classification below follows it).
 *   [JIA18]    Z. Jia, M. Maggioni, B. Staiger, D. P. Scarpazza,
 *              "Dissecting the NVIDIA Volta GPU Architecture via
 *              Microbenchmarking", arXiv:1804.06826, 2018, §4
 *              (instruction latencies): the dependent-issue latency of the
 *              common integer and single-precision instructions is 4 cycles
 *              on Volta and 6 on Pascal and Maxwell; double precision 8 on
 *              Volta and Pascal P100.
 *   [JIA19]    Z. Jia, M. Maggioni, J. Smith, D. P. Scarpazza, "Dissecting
 *              the NVidia Turing T4 GPU via Microbenchmarking",
 *              arXiv:1903.07486, 2019, §4: Turing keeps Volta's 4-cycle
 *              ALU/FP32 latency.
 *   [ARAFA19]  Y. Arafa, A. A. Badawy, G. Chennupati, N. Santhi,
 *              S. Eidenbenz, "Low Overhead Instruction Latency
 *              Characterization for NVIDIA GPGPUs", HPEC 2019
 *              (arXiv:1905.08778): per-instruction latencies on Kepler to
 *              Turing (Pascal: 6 cycles for add/mul/mad, larger for
 *              conversions and special functions).
 *   [ABDEL22]  H. Abdelkhalik, Y. Arafa, N. Santhi, A. Badawy,
 *              "Demystifying the Nvidia Ampere Architecture through
 *              Microbenchmarking and Instruction-level Analysis", HPEC 2022
 *              (arXiv:2208.11174): Ampere's SASS latencies (4 cycles for the
 *              FP32 and integer ALU instructions).
 * Numbers marked ASSUMED are not taken from a measurement: they are a
 * round value of the right order, to be replaced by a measured one.
 */
#include "sass_ops.h"

#include <string.h>

#include "../emu/emu.h"
#include "../ptx/ptx.h"
#include "gpu_config.h"

/* architectures */
enum { A_PASCAL, A_VOLTA, A_TURING, A_AMPERE, A_COUNT };
#define P  (1u << A_PASCAL)
#define V  (1u << A_VOLTA)
#define T  (1u << A_TURING)
#define AM (1u << A_AMPERE)
#define ALL (P | V | T | AM)
#define VTA (V | T | AM)
#define TA  (T | AM)

static const sass_arch arches[A_COUNT] = {
    [A_PASCAL] = { "Pascal", { 60, 61, 62, 0 } },
    [A_VOLTA]  = { "Volta",  { 70, 72, 0 } },
    [A_TURING] = { "Turing", { 75, 0 } },
    [A_AMPERE] = { "Ampere", { 80, 86, 87, 0 } },
};

/* latency categories */
enum { L_ALU, L_FP32, L_IMUL, L_INTX, L_CONV, L_FP64, L_SFU, L_HALF, L_MMA, L_S2R, L_CTRL,
       L_MEM, L_COUNT };

/* Cycles per category and architecture (see the sources above). */
static const uint16_t arch_lat[A_COUNT][L_COUNT] = {
    /*              ALU FP32 IMUL INTX CONV FP64 SFU HALF MMA S2R CTRL MEM */
    [A_PASCAL] = {   6,   6,   6,   6,  10,   8,  14,   6,  0,  20,   6,  0 },
    [A_VOLTA]  = {   4,   4,   4,   4,  14,   8,  14,   6,  8,  20,   4,  0 },
    [A_TURING] = {   4,   4,   4,   4,  14,   8,  14,   6,  8,  20,   4,  0 },
    [A_AMPERE] = {   4,   4,   4,   4,  14,   8,  14,   6,  8,  20,   4,  0 },
};
/*
 * Where each column comes from:
 *   ALU, FP32   [JIA18] §4 (Pascal 6, Volta 4), [JIA19] (Turing 4),
 *               [ABDEL22] (Ampere 4).
 *   IMUL        Pascal's XMAD issues at the ALU rate and latency ([ARAFA19]:
 *               the 32-bit multiply is a sequence of XMADs of 6 cycles);
 *               Volta+ IMAD: 4 as FP32 ([JIA18] §4; ASSUMED equal on
 *               Turing/Ampere).
 *   INTX        POPC/FLO/BREV/BFE/BFI: ASSUMED at the ALU latency.
 *   CONV        F2I/I2F/F2F: [ARAFA19] measures conversions well above the
 *               ALU latency; 10 (Pascal) and 14 (Volta+) ASSUMED.
 *   FP64        8: [JIA18] §4 (Volta and P100). ASSUMED the same for the
 *               low-rate DP units of GP102 (sm_61), Turing and GA10x.
 *   SFU         MUFU: 14 ASSUMED (the order [ARAFA19] reports for
 *               sin/cos/ex2/rcp).
 *   HALF        HADD2/HMUL2/HFMA2: 6 ASSUMED.
 *   MMA         HMMA/IMMA/DMMA: 8 ASSUMED; the model has no tensor unit, so
 *               they run on the DP unit kind (dpu) — an ASSUMPTION to be
 *               replaced when a tensor unit is modelled.
 *   S2R         special-register reads: 20 ASSUMED (slower than the ALU:
 *               they go through the SM's special-register path).
 *   CTRL        branches and control: no result; their issue slot is what
 *               counts.
 *   MEM         memory instructions: the memory model decides.
 */

typedef struct sass_row {
    const char *name;
    uint8_t     op_class, unit, lat, flags, space, arch;
} sass_row;

#define ALU(n, a)   { n, EC_INT,  GPU_UNIT_SP,  L_ALU,  0, 0, a }
#define F32(n, a)   { n, EC_FP32, GPU_UNIT_SP,  L_FP32, 0, 0, a }
#define H16(n, a)   { n, EC_FP32, GPU_UNIT_SP,  L_HALF, 0, 0, a }
#define IMU(n, a)   { n, EC_INT,  GPU_UNIT_INT, L_IMUL, 0, 0, a }
#define INX(n, a)   { n, EC_INT,  GPU_UNIT_INT, L_INTX, 0, 0, a }
#define CNV(n, a)   { n, EC_SFU,  GPU_UNIT_SFU, L_CONV, 0, 0, a }
#define F64(n, a)   { n, EC_FP64, GPU_UNIT_DPU, L_FP64, 0, 0, a }
#define SFU(n, a)   { n, EC_SFU,  GPU_UNIT_SFU, L_SFU,  0, 0, a }
#define MMA(n, a)   { n, EC_FP64, GPU_UNIT_DPU, L_MMA,  0, 0, a }
#define WRP(n, a)   { n, EC_WARP, GPU_UNIT_SP,  L_ALU,  0, 0, a }
#define S2R(n, a)   { n, EC_INT,  GPU_UNIT_SP,  L_S2R,  0, 0, a }
#define CTL(n, c, f, a) { n, c,   GPU_UNIT_BRANCH, L_CTRL, f, 0, a }
#define MEM(n, f, s, a) { n, EC_MEM, GPU_UNIT_LDST, L_MEM, f, s, a }

static const sass_row rows[] = {
    /* integer / logic / move / compare: the SP (ALU) unit */
    ALU("MOV", ALL), ALU("MOV32I", ALL), ALU("SEL", ALL), ALU("ISETP", ALL), ALU("ICMP", P),
    ALU("IADD", P), ALU("IADD32I", P), ALU("IADD3", VTA), ALU("ISCADD", P), ALU("ISCADD32I", P),
    ALU("LEA", ALL), ALU("LOP", P), ALU("LOP32I", P), ALU("LOP3", ALL), ALU("SHL", P),
    ALU("SHR", P), ALU("SHF", ALL), ALU("PRMT", ALL), ALU("IMNMX", ALL), ALU("IABS", VTA),
    ALU("PSETP", ALL), ALU("PSET", P), ALU("PLOP3", VTA), ALU("P2R", ALL), ALU("R2P", ALL),
    ALU("CSET", P), ALU("CSETP", P), ALU("SGXT", VTA), ALU("VABSDIFF", VTA),
    ALU("VABSDIFF4", VTA), ALU("CS2R", VTA), ALU("B2R", VTA), ALU("R2B", VTA),
    /* uniform datapath (Turing+): modelled on the ALU (ASSUMED) */
    ALU("UMOV", TA), ALU("UIADD3", TA), ALU("ULOP3", TA), ALU("USHF", TA), ALU("UISETP", TA),
    ALU("USEL", TA), ALU("UPRMT", TA), ALU("ULEA", TA), ALU("UFLO", TA), ALU("UPOPC", TA),
    ALU("UBREV", TA), ALU("UBMSK", TA), ALU("UIMAD", TA), ALU("UPLOP3", TA), ALU("UP2UR", TA),
    ALU("ULDC", TA), ALU("R2UR", TA), ALU("S2UR", TA), ALU("USGXT", TA), ALU("VOTEU", TA),
    /* integer multiply and bit operations: the INT unit */
    IMU("XMAD", P), IMU("IMAD", VTA), IMU("IMAD32I", VTA), IMU("IMUL", VTA), IMU("IMUL32I", VTA),
    IMU("IDP", VTA), IMU("IDP4A", VTA),
    INX("POPC", ALL), INX("FLO", ALL), INX("BREV", ALL), INX("BFE", P), INX("BFI", P),
    INX("BMSK", VTA),
    /* single precision */
    F32("FADD", ALL), F32("FADD32I", ALL), F32("FMUL", ALL), F32("FMUL32I", ALL),
    F32("FFMA", ALL), F32("FFMA32I", ALL), F32("FSET", ALL), F32("FSETP", ALL),
    F32("FMNMX", ALL), F32("FCHK", ALL), F32("FSEL", VTA), F32("FSWZADD", ALL),
    F32("FCMP", P), F32("RRO", P),
    /* half precision pairs */
    H16("HADD2", ALL), H16("HADD2_32I", ALL), H16("HMUL2", ALL), H16("HMUL2_32I", ALL),
    H16("HFMA2", ALL), H16("HFMA2_32I", ALL), H16("HSET2", ALL), H16("HSETP2", ALL),
    H16("HMNMX2", AM),
    /* conversions */
    CNV("F2F", ALL), CNV("F2I", ALL), CNV("I2F", ALL), CNV("I2I", P), CNV("FRND", ALL),
    CNV("F2FP", AM), CNV("I2FP", AM), CNV("F2IP", AM),
    /* double precision */
    F64("DADD", ALL), F64("DMUL", ALL), F64("DFMA", ALL), F64("DSETP", ALL), F64("DSET", P),
    F64("DMNMX", P),
    /* special functions */
    SFU("MUFU", ALL),
    /* matrix (tensor) instructions: on the DP unit kind, ASSUMED (above) */
    MMA("HMMA", VTA), MMA("IMMA", TA), MMA("BMMA", TA), MMA("DMMA", AM),
    /* cross-lane */
    WRP("SHFL", ALL), WRP("VOTE", ALL), WRP("MATCH", VTA), WRP("REDUX", AM),
    S2R("S2R", ALL),
    /* control */
    CTL("BRA", EC_BRANCH, SASS_BRANCH, ALL), CTL("BRX", EC_BRANCH, SASS_BRANCH, ALL),
    CTL("JMP", EC_BRANCH, SASS_BRANCH, ALL), CTL("JMX", EC_BRANCH, SASS_BRANCH, ALL),
    CTL("CALL", EC_BRANCH, SASS_BRANCH, ALL), CTL("RET", EC_BRANCH, SASS_BRANCH, ALL),
    CTL("SSY", EC_BRANCH, 0, P), CTL("SYNC", EC_BRANCH, SASS_BRANCH, P),
    CTL("PBK", EC_BRANCH, 0, P), CTL("BRK", EC_BRANCH, SASS_BRANCH, P),
    CTL("PCNT", EC_BRANCH, 0, P), CTL("CONT", EC_BRANCH, SASS_BRANCH, P),
    CTL("PRET", EC_BRANCH, 0, P), CTL("PEXIT", EC_BRANCH, 0, P),
    CTL("BSSY", EC_BRANCH, 0, VTA), CTL("BSYNC", EC_BRANCH, SASS_BRANCH, VTA),
    CTL("BREAK", EC_BRANCH, SASS_BRANCH, VTA), CTL("BMOV", EC_BRANCH, 0, VTA),
    CTL("WARPSYNC", EC_BRANCH, 0, VTA), CTL("YIELD", EC_NOP, 0, VTA),
    CTL("KILL", EC_NOP, 0, ALL),
    CTL("EXIT", EC_EXIT, SASS_EXIT, ALL), CTL("BAR", EC_BARRIER, SASS_BARRIER, ALL),
    CTL("NOP", EC_NOP, 0, ALL), CTL("MEMBAR", EC_NOP, 0, ALL), CTL("DEPBAR", EC_NOP, 0, ALL),
    CTL("ERRBAR", EC_NOP, 0, VTA), CTL("CCTL", EC_NOP, 0, ALL), CTL("CCTLL", EC_NOP, 0, ALL),
    CTL("NANOSLEEP", EC_NOP, 0, VTA), CTL("BPT", EC_NOP, 0, ALL), CTL("ARRIVES", EC_NOP, 0, AM),
    CTL("LDGDEPBAR", EC_NOP, 0, AM), CTL("PMTRIG", EC_NOP, 0, ALL),
    /* memory: the LD/ST unit and the memory model */
    MEM("LDG", SASS_LOAD, SP_GLOBAL, ALL), MEM("STG", SASS_STORE, SP_GLOBAL, ALL),
    MEM("LD", SASS_LOAD | SASS_GENERIC, SP_GLOBAL, ALL),
    MEM("ST", SASS_STORE | SASS_GENERIC, SP_GLOBAL, ALL),
    MEM("LDS", SASS_LOAD, SP_SHARED, ALL), MEM("STS", SASS_STORE, SP_SHARED, ALL),
    MEM("LDSM", SASS_LOAD, SP_SHARED, TA),
    MEM("LDL", SASS_LOAD, SP_LOCAL, ALL), MEM("STL", SASS_STORE, SP_LOCAL, ALL),
    MEM("LDC", SASS_LOAD, SP_CONST, ALL),
    MEM("ATOM", SASS_LOAD | SASS_STORE | SASS_ATOMIC | SASS_GENERIC, SP_GLOBAL, ALL),
    MEM("ATOMG", SASS_LOAD | SASS_STORE | SASS_ATOMIC, SP_GLOBAL, VTA),
    MEM("ATOMS", SASS_LOAD | SASS_STORE | SASS_ATOMIC, SP_SHARED, ALL),
    MEM("RED", SASS_STORE | SASS_ATOMIC, SP_GLOBAL, ALL),
    MEM("LDGSTS", SASS_LOAD, SP_GLOBAL, AM),
    /* texture and surface: as global memory (ASSUMED: no texture cache) */
    MEM("TEX", SASS_LOAD, SP_GLOBAL, ALL), MEM("TEXS", SASS_LOAD, SP_GLOBAL, ALL),
    MEM("TLD", SASS_LOAD, SP_GLOBAL, ALL), MEM("TLDS", SASS_LOAD, SP_GLOBAL, ALL),
    MEM("TLD4", SASS_LOAD, SP_GLOBAL, ALL), MEM("TLD4S", SASS_LOAD, SP_GLOBAL, ALL),
    MEM("TXD", SASS_LOAD, SP_GLOBAL, ALL), MEM("TXQ", SASS_LOAD, SP_GLOBAL, ALL),
    MEM("TMML", SASS_LOAD, SP_GLOBAL, ALL),
    MEM("SULD", SASS_LOAD, SP_GLOBAL, ALL), MEM("SUST", SASS_STORE, SP_GLOBAL, ALL),
    MEM("SURED", SASS_STORE | SASS_ATOMIC, SP_GLOBAL, ALL),
    MEM("SUATOM", SASS_LOAD | SASS_STORE | SASS_ATOMIC, SP_GLOBAL, ALL),
};

const sass_arch *sass_arch_of(uint32_t binary_version)
{
    for (unsigned a = 0; a < A_COUNT; a++)
        for (unsigned i = 0; arches[a].versions[i]; i++)
            if (arches[a].versions[i] == binary_version)
                return &arches[a];
    return NULL;
}

const char *sass_arch_versions(void)
{
    return "60, 61, 62 (Pascal), 70, 72 (Volta), 75 (Turing), 80, 86, 87 (Ampere)";
}

int sass_op_lookup(const sass_arch *a, const char *opcode, sass_op *out)
{
    unsigned ai = (unsigned)(a - arches);
    size_t n = strcspn(opcode, ".");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const sass_row *r = &rows[i];
        if (!(r->arch & (1u << ai)) || strlen(r->name) != n || strncmp(r->name, opcode, n) != 0)
            continue;
        out->name = r->name;
        out->op_class = r->op_class;
        out->unit = r->unit;
        out->space = r->space;
        out->flags = r->flags;
        out->latency = arch_lat[ai][r->lat];
        return 0;
    }
    return -1;
}
