# csrc/timing/: the cycle-level GPU/SM timing model (issue 5). Archived into
# $(EMU_LIB) with the configuration (see csrc/config/module.mk), together
# with the scheduler core's C model from cosim/ (listed by file here).
# Without cosim/ in the tree, timing_absent.c makes timing mode fail with a
# message at device creation (functional mode is unaffected).
#
# The RTL and lockstep back ends are weak references: a program that wants
# them links $(TIMING_RTL_LINK) after its objects (smcosim, smcosim-bench and
# the timing tests do).

TIMING_HAVE_SCHED := $(wildcard cosim/sched_if.h)
ifneq ($(TIMING_HAVE_SCHED),)
TIMING_SRCS := csrc/timing/timing.c csrc/timing/occupancy.c csrc/timing/stats.c
TIMING_SCHED_OBJS := $(B)/cosim/sched_if.o $(B)/cosim/sched_cmodel.o
INCLUDES    += -Icosim
else
TIMING_SRCS := csrc/timing/timing_absent.c csrc/timing/occupancy.c csrc/timing/stats.c
TIMING_SCHED_OBJS :=
endif
TIMING_OBJS := $(patsubst %.c,$(B)/%.o,$(TIMING_SRCS))
INCLUDES    += -Icsrc/timing

$(EMU_LIB): $(TIMING_OBJS) $(TIMING_SCHED_OBJS)

TIMING_FST_OBJ  := $(B)/csrc/timing/fst.o
TIMING_RTL_LINK := $(TIMING_FST_OBJ) -Wl,-u,sched_rtl_create -Wl,-u,sched_lockstep_create \
                   $(VSCHED_LIB) -lstdc++ -lz -pthread -latomic
# fstapi's header comes with Verilator (the code is in $(VSCHED_LIB))
$(TIMING_FST_OBJ): INCLUDES += -I/usr/share/verilator/include

# $(EMU_LIB) is also linked into the drop-in libcudart.so.13: everything in it
# is position-independent (the timing model and the memory model reference
# stderr, which PIE code cannot do from a shared object).
$(EMU_OBJS) $(CONFIG_OBJS) $(CONFIG_DEP_OBJS) $(TIMING_OBJS) $(TIMING_SCHED_OBJS): CFLAGS += -fPIC

# `smcosim run` defaults to timing mode when the timing model is built.
ifneq ($(TIMING_HAVE_SCHED),)
$(B)/csrc/cli/cmd_run.o: CFLAGS += -DSMC_HAVE_TIMING=1
endif

# smcosim and smcosim-bench get the RTL and lockstep back ends.
ifneq ($(TIMING_HAVE_SCHED),)
$(SMC_CLI) $(BENCH_BIN): $(VSCHED_LIB) $(TIMING_FST_OBJ)
$(SMC_CLI) $(BENCH_BIN): LDLIBS += $(TIMING_RTL_LINK)
endif
