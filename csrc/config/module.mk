# csrc/config/: the GPU configuration (presets, keys, overrides) — issue 5.
# Its objects, the timing model's (csrc/timing/) and the libraries they use
# (memory model, key-table helper, scheduler C model) are archived into
# $(EMU_LIB) as well, because the device API (csrc/device/) hands launches to
# the timing model: every program that links the device API keeps linking
# just $(EMU_LIB).

CONFIG_SRCS := csrc/config/gpu_config.c
CONFIG_OBJS := $(patsubst %.c,$(B)/%.o,$(CONFIG_SRCS))
INCLUDES    += -Icsrc/config -Icsrc/util -Imem-model

# Objects of other folders, listed by file so that this fragment does not
# depend on the order in which fragments are included.
CONFIG_DEP_OBJS := $(patsubst %.c,$(B)/%.o,csrc/util/config_keys.c \
                     mem-model/mem.c mem-model/coalesce.c mem-model/mem_config.c \
                     mem-model/mem_stats.c)

$(EMU_LIB): $(CONFIG_OBJS) $(CONFIG_DEP_OBJS)
