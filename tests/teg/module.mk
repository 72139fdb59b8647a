# tests/teg/: TEG (csrc/teg/, docs/teg.md).
#   test_teg_bound  the SGEMM upper bound against the thesis's numbers (cmocka)
#   teg-run.sh      `smcosim teg` end to end: hand-worked traces with exact
#                   cycles (../shared/design/teg.md §5.4), what-ifs, the
#                   kepler4 rule, params, bound, regbank, validate, errors
#   calibrate.sh    `smcosim teg calibrate` recovers the configured latencies
#                   and accept intervals on kepler-k20x and fermi-gtx480
# The microbenchmarks are bench/microbench/teg/ (generated calibration
# kernels: gen_teg_kernels.py, regen.sh; validation kernels: teg_validate.cu,
# regen-validate.sh; their host logic is part of the CLI, csrc/module.mk).
# Both also in the ASan/UBSan pass (the script runs the sanitized smcosim).

TEG_TEST_BINS := $(B)/tests/teg/test_teg_bound

$(B)/tests/teg/test_teg_bound: $(B)/tests/teg/test_teg_bound.o $(TEG_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(TEG_LIB) $(LDLIBS) -lcmocka -lm

.SECONDARY: $(B)/tests/teg/test_teg_bound.o

ifneq ($(TIMING_HAVE_SCHED),)
TEST_SUITES += $(TEG_TEST_BINS) "tests/teg/teg-run.sh $(B)" "tests/teg/calibrate.sh $(B)"
TEST_DEPS   += $(TEG_TEST_BINS) $(B)/bin/smcosim
SAN_SUITES  += $(TEG_TEST_BINS) "tests/teg/teg-run.sh $(B)" "tests/teg/calibrate.sh $(B)"
SAN_DEPS    += $(TEG_TEST_BINS) $(B)/bin/smcosim
endif

# `make results-teg` (docs/teg.md, "Results"): TEG beside the cycle model and
# the thesis on both presets; SIZE=small is the smoke run make test does
# (one preset, W <= 4; --check: Table 4.1 by the kepler4 rule within 5 %).
ifneq ($(TIMING_HAVE_SCHED),)
TEST_SUITES += "scripts/results-teg.py --build $(B) --size small --presets kepler-k20x --check"
.PHONY: results-teg
results-teg: $(B)/bin/smcosim
	@scripts/results-teg.py --build $(B) --size $(if $(SIZE),$(SIZE),default) \
	    --out build/results/teg/teg.md $(RESULTS_ARGS)
endif

# `make bench`'s TEG row (R8): TEG and the cycle model on the same traces.
.PHONY: bench-teg
bench-teg: $(B)/bin/smcosim
	@tests/teg/bench-teg.sh $(B)
BENCH_TARGETS += bench-teg
