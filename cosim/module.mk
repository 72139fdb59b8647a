# cosim/ -- the scheduler core's C reference model, the Verilator bridge and
# the lockstep checker (see docs/sched-interface.md and docs/rtl.md).
#
#   $(SCHED_LIB)   C model + shared interface code + random stimulus (pure C)
#   $(VSCHED_LIB)  Verilated RTL models + C++ shim + RTL and lockstep back ends
#
# Every Verilog parameter set the RTL back end supports is one Verilated model
# class. VSCHED_CONFIGS lists them as
#   warps_schedulers_regidwidth_ibufdepth_sbentries_wbports_rcudepth_renentries[_oN][_t]
# (_t: built with --trace-fst; _oN: the mechanisms of mask N left out, bit 0
# OAWS, 1 CCWS/MASCAR, 2 grouped: sched_params.omit, the RTL's EnOaws,
# EnPeers, EnGrouped; rcudepth 0 leaves HAWS out). Add a set here to make it
# available. The RTL back end runs the variant with the most left out that
# still has every mechanism the run uses (cosim/vsched_shim.cpp).
# The timing model's sets have the thesis's RCU and renaming table (8, 8);
# 4_1_8_2_6_2_2_1 (a small RCU and renaming table) is the HAWS directed
# tests' (tests/sched/test_sched_haws.c) and a lockstep set.

# The timing model's two sets (kepler/default and fermi) also come without
# OAWS, CCWS/MASCAR and HAWS (_0_0_o3: the runs of the base policies, most
# of them; the grouped policy stays, as a launch's locality hint may turn
# it on, and costs nothing while off), and the default set with OAWS only
# (_0_0_o2) and HAWS only (_8_8_o3).
VSCHED_CONFIGS := 64_4_8_2_6_4_8_8 64_4_8_2_6_4_8_8_t 48_2_6_3_4_2_8_8 32_1_8_1_8_1_8_8 \
                  8_4_8_4_2_3_8_8 4_1_8_2_6_2_2_1 \
                  64_4_8_2_6_4_0_0_o3 64_4_8_2_6_4_0_0_o2 64_4_8_2_6_4_8_8_o3 48_2_6_3_4_2_0_0_o3

VERILATOR_INC   := /usr/share/verilator/include
VSCHED_RT_DIR   := build/verilator-rt
VSCHED_DIR      := build/cosim/vsched
# VL_USER_STOP: a failing RTL assertion calls the shim's vl_stop(), which
# fails the back end with the assertion's file and line (vsched_shim.cpp).
# -fPIC: every C++ object (models, shims, Verilator's runtime) is compiled
# once and goes both into $(VSCHED_LIB) and into the drop-in runtime's plugin
# (csrc/timing/module.mk); -fno-semantic-interposition keeps the code as
# fast as position-dependent code (calls within the model stay direct).
VSCHED_CXX      := $(CXX) -std=gnu++17 -O2 -g0 -fPIC -fno-semantic-interposition \
                   -fno-strict-aliasing -Wno-unused -DVL_USER_STOP \
                   -I$(VERILATOR_INC) -I$(VERILATOR_INC)/vltstd \
                   -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_TRACE_VCD=0
