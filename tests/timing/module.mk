# tests/timing/: the GPU configuration and the SM timing model (issue 5).
# The timing tests need the scheduler core (cosim/, see csrc/timing/module.mk).

TIMING_TEST_NAMES := test_config $(if $(TIMING_HAVE_SCHED),test_timing)
TIMING_TEST_BINS  := $(patsubst %,$(B)/tests/timing/%,$(TIMING_TEST_NAMES))

$(B)/tests/timing/%: $(B)/tests/timing/%.o $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(EMU_LIB) $(LDLIBS) -lcmocka

.SECONDARY: $(patsubst %,$(B)/tests/timing/%.o,$(TIMING_TEST_NAMES))

TEST_SUITES += $(TIMING_TEST_BINS)
TEST_DEPS   += $(TIMING_TEST_BINS)
SAN_SUITES  += $(TIMING_TEST_BINS)
SAN_DEPS    += $(TIMING_TEST_BINS)

# The benchmark suite in timing mode (C back end), every policy.
ifneq ($(and $(TIMING_HAVE_SCHED),$(wildcard bench/drivers/main.c)),)
TEST_SUITES += "tests/timing/suite-timing.sh $(B)/bin/smcosim-bench c"
SAN_SUITES  += "tests/timing/suite-timing.sh $(B)/bin/smcosim-bench c"
endif

# docs/config.md's key table is the generated one.
TEST_SUITES += "tests/timing/config-doc.sh $(B)/bin/smcosim"
TEST_DEPS   += $(B)/bin/smcosim
