# tests/hints/: the HAWS hint pass, validator and hint files (hints/,
# docs/haws.md "Hint pass"): a cmocka suite over the hand-written kernels of
# tests/hints/ptx/ and every PTX file of the repository, and a CLI test of
# `smcosim ptx-info --hints`. `make fuzz-hints` is in hints/module.mk.

HINTS_TEST := $(B)/tests/hints/test_hints

$(HINTS_TEST): $(B)/tests/hints/test_hints.o $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(EMU_LIB) $(LDLIBS) -lcmocka

.SECONDARY: $(B)/tests/hints/test_hints.o

ALL_TARGETS += $(HINTS_TEST)
TEST_SUITES += $(HINTS_TEST) "tests/hints/test_cli.sh $(B)"
TEST_DEPS   += $(HINTS_TEST) $(SMC_CLI)
SAN_SUITES  += $(HINTS_TEST)
SAN_DEPS    += $(HINTS_TEST)
