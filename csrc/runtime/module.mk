# csrc/runtime/module.mk — the drop-in CUDA runtime $(CUDART_SO)
# (build/lib/libcudart.so.13), its fatbinary-parser unit test and the CUDA
# test programs of tests/runtime/. See docs/runtime.md.
#
# The runtime is compiled against the installed CUDA headers (for the exact
# cudaDeviceProp layout and error values). Without them, or without the
# emulator (csrc/emu/), the rest of the project still builds and asking for
# $(CUDART_SO) fails with a message saying what is missing.

RT_CUDA_HOME ?= /usr/local/cuda
RT_CUDA_INC  := $(RT_CUDA_HOME)/include
RT_NVCC      ?= $(firstword $(wildcard $(RT_CUDA_HOME)/bin/nvcc) \
                            $(shell command -v nvcc 2>/dev/null))
RT_HAVE_CUDA := $(wildcard $(RT_CUDA_INC)/cuda_runtime_api.h)
RT_HAVE_EMU  := $(wildcard csrc/emu/*.c)

# ---- fatbinary parser unit test (needs neither CUDA nor the emulator) ----
RT_FATBIN_TEST := $(B)/tests/runtime/test_fatbin
$(B)/tests/runtime/test_fatbin.o: INCLUDES += -Icsrc/runtime
$(RT_FATBIN_TEST): $(B)/tests/runtime/test_fatbin.o $(B)/csrc/runtime/fatbin.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka -ldl

ALL_TARGETS += $(RT_FATBIN_TEST)
TEST_SUITES += $(RT_FATBIN_TEST)
TEST_DEPS   += $(RT_FATBIN_TEST)
SAN_SUITES  += $(RT_FATBIN_TEST)
SAN_DEPS    += $(RT_FATBIN_TEST)

# ---- the runtime library ----
RT_SRCS := csrc/runtime/runtime.c csrc/runtime/rt_api.c csrc/runtime/rt_attr.c \
           csrc/runtime/rt_stream.c csrc/runtime/rt_graph.c csrc/runtime/rt_thread.c \
           csrc/runtime/fatbin.c
RT_PIC_OBJS := $(patsubst %.c,$(B)/pic/%.o,$(RT_SRCS))
RT_GEN_DIR := $(B)/gen/runtime

ifneq ($(and $(RT_HAVE_CUDA),$(RT_HAVE_EMU)),)

$(RT_GEN_DIR)/cuda_error_names.inc: $(RT_CUDA_INC)/driver_types.h
	@mkdir -p $(@D)
	sed -n -E 's/^[[:space:]]*(cuda(Success|Error[A-Za-z0-9_]*))[[:space:]]*=[[:space:]]*([0-9]+).*/RT_ERROR_NAME(\1, \3)/p' $< > $@.tmp
	@test -s $@.tmp || { echo "runtime: no cudaError values found in $<" >&2; exit 1; }
	mv $@.tmp $@

# Every cudaDeviceAttr enumerator of the installed header (less the
# cudaDevAttrReservedNN placeholders), for tests/runtime/rt_attrs.cu: the
# test's list of attributes comes from CUDA, not from the runtime it tests.
$(RT_GEN_DIR)/cuda_device_attrs.inc: $(RT_CUDA_INC)/driver_types.h
	@mkdir -p $(@D)
	sed -n -E 's/^[[:space:]]*(cudaDevAttr[A-Za-z0-9_]*)[[:space:]]*=[[:space:]]*([0-9]+).*/RT_ATTR(\1, \2)/p' $< | \
	    grep -v 'cudaDevAttrReserved' > $@.tmp
	@test -s $@.tmp || { echo "runtime: no cudaDeviceAttr values found in $<" >&2; exit 1; }
	mv $@.tmp $@

# Everything in the shared library is compiled position-independent: the
# runtime and its own copy of the emulator objects (EMU_SRCS, csrc/module.mk;
# the static $(EMU_LIB) is not PIC, which the sanitizer build cannot link into
# a shared object). Per-file flags of csrc/module.mk are mirrored here.
RT_EMU_PIC_OBJS := $(patsubst %.c,$(B)/pic/%.o,$(EMU_SRCS))
$(B)/pic/csrc/emu/%.o: CFLAGS += -frounding-math
$(RT_PIC_OBJS): INCLUDES += -Icsrc/runtime -I$(RT_GEN_DIR) -isystem $(RT_CUDA_INC)
$(RT_PIC_OBJS): $(RT_GEN_DIR)/cuda_error_names.inc

$(B)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC $(INCLUDES) -Icsrc/include -c $< -o $@

# Stubs for every public function of NVIDIA's libcudart.so.13 that the
# objects above do not define (scripts/gen_rt_stubs.py): a program that
# imports one loads, and the call returns cudaErrorNotSupported with a line
# naming it. Without NVIDIA's library to list them, there are none.
RT_REAL_LIB := $(wildcard $(RT_CUDA_HOME)/lib64/libcudart.so.13)
RT_STUBS_OBJ := $(B)/pic/gen/runtime/rt_stubs.o
$(RT_GEN_DIR)/cuda_runtime_api.i: $(RT_CUDA_INC)/cuda_runtime_api.h
	@mkdir -p $(@D)
	echo '#include <cuda_runtime_api.h>' | $(CC) -E -P -x c -I$(RT_CUDA_INC) - > $@.tmp && mv $@.tmp $@
$(RT_GEN_DIR)/rt_stubs.c: scripts/gen_rt_stubs.py $(RT_PIC_OBJS) $(RT_GEN_DIR)/cuda_runtime_api.i
	@mkdir -p $(@D)
	$(if $(RT_REAL_LIB),python3 scripts/gen_rt_stubs.py $(RT_REAL_LIB) $(RT_GEN_DIR)/cuda_runtime_api.i $(RT_PIC_OBJS) > $@.tmp,echo '/* no libcudart.so.13 to list the API from */' > $@.tmp)
	mv $@.tmp $@
$(RT_STUBS_OBJ): $(RT_GEN_DIR)/rt_stubs.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -Icsrc/runtime -Icsrc/include -isystem $(RT_CUDA_INC) -c $< -o $@

$(CUDART_SO): $(RT_PIC_OBJS) $(RT_STUBS_OBJ) $(RT_EMU_PIC_OBJS) csrc/runtime/libcudart.map
	@mkdir -p $(@D)
	@test -n "$(RT_EMU_PIC_OBJS)" || { echo "runtime: EMU_SRCS (csrc/module.mk) is empty" >&2; exit 1; }
	$(CC) -shared -Wl,-soname,libcudart.so.13 \
	    -Wl,--version-script=csrc/runtime/libcudart.map \
	    -Wl,--no-undefined $(LDFLAGS) -o $@ $(RT_PIC_OBJS) $(RT_STUBS_OBJ) $(RT_EMU_PIC_OBJS) \
	    -ldl -lpthread -lm

ALL_TARGETS += $(CUDART_SO)

# ---- CUDA test programs (built only when nvcc is present) ----
RT_CU_DIR := $(B)/tests/runtime/cu
RT_NVCC_FLAGS := --cudart shared -O2 -Wno-deprecated-gpu-targets
RT_PTX75 := -gencode arch=compute_75,code=compute_75

# name : source : extra nvcc flags
RT_CU_PROGS := rt_api_zstd rt_api_plain rt_api_lz4 rt_fault rt_sass rt_multiarch rt_rdc rt_attrs rt_thrust rt_unsupported \
               rt_bf16 rt_simd rt_stream rt_graph rt_occupancy rt_malloc \
               rt_misc rt_misc_ptds rt_coop rt_locality rt_threads rt_warpreduce
# device-side C++: virtual functions, function pointers, recursion (docs/emulator.md "Calls")
RT_CU_PROGS += rt_virtual rt_fnptr rt_recursion
$(RT_CU_DIR)/rt_api_zstd:  RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_api_plain: RT_CU_FLAGS := $(RT_PTX75) -Xfatbin -compress=false
$(RT_CU_DIR)/rt_api_lz4:   RT_CU_FLAGS := $(RT_PTX75) -Xfatbin -compress-mode=speed
$(RT_CU_DIR)/rt_fault:     RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_sass:      RT_CU_FLAGS := -gencode arch=compute_75,code=sm_75
$(RT_CU_DIR)/rt_multiarch: RT_CU_FLAGS := -gencode arch=compute_80,code=compute_80 \
    $(RT_PTX75) -gencode arch=compute_86,code=sm_86
$(RT_CU_DIR)/rt_api_zstd $(RT_CU_DIR)/rt_api_plain $(RT_CU_DIR)/rt_api_lz4: tests/runtime/rt_api.cu
$(RT_CU_DIR)/rt_fault: tests/runtime/rt_fault.cu
$(RT_CU_DIR)/rt_rdc:       RT_CU_FLAGS := $(RT_PTX75) -rdc=true
$(RT_CU_DIR)/rt_sass $(RT_CU_DIR)/rt_multiarch $(RT_CU_DIR)/rt_rdc: tests/runtime/rt_image.cu
$(RT_CU_DIR)/rt_attrs:     RT_CU_FLAGS := $(RT_PTX75) -I$(RT_GEN_DIR)
$(RT_CU_DIR)/rt_attrs: tests/runtime/rt_attrs.cu $(RT_GEN_DIR)/cuda_device_attrs.inc
$(RT_CU_DIR)/rt_thrust:    RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_thrust: tests/runtime/rt_thrust.cu
$(RT_CU_DIR)/rt_unsupported: RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_unsupported: tests/runtime/rt_unsupported.cu
$(RT_CU_DIR)/rt_bf16:      RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_bf16: tests/runtime/rt_bf16.cu
$(RT_CU_DIR)/rt_simd:      RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_simd: tests/runtime/rt_simd.cu
$(RT_CU_DIR)/rt_occupancy: RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_occupancy: tests/runtime/rt_occupancy.cu
$(RT_CU_DIR)/rt_malloc:    RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_malloc: tests/runtime/rt_malloc.cu
$(RT_CU_DIR)/rt_misc:      RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_misc_ptds: RT_CU_FLAGS := $(RT_PTX75) --default-stream per-thread
$(RT_CU_DIR)/rt_misc $(RT_CU_DIR)/rt_misc_ptds: tests/runtime/rt_misc.cu
$(RT_CU_DIR)/rt_stream:    RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_stream: tests/runtime/rt_stream.cu
$(RT_CU_DIR)/rt_graph:     RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_graph: tests/runtime/rt_graph.cu
$(RT_CU_DIR)/rt_coop:      RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_coop: tests/runtime/rt_coop.cu
$(RT_CU_DIR)/rt_threads:   RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_threads: tests/runtime/rt_threads.cu
$(RT_CU_DIR)/rt_warpreduce: RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_warpreduce: tests/runtime/rt_warpreduce.cu
$(RT_CU_DIR)/rt_locality:  RT_CU_FLAGS := $(RT_PTX75) -Icsrc/include
$(RT_CU_DIR)/rt_locality: tests/runtime/rt_locality.cu csrc/include/smcosim_cuda.h
$(RT_CU_DIR)/rt_virtual:   RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_virtual: tests/runtime/rt_virtual.cu
$(RT_CU_DIR)/rt_fnptr:     RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_fnptr: tests/runtime/rt_fnptr.cu
$(RT_CU_DIR)/rt_recursion: RT_CU_FLAGS := $(RT_PTX75)
$(RT_CU_DIR)/rt_recursion: tests/runtime/rt_recursion.cu

ifneq ($(RT_NVCC),)
$(addprefix $(RT_CU_DIR)/,$(RT_CU_PROGS)): tests/runtime/rt_check.h
	@mkdir -p $(@D)
	$(RT_NVCC) $(RT_NVCC_FLAGS) $(RT_CU_FLAGS) -Itests/runtime $(filter %.cu,$^) -o $@
TEST_DEPS += $(addprefix $(RT_CU_DIR)/,$(RT_CU_PROGS))
endif
TEST_DEPS   += $(CUDART_SO) $(SMC_CLI)
TEST_SUITES += "tests/runtime/run_cuda_tests.sh $(B)" "tests/runtime/exports-check.sh $(B)"
# The ASan/UBSan pass runs the same programs on an instrumented library.
SAN_DEPS    += $(CUDART_SO) $(SMC_CLI) $(if $(RT_NVCC),$(addprefix $(RT_CU_DIR)/,$(RT_CU_PROGS)))
SAN_SUITES  += "tests/runtime/run_cuda_tests.sh $(B) --asan"
# The ThreadSanitizer pass: the host-thread program on an instrumented library.
TSAN_DEPS   += $(CUDART_SO) $(if $(RT_NVCC),$(RT_CU_DIR)/rt_threads)
TSAN_SUITES += "tests/runtime/tsan_threads.sh $(B)"

else   # no CUDA headers or no emulator: say so when the library is asked for

$(CUDART_SO):
	@echo "runtime: cannot build $@:$(if $(RT_HAVE_CUDA),, CUDA headers not found in $(RT_CUDA_INC) (set RT_CUDA_HOME);)$(if $(RT_HAVE_EMU),, the emulator (csrc/emu/) is not in this tree)" >&2
	@exit 1
TEST_SUITES += "tests/runtime/run_cuda_tests.sh $(B)"

endif

# ---- make install [PREFIX=/usr/local] [DESTDIR=] ----
# The public headers (the C API smcosim.h; smcosim_cuda.h, the CUDA-source
# extensions such as smcosimSetNextLaunchHint) into $(PREFIX)/include, and
# the drop-in runtime into $(PREFIX)/lib/smcosim (put that directory on
# LD_LIBRARY_PATH to run a program on the simulator without `smcosim run`).
PREFIX ?= /usr/local
.PHONY: install
install: $(CUDART_SO)
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/smcosim
	install -m 644 csrc/include/smcosim.h csrc/include/smcosim_cuda.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(CUDART_SO) $(DESTDIR)$(PREFIX)/lib/smcosim/
