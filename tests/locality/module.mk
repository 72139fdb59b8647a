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

# The results command (scripts/results-locality.py): the ten Table 6.2
# benchmarks under every hint against round-robin, a Markdown table beside the
# thesis's numbers and gnuplot plots in build/results/locality/. In full on
# demand (`make results-locality`, SIZE=small|default|large|paper, default
# `default`); small inside `make test` (results-smoke.sh: it completes and the
# table has a row per benchmark).
ifneq ($(and $(TIMING_HAVE_SCHED),$(wildcard bench/drivers/main.c)),)
LOCALITY_RESULTS_SIZE ?= default
.PHONY: results-locality
results-locality: $(B)/bin/smcosim-bench $(B)/bin/smcosim
	@scripts/results-locality.py --build $(B) --size $(if $(SIZE),$(SIZE),$(LOCALITY_RESULTS_SIZE)) $(RESULTS_ARGS)

TEST_SUITES += "tests/locality/results-smoke.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim-bench
endif

# Every Table 6.2 benchmark PASSes under hints 1-3 and OWL on c, rtl and
# lockstep (small size), C = RTL (hints-pass.sh). Needs the Verilated plugin.
ifneq ($(and $(TIMING_HAVE_SCHED),$(wildcard bench/drivers/main.c),$(wildcard rtl/sched_core.sv)),)
TEST_SUITES += "tests/locality/hints-pass.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim-bench $(TIMING_PLUGIN)
endif
