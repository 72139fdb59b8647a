# tests/sched/ -- scheduler core tests (cmocka).
#
#   test_sched_policy_c    hand-made policy scenarios on the C model (also ASan)
#   test_sched_cmodel_random  C model vs an independent reference of the
#                          contract's invariants, random stimulus (also ASan)
#   test_sched_policy_rtl  the same scenarios on the Verilated RTL
#   test_sched_diff        C model vs RTL in lockstep, >= 1M random cycles with
#                          register ids over the whole width, the contract's
#                          dropped/ignored violations on every Verilated set,
#                          and an injected difference the checker must report
#   test_sched_mutants     bugs planted in the C model and in the RTL (a
#                          test-only Verilated variant), each caught by the
#                          random lockstep within a stated number of cycles
#   kernel-lockstep.sh     the benchmark suite in lockstep on the Verilated
#                          sets no preset has (golden.sh covers the others)
#   test_sched_haws_c/_rtl HAWS directed scenarios: entry, chain, rename, both
#                          exits, return pass, minimum latencies, rejected
#                          inputs (C model, also ASan; Verilated RTL)
#   test_sched_ports       every input field one bit too wide is rejected (from
#                          cosim/sched_ports.def), output field names (also ASan)
#   ports-check.sh         RTL port list = cosim/sched_ports.def, generated files current
#   test_sched_ctrace      the C model's FST trace: hand-made scenario, the
#                          same port waveform as the RTL's trace, window,
#                          unwritable path (also ASan)
# The Verilated suites stay out of the ASan pass (the Verilator runtime and
# models are not built with sanitizers; it would only be slow).

SCHED_TEST_DIR := $(B)/tests/sched

$(SCHED_TEST_DIR)/test_sched_policy_c: $(SCHED_TEST_DIR)/test_sched_policy.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)

$(SCHED_TEST_DIR)/test_sched_cmodel_random: $(SCHED_TEST_DIR)/test_sched_cmodel_random.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)

$(SCHED_TEST_DIR)/test_sched_ports: $(SCHED_TEST_DIR)/test_sched_ports.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)

$(SCHED_TEST_DIR)/test_sched_policy_rtl.o: tests/sched/test_sched_policy.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INCLUDES) -DSCHED_TEST_RTL -c $< -o $@

$(SCHED_TEST_DIR)/test_sched_policy_rtl: $(SCHED_TEST_DIR)/test_sched_policy_rtl.o $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(VSCHED_LDLIBS) $(LDLIBS)

$(SCHED_TEST_DIR)/test_sched_diff: $(SCHED_TEST_DIR)/test_sched_diff.o $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(VSCHED_LDLIBS) $(LDLIBS)

# Its mutant objects come first: they define the plain models' symbols too
# (cosim/module.mk, VSCHED_MUT_OBJS), so the libraries' copies stay out.
$(SCHED_TEST_DIR)/test_sched_mutants: $(SCHED_TEST_DIR)/test_sched_mutants.o $(VSCHED_MUT_OBJS) \
                                      $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(VSCHED_LDLIBS) $(LDLIBS)

# fstapi's reader: header with Verilator, code in $(VSCHED_LIB)
$(SCHED_TEST_DIR)/test_sched_ctrace.o: INCLUDES += -I$(VERILATOR_INC)

$(SCHED_TEST_DIR)/test_sched_ctrace: $(SCHED_TEST_DIR)/test_sched_ctrace.o $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(VSCHED_LDLIBS) $(LDLIBS)

SCHED_TESTS := $(SCHED_TEST_DIR)/test_sched_policy_c $(SCHED_TEST_DIR)/test_sched_cmodel_random \
               $(SCHED_TEST_DIR)/test_sched_ports \
               $(SCHED_TEST_DIR)/test_sched_policy_rtl \
               $(SCHED_TEST_DIR)/test_sched_diff $(SCHED_TEST_DIR)/test_sched_ctrace \
               $(SCHED_TEST_DIR)/test_sched_mutants
TEST_SUITES += $(SCHED_TESTS)
TEST_DEPS   += $(SCHED_TESTS)
# test_sched_ctrace too: it is short, and its ASan library reuses the
# (unsanitized) Verilated models, so only the C trace writer is instrumented.
SCHED_SAN_TESTS := $(SCHED_TEST_DIR)/test_sched_policy_c $(SCHED_TEST_DIR)/test_sched_cmodel_random \
                   $(SCHED_TEST_DIR)/test_sched_ports \
                   $(SCHED_TEST_DIR)/test_sched_ctrace
SAN_SUITES  += $(SCHED_SAN_TESTS)
SAN_DEPS    += $(SCHED_SAN_TESTS)

# The RTL's port list against cosim/sched_ports.def for every Verilated
# parameter set, and the generated docs/RTL regions current (no ASan: no C).
TEST_SUITES += "tests/sched/ports-check.sh $(B) $(VSCHED_CONFIGS)"
TEST_DEPS   += $(SCHED_PORTS_GEN)

# Real kernels in lockstep on 32/1/8/1/8/1 and 8/4/8/4/2/3 (config overrides).
TEST_SUITES += "tests/sched/kernel-lockstep.sh $(B)"
LONG_SUITES += "tests/sched/kernel-lockstep.sh $(B) long"
TEST_DEPS   += $(BENCH_BIN) $(TIMING_PLUGIN)

# HAWS directed scenarios (tests/sched/test_sched_haws.c), C model; the hint
# word's helpers come from hints/haws_hint.h.
$(SCHED_TEST_DIR)/test_sched_haws_c.o: tests/sched/test_sched_haws.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INCLUDES) -Ihints -c $< -o $@

$(SCHED_TEST_DIR)/test_sched_haws_c: $(SCHED_TEST_DIR)/test_sched_haws_c.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)

# ... and on the Verilated RTL (set 4/1/8/2/6/2/2/1)
$(SCHED_TEST_DIR)/test_sched_haws_rtl.o: tests/sched/test_sched_haws.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INCLUDES) -Ihints -DSCHED_TEST_RTL -c $< -o $@

$(SCHED_TEST_DIR)/test_sched_haws_rtl: $(SCHED_TEST_DIR)/test_sched_haws_rtl.o $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(VSCHED_LDLIBS) $(LDLIBS)

TEST_SUITES += $(SCHED_TEST_DIR)/test_sched_haws_c $(SCHED_TEST_DIR)/test_sched_haws_rtl
TEST_DEPS   += $(SCHED_TEST_DIR)/test_sched_haws_c $(SCHED_TEST_DIR)/test_sched_haws_rtl
SAN_SUITES  += $(SCHED_TEST_DIR)/test_sched_haws_c
SAN_DEPS    += $(SCHED_TEST_DIR)/test_sched_haws_c

# OAWS directed scenarios (tests/sched/test_sched_oaws.c): Eq. 1 at its
# boundary, Miss_inflight, reasons, dynamic ranks; C model (also ASan) and
# the Verilated RTL (Fermi set 48/2/6/3/4/2/8/8).
$(SCHED_TEST_DIR)/test_sched_oaws_c: $(SCHED_TEST_DIR)/test_sched_oaws.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)

$(SCHED_TEST_DIR)/test_sched_oaws_rtl.o: tests/sched/test_sched_oaws.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INCLUDES) -DSCHED_TEST_RTL -c $< -o $@

$(SCHED_TEST_DIR)/test_sched_oaws_rtl: $(SCHED_TEST_DIR)/test_sched_oaws_rtl.o $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(VSCHED_LDLIBS) $(LDLIBS)

TEST_SUITES += $(SCHED_TEST_DIR)/test_sched_oaws_c $(SCHED_TEST_DIR)/test_sched_oaws_rtl
TEST_DEPS   += $(SCHED_TEST_DIR)/test_sched_oaws_c $(SCHED_TEST_DIR)/test_sched_oaws_rtl
SAN_SUITES  += $(SCHED_TEST_DIR)/test_sched_oaws_c
SAN_DEPS    += $(SCHED_TEST_DIR)/test_sched_oaws_c

# OAWS's DLC (tests/sched/test_dlc.c): the C model's fields, hand-worked
# sequences through the C model, the Verilated RTL and the lockstep pair,
# random lockstep; test_dlc_c is the C model alone (also ASan).
$(SCHED_TEST_DIR)/test_dlc_c: $(SCHED_TEST_DIR)/test_dlc.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)

$(SCHED_TEST_DIR)/test_dlc_rtl.o: tests/sched/test_dlc.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INCLUDES) -DDLC_TEST_RTL -c $< -o $@

# (-u: the RTL is a weak reference of cosim/dlc.c; pull its shim in)
$(SCHED_TEST_DIR)/test_dlc_rtl: $(SCHED_TEST_DIR)/test_dlc_rtl.o $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) -Wl,-u,vdlc_api_get $^ -o $@ -lcmocka $(VSCHED_LDLIBS) $(LDLIBS)

TEST_SUITES += $(SCHED_TEST_DIR)/test_dlc_c $(SCHED_TEST_DIR)/test_dlc_rtl
TEST_DEPS   += $(SCHED_TEST_DIR)/test_dlc_c $(SCHED_TEST_DIR)/test_dlc_rtl
SAN_SUITES  += $(SCHED_TEST_DIR)/test_dlc_c
SAN_DEPS    += $(SCHED_TEST_DIR)/test_dlc_c

# Peers of OAWS, directed scenarios (tests/sched/test_sched_peers.c): CCWS
# scores, cutoff and load holds; MASCAR modes, owner and order; rejected
# inputs; C model (also ASan) and the Verilated RTL (Fermi set).
$(SCHED_TEST_DIR)/test_sched_peers_c: $(SCHED_TEST_DIR)/test_sched_peers.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)

$(SCHED_TEST_DIR)/test_sched_peers_rtl.o: tests/sched/test_sched_peers.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INCLUDES) -DSCHED_TEST_RTL -c $< -o $@

$(SCHED_TEST_DIR)/test_sched_peers_rtl: $(SCHED_TEST_DIR)/test_sched_peers_rtl.o $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(VSCHED_LDLIBS) $(LDLIBS)

TEST_SUITES += $(SCHED_TEST_DIR)/test_sched_peers_c $(SCHED_TEST_DIR)/test_sched_peers_rtl
TEST_DEPS   += $(SCHED_TEST_DIR)/test_sched_peers_c $(SCHED_TEST_DIR)/test_sched_peers_rtl
SAN_SUITES  += $(SCHED_TEST_DIR)/test_sched_peers_c
SAN_DEPS    += $(SCHED_TEST_DIR)/test_sched_peers_c
