# fpga/: area, storage and timing flow (`make area`), see docs/area.md.
#
#   make area                         default presets (kepler-k20x, fermi-gtx480)
#   make area AREA_SETS="tiny"        any sets from fpga/param-sets/
#   make area AREA_BLOCKS=a,b         only some blocks (default: every rtl/*.sv)
#
# Yosys runs one after the other inside the flow; the tables go to build/area/.

AREA_SETS   ?= kepler-k20x fermi-gtx480
AREA_RTL    ?= rtl
AREA_TOP    ?= sched_core
AREA_OUT    ?= build/area
AREA_BLOCKS ?=

.PHONY: area
area:
	@scripts/area/area_flow.py --rtl-dir $(AREA_RTL) --top $(AREA_TOP) --out $(AREA_OUT) \
	  $(if $(AREA_BLOCKS),--blocks $(AREA_BLOCKS)) $(AREA_SETS:%=fpga/param-sets/%.conf)

TEST_SUITES += tests/area/test_area_flow.py

# The parameter sets named after GPU presets must match those presets.
TEST_SUITES += "tests/area/preset-params.sh $(B)/bin/smcosim"
TEST_DEPS   += $(B)/bin/smcosim
