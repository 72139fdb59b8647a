# rtl/ -- the scheduler core in SystemVerilog (see docs/rtl.md).
#
# `make lint` runs Verilator's -Wall lint on the whole core (default
# parameters and the parameter sets the differential test uses), on every
# block alone and on the test-only mutant build; waivers live in
# rtl/lint_waivers.vlt, one per rule with a reason. It also reads the RTL into
# Yosys with -formal to check that the assertions are accepted there.

RTL_TOP     := sched_core
RTL_SOURCES := rtl/sched_core.sv rtl/sched_ibuffer.sv rtl/sched_ibuffer_bank.sv \
               rtl/sched_scoreboard.sv rtl/sched_scoreboard_bank.sv \
               rtl/sched_haws.sv rtl/sched_haws_bank.sv rtl/sched_rcu.sv rtl/sched_rcu_bank.sv \
               rtl/sched_rename.sv rtl/sched_rename_bank.sv \
               rtl/sched_qualify.sv rtl/sched_arbiter.sv rtl/sched_rr_pick.sv \
               rtl/sched_pool.sv rtl/sched_fetch_arb.sv rtl/sched_counters.sv \
               rtl/sched_oaws.sv rtl/sched_oaws_ocw.sv rtl/sched_ccws.sv rtl/sched_mascar.sv \
               rtl/sched_group.sv
RTL_WAIVERS := rtl/lint_waivers.vlt
# Beside the core, on the SM's memory side (the paper's MACU): OAWS's DLC,
# $(MACU_SOURCES) (named in cosim/module.mk, which is read first), Verilated
# on its own and measured standalone by `make area`.
# at least this many $$assert cells in sched_core with its default parameters
RTL_MIN_ASSERTS := 40
RTL_BLOCKS  := $(filter-out $(RTL_TOP),$(basename $(notdir $(RTL_SOURCES))))
# Parameter sets linted besides the defaults (keep in step with cosim/module.mk;
# the variants leaving mechanisms out: EnOaws, EnPeers, EnGrouped 0, RcuDepth 0).
RTL_LINT_PARAMS := "-GNumWarps=48 -GNumSchedulers=2 -GRegIdWidth=6 -GIbufDepth=3 -GSbEntries=4 -GWbPorts=2" \
                   "-GNumWarps=32 -GNumSchedulers=1 -GIbufDepth=1 -GSbEntries=8 -GWbPorts=1" \
                   "-GNumWarps=8 -GNumSchedulers=4 -GIbufDepth=4 -GSbEntries=2 -GWbPorts=3" \
                   "-GNumWarps=4 -GNumSchedulers=1 -GWbPorts=2 -GRcuDepth=2 -GRenEntries=1" \
                   "-GNumWarps=48 -GNumSchedulers=2 -GRegIdWidth=6 -GRcuDepth=0 -GRenEntries=0" \
                   "-GNumWarps=8 -GNumSchedulers=4 -GIbufDepth=4 -GSbEntries=2 -GRcuDepth=1 -GRenEntries=3" \
                   "-GRcuDepth=0 -GRenEntries=0 -GEnOaws=0 -GEnPeers=0 -GEnGrouped=0" \
                   "-GRcuDepth=0 -GRenEntries=0 -GEnPeers=0 -GEnGrouped=0" \
                   "-GEnOaws=0 -GEnGrouped=0" "-GEnPeers=0" \
                   "-GNumWarps=48 -GNumSchedulers=2 -GRegIdWidth=6 -GIbufDepth=3 -GSbEntries=4 -GWbPorts=2 -GRcuDepth=0 -GRenEntries=0 -GEnOaws=0 -GEnPeers=0"

# rtl-lint is four parts, so that `make -j lint` (make test) runs them side by side.
.PHONY: rtl-lint rtl-lint-params rtl-lint-blocks rtl-lint-dlc rtl-lint-formal
rtl-lint: rtl-lint-params rtl-lint-blocks rtl-lint-dlc rtl-lint-formal
	@echo "rtl-lint: $(words $(RTL_SOURCES) $(MACU_SOURCES)) files clean under verilator --lint-only -Wall"
rtl-lint-params:
	@verilator --lint-only -Wall $(RTL_WAIVERS) $(RTL_SOURCES) --top-module $(RTL_TOP)
	@for p in $(RTL_LINT_PARAMS); do \
	  verilator --lint-only -Wall $(RTL_WAIVERS) $(RTL_SOURCES) --top-module $(RTL_TOP) $$p || exit 1; \
	done
	@# the test-only planted bugs (docs/testing.md, "Detection power"), as Verilated for the tests
	@verilator --lint-only -Wall $(RTL_WAIVERS) +define+SCHED_MUTANTS $(RTL_SOURCES) --top-module $(RTL_TOP) \
	  -GNumWarps=32 -GNumSchedulers=1 -GIbufDepth=1 -GSbEntries=8 -GWbPorts=1
rtl-lint-blocks:
	@for m in $(RTL_BLOCKS); do \
	  verilator --lint-only -Wall $(RTL_WAIVERS) $(RTL_SOURCES) --top-module $$m || exit 1; \
	done
rtl-lint-dlc:
	@for p in "" "-GDlcEntries=64 -GNumSchedulers=4" "-GDlcEntries=1 -GNumSchedulers=1"; do \
	  verilator --lint-only -Wall $(RTL_WAIVERS) $(MACU_SOURCES) --top-module macu_dlc $$p || exit 1; \
	done
rtl-lint-formal:
	@# the assertions (docs/rtl.md, "Assertions") are Yosys-readable too: with -formal
	@# (no SYNTHESIS define) it must find them all as $$assert cells
	@yosys -q -p 'read_verilog -sv -formal $(RTL_SOURCES); hierarchy -top $(RTL_TOP); proc; select -assert-min $(RTL_MIN_ASSERTS) t:$$assert'

LINT_TARGETS += rtl-lint
