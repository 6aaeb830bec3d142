# make bench: csdump decode's throughput against its peers (bench/run.sh).
# Not part of `make check`.  Uses ../shared/traces when present and the
# project's ETMv4 encoder (mk/encoder.mk) for a trace of its own.

BENCH_DIR := $(BUILD)/bench

$(BENCH_DIR)/ocsd_nop: bench/ocsd_nop.c $(BUILD)/host/libcsdump.a
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Isrc -o $@ $^ $(HOST_LDLIBS)

.PHONY: bench
bench: $(BUILD)/host/csdump $(BENCH_DIR)/ocsd_nop $(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf
	@bench/run.sh $(BUILD)/host/csdump $(BENCH_DIR)/ocsd_nop $(abspath $(SHARED)/traces) \
		$(BENCH_DIR) $(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf
