# The ETMv4 trace encoder (tools/etm4enc): a library + the etm4enc tool for
# tests, benchmarks and the demo. Never installed.
#
# Two builds: $(ENC) (optimised, for benchmarks and the demo) and $(ENC_SAN)
# (ASan + UBSan, for the tests). tests/encoder/prog.c is cross-compiled to a
# small arm64 ELF so that the round trip needs nothing outside the repo.

ENC      := $(BUILD)/encoder
ENC_SAN  := $(BUILD)/encoder-san
ENC_SRCS := $(filter-out tools/etm4enc/main.c,$(wildcard tools/etm4enc/*.c))
# The output directories are written by libcsdump (src/core/extract.h,
# src/format/snapshot.h).
ENC_CPPFLAGS := -Itools/etm4enc -Isrc
AARCH64_CC ?= aarch64-linux-gnu-gcc

# $(call enc_variant,DIR,EXTRA_FLAGS,LIBCSDUMP)
define enc_variant
$(1)/obj/%.o: tools/etm4enc/%.c $(DEPS_STAMP)
	@mkdir -p $$(@D)
	$$(CC) $$(CSTD) $$(WARN) $$(CFLAGS) $(2) $$(ENC_CPPFLAGS) -MMD -MP -c -o $$@ $$<

$(1)/obj/tests/%.o: tests/encoder/%.c $(DEPS_STAMP)
	@mkdir -p $$(@D)
	$$(CC) $$(CSTD) $$(WARN) $$(CFLAGS) $(2) $$(ENC_CPPFLAGS) -MMD -MP -c -o $$@ $$<

$(1)/libetm4enc.a: $(patsubst tools/etm4enc/%.c,$(1)/obj/%.o,$(ENC_SRCS))
	@rm -f $$@
	$$(AR) rcs $$@ $$^

$(1)/etm4enc: $(1)/obj/main.o $(1)/libetm4enc.a $(3)
	$$(CC) $$(CFLAGS) $(2) $$(LDFLAGS) -o $$@ $$^ $$(HOST_LDLIBS)

$(1)/enc_roundtrip: $(1)/obj/tests/roundtrip.o $(1)/libetm4enc.a $(3)
	$$(CC) $$(CFLAGS) $(2) $$(LDFLAGS) -o $$@ $$^ $$(HOST_LDLIBS)

$(1)/a64_capstone: $(1)/obj/tests/a64_capstone.o $(1)/libetm4enc.a
	$$(CC) $$(CFLAGS) $(2) $$(LDFLAGS) -o $$@ $$^ -lelf -lcapstone

-include $$(wildcard $(1)/obj/*.d $(1)/obj/tests/*.d)
endef

$(eval $(call enc_variant,$(ENC),,$(BUILD)/host/libcsdump.a))
$(eval $(call enc_variant,$(ENC_SAN),$(SAN_FLAGS),$(BUILD)/host-san/libcsdump.a))

# The test program: freestanding arm64 code with plenty of control flow.
$(ENC)/prog.elf: tests/encoder/prog.c $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(AARCH64_CC) -O2 -ffreestanding -fno-stack-protector -nostdlib -static \
		-fno-pie -no-pie -Wl,--build-id=none -Wl,-e,_start -o $@ $<

# Benchmark traces of any size: `make build/encoder/trace-64K` ... trace-256M
# (six CPUs walking the guest kernel when it is built, else prog.elf; a full
# circular sink of exactly that size, as an extract directory + snapshot).
ENC_TRACE_ELF ?= $(if $(wildcard $(KERNEL_HW_VMLINUX)),$(KERNEL_HW_VMLINUX),$(ENC)/prog.elf)
$(ENC)/trace-%: $(ENC)/etm4enc $(ENC)/prog.elf
	$(ENC)/etm4enc --elf $(ENC_TRACE_ELF) --cpus 6 --size $* --cc --stats -o $@

.PHONY: encoder encoder-san
encoder: $(ENC)/etm4enc
encoder-san: $(ENC_SAN)/etm4enc $(ENC_SAN)/enc_roundtrip $(ENC_SAN)/a64_capstone $(ENC)/prog.elf

# --- tests -------------------------------------------------------------------
# Round trip: 200 seeds x 8 configurations, decoded by trc_pkt_lister.
ENC_SAN_ENV := ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
.PHONY: check-enc-roundtrip check-enc-roundtrip-etb check-enc-roundtrip-juno
check-enc-roundtrip: $(ENC_SAN)/enc_roundtrip $(ENC)/prog.elf
	@$(HARNESS) enc-roundtrip env $(ENC_SAN_ENV) $< -s 200 -w $(ENC)/rt -x $(ENC)/prog.elf

# The same through a small wrapped ETB: each ID decodes to a tail of its path.
check-enc-roundtrip-etb: $(ENC_SAN)/enc_roundtrip $(ENC)/prog.elf
	@$(HARNESS) enc-roundtrip-etb env $(ENC_SAN_ENV) $< -s 40 -e 16384 -w $(ENC)/rt-etb -x $(ENC)/prog.elf

# A real kernel's text (Juno, ../shared): long addresses, ERET, exceptions.
check-enc-roundtrip-juno: $(ENC_SAN)/enc_roundtrip
	@$(HARNESS) enc-roundtrip-juno env $(ENC_SAN_ENV) $< -s 200 -w $(ENC)/rt-juno \
		-r $(SHARED)/traces/juno_r1_1/kernel_dump.bin 0xFFFFFFC000081000

# The CLI along a call chain, decoded by trc_pkt_lister, checked against nm.
.PHONY: check-enc-sympath
check-enc-sympath: $(ENC_SAN)/etm4enc $(ENC)/prog.elf
	@$(HARNESS) enc-sympath env $(ENC_SAN_ENV) tests/encoder/sympath.sh $< $(ENC)/prog.elf $(ENC)/sympath

# csdump's own decoder (mk/host.mk) must give back the encoded ranges too
# (alone where trc_pkt_lister already checked the same seeds; both on the ETB).
CSDUMP_BIN := $(BUILD)/host/csdump
.PHONY: check-enc-csdump check-enc-csdump-etb check-enc-csdump-juno
check-enc-csdump: $(ENC_SAN)/enc_roundtrip $(ENC)/prog.elf $(CSDUMP_BIN)
	@$(HARNESS) enc-csdump env $(ENC_SAN_ENV) $< -s 200 -c $(CSDUMP_BIN) -n -w $(ENC)/rt-cs -x $(ENC)/prog.elf

check-enc-csdump-etb: $(ENC_SAN)/enc_roundtrip $(ENC)/prog.elf $(CSDUMP_BIN)
	@$(HARNESS) enc-csdump-etb env $(ENC_SAN_ENV) $< -s 40 -e 16384 -c $(CSDUMP_BIN) -w $(ENC)/rt-cs-etb -x $(ENC)/prog.elf

check-enc-csdump-juno: $(ENC_SAN)/enc_roundtrip $(CSDUMP_BIN)
	@$(HARNESS) enc-csdump-juno env $(ENC_SAN_ENV) $< -s 100 -c $(CSDUMP_BIN) -n -w $(ENC)/rt-cs-juno \
		-r $(SHARED)/traces/juno_r1_1/kernel_dump.bin 0xFFFFFFC000081000

# The branch classifier against capstone on prog.elf, the guest kernel (when
# built) and random words.
.PHONY: check-enc-a64
check-enc-a64: $(ENC_SAN)/a64_capstone $(ENC)/prog.elf
	@$(HARNESS) enc-a64 env $(ENC_SAN_ENV) $< $(ENC)/prog.elf $(ENC_VMLINUX)

# Stock perf script on csdump's perf.data of a synthesized snapshot prints
# the encoded path's taken branches, and names the chain's functions.
.PHONY: check-enc-perf
check-enc-perf: $(ENC_SAN)/etm4enc $(ENC)/prog.elf $(CSDUMP_BIN)
	@$(HARNESS) enc-perf env $(ENC_SAN_ENV) tests/encoder/perf_branches.py $< $(CSDUMP_BIN) \
		$(ENC)/prog.elf $(ENC)/perf

# The guest kernel's sysrq panic path, when the kernel has been built.
ENC_VMLINUX ?= $(KERNEL_HW_VMLINUX)
ENC_PANIC_CHAIN := el0t_64_sync el0t_64_sync_handler el0_svc do_el0_svc invoke_syscall \
	__arm64_sys_write ksys_write vfs_write proc_reg_write write_sysrq_trigger \
	__handle_sysrq sysrq_handle_crash panic __crash_kexec machine_kexec
.PHONY: check-enc-vmlinux
check-enc-vmlinux: $(ENC_SAN)/etm4enc
	@$(HARNESS) enc-vmlinux env $(ENC_SAN_ENV) tests/encoder/sympath.sh $< $(ENC_VMLINUX) \
		$(ENC)/vmlinux-panic "$(ENC_PANIC_CHAIN)"

CHECKS += check-enc-roundtrip check-enc-roundtrip-etb check-enc-roundtrip-juno check-enc-sympath
CHECKS += check-enc-vmlinux check-enc-a64
CHECKS += check-enc-csdump check-enc-csdump-etb check-enc-csdump-juno check-enc-perf
