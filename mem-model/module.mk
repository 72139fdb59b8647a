# mem-model/: the memory hierarchy model (issue 4) -> $(MEM_LIB).
# Link users with $(MEM_LIB) $(UTIL_LIB) (the key-table and error-message
# helpers of csrc/util).

MEM_SRCS := mem-model/mem.c mem-model/mem_l1d.c mem-model/mem_l1i.c mem-model/mem_dup.c \
            mem-model/mem_icnt.c mem-model/mem_l2.c mem-model/mem_dram.c \
            mem-model/mem_inst.c mem-model/coalesce.c mem-model/mem_config.c \
            mem-model/mem_stats.c mem-model/mem_vta.c mem-model/mem_probe.c
MEM_OBJS := $(MEM_SRCS:%.c=$(B)/%.o)
INCLUDES += -Imem-model -Icsrc/util

$(MEM_LIB): $(MEM_OBJS)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

# smc-memcfg: print a preset's keys, or the Markdown key table for docs/.
MEM_CFG_TOOL := $(B)/bin/smc-memcfg
$(MEM_CFG_TOOL): $(B)/mem-model/memcfg_main.o $(MEM_LIB) $(UTIL_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# bench-mem: line-accesses per second, streaming and random patterns.
MEM_BENCH := $(B)/bin/bench-mem
$(MEM_BENCH): $(B)/mem-model/bench_mem.o $(MEM_LIB) $(UTIL_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

.PHONY: bench-mem
bench-mem: $(MEM_BENCH)
	@$(MEM_BENCH)

# mem-digest: a hash of everything observable (completions, acceptance
# decisions, free MSHRs each cycle, final statistics) over seeded scenarios;
# record it before a speed change and diff after (not a test: no expected
# value is stored).
MEM_DIGEST := $(B)/bin/mem-digest
$(MEM_DIGEST): $(B)/mem-model/mem_digest.o $(MEM_LIB) $(UTIL_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

.PHONY: mem-digest
mem-digest: $(MEM_DIGEST)
	@$(MEM_DIGEST)

# bench-mem-machine: every preset's memory microbenchmarks (unloaded latency
# and sustained bandwidth per level, one SM and all SMs) beside the
# configuration's arithmetic; the same program is a test in make test
# (tests/mem/test_mem_machine.c asserts what it prints).
.PHONY: bench-mem-machine
bench-mem-machine: $(B)/tests/mem/test_mem_machine
	@$(B)/tests/mem/test_mem_machine

ALL_TARGETS   += $(MEM_LIB) $(MEM_CFG_TOOL) $(MEM_BENCH) $(MEM_DIGEST)
BENCH_TARGETS += bench-mem bench-mem-machine
