# cosim/offload/ -- the offload path (docs/offload.md): the token codec, the
# transports' table with the C-model transport, the `offload` back end's
# group (offload_group.c) and the replay check (offload_check.c); beside
# them cosim/sched_group.c (all SMs' cores stepped together) and the door
# sched_open.c, which the group layer opens back ends through.
#
# They go into $(SCHED_LIB) (the rule's recipe archives $^, so extra
# prerequisites here are archived too) and, through SMC_MODEL_SRCS
# (csrc/config/module.mk), into the device library.

OFFLOAD_LIB_OBJS := $(B)/cosim/sched_group.o $(B)/cosim/sched_open.o \
                    $(B)/cosim/offload/offload_group.o $(B)/cosim/offload/offload_check.o
$(SCHED_LIB): $(OFFLOAD_LIB_OBJS)

# make bench: the offload table (offload_bench.c; docs/offload.md, "Bench"),
# then end-to-end rows through smcosim run. OFFLOAD_BENCH_TRANSPORT picks
# the transport (default cmodel).
OFFLOAD_BENCH := $(B)/cosim/offload/offload_bench
OFFLOAD_BENCH_TRANSPORT ?= cmodel
# SM-cycles per row, repetitions, and the end-to-end rows' benchmark size
# (the netlist on PoCL: e.g. 8192 1 small; docs/offload.md, "Bench")
OFFLOAD_BENCH_CYCLES    ?= 131072
OFFLOAD_BENCH_REPS      ?= 5
OFFLOAD_BENCH_SIZE      ?= default
# (the netlist transport's objects, OFFLOAD_NETLIST_OBJS below, spelled out:
# a prerequisite list is expanded where the rule is read)
$(OFFLOAD_BENCH): $(B)/cosim/offload/offload_bench.o $(B)/cosim/offload/offload_netlist.o \
                  $(B)/cosim/offload/snl_eval.o $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) -Wl,-u,sched_rtl_create $^ -o $@ -lOpenCL $(VSCHED_LDLIBS) $(LDLIBS)
ALL_TARGETS += $(OFFLOAD_BENCH)

.PHONY: offload-bench
offload-bench: $(OFFLOAD_BENCH) $(B)/bin/smcosim
	@tests/offload/bench-offload.sh $(B) $(OFFLOAD_BENCH_TRANSPORT) $(OFFLOAD_BENCH_CYCLES) \
	  $(OFFLOAD_BENCH_REPS) $(OFFLOAD_BENCH_SIZE)
BENCH_TARGETS += offload-bench

# cosim/offload/ -- the "netlist" offload transport (docs/offload.md,
# "Netlist transport"): netlist program files of rtl/ and the OpenCL
# interpreter that runs them.
#
#   build/offload/W_S_R_D_E_P_RCU_REN.snl   the program of one parameter set
#                      (named like cosim/module.mk's VSCHED_CONFIGS), written by
#                      scripts/offload/netlist_gen.py from Yosys 0.23's netlist
#                      (kept beside it as .json, reused while the RTL, the set
#                      and Yosys are the same). Any set: make build/offload/<set>.snl
#   $(OFFLOAD_NETLIST_OBJS)  the transport (offload_transport_netlist) and the C
#                      reference evaluator; link them with $(OFFLOAD_NETLIST_LDLIBS).
#                      The table in offload_transports.c refers to the transport
#                      weakly: a program that wants it links these objects
#                      (not an archive, whose members a weak reference does not pull).
#   $(SNL_PORTS_TOOL)  prints the token layout of a set from sched_ports.def
#                      (the generator's only source of port names)
#
# The program files live in build/offload for both builds (SAN=1 too): they
# do not depend on compiler flags.

SNL_DIR        := build/offload
SNL_GEN        := scripts/offload/netlist_gen.py
SNL_PORTS_TOOL := $(B)/cosim/offload/offload_ports
# the sets the tests use (make check) and the presets (make check-long)
SNL_TEST_SETS  := 4_1_8_2_6_2_2_1 8_4_8_4_2_3_8_8
SNL_LONG_SETS  := 64_4_8_2_6_4_8_8 48_2_6_3_4_2_8_8
SNL_GEN_INC    := $(B)/offload/include
OFFLOAD_NETLIST_OBJS   := $(B)/cosim/offload/offload_netlist.o $(B)/cosim/offload/snl_eval.o
OFFLOAD_NETLIST_LDLIBS := -lOpenCL

