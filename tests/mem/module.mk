# tests/mem/: unit tests of the memory model and of the config-key helper,
# and the seeded randomised invariant test (fewer instructions under ASan).

MEMT_BINS := $(B)/tests/mem/test_config_keys $(B)/tests/mem/test_mem_units \
             $(B)/tests/mem/test_mem_random $(B)/tests/mem/test_mem_skip \
             $(B)/tests/mem/test_mem_machine

$(B)/tests/mem/%: $(B)/tests/mem/%.o $(MEM_LIB) $(UTIL_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS) -lcmocka

TEST_SUITES += build/tests/mem/test_config_keys build/tests/mem/test_mem_units \
               build/tests/mem/test_mem_random build/tests/mem/test_mem_skip \
               build/tests/mem/test_mem_machine
TEST_DEPS   += build/tests/mem/test_config_keys build/tests/mem/test_mem_units \
               build/tests/mem/test_mem_random build/tests/mem/test_mem_skip \
               build/tests/mem/test_mem_machine
SAN_SUITES  += build/asan/tests/mem/test_config_keys \
               build/asan/tests/mem/test_mem_units \
               "build/asan/tests/mem/test_mem_random 60000" \
               build/asan/tests/mem/test_mem_skip
SAN_DEPS    += build/asan/tests/mem/test_config_keys \
               build/asan/tests/mem/test_mem_units \
               build/asan/tests/mem/test_mem_random \
               build/asan/tests/mem/test_mem_skip

# keep the test objects (make would delete them as intermediates)
.PRECIOUS: $(B)/tests/mem/%.o
