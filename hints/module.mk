# hints/: the HAWS hint pass (haws_pass.h: stall points, chains, renaming,
# the validator, hand-written hint files). Its sources are part of the
# emulator library $(EMU_LIB) and the runtime's copy of it: they are added
# to SMC_MODEL_SRCS in csrc/config/module.mk, the fragment included before
# csrc/module.mk builds EMU_SRCS (this one is included after it). Tests:
# tests/hints/module.mk.

# `make fuzz-hints`: random hint words and hint-file text through the
# validator and the file parser for HINTS_FUZZ_TIME seconds, under
# AddressSanitizer and UBSan (the ASan build of tests/hints/test_hints).
HINTS_FUZZ_TIME ?= 60
.PHONY: fuzz-hints
fuzz-hints:
	@$(MAKE) --no-print-directory -j$(NPROC) SAN=1 build/asan/tests/hints/test_hints
	@build/asan/tests/hints/test_hints --fuzz $(HINTS_FUZZ_TIME)
