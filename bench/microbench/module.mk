# bench/microbench/module.mk — GPUDIAG (seed 002 Table 3.1; docs/gpudiag.md)
#
#   build/bench/gpudiag              the seven microbenchmarks as a CUDA program
#                                    (nvcc, --cudart shared): a real GPU, or smcosim
#                                    through `smcosim run`
#   smcosim diag                     the same host logic on the committed PTX
#                                    (csrc/cli/cmd_diag.c; built with the CLI)
#   tests/e2e/gpudiag.sh             recovery on the presets and unusual sets

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

TEST_SUITES += "tests/e2e/gpudiag.sh $(B)"
