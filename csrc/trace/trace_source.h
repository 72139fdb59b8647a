/*
 * trace_source.h — an Accel-Sim kernel trace as the timing model's
 * instruction source (csrc/timing/inst_source.h): warps replay their traced
 * instructions — active masks and addresses as recorded — through the same
 * pipeline, scheduler back ends and memory model as the emulator's
 * (docs/traces.md, "Trace-driven mode").
 */
#ifndef SMC_TRACE_SOURCE_H
#define SMC_TRACE_SOURCE_H

#include "inst_source.h"
#include "trace.h"

typedef struct trace_source trace_source;

/* Open one kernel's trace (kernel-N.traceg[.xz]): its header, and the
 * opcode table of its binary version. NULL with a message. */
trace_source *trace_source_open(const char *path, char *err, size_t errlen);
const trace_header *trace_source_header(const trace_source *s);
/* The instruction source over it (one launch: the trace is read once). */
inst_source trace_source_get(trace_source *s);
/* The launch's resources for the timing model (occupancy) from the header. */
timing_kernel_req trace_source_req(const trace_source *s);
void trace_source_close(trace_source *s);

#endif
