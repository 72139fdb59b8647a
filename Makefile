# smcosim — top-level Makefile.
#
# Each top-level folder (csrc/, cosim/, mem-model/, ...) contributes a
# <dir>/module.mk fragment that appends to the variables below. This file holds
# only what all of them share: toolchain flags, the build-directory layout, the
# generic compile rule and the user-facing targets (demo, test, bench, lint,
# area, ...).
#
#   make demo     build what it needs and run the main job on the default preset
#   make test     lint + unit/differential/end-to-end tests + an ASan/UBSan pass
#                 + a ThreadSanitizer pass of the runtime's host-thread test
#   make bench    simulator-speed tables
#   make lint     Verilator lint of rtl/
#
# `make SAN=1 ...` builds into build/asan with AddressSanitizer and UBSan,
# `make SAN=thread ...` into build/tsan with ThreadSanitizer.

.DEFAULT_GOAL := all
SHELL := /bin/bash
NPROC := $(shell nproc 2>/dev/null || echo 2)
export PATH := /usr/local/cuda/bin:$(PATH)

SAN ?= 0
ifeq ($(SAN),thread)
# ThreadSanitizer build of the drop-in runtime (the only multi-threaded
# code: host threads calling CUDA, docs/runtime.md), for `make check-tsan`.
B        := build/tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
OPT      := -O1 -g
else ifeq ($(SAN),1)
B        := build/asan
# Alignment checks stay on: fstapi (which does unaligned accesses on purpose)
# is compiled only inside the Verilator runtime of $(VSCHED_LIB), which this
# build does not instrument.
SANFLAGS := -fsanitize=address,undefined \
            -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT      := -O1 -g
else
B        := build
SANFLAGS :=
OPT      ?= -O2 -g
# Link-time optimisation for the programs whose speed is measured (below):
# the timing model is split into files by concern (docs/architecture.md), and
# LTO inlines across them again (callgrind, smcosim-bench --size small spmv
# gemm in timing mode: 179.9 M host instructions without, 176.0 M with, as
# before the split). Objects carry both LTO IR and ordinary code, so the
# test programs link them the ordinary way, without paying for LTO: that
# needs -fno-lto on their link line, since GCC's linker plugin otherwise
# runs LTO on fat objects anyway (5 s of CPU per test program instead of
# 0.04 s; dozens of them in make test). `make LTO=0` turns it off.
LTO      ?= 1
endif
ifeq ($(LTO),1)
LTO_CFLAGS  := -flto=auto -ffat-lto-objects
LTO_LDFLAGS  = -flto=auto $(WARN)   # warnings of the link-time compile are errors too
NO_LTO_LDFLAGS := -fno-lto          # every other link (the last of the two wins)
endif

CC       := gcc
CXX      := g++
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     := -Wall -Wextra -Werror
CPPFLAGS := -MMD -MP
CFLAGS   := $(CSTD) $(WARN) $(OPT) $(SANFLAGS) $(LTO_CFLAGS)
LDFLAGS  := $(SANFLAGS) $(NO_LTO_LDFLAGS)
LDLIBS   := -lm
INCLUDES :=

# Variables the module fragments append to.
ALL_TARGETS   :=   # what `make all` builds
TEST_SUITES   :=   # executables run by `make check` (cmocka binaries, scripts)
TEST_DEPS     :=   # what must be built before they run
SAN_SUITES    :=   # suites also run in the ASan/UBSan pass (paths under $(B))
SAN_DEPS      :=
TSAN_SUITES   :=   # run under ThreadSanitizer (SAN=thread, paths under $(B))
TSAN_DEPS     :=
LONG_SUITES   :=   # run by `make check-long` only (full sizes, minutes each)
BENCH_TARGETS :=   # phony targets, each prints a table
LINT_TARGETS  :=   # phony lint targets

