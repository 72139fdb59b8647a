# csrc/timing/: the cycle-level GPU/SM timing model (issue 5). Its sources
# are part of the device library (SMC_MODEL_SRCS, csrc/config/module.mk).
#
# The RTL and lockstep back ends and the waveform writer (fst.c, which uses
# the fstapi inside the Verilator runtime) are weak references: a program
# that wants them links $(TIMING_RTL_LINK) after its objects — smcosim,
# smcosim-bench and the timing tests do; the drop-in runtime does not.

TIMING_FST_OBJ  := $(B)/csrc/timing/fst.o
TIMING_RTL_LINK := $(TIMING_FST_OBJ) -Wl,-u,sched_rtl_create -Wl,-u,sched_lockstep_create \
                   $(VSCHED_LIB) -lstdc++ -lz -pthread -latomic
# fstapi's header comes with Verilator (the code is in $(VSCHED_LIB))
$(TIMING_FST_OBJ): INCLUDES += -I/usr/share/verilator/include

ifneq ($(TIMING_HAVE_SCHED),)
# smcosim and smcosim-bench get the RTL and lockstep back ends
$(SMC_CLI) $(BENCH_BIN): $(VSCHED_LIB) $(TIMING_FST_OBJ)
$(SMC_CLI) $(BENCH_BIN): LDLIBS += $(TIMING_RTL_LINK)
# `smcosim run` defaults to timing mode when the timing model is built
$(B)/csrc/cli/cmd_run.o: CFLAGS += -DSMC_HAVE_TIMING=1
endif
