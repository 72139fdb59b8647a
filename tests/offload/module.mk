# tests/offload/ -- the offload path (docs/offload.md).
#
#   test_offload_token   the token layout, pack/unpack round trips on random
#                        stimulus, the "cmodel" transport against C models
#                        (exchanges of k cycles, held lanes, a reset), spec
#                        errors (also ASan)

OFFLOAD_TEST_DIR := $(B)/tests/offload

$(OFFLOAD_TEST_DIR)/test_offload_token: $(OFFLOAD_TEST_DIR)/test_offload_token.o $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)

OFFLOAD_TESTS := $(OFFLOAD_TEST_DIR)/test_offload_token
TEST_SUITES += $(OFFLOAD_TESTS)
TEST_DEPS   += $(OFFLOAD_TESTS)
SAN_SUITES  += $(OFFLOAD_TEST_DIR)/test_offload_token
SAN_DEPS    += $(OFFLOAD_TEST_DIR)/test_offload_token
