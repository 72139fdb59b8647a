# tests/oaws/: OAWS end to end (docs/oaws.md). The core's directed tests are
# tests/sched/test_sched_oaws.c, the SM side's tests/timing/test_oaws.c.
#
# The whole suite under oaws-static and oaws-dyn on fermi-gtx480
# (tests/oaws/oaws-suite.sh): every benchmark PASSes, c/rtl/lockstep, counts
# equal GTO, oaws-static:0 = GTO; the C model's part again under ASan/UBSan.
ifneq ($(and $(TIMING_HAVE_SCHED),$(wildcard bench/drivers/main.c)),)
TEST_SUITES += "tests/oaws/oaws-suite.sh $(B)"
SAN_SUITES  += "tests/oaws/oaws-suite.sh $(B) c"
LONG_SUITES += "tests/oaws/oaws-suite.sh $(B) long"
TEST_DEPS   += $(B)/bin/smcosim-bench $(TIMING_PLUGIN)
endif

# make bench: OAWS's and the peers' simulation speed against GTO
# (tests/oaws/bench-oaws.sh; issue 18's goal: at least 0.80)
.PHONY: bench-oaws
bench-oaws: $(B)/bin/smcosim
	@tests/oaws/bench-oaws.sh $(B)
BENCH_TARGETS += bench-oaws
