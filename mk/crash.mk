# The crash extension csdump.so, for Debian's arm64 crash run under qemu-user.
#
#   make crash-ext    build/crash/csdump.so and the arm64 crash root
#
# Debian's amd64 crash cannot open arm64 vmcores, so the extension is built
# for arm64 (aarch64-linux-gnu-gcc) against the defs.h of the arm64 crash it
# is loaded into: scripts/crash-arm64-env.sh fetches that crash, its
# libraries and the arm64 zlib into $(CRASH_ROOT), run as
#   qemu-aarch64-static -L $(CRASH_ROOT) $(CRASH_ROOT)/usr/bin/crash ...
# The extension links src/crash_ext.c with the library modules that the
# registry walk and the extract/info writers need; none needs libkdumpfile
# (crash is the memory source), libelf or OpenCSD.

CRASH_ENV    := $(BUILD)/crash-arm64
CRASH_ROOT   := $(CRASH_ENV)/root
CRASH_STAMP  := $(CRASH_ENV)/.root-ok
CRASH_OUT    := $(BUILD)/crash
CRASH_EXT    := $(CRASH_OUT)/csdump.so
CROSS_CC     ?= aarch64-linux-gnu-gcc

CRASH_LIB_SRCS := $(addprefix src/,registry.c registry_info.c vmcoreinfo.c extract.c \
		  perfdata.c perf_cs_etm.c cs_frame.c dump.c fileio.c diag.c)
CRASH_EXT_SRCS := src/crash_ext.c $(CRASH_LIB_SRCS)
CRASH_EXT_OBJS := $(patsubst src/%.c,$(CRASH_OUT)/obj/%.o,$(CRASH_EXT_SRCS))

# defs.h needs the target's machine type (ARM64) and its gdb (10.2 for
# crash 8.0); it is clean under -Wall -Wextra as a system header.
CRASH_CPPFLAGS := -DARM64 -DGDB_10_2 -isystem $(CRASH_ROOT)/usr/include -Isrc
# The extension exports nothing and carries its own zlib (crash has no
# libz.so.1 but exports a crc32 of its own): with hidden visibility and the
# static zlib's symbols kept local, every library call binds inside the
# extension and none is interposed by a crash symbol of the same name.
CRASH_VISIBILITY := -fvisibility=hidden
CRASH_LDLIBS   := -Wl,--exclude-libs,ALL $(CRASH_ROOT)/usr/lib/aarch64-linux-gnu/libz.a

.PHONY: crash-ext crash-env
crash-ext: $(CRASH_EXT)
crash-env: $(CRASH_STAMP)

$(CRASH_STAMP): scripts/crash-arm64-env.sh | $(DEPS_STAMP)
	scripts/crash-arm64-env.sh $(CRASH_ENV)

$(CRASH_OUT)/obj/%.o: src/%.c $(CRASH_STAMP)
	@mkdir -p $(@D)
	$(CROSS_CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC $(CRASH_VISIBILITY) $(CRASH_CPPFLAGS) -MMD -MP -c -o $@ $<

# Undefined symbols (readmem, fp, register_extension...) are crash's own,
# resolved when crash loads the extension.
$(CRASH_EXT): $(CRASH_EXT_OBJS)
	$(CROSS_CC) $(CFLAGS) -shared -fPIC -o $@ $^ $(CRASH_LDLIBS)

-include $(wildcard $(CRASH_OUT)/obj/*.d)

# --- tests -------------------------------------------------------------------
# crash-symbols needs no vmcore.  crash-help and crash-injected open a vmcore
# of the kernel with the series that this fragment makes itself (a plain
# sysrq crash in QEMU, through tests/e2e/run-qemu.sh; ~15 s): crash-injected
# gives a copy of it a registry of edge-case records (tests/crash/inject.py).
# crash-extract opens the e2e sysrq scenario's vmcore, which holds real
# saved trace, after that scenario ran (it skips while that is absent or
# older than the vmlinux).  Both extract checks compare the extension's
# output with the CLI's, file by file, and csdump -i with csdump info.
CRASH_VMLINUX = $(KERNEL_VMLINUX)
CRASH_CSDUMP  = $(HOST)/csdump
CRASH_PLAIN   = $(CRASH_OUT)/plain
CRASH_E2E     = check-e2e-sysrq
CRASH_E2E_VMCORE = $(E2E)/sysrq/vmcore

# This fragment is read before kernel.mk, e2e.mk and host.mk: the
# prerequisites that name their outputs are expanded a second time, once
# every fragment is read.
.SECONDEXPANSION:
$(CRASH_PLAIN)/vmcore: tests/crash/plain.script $$(KERNEL_STAMP) $$(E2E_INIT)
	@mkdir -p $(CRASH_PLAIN).payload
	env $(E2E_ENV) tests/e2e/run-qemu.sh $(CRASH_PLAIN) $< $(CRASH_PLAIN).payload

.PHONY: check-crash-symbols check-crash-help check-crash-injected check-crash-extract
check-crash-symbols: $(CRASH_EXT)
	@$(HARNESS) crash-symbols tests/crash/symbols.sh $(CRASH_ROOT) $(CRASH_EXT)

check-crash-help: $(CRASH_EXT) $(CRASH_PLAIN)/vmcore
	@$(HARNESS) crash-help tests/crash/help.sh $(CRASH_ROOT) $(CRASH_EXT) \
		$(CRASH_VMLINUX) $(CRASH_PLAIN)/vmcore

check-crash-injected: $(CRASH_EXT) $$(CRASH_CSDUMP) $(CRASH_PLAIN)/vmcore
	@$(HARNESS) crash-injected tests/crash/injected.sh $(CRASH_ROOT) $(CRASH_EXT) \
		$(CRASH_CSDUMP) $(CRASH_VMLINUX) $(CRASH_PLAIN)/vmcore $(CRASH_OUT)/injected

check-crash-extract: $(CRASH_EXT) $$(CRASH_CSDUMP) | $(CRASH_E2E)
	@$(HARNESS) crash-extract tests/crash/extract.sh $(CRASH_ROOT) $(CRASH_EXT) \
		$(CRASH_CSDUMP) $(CRASH_VMLINUX) $(CRASH_E2E_VMCORE) $(CRASH_OUT)/extract

CHECKS += check-crash-symbols check-crash-help check-crash-injected
