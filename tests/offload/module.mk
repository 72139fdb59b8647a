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
