/*
 * offload_ports.c -- the token layout of one parameter set, for generators
 * (scripts/offload/netlist_gen.py maps netlist pins to token bits with it).
 *
 *   offload_ports W S R D E P RCU REN
 *
 * prints, from sched_ports.def through offload_port_lookup() (so a port
 * added to the table needs no change here or in the generator):
 *
 *   clock NAME                  clk_i, then rst_ni (the RTL's clock and its
 *                               asynchronous active-low reset, in that order)
 *   in NAME LSB WIDTH           an input port at bits [LSB +: WIDTH] of the
 *                               input token
 *   out NAME LSB WIDTH          an output port in the output token
 *   bits IN_BITS OUT_BITS       token sizes (offload_in_bits/out_bits)
 *
 * Exit status 2 with a message on bad arguments or an invalid set.
 */
#include "offload_token.h"
#include "sched_ports.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 9) {
        fprintf(stderr, "usage: %s W S R D E P RCU REN (the Verilog parameters NumWarps, "
                "NumSchedulers, RegIdWidth, IbufDepth, SbEntries, WbPorts, RcuDepth, "
                "RenEntries)\n", argv[0]);
        return 2;
    }
    unsigned v[8];
    for (int i = 0; i < 8; i++) {
        char *end;
        unsigned long x = strtoul(argv[i + 1], &end, 10);
        if (*argv[i + 1] == 0 || *end || x > 1000) {
            fprintf(stderr, "%s: argument %d '%s' is not a small number\n", argv[0], i + 1,
                    argv[i + 1]);
            return 2;
        }
        v[i] = (unsigned)x;
    }
    sched_params p = { .num_warps = v[0], .num_schedulers = v[1], .reg_id_width = v[2],
                       .ibuf_depth = v[3], .sb_entries = v[4], .wb_ports = v[5],
                       .rcu_depth = v[6], .ren_entries = v[7] };
    char err[256];
    if (sched_params_check(&p, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", argv[0], err);
        return 2;
    }
    unsigned lsb, width;
#define SCHED_CLOCK_PORT(name, doc) printf("clock %s\n", #name);
#define SCHED_PORT(name, dir, rep, per, width_, gate, value, kind, doc)                  \
    if (offload_port_lookup(&p, #name, &lsb, &width) == 0)                              \
        printf("%s %s %u %u\n", SCHED_PORT_IF_IN(dir, "in") SCHED_PORT_IF_OUT(dir, "out"), \
               #name, lsb, width);
#include "sched_ports.def"
    printf("bits %u %u\n", offload_in_bits(&p), offload_out_bits(&p));
    return 0;
}
