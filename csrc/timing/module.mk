# csrc/timing/: the cycle-level GPU/SM timing model (issue 5). Its sources
# are part of the device library (SMC_MODEL_SRCS, csrc/config/module.mk).
#
# The RTL and lockstep back ends, the traced C model (cosim/sched_open.c) and
# the waveform writer
# (fst.c, which uses the fstapi inside the Verilator runtime; timing_wave.c)
# are weak references: a program
# that wants them links $(TIMING_RTL_LINK) after its objects — smcosim,
# smcosim-bench and the timing tests do; the drop-in runtime does not.

TIMING_FST_OBJ  := $(B)/csrc/timing/fst.o
TIMING_RTL_LINK := $(TIMING_FST_OBJ) -Wl,-u,sched_rtl_create -Wl,-u,sched_lockstep_create \
                   -Wl,-u,vdlc_api_get \
                   -Wl,-u,sched_cmodel_create_traced \
                   $(VSCHED_LIB) -lstdc++ -lz -pthread -latomic
# fstapi's header comes with Verilator (the code is in $(VSCHED_LIB))
$(TIMING_FST_OBJ): INCLUDES += -I/usr/share/verilator/include

ifneq ($(TIMING_HAVE_SCHED),)
# smcosim and smcosim-bench get the RTL and lockstep back ends
$(SMC_CLI) $(BENCH_BIN): $(VSCHED_LIB) $(TIMING_FST_OBJ)
$(SMC_CLI) $(BENCH_BIN): LDLIBS += $(TIMING_RTL_LINK)
# ... and the netlist offload transport (OpenCL; cosim/offload/module.mk),
# the default of --sched offload
$(SMC_CLI) $(BENCH_BIN): $(OFFLOAD_NETLIST_OBJS)
$(SMC_CLI) $(BENCH_BIN): LDLIBS += $(OFFLOAD_NETLIST_OBJS) $(OFFLOAD_NETLIST_LDLIBS)
# `smcosim run` defaults to timing mode when the timing model is built
$(B)/csrc/cli/cmd_run.o: CFLAGS += -DSMC_HAVE_TIMING=1
endif

# ---- the RTL back-end plugin for the drop-in runtime ----------------------
# libcudart.so.13 is loaded into arbitrary nvcc-built programs, so it does
# not carry Verilator and libstdc++ itself: when --sched rtl or lockstep is
# asked for, cosim/sched_open.c dlopens $(TIMING_PLUGIN) (found next to the library
# that holds the timing model, or at $SMCOSIM_VSCHED_PLUGIN). It is built
# from the same sources as $(VSCHED_LIB) and fst.c, all position-independent:
# the C++ objects (Verilated models, shims, Verilator's runtime) are the
# library's own (cosim/module.mk compiles all C++ with -fPIC), the C ones are
# compiled once more here with -fPIC.
TIMING_PLUGIN := $(B)/lib/libsmc_vsched.so
ifneq ($(TIMING_HAVE_SCHED),)
TIMING_PLUGIN_MODELS := $(VSCHED_MODEL_OBJS) $(VDLC_MODEL_OBJ)
TIMING_PLUGIN_VRT    := $(VSCHED_RT_OBJS)
TIMING_PLUGIN_COBJS  := $(patsubst %.c,$(B)/pic/%.o,cosim/sched_if.c cosim/sched_cmodel.c \
                          cosim/sched_rtl.c cosim/sched_lockstep.c cosim/sched_ctrace.c \
                          csrc/timing/fst.c)
TIMING_PLUGIN_SHIM   := $(B)/cosim/vsched_shim.o $(B)/cosim/vdlc_shim.o

$(TIMING_PLUGIN_COBJS): $(B)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC $(INCLUDES) -I/usr/share/verilator/include -c $< -o $@

$(TIMING_PLUGIN): $(TIMING_PLUGIN_COBJS) $(TIMING_PLUGIN_SHIM) $(TIMING_PLUGIN_MODELS) $(TIMING_PLUGIN_VRT)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libsmc_vsched.so -Wl,-Bsymbolic -Wl,--no-undefined $(LDFLAGS) \
	    -o $@.tmp $^ -lstdc++ -lz -pthread -latomic -lm && mv -f $@.tmp $@

ALL_TARGETS += $(TIMING_PLUGIN)
TEST_DEPS   += $(TIMING_PLUGIN)

