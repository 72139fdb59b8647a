# csrc/util/: small helpers shared by every part of the C side.
#   fail         smc_fail(), the one error-message helper (err, errlen -> -1)
#   config_keys  the "configuration as a key table" mechanism (presets,
#                key=value overrides, config files, printing, Markdown docs)

UTIL_LIB := $(B)/lib/libsmc_util.a
UTIL_SRCS := csrc/util/config_keys.c csrc/util/fail.c
UTIL_OBJS := $(UTIL_SRCS:%.c=$(B)/%.o)

$(UTIL_LIB): $(UTIL_OBJS)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

ALL_TARGETS += $(UTIL_LIB)
