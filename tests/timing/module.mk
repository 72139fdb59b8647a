# tests/timing/: the GPU configuration and the SM timing model (issue 5).
# The timing tests need the scheduler core (cosim/, see csrc/timing/module.mk).

TIMING_TEST_NAMES := test_config $(if $(TIMING_HAVE_SCHED),test_timing test_watchdog test_haws test_oaws)
TIMING_TEST_BINS  := $(patsubst %,$(B)/tests/timing/%,$(TIMING_TEST_NAMES))

$(B)/tests/timing/%: $(B)/tests/timing/%.o $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(EMU_LIB) $(LDLIBS) -lcmocka

# the timing and watchdog tests also drive the RTL and lockstep back ends
ifneq ($(TIMING_HAVE_SCHED),)
TIMING_RTL_TESTS := $(B)/tests/timing/test_timing $(B)/tests/timing/test_watchdog $(B)/tests/timing/test_haws \
                    $(B)/tests/timing/test_oaws
$(TIMING_RTL_TESTS): $(VSCHED_LIB) $(TIMING_FST_OBJ)
$(TIMING_RTL_TESTS): LDLIBS += $(TIMING_RTL_LINK)
endif

.SECONDARY: $(patsubst %,$(B)/tests/timing/%.o,$(TIMING_TEST_NAMES))

TEST_SUITES += $(TIMING_TEST_BINS)
TEST_DEPS   += $(TIMING_TEST_BINS)
SAN_SUITES  += $(TIMING_TEST_BINS)
SAN_DEPS    += $(TIMING_TEST_BINS)

# (The benchmark suite in timing mode under every policy and back end is
# tests/golden/golden.sh, which also compares the statistics with committed ones.)
# The waveform (--fst) read back with fst2vcd. The printed summary's memory
# lines against the JSON.
ifneq ($(and $(TIMING_HAVE_SCHED),$(wildcard bench/drivers/main.c)),)
TEST_SUITES += "tests/timing/fst-check.sh $(B)" \
               "tests/timing/sigint-check.sh $(B)/bin/smcosim-bench" \
               "tests/timing/summary-check.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim $(B)/bin/smcosim-bench
endif

# nvcc-built programs under --sched rtl|lockstep through the drop-in runtime
# and the plugin libsmc_vsched.so (SKIPs without nvcc).
ifneq ($(TIMING_HAVE_SCHED),)
TEST_SUITES += "tests/timing/cuda-backends.sh $(B)" "tests/timing/mismatch-fst.sh $(B)" \
               "tests/timing/fst-cuda.sh $(B)" \
               "tests/timing/swl-barrier.sh $(B)" \
               "tests/timing/per-sm.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim $(TIMING_PLUGIN) $(CUDART_SO)
endif

# docs/config.md's key table is the generated one.
TEST_SUITES += "tests/timing/config-doc.sh $(B)/bin/smcosim"
TEST_DEPS   += $(B)/bin/smcosim

# make bench: the timing model's speed per back end (tests/timing/bench-timing.sh)
.PHONY: bench-timing
bench-timing: $(B)/bin/smcosim $(B)/bin/smcosim-bench
	@tests/timing/bench-timing.sh $(B)
BENCH_TARGETS += bench-timing

# cudaEventElapsedTime in timing mode: an nvcc-built program (when nvcc is
# present; the script SKIPs otherwise).
TIMING_NVCC := $(firstword $(wildcard /usr/local/cuda/bin/nvcc) $(shell command -v nvcc 2>/dev/null))
ifneq ($(and $(TIMING_HAVE_SCHED),$(TIMING_NVCC)),)
$(B)/tests/timing/event_time: tests/timing/event_time.cu
	@mkdir -p $(@D)
	$(TIMING_NVCC) --cudart shared -O2 -Wno-deprecated-gpu-targets \
	    -gencode arch=compute_75,code=compute_75 $< -o $@.tmp && mv -f $@.tmp $@
TEST_DEPS   += $(B)/tests/timing/event_time
$(B)/tests/timing/hang: tests/timing/hang.cu
	@mkdir -p $(@D)
	$(TIMING_NVCC) --cudart shared -O2 -Wno-deprecated-gpu-targets \
	    -gencode arch=compute_75,code=compute_75 $< -o $@.tmp && mv -f $@.tmp $@
TEST_DEPS   += $(B)/tests/timing/hang
endif
ifneq ($(TIMING_HAVE_SCHED),)
TEST_SUITES += "tests/timing/event-time.sh $(B)" "tests/timing/hang-check.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim $(TIMING_PLUGIN) $(CUDART_SO)
endif
