# tests/timing/: the GPU configuration and the SM timing model (issue 5).

TIMING_TEST_NAMES := test_config
TIMING_TEST_BINS  := $(patsubst %,$(B)/tests/timing/%,$(TIMING_TEST_NAMES))

$(B)/tests/timing/%: $(B)/tests/timing/%.o $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(EMU_LIB) $(LDLIBS) -lcmocka

.SECONDARY: $(patsubst %,$(B)/tests/timing/%.o,$(TIMING_TEST_NAMES))

TEST_SUITES += $(TIMING_TEST_BINS)
TEST_DEPS   += $(TIMING_TEST_BINS)
SAN_SUITES  += $(TIMING_TEST_BINS)
SAN_DEPS    += $(TIMING_TEST_BINS)
