/*
 * trace_export.h — writing Accel-Sim traces from programs run on smcosim's
 * emulator (`smcosim trace-export`, docs/traces.md "Exporting"): a
 * kernelslist.g with the host-to-device copies and one kernel-N.traceg per
 * launch, in the tracer's format (version 4) with PTX-level opcodes.
 *
 * PTX-level opcodes: "-binary version = 0" marks the file; each opcode is
 * the PTX instruction name, the emulator's operation class and, for memory
 * instructions, the state space, upper case and dot-separated:
 * "ADD.FP32", "MAD.INT", "LD.MEM.GLOBAL", "BAR.BARRIER", "EXIT.EXIT". The
 * trace reader maps them back (trace_ptx_opcode_parse) to what the emulator
 * would tell the timing model, so a round trip times the same instructions.
 */
#ifndef SMC_TRACE_EXPORT_H
#define SMC_TRACE_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "../emu/emu.h"

#define TRACE_PTX_BINARY_VERSION 0   /* "-binary version" of PTX-level traces */

typedef struct trace_export trace_export;

/* Start exporting into folder dir (created if missing; kernelslist.g is
 * rewritten). NULL with a message. */
trace_export *trace_export_open(const char *dir, char *err, size_t errlen);
/* A host-to-device copy: a "MemcpyHtoD,ADDR,BYTES" line. */
void trace_export_memcpy(trace_export *x, uint64_t dst, uint64_t bytes);
/* Run launch l functionally (CTAs one after another, the warps of a CTA one
 * instruction each in turn) and write it as the next kernel-N.traceg. The
 * launch's status (SMC_OK, the emulator's fault, or SMC_ERR_LAUNCH_FAILED
 * with msg when the file cannot be written). */
smc_status trace_export_launch(trace_export *x, emu_launch *l, const emu_kernel *ek,
                               const char *kernel_name, smc_dim3 grid, smc_dim3 block,
                               uint32_t smem_bytes, uint32_t regs_per_thread,
                               char *msg, size_t msglen);
void trace_export_close(trace_export *x);

/* The PTX-level opcode of an emulator instruction (buffer of cap bytes). */
void trace_ptx_opcode(const emu_inst_info *in, char *buf, size_t cap);
/* Parse one back into op, op_class, mem_space and the flags an emulator
 * instruction has (is_load, ..., long_latency). 0, or -1 when it is not one. */
int  trace_ptx_opcode_parse(const char *opcode, emu_inst_info *in);

#endif
