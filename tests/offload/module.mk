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

# test_offload_board: the board RTL kernel (fpga/board/) through "vl-board"
# (the Verilated kernel over AXI, with and without stalls) against "cmodel",
# and "ocl-board"'s clean failures without a board (docs/offload.md, "Board
# kernel"). Not in the ASan pass: the Verilated kernel is not instrumented.
$(OFFLOAD_TEST_DIR)/test_offload_board: $(OFFLOAD_TEST_DIR)/test_offload_board.o $(VLBOARD_LIB) \
                                        $(OCLBOARD_OBJ) $(VSCHED_LIB) $(SCHED_LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lcmocka -lOpenCL $(VSCHED_LDLIBS) $(LDLIBS)

TEST_SUITES += $(OFFLOAD_TEST_DIR)/test_offload_board
TEST_DEPS   += $(OFFLOAD_TEST_DIR)/test_offload_board
