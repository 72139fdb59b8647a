# csrc/trace/: Accel-Sim traces (issue 23, docs/traces.md) — the reader
# (kernelslist.g, kernel traces plain or xz through liblzma), the SASS
# opcode tables, the trace instruction source of the timing model, the
# trace-driven runner (`smcosim run --trace`) and the exporter
# (`smcosim trace-export`). Linked into smcosim only (not the runtime).
# Tests: tests/trace/.

TRACE_SRCS := csrc/trace/trace_file.c csrc/trace/trace_reader.c csrc/trace/sass_ops.c \
              csrc/trace/trace_source.c csrc/trace/trace_run.c
TRACE_OBJS := $(patsubst %.c,$(B)/%.o,$(TRACE_SRCS))
TRACE_LDLIBS := -llzma
INCLUDES += -Icsrc/trace

$(TRACE_LIB): $(TRACE_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

ifneq ($(TIMING_HAVE_SCHED),)
ALL_TARGETS += $(TRACE_LIB)
$(SMC_CLI): $(TRACE_LIB)
$(SMC_CLI): LDLIBS += $(TRACE_LDLIBS)
$(B)/csrc/cli/cmd_run.o: CFLAGS += -DSMC_HAVE_TRACE=1
endif
