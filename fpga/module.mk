# fpga/: area, storage and timing flow (`make area`), see docs/area.md.
#
#   make area                         default presets (kepler-k20x, fermi-gtx480)
#   make area AREA_SETS="tiny"        any sets from fpga/param-sets/
#   make area AREA_BLOCKS=a,b         only some blocks (default: every rtl/*.sv)
#   make area AREA_JOBS=1             tool runs in parallel (default: the number of CPUs)
#   make area AREA_CACHE=none         run everything again, use no cache
#
# Each block is synthesized on its own, once for all figures and sets that
# share it; results are cached in build/area/cache keyed by what determines
# them (docs/area.md). The tables go to build/area/.

AREA_SETS   ?= kepler-k20x fermi-gtx480
AREA_RTL    ?= rtl
AREA_TOP    ?= sched_core
AREA_OUT    ?= build/area
AREA_BLOCKS ?=
AREA_JOBS   ?=
AREA_CACHE  ?= $(AREA_OUT)/cache

.PHONY: area
area:
	@scripts/area/area_flow.py --rtl-dir $(AREA_RTL) --top $(AREA_TOP) --out $(AREA_OUT) \
	  $(if $(AREA_BLOCKS),--blocks $(AREA_BLOCKS)) $(if $(AREA_JOBS),-j $(AREA_JOBS)) \
	  $(if $(filter none,$(AREA_CACHE)),--no-cache,--cache $(AREA_CACHE)) \
	  $(AREA_SETS:%=fpga/param-sets/%.conf)

TEST_SUITES += tests/area/test_area_flow.py

# The parameter sets named after GPU presets must match those presets.
TEST_SUITES += "tests/area/preset-params.sh $(B)/bin/smcosim"
TEST_DEPS   += $(B)/bin/smcosim
