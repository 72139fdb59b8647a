# tests/cli/: what `smcosim run` checks before it starts a program.
TEST_SUITES += "tests/cli/run-checks.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim $(B)/bin/smcosim-bench
TEST_SUITES += "tests/cli/readme-check.sh $(B)"
# `make demo`'s script on make demo's programs, small (tests/cli/demo-check.sh)
TEST_SUITES += "tests/cli/demo-check.sh $(B)"
TEST_DEPS   += $(DEMO_CLI) $(DEMO_DRIVER) $(DEMO_PLUGIN) $(if $(DEMO_PROGRAM),$(DEMO_CUDART) $(DEMO_PROGRAM))
