# tests/oaws-results/: the OAWS results command (scripts/results-oaws.py,
# docs/oaws.md "Results"): the seed 001 Table 2 benchmarks that the suite has
# on fermi-gtx480 (= Table 1) under GTO, SWL-Best (Table 3 limits), and every
# OAWS / peer policy the binary accepts (the others are listed as "not
# available in this build"), IPC normalised to GTO, LD/ST stalls, MSHR,
# allocation-policy and SMR sweeps, deep interconnect queues; Markdown beside
# the paper's numbers and gnuplot plots in build/results/oaws/. In full on
# demand (`make results-oaws`, SIZE=small|default|large|paper, default `default`);
# small and quick inside `make test` (results-smoke.sh).
ifneq ($(and $(TIMING_HAVE_SCHED),$(wildcard bench/drivers/main.c)),)
OAWS_RESULTS_SIZE ?= default
.PHONY: results-oaws
results-oaws: $(B)/bin/smcosim-bench $(B)/bin/smcosim
	@scripts/results-oaws.py --build $(B) --size $(if $(SIZE),$(SIZE),$(OAWS_RESULTS_SIZE)) $(RESULTS_ARGS)

# both machines of issue 36 side by side with the paper: the GPGPU-Sim 3.2.1
# machine (build/results/oaws), the one-clock one (build/results/oaws-v1)
.PHONY: results-oaws-compare
results-oaws-compare: $(B)/bin/smcosim-bench $(B)/bin/smcosim
	@scripts/results-oaws.py --build $(B) --size $(if $(SIZE),$(SIZE),$(OAWS_RESULTS_SIZE)) $(RESULTS_ARGS)
	@scripts/results-oaws.py --build $(B) --size $(if $(SIZE),$(SIZE),$(OAWS_RESULTS_SIZE)) $(RESULTS_ARGS) \
	    --preset fermi-gtx480-v1 --out $(B)/results/oaws-v1
	@scripts/results-oaws-compare.py $(B)/results/oaws-v1/results.json \
	    $(B)/results/oaws/results.json $(B)/results/oaws/compare.md

TEST_SUITES += "tests/oaws-results/results-smoke.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim-bench $(B)/bin/smcosim
endif
