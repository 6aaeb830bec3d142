# The kernels users run (issue 20).  kernel-hw itself has Debian's layout
# (kernel/configs/hw/layout.config: 4K pages, 48-bit VA, KASLR built in):
# the kaslr48 runs boot it without nokaslr.  Each fragment of
# kernel/configs/variants/ replaces that layout in a build tree of its own.
#
#   make kernel-hw-VARIANT   e.g. kernel-hw-pages16k48 (kernel-hw-kaslr48
#                            is kernel-hw)
#   make kernel-variants     all of them (a stage of .ci/run)
#   make e2e-variants        their checks (part of make check)
#
# Uses variables of mk/kernel.mk (read before this file).  The 4K/48 KASLR
# kernel used to be a build of its own: one cold kernel build fewer in CI.

KERNEL_VARIANTS := $(basename $(notdir $(wildcard kernel/configs/variants/*.config)))
KVAR_RUNS       := kaslr48 $(KERNEL_VARIANTS)
KVAR_FRAGMENTS  := $(filter-out %/hw/layout.config,$(KERNEL_HW_FRAGMENTS))

# KVAR_OUT_V: the build tree of a run that boots another variant's kernel.
KVAR_OUT_kaslr48 := $(KERNEL_HW_OUT)
kvar_out     = $(or $(KVAR_OUT_$(1)),$(BUILD)/kernel-hw-$(1)-out)
kvar_image   = $(call kvar_out,$(1))/arch/arm64/boot/Image
kvar_vmlinux = $(call kvar_out,$(1))/vmlinux
kvar_stamp   = $(call kvar_out,$(1))/.csdump-kernel.stamp

.PHONY: kernel-variants $(addprefix kernel-hw-,$(KVAR_RUNS))
kernel-variants: $(addprefix kernel-hw-,$(KERNEL_VARIANTS))
$(foreach v,$(KERNEL_VARIANTS),$(eval kernel-hw-$(v): $(call kvar_stamp,$(v))))
kernel-hw-kaslr48: kernel-hw

$(foreach v,$(KERNEL_VARIANTS),$(call kvar_stamp,$(v))): \
		$(BUILD)/kernel-hw-%-out/.csdump-kernel.stamp: \
		kernel/configs/variants/%.config $(KERNEL_INPUTS) | $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	$(call kernel_hw_build,$(KVAR_FRAGMENTS) $<,$(@D),Image)
	@touch $@
	@echo "kernel-hw-$*: $(@D)/arch/arm64/boot/Image"

# Each variant's checks, on the emulated hardware (mk/e2e-hw.mk's scenario,
# make demo), every one the nokaslr runs have:
#   check-e2e-hw-V-sysrq     exec-etr-sg-sysrq: records, CRCs, the trace
#                            byte for byte, the decode against
#                            trc_pkt_lister and QEMU's record, stock perf;
#                            with KASLR, the offset non-zero in the console
#                            and in VMCOREINFO alike
#   check-e2e-hw-V-stack     drgn's backtrace = the decoded call chain
#   check-e2e-hw-V-capture   the makedumpfile matrix on its vmcore
#   check-e2e-hw-V-demo      make demo (a second boot): it runs, its decoded
#                            stack names the oops report's functions, and
#                            with KASLR its offset differs from the first's
# Outputs in build/e2e-hw-V/.  KVAR_KASLR_V := 1 for a KASLR variant;
# KVAR_CPU_V is the guest's -cpu where the Cortex-A57 lacks what the layout
# needs (the 16K granule, FEAT_LVA).  pauth-impdef: QEMU's own PAC hash,
# much faster than QARMA to emulate (the kernel-hw config has no PAC).
# KVAR_LAYOUT_V: the VMCOREINFO lines the sysrq run must show
# (scenario.sh's E2E_HW_LAYOUT), so a fragment the build dropped, or a CPU
# that fell back to 48-bit VA, fails.
KVAR_KASLR_kaslr48 := 1
KVAR_KASLR_pages64k52 := 1
KVAR_CPU_pages16k48 := max,pauth-impdef=on
KVAR_CPU_pages64k52 := max,pauth-impdef=on
KVAR_LAYOUT_kaslr48 := PAGESIZE=4096 VA_BITS=48 TCR_EL1_T1SZ=0x10
KVAR_LAYOUT_pages16k48 := PAGESIZE=16384 VA_BITS=48 TCR_EL1_T1SZ=0x10
KVAR_LAYOUT_pages64k52 := PAGESIZE=65536 VA_BITS=52 TCR_EL1_T1SZ=0xc
KVAR_LAYOUT_nolockdep := PAGESIZE=4096 VA_BITS=48 TCR_EL1_T1SZ=0x10

kvar_e2e = $(BUILD)/e2e-hw-$(1)
kvar_env = $(E2E_HW_ENV) E2E_IMAGE=$(call kvar_image,$(1)) VMLINUX=$(call kvar_vmlinux,$(1)) \
	   E2E_OUT=$(call kvar_e2e,$(1)) E2E_KASLR=$(KVAR_KASLR_$(1)) \
	   E2E_CPU=$(or $(KVAR_CPU_$(1)),cortex-a57) E2E_HW_LAYOUT="$(KVAR_LAYOUT_$(1))"

kvar_checks = $(foreach c,sysrq stack capture demo,check-e2e-hw-$(1)-$(c))

define kernel_variant_checks
.PHONY: $(call kvar_checks,$(1))
check-e2e-hw-$(1)-sysrq: e2e-hw-prep kernel-hw-$(1)
	@$$(HARNESS) e2e-hw-$(1)-sysrq env $$(call kvar_env,$(1)) \
		tests/e2e-hw/scenario.sh exec-etr-sg-sysrq
check-e2e-hw-$(1)-stack: check-e2e-hw-$(1)-sysrq
	@$$(HARNESS) e2e-hw-$(1)-stack /usr/bin/python3 tests/e2e/check_stack.py --min 10 \
		$$(HOST)/csdump $$(call kvar_e2e,$(1))/exec-etr-sg-sysrq/vmcore \
		$$(call kvar_vmlinux,$(1))
check-e2e-hw-$(1)-capture: check-e2e-hw-$(1)-sysrq makedumpfile-env
	@$$(HARNESS) e2e-hw-$(1)-capture env $$(CAPTURE_ENV) tests/e2e/capture.sh \
		$$(call kvar_e2e,$(1))/exec-etr-sg-sysrq/vmcore $$(call kvar_vmlinux,$(1)) \
		$$(call kvar_e2e,$(1))/capture $$(call kvar_e2e,$(1))/exec-etr-sg-sysrq/extract
check-e2e-hw-$(1)-demo: check-e2e-hw-$(1)-sysrq
	@$$(HARNESS) e2e-hw-$(1)-demo env $$(call kvar_env,$(1)) \
		E2E_OUT=$$(call kvar_e2e,$(1))/demo \
		tests/e2e-hw/demo_check.sh $$(call kvar_e2e,$(1))/exec-etr-sg-sysrq
CHECKS += $(call kvar_checks,$(1))
endef
$(foreach v,$(KVAR_RUNS),$(eval $(call kernel_variant_checks,$(v))))

# The 52-bit kernel on the Cortex-A57, which has no FEAT_LVA: the kernel
# runs with 48-bit addresses (TCR_EL1_T1SZ 16) in page tables built for 52
# (RHEL's 64K kernels on most Armv8.2 servers).  This run found that
# libkdumpfile walks them wrongly (src/vmcore/vmcore.c's set_pgt_geometry).
.PHONY: check-e2e-hw-pages64k52-va48
check-e2e-hw-pages64k52-va48: e2e-hw-prep kernel-hw-pages64k52
	@$(HARNESS) e2e-hw-pages64k52-va48 env $(call kvar_env,pages64k52) \
		E2E_CPU=cortex-a57 E2E_OUT=$(BUILD)/e2e-hw-pages64k52-va48 \
		E2E_HW_LAYOUT="PAGESIZE=65536 VA_BITS=52 TCR_EL1_T1SZ=0x10" \
		tests/e2e-hw/scenario.sh exec-etr-sg-sysrq
CHECKS += check-e2e-hw-pages64k52-va48
# drgn's backtrace of that vmcore against the decoded call chain: drgn,
# which walks the page tables itself, is the independent reader there.
.PHONY: check-e2e-hw-pages64k52-va48-stack
check-e2e-hw-pages64k52-va48-stack: check-e2e-hw-pages64k52-va48
	@$(HARNESS) e2e-hw-pages64k52-va48-stack /usr/bin/python3 tests/e2e/check_stack.py --min 10 \
		$(HOST)/csdump $(BUILD)/e2e-hw-pages64k52-va48/exec-etr-sg-sysrq/vmcore \
		$(call kvar_vmlinux,pages64k52)
CHECKS += check-e2e-hw-pages64k52-va48-stack

# The crash extension on a KASLR vmcore: crash relocates the vmlinux
# symbols itself, and csdump OUTDIR must write what csdump extract writes.
# Not on the other two: Debian 12's crash 8.0.2 refuses 16K pages ("invalid/
# unsupported page size: 16384") and walks a 52-bit 64K kernel's page
# tables with 64 PGD entries, not 1024, so that its own `rd` of a vmalloc
# address fails (docs/crash-extension.md).
.PHONY: check-crash-extract-kaslr48
check-crash-extract-kaslr48: $(CRASH_EXT) $(HOST)/csdump check-e2e-hw-kaslr48-sysrq
	@$(HARNESS) crash-extract-kaslr48 tests/crash/extract.sh $(CRASH_ROOT) $(CRASH_EXT) \
		$(HOST)/csdump $(call kvar_vmlinux,kaslr48) \
		$(call kvar_e2e,kaslr48)/exec-etr-sg-sysrq/vmcore $(CRASH_OUT)/extract-kaslr48
CHECKS += check-crash-extract-kaslr48

# An oops on a kernel without lockdep (kernel/configs/measure/
# nolockdep.config), as distributions build theirs: the failing CPU's trace
# after the fault, outside interrupt handlers, to its stop at
# bust_spinlocks(), within issue 15's 2,000 instructions (5,524 with
# lockdep: check-e2e-hw-stop-exec-etr-sg-rsbb-oops allows 10,000).  A
# measurement, not in make check: one more cold kernel build would take CI
# too near its hour.
KVAR_OUT_nolockdep := $(BUILD)/kernel-hw-nolockdep-out
$(call kvar_stamp,nolockdep): kernel/configs/measure/nolockdep.config $(KERNEL_INPUTS) | $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	$(call kernel_hw_build,$(KVAR_FRAGMENTS) $<,$(@D),Image)
	@touch $@
	@echo "kernel-hw-nolockdep: $(@D)/arch/arm64/boot/Image"
.PHONY: kernel-hw-nolockdep
kernel-hw-nolockdep: $(call kvar_stamp,nolockdep)
KVAR_OOPS := $(call kvar_e2e,nolockdep)/exec-etr-sg-rsbb-oops
.PHONY: check-e2e-hw-nolockdep-oops check-e2e-hw-nolockdep-oops-stop
check-e2e-hw-nolockdep-oops: e2e-hw-prep kernel-hw-nolockdep
	@$(HARNESS) e2e-hw-nolockdep-oops env $(call kvar_env,nolockdep) \
		tests/e2e-hw/scenario.sh exec-etr-sg-rsbb-oops
check-e2e-hw-nolockdep-oops-stop: check-e2e-hw-nolockdep-oops
	@$(HARNESS) e2e-hw-nolockdep-oops-stop tests/e2e-hw/oracle/after_fault.py \
		--max-own 2000 --sink-stop-early --stop-at bust_spinlocks \
		$(KVAR_OOPS)/snapshot $(call kvar_vmlinux,nolockdep) $(KVAR_OOPS)/console.log \
		oops $(KVAR_OOPS)/decode.jsonl $(KVAR_OOPS)/models

.PHONY: e2e-variants
e2e-variants: $(foreach v,$(KVAR_RUNS),$(call kvar_checks,$(v))) \
	check-e2e-hw-pages64k52-va48 check-e2e-hw-pages64k52-va48-stack \
	check-crash-extract-kaslr48
