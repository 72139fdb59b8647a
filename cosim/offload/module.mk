# cosim/offload/ -- the offload path (docs/offload.md): the token codec, the
# transports' table with the C-model transport, the `offload` back end's
# group (offload_group.c) and the replay check (offload_check.c); beside
# them cosim/sched_group.c (all SMs' cores stepped together) and the door
# sched_open.c, which the group layer opens back ends through.
#
# They go into $(SCHED_LIB) (the rule's recipe archives $^, so extra
# prerequisites here are archived too) and, through SMC_MODEL_SRCS
# (csrc/config/module.mk), into the device library.

OFFLOAD_LIB_OBJS := $(B)/cosim/sched_group.o $(B)/cosim/sched_open.o \
                    $(B)/cosim/offload/offload_group.o $(B)/cosim/offload/offload_check.o
$(SCHED_LIB): $(OFFLOAD_LIB_OBJS)

# make bench: the offload table (offload_bench.c; docs/offload.md, "Bench"),
# then end-to-end rows through smcosim run. OFFLOAD_BENCH_TRANSPORT picks
# the transport (default cmodel).
OFFLOAD_BENCH := $(B)/cosim/offload/offload_bench
OFFLOAD_BENCH_TRANSPORT ?= cmodel
$(OFFLOAD_BENCH): $(B)/cosim/offload/offload_bench.o $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) -Wl,-u,sched_rtl_create $^ -o $@ $(VSCHED_LDLIBS) $(LDLIBS)
ALL_TARGETS += $(OFFLOAD_BENCH)

.PHONY: offload-bench
offload-bench: $(OFFLOAD_BENCH) $(B)/bin/smcosim
	@tests/offload/bench-offload.sh $(B) $(OFFLOAD_BENCH_TRANSPORT)
BENCH_TARGETS += offload-bench
