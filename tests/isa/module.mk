# tests/isa — instruction-set conformance tests of the functional emulator,
# written against the public API (csrc/include/smcosim.h) only.
#
# One cmocka binary per instruction family, plus the malformed-PTX suite.
# They need the emulator library; they are registered only when a fragment
# (csrc/, included before this one) adds $(EMU_LIB) to ALL_TARGETS, so that a
# tree without the emulator still builds and checks.

ISA_FAMILIES := int float half cvt mem atom warp ctrl malformed
ISA_BINS     := $(patsubst %,$(B)/tests/isa/test_%,$(ISA_FAMILIES))
ISA_UTIL_OBJ := $(B)/tests/isa/isa_util.o
# Keep the objects (make would delete them as intermediates of the chain).
.SECONDARY: $(patsubst %,$(B)/tests/isa/test_%.o,$(ISA_FAMILIES)) $(ISA_UTIL_OBJ)

INCLUDES += -Icsrc/include

# The float and cvt references change the host rounding mode (fesetround).
$(B)/tests/isa/test_float.o $(B)/tests/isa/test_cvt.o: CFLAGS += -frounding-math

$(B)/tests/isa/test_%: $(B)/tests/isa/test_%.o $(ISA_UTIL_OBJ) $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(filter %.o %.a,$^) -o $@ -lcmocka $(LDLIBS) -lpthread

ifneq ($(filter $(strip $(EMU_LIB)),$(ALL_TARGETS)),)
ALL_TARGETS += $(ISA_BINS)
TEST_DEPS   += $(ISA_BINS)
TEST_SUITES += $(ISA_BINS)
SAN_DEPS    += $(ISA_BINS)
SAN_SUITES  += $(ISA_BINS)
endif
