# tests/golden/: committed statistics of the benchmark suite (every preset and
# policy; C model, RTL and lockstep back ends) and of the memory model's digest.
# `make update-golden` rewrites them; the diff is reviewed in the commit.

GOLDEN_DEPS := $(BENCH_BIN) $(MEM_DIGEST)

# make test: the lockstep on every preset and policy, the plain RTL once per
# preset; make check-long: the plain RTL on every policy too.
TEST_SUITES += "tests/golden/golden.sh $(B) check quick"
TEST_DEPS   += $(GOLDEN_DEPS)
LONG_SUITES += "tests/golden/golden.sh $(B) check"

.PHONY: update-golden
update-golden: $(GOLDEN_DEPS)
	@tests/golden/golden.sh $(B) update

# The ASan/UBSan build must give the same statistics (C model back end only:
# the Verilated model is not built with the sanitizers).
SAN_SUITES  += "tests/golden/golden.sh $(B) check c"
SAN_DEPS    += $(GOLDEN_DEPS)
