# tests/cli/: what `smcosim run` checks before it starts a program.
TEST_SUITES += "tests/cli/run-checks.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim $(B)/bin/smcosim-bench
TEST_SUITES += "tests/cli/readme-check.sh $(B)"