$(SNL_PORTS_TOOL): $(B)/cosim/offload/offload_ports.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# rtl/module.mk is read after this file: prerequisites name the sources by
# wildcard, recipes use $(RTL_SOURCES) (expanded when they run).
# The ports tool's output depends only on the port table and the token
# layout code, so those are the prerequisites (the tool itself is
# order-only: relinking it after a C model change regenerates nothing).
.PRECIOUS: $(SNL_DIR)/%.snl
$(SNL_DIR)/%.snl: $(SNL_GEN) $(wildcard rtl/*.sv) rtl/module.mk cosim/sched_ports.def                   cosim/offload/offload_token.c cosim/offload/offload_ports.c | $(SNL_PORTS_TOOL)
	@mkdir -p $(@D)
	python3 $(SNL_GEN) gen --set $* --ports-tool $(SNL_PORTS_TOOL) --json $(SNL_DIR)/$*.json \
	  --out $@ $(RTL_SOURCES)

# The RTL hash the transport accepts (the staleness rule), rewritten only
# when it changes; and netlist.cl as a C string.
$(SNL_GEN_INC)/snl_rtl_hash.h: $(SNL_GEN) $(wildcard rtl/*.sv) rtl/module.mk
	@mkdir -p $(@D)
	@h=$$(python3 $(SNL_GEN) hash $(RTL_SOURCES)) || exit 1; \
	 echo "#define SNL_RTL_SHA256 \"$$h\"" > $@.tmp; \
	 if cmp -s $@ $@.tmp; then rm $@.tmp; else mv $@.tmp $@; fi
$(SNL_GEN_INC)/netlist_cl.h: cosim/offload/netlist.cl
	@mkdir -p $(@D)
	@{ echo "/* generated from cosim/offload/netlist.cl by cosim/offload/module.mk */"; \
	   echo "static const char netlist_cl_src[] ="; \
	   sed 's/\\/\\\\/g; s/"/\\"/g; s/.*/"&\\n"/' $<; echo ";"; } > $@.tmp && mv $@.tmp $@

$(B)/cosim/offload/offload_netlist.o: $(SNL_GEN_INC)/snl_rtl_hash.h $(SNL_GEN_INC)/netlist_cl.h
$(B)/cosim/offload/offload_netlist.o: INCLUDES += -I$(SNL_GEN_INC)
$(B)/cosim/offload/offload_netlist.o: CPPFLAGS += -DSNL_DEFAULT_DIR='"$(abspath $(SNL_DIR))"'

ALL_TARGETS += $(SNL_PORTS_TOOL) $(OFFLOAD_NETLIST_OBJS)

# Host time per cycle of the program: C evaluator and transport (PoCL), for
# docs/offload.md. make offload-netlist-bench [SNL_BENCH_SETS="set ..."]
SNL_BENCH      := $(B)/cosim/offload/snl_bench
SNL_BENCH_SETS ?= 4_1_8_2_6_2_2_1 8_4_8_4_2_3_8_8
$(SNL_BENCH): $(B)/cosim/offload/snl_bench.o $(OFFLOAD_NETLIST_OBJS) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ $(OFFLOAD_NETLIST_LDLIBS) $(LDLIBS)
# make bench also runs the offload table on the netlist transport (PoCL) for
# the Kepler core: fewer SM-cycles per row and the small end-to-end size,
# because the Kepler program costs about 0.75 ms per cycle (docs/offload.md,
# "Bench"); the program is built first (Yosys, about 2 minutes).
.PHONY: offload-bench-netlist
offload-bench-netlist: $(OFFLOAD_BENCH) $(B)/bin/smcosim $(SNL_DIR)/64_4_8_2_6_4_8_8.snl
	@tests/offload/bench-offload.sh $(B) netlist 8192 1 small
BENCH_TARGETS += offload-bench-netlist

.PHONY: offload-netlist-bench
offload-netlist-bench: $(SNL_BENCH) $(foreach s,$(SNL_BENCH_SETS),$(SNL_DIR)/$(s).snl)
	@$(SNL_BENCH) $(SNL_BENCH_SETS)
ALL_TARGETS   += $(SNL_BENCH)
BENCH_TARGETS += offload-netlist-bench
