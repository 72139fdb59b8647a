# tests/sweep/: the sweep engine (scripts/sweep.py, docs/sweeps.md): bad specs
# rejected before anything runs, resume after a kill, and the same sweep on a
# one-node Slurm cluster started on this machine, its table byte-identical to
# the local executor's.
#
# Every results-* target is a sweep on the engine: SIZE=small|default|large|
# paper picks the inputs, RESULTS_ARGS passes the engine's options through
# (-j N, --executor slurm --partition P --time T ...), and an interrupted
# target resumes. `make results-figures` gathers their plots under the seed
# figures' names in build/results/figures/ with an index page.
.PHONY: results-figures
results-figures:
	@scripts/results-figures.py --build $(B)
ifneq ($(wildcard bench/drivers/main.c),)
TEST_SUITES += "tests/sweep/sweep-check.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim-bench $(B)/bin/smcosim $(if $(BENCH_NVCC),build/bench/vectoradd)
endif
