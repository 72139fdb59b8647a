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
# from the same sources as $(VSCHED_LIB) and fst.c, all compiled
# position-independent (the Verilated models once more, with -fPIC).
TIMING_PLUGIN := $(B)/lib/libsmc_vsched.so
ifneq ($(TIMING_HAVE_SCHED),)
TIMING_PLUGIN_MODELS := $(foreach c,$(VSCHED_CLASSES) Vdlc,$(VSCHED_DIR)/pic/$(c).o)
TIMING_PLUGIN_VRT    := $(patsubst $(VSCHED_RT_DIR)/%,$(VSCHED_RT_DIR)/pic/%,$(VSCHED_RT_OBJS))
TIMING_PLUGIN_COBJS  := $(patsubst %.c,$(B)/pic/%.o,cosim/sched_if.c cosim/sched_cmodel.c \
                          cosim/sched_rtl.c cosim/sched_lockstep.c cosim/sched_ctrace.c \
                          csrc/timing/fst.c)
TIMING_PLUGIN_SHIM   := $(B)/pic/cosim/vsched_shim.o $(B)/pic/cosim/vdlc_shim.o

# the unity file: cosim/module.mk
$(VSCHED_DIR)/pic/%.o: $(VSCHED_DIR)/%__unity.cpp
	@mkdir -p $(@D)
	$(VSCHED_CXX) -fPIC -I$(VSCHED_DIR)/$* -c $(VSCHED_DIR)/$*__unity.cpp -o $@
$(VSCHED_RT_DIR)/pic/%.o: $(VERILATOR_INC)/%.cpp
	@mkdir -p $(@D)
	$(VSCHED_CXX) -fPIC -c $< -o $@
$(TIMING_PLUGIN_COBJS): $(B)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC $(INCLUDES) -I/usr/share/verilator/include -c $< -o $@
$(B)/pic/cosim/vsched_shim.o: cosim/vsched_shim.cpp $(B)/cosim/vsched_shim.o
	@mkdir -p $(@D)
	$(VSCHED_CXX) -fPIC -Icosim -I$(VSCHED_DIR) $(addprefix -I$(VSCHED_DIR)/,$(VSCHED_CLASSES)) -c $< -o $@
$(B)/pic/cosim/vdlc_shim.o: cosim/vdlc_shim.cpp $(B)/cosim/vdlc_shim.o
	@mkdir -p $(@D)
	$(VSCHED_CXX) -fPIC -Icosim -I$(VDLC_DIR) -c $< -o $@

$(TIMING_PLUGIN): $(TIMING_PLUGIN_COBJS) $(TIMING_PLUGIN_SHIM) $(TIMING_PLUGIN_MODELS) $(TIMING_PLUGIN_VRT)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libsmc_vsched.so -Wl,-Bsymbolic -Wl,--no-undefined $(LDFLAGS) \
	    -o $@.tmp $^ -lstdc++ -lz -pthread -latomic -lm && mv -f $@.tmp $@

ALL_TARGETS += $(TIMING_PLUGIN)
TEST_DEPS   += $(TIMING_PLUGIN)
endif