# --assert: the RTL's assertions (docs/rtl.md, "Assertions") are checked in
# every model, the tests' and the RTL back end's alike.
VSCHED_VFLAGS   := --cc --no-MMD -O3 --x-assign fast --x-initial fast --assert
VSCHED_CLASSES  := $(addprefix Vsc_,$(VSCHED_CONFIGS))
# Every signal in the trace: the per-warp state is held in wide vectors and
# memories (e.g. the buffers' payload, NumWarps x IbufDepth words), beyond
# Verilator's default limits of 256 bits and 32 array elements.
VSCHED_TRACE_FLAGS := --trace-fst --trace-max-width 8192 --trace-max-array 1024
# rtl/module.mk is read after this file, so name the sources here (a
# prerequisite list is expanded when it is read). MACU_SOURCES: the RTL
# beside the core on the SM's memory side (OAWS's DLC), not part of it.
MACU_SOURCES    := rtl/macu_dlc.sv
VSCHED_RTL      := $(filter-out $(MACU_SOURCES),$(wildcard rtl/*.sv))
VSCHED_MODEL_OBJS := $(foreach c,$(VSCHED_CLASSES),$(VSCHED_DIR)/$(c).o)
VDLC_DIR        := $(VSCHED_DIR)/Vdlc
VDLC_MODEL_OBJ  := $(VSCHED_DIR)/Vdlc.o
# Verilator's runtime, compiled once and kept across rebuilds of the models.
VSCHED_RT_OBJS  := $(VSCHED_RT_DIR)/verilated.o $(VSCHED_RT_DIR)/verilated_fst_c.o \
                   $(VSCHED_RT_DIR)/verilated_threads.o
VSCHED_LDLIBS   := -lstdc++ -lz -pthread -latomic

INCLUDES += -Icosim -Icosim/offload

SCHED_OBJS  := $(B)/cosim/sched_if.o $(B)/cosim/sched_cmodel.o $(B)/cosim/sched_stim.o \
               $(B)/cosim/dlc.o $(B)/cosim/dlc_cmodel.o \
               $(B)/cosim/offload/offload_token.o $(B)/cosim/offload/offload_transports.o \
               $(B)/cosim/offload/offload_cmodel.o
VSCHED_OBJS := $(B)/cosim/sched_rtl.o $(B)/cosim/sched_lockstep.o $(B)/cosim/vsched_shim.o \
               $(B)/cosim/sched_ctrace.o $(B)/cosim/vdlc_shim.o
# The C model's FST writer uses fstapi (header with Verilator, code in the
# runtime's verilated_fst_c.o).
$(B)/cosim/sched_ctrace.o: INCLUDES += -I$(VERILATOR_INC)

$(SCHED_LIB): $(SCHED_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(VSCHED_LIB): $(VSCHED_OBJS) $(VSCHED_MODEL_OBJS) $(VDLC_MODEL_OBJ) $(VSCHED_RT_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# name fields: Vsc_W_S_R_D_E_P_C_N, then the flags oN, t, m
vsched_field = $(word $(2),$(subst _, ,$(patsubst Vsc_%,%,$(1))))
vsched_flags = $(wordlist 9,12,$(subst _, ,$(patsubst Vsc_%,%,$(1))))
vsched_omit  = $(or $(patsubst o%,%,$(filter o%,$(call vsched_flags,$(1)))),0)
vsched_en    = $(if $(filter $(call vsched_omit,$(1)),$(2)),0,1)
vsched_params = -GNumWarps=$(call vsched_field,$(1),1) -GNumSchedulers=$(call vsched_field,$(1),2) \
                -GRegIdWidth=$(call vsched_field,$(1),3) -GIbufDepth=$(call vsched_field,$(1),4) \
                -GSbEntries=$(call vsched_field,$(1),5) -GWbPorts=$(call vsched_field,$(1),6) \
                -GRcuDepth=$(call vsched_field,$(1),7) -GRenEntries=$(call vsched_field,$(1),8) \
                -GEnOaws=$(call vsched_en,$(1),1 3 5 7) -GEnPeers=$(call vsched_en,$(1),2 3 6 7) \
                -GEnGrouped=$(call vsched_en,$(1),4 5 6 7)
vsched_traced = $(if $(filter t,$(call vsched_flags,$(1))),1,0)

# Keep the Verilator output between runs.
.PRECIOUS: $(VSCHED_DIR)/%/stamp

# Verilate one parameter set, then compile all its C++ as one unity file.
$(VSCHED_DIR)/%/stamp: $(VSCHED_RTL) cosim/module.mk
	@rm -rf $(@D) && mkdir -p $(@D)
	verilator $(VSCHED_VFLAGS) $(if $(filter 1,$(call vsched_traced,$*)),$(VSCHED_TRACE_FLAGS)) \
	  $(if $(filter m,$(call vsched_flags,$*)),+define+SCHED_MUTANTS) \
	  --prefix $* -Mdir $(@D) $(call vsched_params,$*) $(RTL_SOURCES) --top-module $(RTL_TOP)
	@touch $@

# OAWS's DLC (rtl/macu_dlc.sv; cosim/dlc.h): one model, the largest table
# (sched.oaws_dlc_entries up to 64; the entries in use are an input) with
# the read ports of four schedulers. An explicit rule, so the pattern rule
# above (the scheduler core's sets) does not apply to it.
$(VDLC_DIR)/stamp: $(MACU_SOURCES) cosim/module.mk
	@rm -rf $(@D) && mkdir -p $(@D)
	verilator $(VSCHED_VFLAGS) --prefix Vdlc -Mdir $(@D) -GDlcEntries=64 -GNumSchedulers=4 \
	  $(MACU_SOURCES) --top-module macu_dlc
	@touch $@

$(B)/cosim/vdlc_shim.o: cosim/vdlc_shim.cpp cosim/dlc.h cosim/vl_reset.h $(VDLC_DIR)/stamp
	@mkdir -p $(@D)
	$(VSCHED_CXX) -Icosim -I$(VDLC_DIR) -c $< -o $@

# The unity file is its own target, so that the position-independent copy of
# a model (the plugin's, csrc/timing/module.mk) is compiled from it without
# waiting for this one.
.PRECIOUS: $(VSCHED_DIR)/%__unity.cpp
$(VSCHED_DIR)/%__unity.cpp: $(VSCHED_DIR)/%/stamp
	@cd $(VSCHED_DIR)/$* && ls *.cpp | sort | sed 's/.*/#include "&"/' > ../$*__unity.cpp

$(VSCHED_DIR)/%.o: $(VSCHED_DIR)/%__unity.cpp
	$(VSCHED_CXX) $(VSCHED_MODEL_OPT) -I$(VSCHED_DIR)/$* -c $(VSCHED_DIR)/$*__unity.cpp -o $@
# The traced model at -O1: its compile is the build's longest (113 s at -O2,
# 58 s at -O1 on this 2-core machine, and it is on `make demo`'s path), and
# a traced run's time is the FST writer's: sched-bench's traced row ran at
# the same 0.011-0.013 M cycles/s with either (docs/rtl.md).
$(VSCHED_DIR)/%_t.o: VSCHED_MODEL_OPT := -O1

$(VSCHED_RT_DIR)/%.o: $(VERILATOR_INC)/%.cpp
	@mkdir -p $(@D)
	$(VSCHED_CXX) -c $< -o $@
# ... and again when the flags here change (VL_USER_STOP decides whether the
# runtime defines vl_stop).
$(VSCHED_RT_OBJS): cosim/module.mk

# The list of models for the shim (an X-macro), regenerated when the list
# changes. $(call vsched_models_h,CONFIGS) is the recipe (make demo's plugin
# has a shorter list: csrc/timing/module.mk).
vsched_models_h = @mkdir -p $(@D); \
	{ echo "/* generated by cosim/module.mk */"; \
	   for c in $(addprefix Vsc_,$(1)); do echo "\#include \"$$c.h\""; echo "\#include \"$${c}___024root.h\""; done; \
	   printf '\#define VSCHED_MODEL_LIST'; \
	   for c in $(1); do \
	     set -- $$(echo $$c | tr _ ' '); t=0; o=0; \
	     for f in $${9:-} $${10:-}; do case $$f in t) t=1;; o*) o=$${f\#o};; esac; done; \
	     printf ' \\\n    VSCHED_MODEL(Vsc_%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)' $$c $$1 $$2 $$3 $$4 $$5 $$6 $$7 $$8 $$o $$t; \
	   done; echo; } > $@.tmp && mv $@.tmp $@
$(VSCHED_DIR)/vsched_models.h: cosim/module.mk
	$(call vsched_models_h,$(VSCHED_CONFIGS))

$(B)/cosim/vsched_shim.o: cosim/vsched_shim.cpp cosim/vsched_shim.h cosim/sched_if.h cosim/vl_reset.h \
                          cosim/sched_ports.h cosim/sched_ports.def cosim/sched_reasons.def \
                          $(VSCHED_DIR)/vsched_models.h $(foreach c,$(VSCHED_CLASSES),$(VSCHED_DIR)/$(c)/stamp)
	@mkdir -p $(@D)
	$(VSCHED_CXX) -Icosim -I$(VSCHED_DIR) $(addprefix -I$(VSCHED_DIR)/,$(VSCHED_CLASSES)) -c $< -o $@

# Test-only: the planted bugs of docs/testing.md, "Detection power". One more
# Verilated model (_m: built with +define+SCHED_MUTANTS, the bug chosen at run
# time; 32/1/8/1/8/1/8/8, a set where every planted bug can show: GTO's choice
# needs more than two warps per scheduler), the shim once more with it (-DVSCHED_MUTANTS, a
# superset of vsched_shim.o: link it before $(VSCHED_LIB)), and the C model
# once more with -DSCHED_CMODEL_MUTANTS (the same symbols and a run-time knob,
# sched_cmodel_mutant; link it before $(SCHED_LIB)). Neither goes into the
# libraries, so the simulator and the other tests keep the plain models.
VSCHED_MUT_CLASS := Vsc_32_1_8_1_8_1_8_8_m
VSCHED_MUT_OBJS  := $(B)/cosim/vsched_shim_mut.o $(VSCHED_DIR)/$(VSCHED_MUT_CLASS).o \
                    $(B)/cosim/sched_cmodel_mut.o
$(B)/cosim/vsched_shim_mut.o: $(B)/cosim/vsched_shim.o $(VSCHED_DIR)/$(VSCHED_MUT_CLASS)/stamp
	$(VSCHED_CXX) -DVSCHED_MUTANTS -Icosim -I$(VSCHED_DIR) \
	  $(addprefix -I$(VSCHED_DIR)/,$(VSCHED_CLASSES) $(VSCHED_MUT_CLASS)) -c cosim/vsched_shim.cpp -o $@
$(B)/cosim/sched_cmodel_mut.o: cosim/sched_cmodel.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INCLUDES) -DSCHED_CMODEL_MUTANTS -c $< -o $@

