# tests/mutants/module.mk — detection power of the benchmark checks
# (docs/testing.md, "Detection power").
#
#   make mutants   the mutation run (scripts/mutants.py): seeded single-line
#                  mutants of bench/ptx/*.ptx with default and general inputs,
#                  report in build/mutants/report.md (not part of make test)
#   tests/mutants/guard.sh (make check): a handful of mutants that survived
#                  the default inputs must be killed by --inputs general

TEST_SUITES += "tests/mutants/guard.sh $(BENCH_BIN)"

.PHONY: mutants
mutants: $(BENCH_BIN)
	@scripts/mutants.py --bin $(BENCH_BIN) --jobs 2
