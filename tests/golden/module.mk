# tests/golden/: committed statistics of the benchmark suite (every preset and
# policy; C model, RTL and lockstep back ends) and of the memory model's digest.
# `make update-golden` rewrites them; the diff is reviewed in the commit.

GOLDEN_DEPS := $(BENCH_BIN) $(MEM_DIGEST)

TEST_SUITES += "tests/golden/golden.sh $(B) check"
TEST_DEPS   += $(GOLDEN_DEPS)

.PHONY: update-golden
update-golden: $(GOLDEN_DEPS)
	@tests/golden/golden.sh $(B) update

# The ASan/UBSan build must give the same statistics (C model back end only:
# the Verilated model is not built with the sanitizers).
SAN_SUITES  += "tests/golden/golden.sh $(B) check c"
SAN_DEPS    += $(GOLDEN_DEPS)
