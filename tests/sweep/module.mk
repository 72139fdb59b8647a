# tests/sweep/: the sweep engine (scripts/sweep.py, docs/sweeps.md): bad specs
# rejected before anything runs, resume after a kill, and the same sweep on a
# one-node Slurm cluster started on this machine, its table byte-identical to
# the local executor's.
ifneq ($(wildcard bench/drivers/main.c),)
TEST_SUITES += "tests/sweep/sweep-check.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim-bench $(B)/bin/smcosim
endif
