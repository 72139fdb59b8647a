# bench/microbench/module.mk — GPUDIAG (seed 002 Table 3.1; docs/gpudiag.md)
#
#   build/bench/gpudiag              the seven microbenchmarks as a CUDA program
#                                    (nvcc, --cudart shared): a real GPU, or smcosim
#                                    through `smcosim run`
#   smcosim diag                     the same host logic on the committed PTX
#                                    (csrc/cli/cmd_diag.c; built with the CLI)
#   tests/e2e/gpudiag.sh             recovery on the presets and unusual sets
#   build/bench/shfl_probe           shuffle/vote/match sources that do not execute
#                                    or are outside the member mask (a real GPU)

GD_PROG := build/bench/gpudiag
GD_NVCC := $(shell PATH="$(PATH):/usr/local/cuda/bin" command -v nvcc 2>/dev/null)
GD_SRCS := bench/microbench/gd_cuda.cu bench/microbench/gd_kernels.cu \
           bench/microbench/gpudiag.c bench/microbench/gpudiag.h

ifneq ($(GD_NVCC),)
# nvcc compiles the C host logic as C (gcc), the rest as CUDA
$(GD_PROG): $(GD_SRCS)
	@mkdir -p $(@D)
	$(GD_NVCC) -gencode arch=compute_75,code=compute_75 --cudart shared -O2 \
	    -Werror all-warnings -Ibench/microbench bench/microbench/gd_cuda.cu \
	    bench/microbench/gpudiag.c -o $@.tmp && mv -f $@.tmp $@
ALL_TARGETS += $(GD_PROG)
TEST_DEPS   += $(GD_PROG)
endif

# What a GPU returns for shuffles from lanes that do not execute them or are
# outside the member mask (docs/isa-coverage.md): one line per case, compared
# with what smcosim models. For a lent GPU; runs on smcosim too.
SHFL_PROBE := build/bench/shfl_probe
ifneq ($(GD_NVCC),)
$(SHFL_PROBE): bench/microbench/shfl_probe.cu
	@mkdir -p $(@D)
	$(GD_NVCC) -gencode arch=compute_75,code=compute_75 --cudart shared -O2 \
	    -Werror all-warnings $< -o $@.tmp && mv -f $@.tmp $@
ALL_TARGETS += $(SHFL_PROBE)
endif

TEST_SUITES += "tests/e2e/gpudiag.sh $(B)"
LONG_SUITES += "tests/e2e/gpudiag.sh $(B) --long"

# GPUDIAG's model on the suite's own kernels (scripts/results-gpudiag.py,
# docs/gpudiag.md "The suite's kernels"): smcosim diag --quick and the suite
# per preset, r and the worst launches in build/results/gpudiag/. On demand.
TEST_SUITES += tests/e2e/gpudiag-model.py
.PHONY: results-gpudiag
results-gpudiag: $(SMC_CLI) $(BENCH_BIN)
	@scripts/results-gpudiag.py --build $(B) --size $(if $(SIZE),$(SIZE),small) $(RESULTS_ARGS)
