# tests/haws/: HAWS end to end (docs/haws.md). The timing-model tests with
# generated kernels are tests/timing/test_haws.c; the hint pass's are
# tests/hints/.
#
# The results command (scripts/results-haws.py): the Table 5.1/5.3
# benchmarks without and with HAWS on kepler-k20x (LRR, GTO) and si-7970
# (GTO), the other trigger and an RCU-depth sweep, Markdown beside the
# thesis's numbers and gnuplot plots in build/results/haws/. In full on demand
# (`make results-haws`, SIZE=small|default|large|paper, default `default`); small
# and quick inside `make test` (results-smoke.sh).
ifneq ($(and $(TIMING_HAVE_SCHED),$(wildcard bench/drivers/main.c)),)
HAWS_RESULTS_SIZE ?= default
.PHONY: results-haws
results-haws: $(B)/bin/smcosim-bench $(B)/bin/smcosim
	@scripts/results-haws.py --build $(B) --size $(if $(SIZE),$(SIZE),$(HAWS_RESULTS_SIZE)) $(RESULTS_ARGS)

# the Gong thesis's machines of issue 37 beside the presets before them and
# the thesis: HAWS and locality on both (build/results/{haws,locality}{,-v1}),
# three columns in build/results/haws/compare.md
.PHONY: results-gong-compare
results-gong-compare: $(B)/bin/smcosim-bench $(B)/bin/smcosim
	@for m in v1 faithful; do \
	  scripts/results-haws.py --build $(B) --size $(if $(SIZE),$(SIZE),$(HAWS_RESULTS_SIZE)) \
	      $(RESULTS_ARGS) --machine $$m && \
	  scripts/results-locality.py --build $(B) --size $(if $(SIZE),$(SIZE),$(HAWS_RESULTS_SIZE)) \
	      $(RESULTS_ARGS) --machine $$m || exit 1; done
	@scripts/results-gong-compare.py $(B)/results/haws-v1/results.json \
	    $(B)/results/haws/results.json $(B)/results/locality-v1/results.json \
	    $(B)/results/locality/results.json $(B)/results/haws/compare.md

TEST_SUITES += "tests/haws/results-smoke.sh $(B)" "tests/haws/gong-compare-smoke.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim-bench
endif

# The whole suite with HAWS on (tests/haws/haws-suite.sh): every benchmark
# PASSes under both triggers and every policy, c and rtl or lockstep (both
# under both triggers in check-long), counts equal HAWS off; the C model's
# part again under ASan/UBSan.
ifneq ($(and $(TIMING_HAVE_SCHED),$(wildcard bench/drivers/main.c)),)
TEST_SUITES += "tests/haws/haws-suite.sh $(B)"
SAN_SUITES  += "tests/haws/haws-suite.sh $(B) c"
LONG_SUITES += "tests/haws/haws-suite.sh $(B) long"
endif