# Speed table: C model and RTL, one SM (64 warps, 4 schedulers), trace off/on.
SCHED_BENCH := $(B)/cosim/sched_bench
$(SCHED_BENCH): $(B)/cosim/sched_bench.o $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ $(VSCHED_LDLIBS) $(LDLIBS)

.PHONY: sched-bench
sched-bench: $(SCHED_BENCH)
	@$(SCHED_BENCH)

ALL_TARGETS   += $(SCHED_LIB) $(VSCHED_LIB) $(SCHED_BENCH)
BENCH_TARGETS += sched-bench

# The port list and the stall-reason codes are tables (cosim/sched_ports.def,
# cosim/sched_reasons.def). sched_ports_gen prints what is generated from them;
# `make sched-ports-gen` rewrites the generated regions of these files (the
# docs' port tables, the RTL's reason codes), and tests/sched/ports-check.sh
# fails when they are stale or the RTL's ports disagree with the table.
SCHED_PORTS_GEN := $(B)/cosim/sched_ports_gen
SCHED_PORTS_GENERATED := docs/sched-interface.md rtl/sched_core.sv
$(SCHED_PORTS_GEN): $(B)/cosim/sched_ports_gen.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)
ALL_TARGETS += $(SCHED_PORTS_GEN)

.PHONY: sched-ports-gen
sched-ports-gen: $(SCHED_PORTS_GEN)
	@for f in $(SCHED_PORTS_GENERATED); do \
	  $(SCHED_PORTS_GEN) splice $$f > $$f.tmp || { rm -f $$f.tmp; exit 1; }; \
	  if cmp -s $$f $$f.tmp; then rm $$f.tmp; else mv $$f.tmp $$f; echo "rewrote $$f"; fi; \
	done

# Long differential runs: make sched-diff-long CYCLES=100000000 [SEED=n]
SCHED_DIFF := $(B)/cosim/sched_diff
$(SCHED_DIFF): $(B)/cosim/sched_diff.o $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ $(VSCHED_LDLIBS) $(LDLIBS)
ALL_TARGETS += $(SCHED_DIFF)

CYCLES ?= 100000000
SEED   ?= 1
.PHONY: sched-diff-long
sched-diff-long: $(SCHED_DIFF)
	$(SCHED_DIFF) -c $(CYCLES) -s $(SEED)