# ---- make demo: the default preset's RTL only ---------------------------
# `make demo` (scripts/demo.sh) runs the default preset (kepler-k20x) on the
# RTL back end, with and without a waveform, a minute or two after a fresh
# clone: it builds only what that needs. The Verilated models are most of a
# build (all of VSCHED_CONFIGS, twice: static and PIC), so the demo's
# programs get the RTL the way the drop-in runtime does, from a plugin, and
# the demo's plugin holds the two models of the default preset only
# (DEMO_VSCHED_CONFIGS: the variant without OAWS, CCWS/MASCAR and HAWS that
# its LRR and GTO runs use, and the traced whole core of its waveform run;
# other policies need the full plugin, make build/lib/libsmc_vsched.so). Everything shared
# with `make all` (the objects, the models of those two sets, the drop-in
# runtime, build/bench/NAME) is the same file made by the same rule, so
# `make all` afterwards builds only the rest. Under $(DEMO_DIR):
#   bin/smcosim, bin/smcosim-bench  the CLI and the benchmark driver, linked
#       without $(TIMING_RTL_LINK) and without LTO; RUNPATH $ORIGIN/../lib,
#       where cosim/sched_open.c's dlopen("libsmc_vsched.so") finds
#   lib/libsmc_vsched.so            the plugin, DEMO_VSCHED_CONFIGS only
#   lib/libcudart.so.13             a link to $(CUDART_SO) (`smcosim run --
#       PROGRAM` takes the runtime from ../lib; the program's runtime then
#       finds the plugin beside itself or on that LD_LIBRARY_PATH)
# With nvcc the demo runs a CUDA program (DEMO_PROGRAM, built by
# bench/module.mk) on the drop-in runtime; without, the benchmark's C driver.
DEMO_DIR           := $(B)/demo
DEMO_VSCHED_CONFIGS := 64_4_8_2_6_4_0_0_o3 64_4_8_2_6_4_8_8_t
ifneq ($(filter-out $(VSCHED_CONFIGS),$(DEMO_VSCHED_CONFIGS)),)
$(error DEMO_VSCHED_CONFIGS: $(filter-out $(VSCHED_CONFIGS),$(DEMO_VSCHED_CONFIGS)) not in VSCHED_CONFIGS (cosim/module.mk))
endif
DEMO_VSCHED_CLASSES := $(addprefix Vsc_,$(DEMO_VSCHED_CONFIGS))
DEMO_PLUGIN := $(DEMO_DIR)/lib/libsmc_vsched.so
DEMO_CLI    := $(DEMO_DIR)/bin/smcosim
DEMO_DRIVER := $(DEMO_DIR)/bin/smcosim-bench
DEMO_CUDART := $(DEMO_DIR)/lib/libcudart.so.13
DEMO_BENCH  ?= spmv
DEMO_PROGRAM := $(if $(and $(BENCH_NVCC),$(RT_HAVE_CUDA),$(RT_HAVE_EMU)),build/bench/$(DEMO_BENCH))
# -fno-lto: the objects carry LTO code, and GCC's linker plugin would run
# the link-time optimiser on them even without -flto (seconds per program)
DEMO_LDFLAGS := -fno-lto -Wl,-rpath,'$$ORIGIN/../lib'

$(DEMO_DIR)/vsched/vsched_models.h: cosim/module.mk csrc/timing/module.mk
	$(call vsched_models_h,$(DEMO_VSCHED_CONFIGS))
$(DEMO_DIR)/pic/vsched_shim.o: cosim/vsched_shim.cpp cosim/vsched_shim.h cosim/sched_if.h cosim/vl_reset.h \
                               cosim/sched_ports.h cosim/sched_ports.def cosim/sched_reasons.def \
                               $(DEMO_DIR)/vsched/vsched_models.h \
                               $(foreach c,$(DEMO_VSCHED_CLASSES),$(VSCHED_DIR)/$(c)/stamp)
	@mkdir -p $(@D)
	$(VSCHED_CXX) -Icosim -I$(DEMO_DIR)/vsched $(addprefix -I$(VSCHED_DIR)/,$(DEMO_VSCHED_CLASSES)) -c $< -o $@
# (the models first, the traced one first of all: the longest compile)
DEMO_PLUGIN_MODELS := $(foreach c,$(DEMO_VSCHED_CLASSES),$(VSCHED_DIR)/$(c).o)
$(DEMO_PLUGIN): $(filter %_t.o,$(DEMO_PLUGIN_MODELS)) $(filter-out %_t.o,$(DEMO_PLUGIN_MODELS)) \
                $(TIMING_PLUGIN_COBJS) $(DEMO_DIR)/pic/vsched_shim.o $(TIMING_PLUGIN_VRT)
	@mkdir -p $(@D)
	$(CC) -shared -fno-lto -Wl,-soname,libsmc_vsched.so -Wl,-Bsymbolic -Wl,--no-undefined $(LDFLAGS) \
	    -o $@.tmp $^ -lstdc++ -lz -pthread -latomic -lm && mv -f $@.tmp $@

$(DEMO_CLI): $(SMC_CLI_OBJS) $(TEG_LIB) $(TRACE_LIB) $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(DEMO_LDFLAGS) -o $@ $^ $(LDLIBS) $(TRACE_LDLIBS)
$(DEMO_DRIVER): $(BENCH_DRV_OBJS) $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(DEMO_LDFLAGS) -o $@ $^ $(LDLIBS)
$(DEMO_CUDART): | $(CUDART_SO)
	@mkdir -p $(@D)
	ln -sfn ../../lib/libcudart.so.13 $@

# what `make demo` builds (the Makefile's demo target), longest first
DEMO_TARGETS := $(DEMO_PLUGIN) $(if $(DEMO_PROGRAM),$(DEMO_CUDART) $(DEMO_PROGRAM),$(DEMO_DRIVER)) \
                $(DEMO_CLI)
endif
