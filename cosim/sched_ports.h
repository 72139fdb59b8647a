/*
 * sched_ports.h -- helpers for expanding the port list (sched_ports.def) and
 * the stall-reason list (sched_reasons.def).
 *
 * A port's width expressions name the Verilog parameters; where the table is
 * expanded with a sched_params at hand, SCHED_PORT_PARAMS(p) declares them
 * (the shim has them as template parameters instead, so that its field loops
 * unroll).
 */
#ifndef SMCOSIM_SCHED_PORTS_H
#define SMCOSIM_SCHED_PORTS_H

#include "sched_if.h"

/* Groups per port for each replication of sched_ports.def. */
#define SCHED_REP_ONE   1u
#define SCHED_REP_SCHED NumSchedulers
#define SCHED_REP_WB    WbPorts
#define SCHED_REP_WARP  NumWarps

/* Expand the arguments only for ports of one direction:
 *   SCHED_PORT_IF_IN(dir, code)   SCHED_PORT_IF_OUT(dir, code) */
#define SCHED_PORT_IF_IN(dir, ...)  SCHED_PORT_IF_IN_##dir(__VA_ARGS__)
#define SCHED_PORT_IF_IN_IN(...)    __VA_ARGS__
#define SCHED_PORT_IF_IN_OUT(...)
#define SCHED_PORT_IF_OUT(dir, ...) SCHED_PORT_IF_OUT_##dir(__VA_ARGS__)
#define SCHED_PORT_IF_OUT_IN(...)
#define SCHED_PORT_IF_OUT_OUT(...)  __VA_ARGS__

/* Expand the arguments only for ports of one replication (ONE, SCHED, WB):
 *   SCHED_PORT_IF_REP(rep, SCHED, code) */
#define SCHED_PORT_IF_REP(rep, want, ...) SCHED_PORT_IF_REP_##rep##_##want(__VA_ARGS__)
#define SCHED_PORT_IF_REP_ONE_ONE(...)     __VA_ARGS__
#define SCHED_PORT_IF_REP_ONE_SCHED(...)
#define SCHED_PORT_IF_REP_ONE_WB(...)
#define SCHED_PORT_IF_REP_SCHED_ONE(...)
#define SCHED_PORT_IF_REP_SCHED_SCHED(...) __VA_ARGS__
#define SCHED_PORT_IF_REP_SCHED_WB(...)
#define SCHED_PORT_IF_REP_WB_ONE(...)
#define SCHED_PORT_IF_REP_WB_SCHED(...)
#define SCHED_PORT_IF_REP_WB_WB(...)       __VA_ARGS__
#define SCHED_PORT_IF_REP_WARP_ONE(...)
#define SCHED_PORT_IF_REP_WARP_SCHED(...)
#define SCHED_PORT_IF_REP_WARP_WB(...)

/* The Verilog parameters as constants named like them, from a sched_params. */
#define SCHED_PORT_PARAMS(p)                                                        \
    const unsigned NumWarps = (p)->num_warps, NumSchedulers = (p)->num_schedulers,  \
                   RegIdWidth = (p)->reg_id_width, IbufDepth = (p)->ibuf_depth,     \
                   SbEntries = (p)->sb_entries, WbPorts = (p)->wb_ports;            \
    (void)NumWarps; (void)NumSchedulers; (void)RegIdWidth; (void)IbufDepth;         \
    (void)SbEntries; (void)WbPorts

/* Ports of sched_core, clock and reset included. */
enum {
    SCHED_NUM_PORTS = 0
#define SCHED_CLOCK_PORT(name, doc) + 1
#define SCHED_PORT(name, ...) + 1
#include "sched_ports.def"
};

#endif
