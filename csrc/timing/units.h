/*
 * units.h — an instruction's functional unit (the unit.KIND.* keys), latency
 * and initiation interval as the configuration gives them (units.c).
 */
#ifndef SMC_TIMING_UNITS_H
#define SMC_TIMING_UNITS_H

#include "../emu/emu.h"
#include "gpu_config.h"

/* The unit kind (GPU_UNIT_*) of `in` under `cfg`; *lat and *ii its own
 * latency (to a dependent's issue) and initiation interval when the source
 * (a trace's SASS table) or unit.opcode_latency = g321 gives them, 0 when
 * they are the unit's (unit.KIND.latency / .ii). */
unsigned timing_unit_of(const gpu_config *cfg, const emu_inst_info *in, unsigned *lat, unsigned *ii);

#endif
