# bench/module.mk — the CUDA benchmark suite (docs/benchmarks.md).
#
#   $(B)/bin/smcosim-bench   runs the kernels from bench/ptx/ through smcosim.h
#   build/bench/NAME         the CUDA programs, built with nvcc when present,
#                            run on the drop-in libcudart.so.13
#   make bench               bench-emu-suite: warp-instructions per second
#
# The drivers need the emulator library (csrc/, branch emu); without it in
# the tree nothing here is built and the e2e suites say SKIP.

BENCH_NAMES      := $(basename $(notdir $(wildcard bench/cuda/*.cu)))
BENCH_BIN        := $(B)/bin/smcosim-bench
BENCH_DRV_SRCS   := $(wildcard bench/drivers/*.c)
BENCH_DRV_OBJS   := $(patsubst %.c,$(B)/%.o,$(BENCH_DRV_SRCS))
BENCH_HAVE_EMU   := $(wildcard csrc/emu/*.c)

# CUDA programs: exactly the flags of the issue (PTX for compute_75 in the
# fatbinary, shared runtime so the project's libcudart.so.13 is picked up).
BENCH_NVCC       := $(shell PATH="$(PATH)" command -v nvcc 2>/dev/null)
BENCH_NVCC_FLAGS := -gencode arch=compute_75,code=compute_75 --cudart shared \
                    -O2 -Werror all-warnings
BENCH_CUDA_BINS  := $(addprefix build/bench/,$(BENCH_NAMES))

$(BENCH_DRV_OBJS): INCLUDES += -Icsrc/include

ifneq ($(BENCH_HAVE_EMU),)
$(BENCH_BIN): $(BENCH_DRV_OBJS) $(EMU_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(BENCH_DRV_OBJS) $(EMU_LIB) $(LDLIBS)

ALL_TARGETS   += $(BENCH_BIN)
TEST_DEPS     += $(BENCH_BIN)
SAN_DEPS      += $(BENCH_BIN)
SAN_SUITES    += "tests/e2e/bench-suite.sh $(BENCH_BIN) --size small"
endif
# The shared references checked against hand-worked and independent values.
BENCH_REF_TEST := $(B)/tests/e2e/test_bench_ref
$(BENCH_REF_TEST): $(B)/tests/e2e/test_bench_ref.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka $(LDLIBS)
TEST_DEPS     += $(BENCH_REF_TEST)
SAN_DEPS      += $(BENCH_REF_TEST)
TEST_SUITES   += $(BENCH_REF_TEST)
SAN_SUITES    += $(BENCH_REF_TEST)

TEST_SUITES   += tests/e2e/ptx-fresh.sh "tests/e2e/bench-suite.sh $(BENCH_BIN)" \
                 tests/e2e/cuda-suite.sh tests/e2e/chase-cuda.sh tests/e2e/ifetch-cuda.sh

ifneq ($(BENCH_NVCC),)
$(BENCH_CUDA_BINS): build/bench/%: bench/cuda/%.cu bench/cuda/bench_cuda.h \
                                   $(wildcard bench/ref/*.h)
	@mkdir -p $(@D)
	$(BENCH_NVCC) $(BENCH_NVCC_FLAGS) $< -o $@.tmp && mv -f $@.tmp $@
ALL_TARGETS   += $(BENCH_CUDA_BINS)
TEST_DEPS     += $(BENCH_CUDA_BINS)
# The programs of the side-by-side (docs/memory-model.md): unloaded load
# latency (chase) and the cost of an instruction-cache miss (ifetch).
SIDEBYSIDE_BINS := build/bench/chase build/bench/ifetch
$(SIDEBYSIDE_BINS): build/bench/%: bench/sidebyside/%.cu
	@mkdir -p $(@D)
	$(BENCH_NVCC) $(BENCH_NVCC_FLAGS) $< -o $@.tmp && mv -f $@.tmp $@
ALL_TARGETS   += $(SIDEBYSIDE_BINS)
TEST_DEPS     += $(SIDEBYSIDE_BINS)
ifneq ($(wildcard csrc/runtime/module.mk),)
TEST_DEPS     += $(CUDART_SO)
endif
endif

.PHONY: bench-emu-suite bench-programs
bench-programs: $(BENCH_CUDA_BINS)

BENCH_TARGETS += bench-emu-suite
bench-emu-suite: $(BENCH_BIN)
	@echo "== bench-emu-suite: functional emulator, default sizes; warp-inst/s = warp-instructions / CPU seconds inside smc_launch (goal >= 2 M/s compute-bound)"
	@$(BENCH_BIN) --table
