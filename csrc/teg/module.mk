# csrc/teg/: TEG, the analytical timing estimator of seed 003 (docs/teg.md,
# ../shared/design/teg.md): the model, its memory queues, the parameter sets,
# the register-bank rule, the SGEMM bound and the reports. Linked into
# smcosim only (`smcosim teg`), before the trace library it reads.
# Tests: tests/teg/.

TEG_SRCS := csrc/teg/teg_model.c csrc/teg/teg_mem.c csrc/teg/teg_params.c \
            csrc/teg/teg_regbank.c csrc/teg/teg_report.c csrc/teg/teg_bound.c
TEG_OBJS := $(patsubst %.c,$(B)/%.o,$(TEG_SRCS))
INCLUDES += -Icsrc/teg

$(TEG_LIB): $(TEG_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(TEG_LIB)
$(SMC_CLI): $(TEG_LIB)
