# csrc/: PTX loader (ptx/), functional emulator (emu/), device API (device/),
# CLI (cli/). Tests live in tests/emu/ (tests/emu/module.mk).

# csrc/emu/: one file per concern and PTX instruction family (exec_internal.h)
EMU_SRCS := $(SMC_MODEL_SRCS) csrc/ptx/parse.c csrc/ptx/link.c $(sort $(wildcard csrc/emu/*.c)) \
            csrc/device/devmem.c csrc/device/device.c \
            csrc/device/locality.c
EMU_SRCS += csrc/util/status.c
# the device writes Accel-Sim traces of functional launches (SMCOSIM_TRACE_EXPORT)
EMU_SRCS += csrc/trace/trace_export.c
EMU_OBJS := $(patsubst %.c,$(B)/%.o,$(EMU_SRCS))
INCLUDES += -Icsrc/include

# Rounding-mode changes (fesetround) must not be optimised across: every
# file of the emulator (the float families, cvt, atomics, the fast paths).
$(B)/csrc/emu/%.o: CFLAGS += -frounding-math

$(EMU_LIB): $(EMU_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

SMC_CLI := $(B)/bin/smcosim
# Subcommands: one file each in csrc/cli/ (see csrc/cli/main.c).
SMC_CLI_SRCS := $(wildcard csrc/cli/*.c)
# `smcosim diag` (cmd_diag.c) runs the GPUDIAG host logic (docs/gpudiag.md)
SMC_CLI_SRCS += bench/microbench/gpudiag.c
# `smcosim teg validate` (cmd_teg.c) launches seed 003's validation kernels
SMC_CLI_SRCS += bench/microbench/teg/teg_validate.c
# `smcosim teg calibrate`: TEG's calibration microbenchmarks' host logic
SMC_CLI_SRCS += bench/microbench/teg/teg_calib.c
SMC_CLI_OBJS := $(patsubst %.c,$(B)/%.o,$(SMC_CLI_SRCS))

# csrc/teg/ (`smcosim teg`) reads traces, and csrc/trace/ (trace mode) uses
# the timing model in $(EMU_LIB): in that order
SMC_CLI_TRACE := $(if $(wildcard cosim/sched_if.h),$(TEG_LIB) $(TRACE_LIB))
$(SMC_CLI): $(SMC_CLI_OBJS) $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(SMC_CLI_OBJS) $(SMC_CLI_TRACE) $(EMU_LIB) $(LDLIBS)

ALL_TARGETS += $(EMU_LIB) $(SMC_CLI)
