/*
 * units.c — which functional unit runs an instruction, with what latency
 * and initiation interval: the one place that decides it, for the cycle
 * model (pipeline.c, whose UNIT_OP_CLASSES maps each unit kind onto the
 * scheduler core's op classes) and for TEG's from-config parameters
 * (csrc/teg/). The emulator only classifies (emu_class): units are
 * configuration, so they are decided here (docs/timing-model.md,
 * "Functional units"). The latency and interval are the instruction's own
 * when it has them: the source's (traces) or GPGPU-Sim 3.2.1's per opcode
 * (unit.opcode_latency = g321); 0: the unit's.
 */
#include "units.h"

unsigned timing_unit_of(const gpu_config *cfg, const emu_inst_info *in, unsigned *lat, unsigned *ii)
{
    *lat = in->latency;
    *ii = 0;
    if (in->unit)            /* the source names it (traces: the SASS opcode table) */
        return in->unit - 1u;
    if (cfg->opcode_latency == GPU_OPLAT_G321 && in->op_class != EC_MEM) {
        unsigned kind, type = in->op_class == EC_FP64 ? GPU_OPT_FP64
                            : in->op_class == EC_INT  ? GPU_OPT_INT : GPU_OPT_FP32;
        gpu_g321_op(cfg, in->op, type, &kind, lat, ii);
        return kind;
    }
    switch (in->op_class) {
    case EC_FP32: case EC_WARP: return GPU_UNIT_SP;
    case EC_FP64: return GPU_UNIT_DPU;
    case EC_SFU: return GPU_UNIT_SFU;
    case EC_MEM: return GPU_UNIT_LDST;
    case EC_BRANCH: case EC_BARRIER: case EC_EXIT: case EC_NOP: return GPU_UNIT_BRANCH;
    case EC_INT:
        switch (in->op) {   /* Kepler's IMU: complex integer ops (seed 000 §4.3.3) */
        case OP_MUL: case OP_MAD: case OP_MUL24: case OP_MAD24: case OP_DIV: case OP_REM:
        case OP_SAD: case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFIND: case OP_BFE:
        case OP_BFI: case OP_MADC:
            return GPU_UNIT_INT;
        default:
            return GPU_UNIT_SP;
        }
    default: return GPU_UNIT_SP;
    }
}

