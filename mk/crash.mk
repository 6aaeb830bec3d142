# The crash extension csdump.so, for Debian's arm64 crash run under qemu-user.
#
#   make crash-ext    build/crash/csdump.so and the arm64 crash root
#
# Debian's amd64 crash cannot open arm64 vmcores, so the extension is built
# for arm64 (aarch64-linux-gnu-gcc) against the defs.h of the arm64 crash it
# is loaded into: scripts/crash-arm64-env.sh fetches that crash, its
# libraries and the arm64 zlib into $(CRASH_ROOT) (with scripts/arm64-root.sh,
# which also builds the makedumpfile root of mk/e2e.mk), run as
#   qemu-aarch64-static -L $(CRASH_ROOT) $(CRASH_ROOT)/usr/bin/crash ...
# The extension links src/crash/*.c with the library's core layer
# (src/core: the registry walk and the extract/info writers), which needs
# neither libkdumpfile (crash is the memory source), libelf nor OpenCSD.

CRASH_ENV    := $(BUILD)/crash-arm64
CRASH_ROOT   := $(CRASH_ENV)/root
CRASH_STAMP  := $(CRASH_ENV)/.root-ok
CRASH_OUT    := $(BUILD)/crash
CRASH_EXT    := $(CRASH_OUT)/csdump.so
CROSS_CC     ?= aarch64-linux-gnu-gcc

CRASH_EXT_SRCS := $(CRASH_SRCS) $(CORE_SRCS)
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

$(CRASH_STAMP): scripts/crash-arm64-env.sh scripts/arm64-root.sh | $(DEPS_STAMP)
	scripts/crash-arm64-env.sh $(CRASH_ENV)

$(CRASH_OUT)/obj/%.o: src/%.c $(CRASH_STAMP)
	@mkdir -p $(@D)
	$(CROSS_CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC $(CRASH_VISIBILITY) $(CRASH_CPPFLAGS) -MMD -MP -c -o $@ $<

# Undefined symbols (readmem, fp, register_extension...) are crash's own,
# resolved when crash loads the extension.
$(CRASH_EXT): $(CRASH_EXT_OBJS)
	$(CROSS_CC) $(CFLAGS) -shared -fPIC -o $@ $^ $(CRASH_LDLIBS)

-include $(wildcard $(CRASH_OUT)/obj/*/*.d)

# --- tests -------------------------------------------------------------------
# crash-symbols needs no vmcore.  The others open CRASH_VMCORE, by default
# the vmcore of the e2e sysrq scenario (a QEMU guest of the kernel with the
# series, holding saved trace), with CRASH_VMLINUX, and run after that
# scenario when it is part of make check; each skips while the vmcore is
# absent or not a dump of the vmlinux's kernel (build IDs differ).
#   crash-help       extend, help csdump, usage on bad command lines
#   crash-extract    csdump OUTDIR writes what csdump extract writes, file by
#                    file; csdump -i prints what csdump info prints
#   crash-injected   the same on a copy of the vmcore whose registry
#                    tests/crash/inject.py replaced with edge-case records
CRASH_VMLINUX ?= $(KERNEL_VMLINUX)
CRASH_VMCORE  ?= $(E2E)/sysrq/vmcore
CRASH_CSDUMP   = $(HOST)/csdump
CRASH_E2E      = $(filter check-e2e-sysrq,$(CHECKS))

# This fragment is read before host.mk and e2e.mk: prerequisites that name
# their outputs or checks are expanded a second time, once all are read.
.SECONDEXPANSION:
.PHONY: check-crash-symbols check-crash-help check-crash-extract check-crash-injected
check-crash-symbols: $(CRASH_EXT)
	@$(HARNESS) crash-symbols tests/crash/symbols.sh $(CRASH_ROOT) $(CRASH_EXT)

check-crash-help: $(CRASH_EXT) | $$(CRASH_E2E)
	@$(HARNESS) crash-help tests/crash/help.sh $(CRASH_ROOT) $(CRASH_EXT) \
		$(CRASH_VMLINUX) $(CRASH_VMCORE)

check-crash-extract: $(CRASH_EXT) $$(CRASH_CSDUMP) | $$(CRASH_E2E)
	@$(HARNESS) crash-extract tests/crash/extract.sh $(CRASH_ROOT) $(CRASH_EXT) \
		$(CRASH_CSDUMP) $(CRASH_VMLINUX) $(CRASH_VMCORE) $(CRASH_OUT)/extract

check-crash-injected: $(CRASH_EXT) $$(CRASH_CSDUMP) | $$(CRASH_E2E)
	@$(HARNESS) crash-injected tests/crash/injected.sh $(CRASH_ROOT) $(CRASH_EXT) \
		$(CRASH_CSDUMP) $(CRASH_VMLINUX) $(CRASH_VMCORE) $(CRASH_OUT)/injected

CHECKS += check-crash-symbols check-crash-help check-crash-extract check-crash-injected
