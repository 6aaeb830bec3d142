# make bench: csdump decode's throughput against its peers (bench/run.sh).
# Not part of `make check`; needs ../shared/traces (says so and does nothing
# without it).

BENCH_DIR := $(BUILD)/bench

$(BENCH_DIR)/ocsd_nop: bench/ocsd_nop.c $(BUILD)/host/libcsdump.a
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Isrc -o $@ $^ $(HOST_LDLIBS)

.PHONY: bench
bench: $(BUILD)/host/csdump $(BENCH_DIR)/ocsd_nop
	@bench/run.sh $(BUILD)/host/csdump $(BENCH_DIR)/ocsd_nop $(abspath $(SHARED)/traces) $(BENCH_DIR)
