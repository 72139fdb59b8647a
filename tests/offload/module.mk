# tests/offload/ -- the offload path (docs/offload.md).
#
#   test_offload_token   the token layout, pack/unpack round trips on random
#                        stimulus, the "cmodel" transport against C models
#                        (exchanges of k cycles, held lanes, a reset), spec
#                        errors (also ASan)
#   test_offload_group   the group interface and the offload back end over
#                        the transports (SMCOSIM_OFFLOAD_TRANSPORTS, default
#                        cmodel): lockstep with C-model groups over > 1 M
#                        random SM-cycles, lane independence (1/63/64/65/80
#                        SMs), resets, the replay check for k = 1, 7, 4096
#                        with an injected flip, device failures, errors
#   offload-run.sh       `smcosim run --sched offload` JSON = `--sched c` on
#                        benchmarks; --check-rtl with k = 1, 7, 4096 and an
#                        injected flip reported at its cycle, as lockstep does

OFFLOAD_TEST_DIR := $(B)/tests/offload

$(OFFLOAD_TEST_DIR)/test_offload_token: $(OFFLOAD_TEST_DIR)/test_offload_token.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)

$(OFFLOAD_TEST_DIR)/test_offload_group: $(OFFLOAD_TEST_DIR)/test_offload_group.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)

OFFLOAD_TESTS := $(OFFLOAD_TEST_DIR)/test_offload_token $(OFFLOAD_TEST_DIR)/test_offload_group
TEST_SUITES += $(OFFLOAD_TESTS)
TEST_DEPS   += $(OFFLOAD_TESTS)
SAN_SUITES  += $(OFFLOAD_TESTS)
SAN_DEPS    += $(OFFLOAD_TESTS)

# Through `smcosim run` (--bench drivers; the lockstep comparison needs the
# Verilated RTL, which smcosim links).
ifneq ($(wildcard bench/drivers/main.c),)
TEST_SUITES += "tests/offload/offload-run.sh $(B)"
TEST_DEPS   += $(B)/bin/smcosim
endif

# test_offload_netlist    the "netlist" transport (cosim/offload/module.mk):
#                         transposes; the C evaluator of the tiny set's
#                         program == Verilator (64 lanes x 5,000 cycles, every
#                         output bit); the transport on PoCL == the cmodel
#                         transport (1/63/64/65/80 lanes, k 1/7/64, > 1 M
#                         lane-cycles); a planted flip caught; open's errors
# snl-determinism.sh      two generator runs (Yosys included) give the same bytes
# netlist-gen-errors.sh   the generator refuses planted defects (latch, other
#                         clock edge or reset, Mealy output, port mismatch,
#                         combinational loop) naming the cause
# test_offload_netlist_long  the same comparisons on the Kepler and Fermi
#                         presets (make check-long; their Yosys runs take minutes)
# offload-presets.sh      both presets' programs through smcosim run --sched
#                         offload and --check-rtl offload:netlist:64 (check-long)
SNL_TEST_FILES := $(foreach s,$(SNL_TEST_SETS),$(SNL_DIR)/$(s).snl)
SNL_LONG_FILES := $(foreach s,$(SNL_LONG_SETS),$(SNL_DIR)/$(s).snl)
OFFLOAD_NETLIST_TEST_LIBS = $(OFFLOAD_NETLIST_OBJS) $(VSCHED_LIB) $(SCHED_LIB)

$(OFFLOAD_TEST_DIR)/test_offload_netlist: $(OFFLOAD_TEST_DIR)/test_offload_netlist.o \
                                          $(OFFLOAD_NETLIST_TEST_LIBS)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(OFFLOAD_NETLIST_LDLIBS) $(VSCHED_LDLIBS) $(LDLIBS)
$(OFFLOAD_TEST_DIR)/test_offload_netlist_long.o: tests/offload/test_offload_netlist.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INCLUDES) -DSNL_LONG -c $< -o $@
$(OFFLOAD_TEST_DIR)/test_offload_netlist_long: $(OFFLOAD_TEST_DIR)/test_offload_netlist_long.o \
                                               $(OFFLOAD_NETLIST_TEST_LIBS)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(OFFLOAD_NETLIST_LDLIBS) $(VSCHED_LDLIBS) $(LDLIBS)

TEST_SUITES += $(OFFLOAD_TEST_DIR)/test_offload_netlist tests/offload/snl-determinism.sh \
               tests/offload/netlist-gen-errors.sh
TEST_DEPS   += $(OFFLOAD_TEST_DIR)/test_offload_netlist $(SNL_TEST_FILES) $(SNL_PORTS_TOOL) \
               $(OFFLOAD_TEST_DIR)/test_offload_netlist_long
LONG_SUITES += $(OFFLOAD_TEST_DIR)/test_offload_netlist_long "tests/offload/offload-presets.sh $(B)"
check-long: $(SNL_LONG_FILES)


# test_offload_board: the board RTL kernel (fpga/board/) through "vl-board"
# (the Verilated kernel over AXI, with and without stalls) against "cmodel",
# and "ocl-board"'s clean failures without a board (docs/offload.md, "Board
# kernel"). Not in the ASan pass: the Verilated kernel is not instrumented.
$(OFFLOAD_TEST_DIR)/test_offload_board: $(OFFLOAD_TEST_DIR)/test_offload_board.o $(VLBOARD_LIB) \
                                        $(OCLBOARD_OBJ) $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka -lOpenCL $(VSCHED_LDLIBS) $(LDLIBS)

# test_offload_group_board: test_offload_group.c over "vl-board" (plain and
# with 30 % stalls) on the tiny set: closed loop, lane independence,
# resets and the replay check with k = 1, 7, 4096 and an injected flip.
$(OFFLOAD_TEST_DIR)/test_offload_group_board.o: tests/offload/test_offload_group.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INCLUDES) -DOFFLOAD_TEST_BOARD -c $< -o $@
$(OFFLOAD_TEST_DIR)/test_offload_group_board: $(OFFLOAD_TEST_DIR)/test_offload_group_board.o \
                                              $(VLBOARD_LIB) $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(VSCHED_LDLIBS) $(LDLIBS)

TEST_SUITES += $(OFFLOAD_TEST_DIR)/test_offload_board $(OFFLOAD_TEST_DIR)/test_offload_group_board
# the board's million-lane-cycle soak (a quarter of it in make test)
LONG_SUITES += "env SMCOSIM_TEST_LONG=1 $(OFFLOAD_TEST_DIR)/test_offload_board"
TEST_DEPS   += $(OFFLOAD_TEST_DIR)/test_offload_board $(OFFLOAD_TEST_DIR)/test_offload_group_board
