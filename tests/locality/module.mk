# tests/locality/: hint-assisted locality-aware scheduling (issue 17, seed 000
# ch. 6, docs/locality.md): the launch hint plumbing and the locality CTA
# placement (test_locality, cmocka), what `smcosim run --locality` refuses
# (cli-checks.sh).

ifneq ($(TIMING_HAVE_SCHED),)
LOCALITY_TEST_BINS := $(B)/tests/locality/test_locality

# the C model back end only (the tests do not need the RTL)
$(B)/tests/locality/test_locality: $(B)/tests/locality/test_locality.o $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(EMU_LIB) $(LDLIBS) -lcmocka

.SECONDARY: $(B)/tests/locality/test_locality.o

TEST_SUITES += $(LOCALITY_TEST_BINS)
TEST_DEPS   += $(LOCALITY_TEST_BINS)
SAN_SUITES  += $(LOCALITY_TEST_BINS)
SAN_DEPS    += $(LOCALITY_TEST_BINS)
endif

ifneq ($(wildcard bench/drivers/main.c),)
TEST_SUITES += "tests/locality/cli-checks.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim $(B)/bin/smcosim-bench
endif
