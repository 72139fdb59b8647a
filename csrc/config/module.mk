# csrc/config/: the GPU configuration (presets, keys, overrides) — issue 5.
#
# The device API (csrc/device/) hands launches to the timing model, so the
# configuration, the timing model (csrc/timing/) and what they use — the
# memory model, the key-table helper and the scheduler core's C model — are
# part of the device library: SMC_MODEL_SRCS is added to EMU_SRCS in
# csrc/module.mk (this fragment is included before it), so $(EMU_LIB) and the
# runtime's position-independent copy both get them. Without the scheduler
# core (cosim/) in the tree, timing_absent.c makes timing mode fail with a
# message at device creation.

TIMING_HAVE_SCHED := $(wildcard cosim/sched_if.h)
SMC_MODEL_SRCS := csrc/config/gpu_config.c csrc/util/config_keys.c csrc/util/fail.c \
                  mem-model/mem.c mem-model/mem_l1d.c mem-model/mem_l1i.c mem-model/mem_dup.c \
                  mem-model/mem_icnt.c mem-model/mem_l2.c mem-model/mem_dram.c \
                  mem-model/mem_inst.c mem-model/coalesce.c mem-model/mem_config.c \
                  mem-model/mem_stats.c mem-model/mem_vta.c mem-model/mem_probe.c \
                  csrc/timing/occupancy.c csrc/timing/stats.c csrc/timing/units.c
ifneq ($(TIMING_HAVE_SCHED),)
SMC_MODEL_SRCS += csrc/timing/timing.c cosim/sched_if.c cosim/sched_cmodel.c csrc/timing/oaws.c csrc/timing/peers.c \
                  csrc/timing/ldst_path.c
SMC_MODEL_SRCS += cosim/sched_open.c cosim/sched_group.c cosim/dlc.c cosim/dlc_cmodel.c
# the offload back end (docs/offload.md): its group, the replay check, the
# token codec and the transports' table with the C-model transport
SMC_MODEL_SRCS += cosim/offload/offload_group.c cosim/offload/offload_check.c \
                  cosim/offload/offload_token.c cosim/offload/offload_transports.c \
                  cosim/offload/offload_cmodel.c
SMC_MODEL_SRCS += csrc/timing/pipeline.c csrc/timing/dispatch.c csrc/timing/locality_detect.c csrc/timing/timing_wave.c \
                  csrc/timing/inst_source_emu.c csrc/timing/timing_lockstep.c
else
SMC_MODEL_SRCS += csrc/timing/timing_absent.c
endif
# The HAWS hint pass (hints/; its tests and fuzz target in hints/module.mk,
# which is included after this fragment): the timing model calls it at launch.
SMC_MODEL_SRCS += $(sort $(wildcard hints/*.c))
CONFIG_OBJS := $(B)/csrc/config/gpu_config.o
INCLUDES    += -Icsrc/config -Icsrc/util -Imem-model -Icsrc/timing $(if $(TIMING_HAVE_SCHED),-Icosim)