# Library paths every fragment may link against (defined here so that the
# order in which fragments are included does not matter).
EMU_LIB    := $(B)/lib/libsmc_emu.a      # csrc/: PTX loader, emulator, device API
CUDART_SO  := $(B)/lib/libcudart.so.13   # csrc/runtime/: drop-in CUDA runtime
SCHED_LIB  := $(B)/lib/libsmc_sched.a    # cosim/: C reference model of the scheduler core
VSCHED_LIB := $(B)/lib/libsmc_vsched.a   # cosim/: Verilated RTL + shim (C++ inside)
MEM_LIB    := $(B)/lib/libsmc_mem.a      # mem-model/
TRACE_LIB  := $(B)/lib/libsmc_trace.a    # csrc/trace/: Accel-Sim traces
TEG_LIB    := $(B)/lib/libsmc_teg.a      # csrc/teg/: TEG, the analytical estimator (seed 003)

include $(sort $(wildcard */module.mk */*/module.mk))

# The user-facing programs and the speed benchmarks are linked with LTO.
$(SMC_CLI) $(BENCH_BIN) $(CUDART_SO) $(MEM_BENCH) $(SCHED_BENCH): LDFLAGS += $(LTO_LDFLAGS)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INCLUDES) -c $< -o $@

# Header dependencies of this build's objects (a sanitizer build's own when SAN is set).
-include $(shell find $(B) $(if $(filter 0,$(SAN)),\( -path build/asan -o -path build/tsan \) -prune -o) -name '*.d' -print 2>/dev/null)

.PHONY: all deps demo test test-deps planted check check-long check-san check-tsan bench lint clean
all: $(ALL_TARGETS)

deps:
	@scripts/install-deps.sh

# Only what the demo runs (DEMO_TARGETS, csrc/timing/module.mk), compiler
# output in a log; `make all` builds the rest.
demo: deps
	@echo "demo: building what it needs (-j$(NPROC); compiler output in $(DEMO_DIR)/build.log)"
	@start=$$(date +%s); mkdir -p $(DEMO_DIR); \
	 if ! $(MAKE) --no-print-directory -j$(NPROC) $(DEMO_TARGETS) > $(DEMO_DIR)/build.log 2>&1; then \
	   tail -n 25 $(DEMO_DIR)/build.log >&2; echo "demo: the build failed ($(DEMO_DIR)/build.log)" >&2; exit 1; \
	 fi; echo "demo: built in $$(( $$(date +%s) - start )) s"
	@DEMO_DIR=$(DEMO_DIR) DEMO_BENCH=$(DEMO_BENCH) DEMO_MODE=$(if $(DEMO_PROGRAM),cuda,driver) scripts/demo.sh

# What the suites of `make check` need, built without running them.
test-deps: $(TEST_DEPS)

# A bug planted in each concern must fail its suite of make test
# (tests/mutants/planted.py on a fresh clone; docs/testing.md).
planted:
	@tests/mutants/planted.py

check: $(TEST_DEPS)
	@scripts/run-tests.sh unit $(TEST_SUITES)

# The long suites, then, alone (its times mean nothing beside other work),
# make demo and make test timed on a fresh clone (tests/cli/fresh-clone-time.sh).
check-long: $(TEST_DEPS)
	@scripts/run-tests.sh long $(LONG_SUITES)
	@TEST_JOBS=1 scripts/run-tests.sh fresh-clone tests/cli/fresh-clone-time.sh

check-san: $(SAN_DEPS)
	@scripts/run-tests.sh asan $(SAN_SUITES)

check-tsan: $(TSAN_DEPS)
	@scripts/run-tests.sh tsan $(TSAN_SUITES)

test: deps
	@$(MAKE) --no-print-directory -j$(NPROC) lint
	@$(MAKE) --no-print-directory -j$(NPROC) check
	@$(MAKE) --no-print-directory -j$(NPROC) SAN=1 check-san
	@$(MAKE) --no-print-directory -j$(NPROC) SAN=thread check-tsan

lint: $(LINT_TARGETS)

bench: $(BENCH_TARGETS)

clean:
	rm -rf build
