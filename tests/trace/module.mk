# tests/trace/: Accel-Sim traces (csrc/trace/, docs/traces.md).
#   test_trace      the reader and the opcode tables (cmocka)
#   trace-run.sh    trace-driven mode end to end: the shared real traces under
#                   c, rtl and lockstep, synthetic traces with hand-computed
#                   results, error messages
# `make fuzz-trace`: the reader under libFuzzer (or a seeded mutation loop).

ifneq ($(TIMING_HAVE_SCHED),)
TRACE_TEST_BINS := $(B)/tests/trace/test_trace

$(B)/tests/trace/test_trace: $(B)/tests/trace/test_trace.o $(TRACE_LIB) $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(TRACE_LIB) $(EMU_LIB) $(LDLIBS) -llzma -lcmocka

.SECONDARY: $(B)/tests/trace/test_trace.o

TEST_SUITES += $(TRACE_TEST_BINS) "tests/trace/trace-run.sh $(B)"
TEST_DEPS   += $(TRACE_TEST_BINS) $(B)/bin/smcosim $(B)/bin/smcosim-bench
SAN_SUITES  += $(TRACE_TEST_BINS)
SAN_DEPS    += $(TRACE_TEST_BINS)
endif

TRACE_FUZZ_SRCS := tests/trace/fuzz_trace.c csrc/trace/trace_file.c csrc/trace/trace_reader.c
TRACE_FUZZ_TIME ?= 60
.PHONY: fuzz-trace
fuzz-trace:
	@mkdir -p build/fuzz/trace-corpus
	@if clang -fsanitize=fuzzer,address,undefined -g -O1 $(CSTD) -Icsrc/trace \
	      $(TRACE_FUZZ_SRCS) -llzma -o build/fuzz/fuzz_trace 2>build/fuzz/clang-trace.log; then \
	  echo "fuzz-trace: libFuzzer, $(TRACE_FUZZ_TIME) s"; \
	  build/fuzz/fuzz_trace -max_total_time=$(TRACE_FUZZ_TIME) -max_len=65536 -print_final_stats=1 \
	      build/fuzz/trace-corpus tests/trace/corpus 2>&1 | tail -15; \
	  exit $${PIPESTATUS[0]}; \
	else \
	  echo "fuzz-trace: clang/libFuzzer unavailable (build/fuzz/clang-trace.log); seeded mutation loop, $(TRACE_FUZZ_TIME) s"; \
	  $(CC) -DFUZZ_STANDALONE $(CSTD) -fsanitize=address,undefined -g -O1 -Icsrc/trace \
	      $(TRACE_FUZZ_SRCS) -llzma -o build/fuzz/fuzz_trace_standalone && \
	  build/fuzz/fuzz_trace_standalone -max_total_time=$(TRACE_FUZZ_TIME) tests/trace/corpus/*; \
	fi

# make bench: trace-driven mode's speed per back end (tests/trace/bench-trace.sh)
.PHONY: bench-trace
bench-trace: $(B)/bin/smcosim
	@tests/trace/bench-trace.sh $(B)
ifneq ($(TIMING_HAVE_SCHED),)
BENCH_TARGETS += bench-trace
endif
