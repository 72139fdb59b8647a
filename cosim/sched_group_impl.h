/*
 * sched_group_impl.h -- for implementations of sched_group.h only: the
 * group's vtable and common state. sched_group.c implements the looping
 * kinds (with an optional replay check), cosim/offload/offload_group.c
 * the offload kind.
 */
#ifndef SMCOSIM_SCHED_GROUP_IMPL_H
#define SMCOSIM_SCHED_GROUP_IMPL_H

#include "sched_group.h"

typedef struct sched_group_ops {
    void (*reset)(sched_group *g);
    /* as sched_group_step, on a group that has not failed; on -1 it sets
     * *failed and g->failed_cycle */
    int  (*step)(sched_group *g, const sched_inputs *in, const uint8_t *active,
                 unsigned *failed);
    int  (*sync)(sched_group *g, unsigned *failed);   /* NULL: nothing queued */
    void (*member_close)(sched_group *g, unsigned i);
    int  (*member_open)(sched_group *g, unsigned i, const sched_trace_opts *trace,
                        char *err, size_t errlen);
    int  (*set_mutator)(sched_group *g, unsigned i, sched_mutator fn, void *ctx,
                        char *err, size_t errlen);
    void (*close)(sched_group *g);
} sched_group_ops;

struct sched_group {
    const sched_group_ops *ops;
    sched_params    params;
    unsigned        n;
    sched_backend **member;        /* n views */
    uint64_t        cycle;         /* steps since reset */
    uint64_t        failed_cycle;
    int             failed;        /* sticky until reset */
    unsigned        failed_member;
    char            desc[192];     /* sched_group_describe */
};

/* The offload kind's group (offload_group.c). arg: the transport spec. */
sched_group *offload_group_open(const sched_params *p, unsigned n, const char *arg,
                                const sched_group_opts *o, char *err, size_t errlen);
/* One offload instance as a plain back end (sched_open("offload:SPEC")):
 * a one-member group whose member owns it. */
sched_backend *offload_backend_open(const sched_params *p, const char *arg,
                                    const sched_trace_opts *trace, char *err, size_t errlen);

/* sched_open.c: how the kind named in `kind` ("name[:arg]") opens a group:
 * 1 with *native set (the kind's own group, taking *arg) or 0 (loop over
 * sched_open(kind)); -1 with a message when the kind is unknown. */
typedef sched_group *(*sched_group_open_fn)(const sched_params *p, unsigned n, const char *arg,
                                            const sched_group_opts *o, char *err,
                                            size_t errlen);
int sched_kind_group(const char *kind, sched_group_open_fn *native, const char **arg,
                     char *err, size_t errlen);

#endif
