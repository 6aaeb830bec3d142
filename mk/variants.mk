# The kernels users run (issue 20).  kernel-hw itself has Debian's layout
# (kernel/configs/hw/layout.config: 4K pages, 48-bit VA, KASLR built in):
# the kaslr48 runs boot it without nokaslr.  Each fragment of
# kernel/configs/variants/ replaces that layout in a build tree of its own,
# and is built without lockdep (kernel/configs/distro/nolockdep.config) and
# with tickless idle (distro/ticks.config), as distributions build their
# kernels; kernel-hw keeps lockdep for the panic path's lock checks.
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
KVAR_DISTRO     := kernel/configs/distro/nolockdep.config kernel/configs/distro/ticks.config
KVAR_FRAGMENTS  := $(filter-out %/hw/layout.config,$(KERNEL_HW_FRAGMENTS)) $(KVAR_DISTRO)

# KVAR_OUT_V: the build tree of a run that boots another variant's kernel.
KVAR_OUT_kaslr48 := $(KERNEL_HW_OUT)
kvar_out     = $(or $(KVAR_OUT_$(1)),$(BUILD)/kernel-hw-$(1)-out)
kvar_image   = $(call kvar_out,$(1))/arch/arm64/boot/Image
kvar_vmlinux = $(call kvar_out,$(1))/vmlinux
kvar_stamp   = $(call kvar_out,$(1))/.csdump-kernel.stamp
kvar_testdev = $(call kvar_out,$(1))/drivers/hwtracing/coresight/coresight-kdump-testdev.ko

.PHONY: kernel-variants $(addprefix kernel-hw-,$(KVAR_RUNS))
kernel-variants: $(addprefix kernel-hw-,$(KERNEL_VARIANTS))
$(foreach v,$(KERNEL_VARIANTS),$(eval kernel-hw-$(v): $(call kvar_stamp,$(v))))
kernel-hw-kaslr48: kernel-hw

$(foreach v,$(KERNEL_VARIANTS),$(call kvar_stamp,$(v))): \
		$(BUILD)/kernel-hw-%-out/.csdump-kernel.stamp: \
		kernel/configs/variants/%.config $(KVAR_DISTRO) \
		$(KERNEL_INPUTS) | $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	$(call kernel_hw_build,$(KVAR_FRAGMENTS) $<,$(@D),Image modules)
	@touch $@
	@echo "kernel-hw-$*: $(@D)/arch/arm64/boot/Image"

# Each variant's checks, on the emulated hardware (mk/e2e-hw.mk's scenario,
# make demo), every one the nokaslr runs have:
#   check-e2e-hw-V-sysrq     exec-etr-sg256k-sysrq: records, CRCs, the trace
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

# The layout runs' scenario: exec-etr-sg-sysrq's, with a 256 KiB ETR.  What
# they prove (csdump reads the trace, the text and the stack under each
# layout) needs no more than that: the panicking task's way from the system
# call into panic() fits, and the decode and its oracles, which cost time
# in proportion to the trace, take a quarter of a 1 MiB run's.
KVAR_RUN := exec-etr-sg256k-sysrq

kvar_checks = $(foreach c,sysrq stack capture demo,check-e2e-hw-$(1)-$(c))

define kernel_variant_checks
.PHONY: $(call kvar_checks,$(1))
check-e2e-hw-$(1)-sysrq: e2e-hw-prep kernel-hw-$(1)
	@$$(HARNESS) e2e-hw-$(1)-sysrq env $$(call kvar_env,$(1)) \
		tests/e2e-hw/scenario.sh $(KVAR_RUN)
check-e2e-hw-$(1)-stack: check-e2e-hw-$(1)-sysrq
	@$$(HARNESS) e2e-hw-$(1)-stack /usr/bin/python3 tests/e2e/check_stack.py --min 10 \
		$$(HOST)/csdump $$(call kvar_e2e,$(1))/$(KVAR_RUN)/vmcore \
		$$(call kvar_vmlinux,$(1))
check-e2e-hw-$(1)-capture: check-e2e-hw-$(1)-sysrq makedumpfile-env
	@$$(HARNESS) e2e-hw-$(1)-capture env $$(CAPTURE_ENV) tests/e2e/capture.sh \
		$$(call kvar_e2e,$(1))/$(KVAR_RUN)/vmcore $$(call kvar_vmlinux,$(1)) \
		$$(call kvar_e2e,$(1))/capture $$(call kvar_e2e,$(1))/$(KVAR_RUN)/extract
check-e2e-hw-$(1)-demo: check-e2e-hw-$(1)-sysrq
	@$$(HARNESS) e2e-hw-$(1)-demo env $$(call kvar_env,$(1)) \
		E2E_OUT=$$(call kvar_e2e,$(1))/demo \
		tests/e2e-hw/demo_check.sh $$(call kvar_e2e,$(1))/$(KVAR_RUN)
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
		tests/e2e-hw/scenario.sh $(KVAR_RUN)
CHECKS += check-e2e-hw-pages64k52-va48
# drgn's backtrace of that vmcore against the decoded call chain: drgn,
# which walks the page tables itself, is the independent reader there.
.PHONY: check-e2e-hw-pages64k52-va48-stack
check-e2e-hw-pages64k52-va48-stack: check-e2e-hw-pages64k52-va48
	@$(HARNESS) e2e-hw-pages64k52-va48-stack /usr/bin/python3 tests/e2e/check_stack.py --min 10 \
		$(HOST)/csdump $(BUILD)/e2e-hw-pages64k52-va48/$(KVAR_RUN)/vmcore \
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
		$(call kvar_e2e,kaslr48)/$(KVAR_RUN)/vmcore $(CRASH_OUT)/extract-kaslr48
CHECKS += check-crash-extract-kaslr48

# kernel-hw without lockdep (4K pages, 48-bit VA, KASLR; a measurement, not
# a stage of CI: one more cold kernel build).  check-e2e-hw-nolockdep-oops-stop
# holds its oops through the 1 MiB ETR to issue 15's bound, as the
# pages16k48 runs below do on a shared 16 KiB ETF.
KVAR_OUT_nolockdep := $(BUILD)/kernel-hw-nolockdep-out
$(call kvar_stamp,nolockdep): $(KVAR_DISTRO) $(KERNEL_INPUTS) | $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	$(call kernel_hw_build,$(KVAR_FRAGMENTS) kernel/configs/hw/layout.config,$(@D),Image modules)
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

# Issue 15's checks: with real-execution trace and a 16 KiB ETF that all six
# CPUs share (stopped through the CTIs at the failure), a sysrq-c, a
# hard-IRQ panic (modirq; softlockup's report fills the ETF in one run of
# the failing CPU's trace ID first, tests/e2e-hw/README.md) and a BUG()
# keep the failure (the faulting instruction, or the call of panic()) in
# the failing CPU's saved trace, with at most 2,000 of its instructions
# after it, outside interrupt handlers (after_fault.py --max-own; QEMU's
# record is the oracle), ending at its tracer's stop point.  On a kernel
# without lockdep: pages16k48, a layout variant built as distributions
# build (with lockdep an oops' own handling before bust_spinlocks() is
# 5,524 instructions, tests/e2e-hw/README.md).  -sync256: an A-Sync every
# 256 bytes of each CPU's trace, so that its last few KiB decode.
# Every scenario check runs on each too (scenario.sh: records, the trace
# byte for byte, the decode against trc_pkt_lister and QEMU's record).
KVAR_STOP_V     := pages16k48
# SINK-KIND: the ETF's size, the crash kind (tests/e2e-hw/scenario.sh).
# Every kind at 16 KiB but the soft lockup, whose watchdog report fills the
# ETF in one run of the failing CPU's trace, with no trace ID in it.  An
# oops and a module's oops run -warm: do_page_fault() runs with interrupts
# on, and QEMU's translation of its code on first use, on the host's
# clock, let a timer interrupt into its 753-820 instructions in about half
# the runs (thousands more instructions in the ETF; one lost the oops in a
# clean-clone CI run); warmed, none in 13 runs.  At 4 KiB the oops too:
# runs that lost it lost it to the ID-less leading run of the wrapped ETF,
# the failing CPU's last run of trace without its trace ID.  csdump gives
# that run to the faulting CPU when its fault is in it (docs/decode.md),
# and since QEMU patch 0017 (a unit sends what it holds when its CPU
# waits, not at the next flush) the failing CPU's last bytes follow its
# run instead of the idle units' held bytes: 10 runs of 10.  The BUG()
# at 4 KiB since kernel patch 0044 (its sinks stop at DIE_BUG 570
# instructions after the BRK, 17,248 before) and QEMU patch 0018 (when a
# unit sends, the others send what they hold first, as a funnel passes
# each source in turn): 38 runs of 38 (tests/e2e-hw/README.md).
KVAR_STOP_RUNS  := etf16k-sysrq etf16k-modirq etf16k-bug etf16k-oops etf16k-modoops \
		   etf4k-oops etf4k-bug
# By hand only (make check-e2e-hw-pages16k48-RUN): the measurements above.
KVAR_STOP_HAND  := etf16k-softlockup
# A BUG(): the tracer stops at the registry's die notifier, which stops
# the sinks there by FlushMan, before panic() (kernel patch 0043), at most
# 2,000 of the failing CPU's instructions after the BRK (570 since 0044's
# search of the bug table, 17,248 with the walk before it); the CTIs
# carry the tracer's event from bust_spinlocks() only, which a WARN() does
# not reach.  The other kinds' sinks stop first by FLUSHIN, the CTIs'.
KVAR_STOP_AT_bug   := coresight_kdump_die
KVAR_STOP_SINK_bug := --sink-stop-reason flush --sink-stop-early --max-to-sink-stop 2000
# A kernel fault's runs: the fault path translated by QEMU first
# (scenario.sh -warm).
KVAR_STOP_OPT_oops    := -warm
KVAR_STOP_OPT_modoops := -warm
KVAR_STOP_ENV_modirq  = E2E_MODULES=$(call kvar_testdev,$(KVAR_STOP_V))
KVAR_STOP_ENV_modoops = E2E_MODULES=$(call kvar_testdev,$(KVAR_STOP_V))
kvar_stop_kind   = $(lastword $(subst -, ,$(1)))
kvar_stop_run    = exec-$(firstword $(subst -, ,$(1)))-cti-sync256$(KVAR_STOP_OPT_$(call kvar_stop_kind,$(1)))-$(call kvar_stop_kind,$(1))
KVAR_STOP_CHECKS := $(foreach r,$(KVAR_STOP_RUNS),check-e2e-hw-$(KVAR_STOP_V)-$(r))
define kvar_stop_check
.PHONY: check-e2e-hw-$(KVAR_STOP_V)-$(1)
check-e2e-hw-$(KVAR_STOP_V)-$(1): e2e-hw-prep kernel-hw-$(KVAR_STOP_V)
	@$$(HARNESS) e2e-hw-$(KVAR_STOP_V)-$(1) sh -c 'env $$(call kvar_env,$(KVAR_STOP_V)) \
		$$(KVAR_STOP_ENV_$(call kvar_stop_kind,$(1))) \
		tests/e2e-hw/scenario.sh $$(call kvar_stop_run,$(1)) && \
		r=$$(call kvar_e2e,$(KVAR_STOP_V))/$$(call kvar_stop_run,$(1)) && \
		tests/e2e-hw/oracle/after_fault.py --max-own 2000 \
		--stop-at $$(or $$(KVAR_STOP_AT_$(call kvar_stop_kind,$(1))),bust_spinlocks) \
		$$(or $$(KVAR_STOP_SINK_$(call kvar_stop_kind,$(1))),--sink-stop-reason flushin) \
		$$$$r/snapshot $$(call kvar_vmlinux,$(KVAR_STOP_V)) $$$$r/console.log \
		$(call kvar_stop_kind,$(1)) $$$$r/decode.jsonl $$$$r/models'
endef
$(foreach r,$(KVAR_STOP_RUNS) $(KVAR_STOP_HAND),$(eval $(call kvar_stop_check,$(r))))
CHECKS += $(KVAR_STOP_CHECKS)

# The local ETF topology, an ETF per CPU (exec-letf-rsbb-oops: the
# machine's coresight-local-etf=on).  Each ETF wraps and keeps no trace ID
# (a formatter writes one only when the ID changes); the record names the
# sink's one source (kernel patch 0030).  On the kernel without lockdep:
# every check of the scenario; then the failing CPU's own ETF holds the
# fault and at most 2,000 of its own instructions after it, ending in
# bust_spinlocks(), the sinks stopped at the die notifier (after_fault.py);
# and each record says what stopped it, the fault at the oops' pc
# (check_stop.py).  Not on the lockdep kernel: there the fault's handling
# alone is 5,524 instructions, and the timer ticks it takes with interrupts
# on add thousands each, more the slower the emulation; one slow CI run
# (2026-12-06) lost the fault from the failing CPU's 64 KiB.
KVAR_LETF := $(call kvar_e2e,$(KVAR_STOP_V))/exec-letf-rsbb-oops
.PHONY: check-e2e-hw-$(KVAR_STOP_V)-letf-oops
check-e2e-hw-$(KVAR_STOP_V)-letf-oops: e2e-hw-prep kernel-hw-$(KVAR_STOP_V)
	@$(HARNESS) e2e-hw-$(KVAR_STOP_V)-letf-oops sh -c 'env $(call kvar_env,$(KVAR_STOP_V)) \
		tests/e2e-hw/scenario.sh exec-letf-rsbb-oops && \
		tests/e2e-hw/oracle/after_fault.py --max-own 2000 --sink-stop-early \
		--stop-at bust_spinlocks $(KVAR_LETF)/snapshot $(call kvar_vmlinux,$(KVAR_STOP_V)) \
		$(KVAR_LETF)/console.log oops $(KVAR_LETF)/decode.jsonl $(KVAR_LETF)/models && \
		tests/e2e-hw/check_stop.py --sink fault $(KVAR_LETF)/vmcore \
		$(call kvar_vmlinux,$(KVAR_STOP_V)) $(KVAR_LETF)/console.log oops $(KVAR_LETF)'
CHECKS += check-e2e-hw-$(KVAR_STOP_V)-letf-oops

# Each run's outputs go once the checks that read them passed (make check;
# mk/config.mk's prune_chain).  A variant's sysrq run is read by its stack,
# capture and demo checks (and kaslr48's by the crash extension's).
KVAR_READERS_kaslr48 := crash-extract-kaslr48
kvar_prune = $(call prune_goal,e2e-hw-$(1),$(2),$(3))
$(foreach v,$(KVAR_RUNS),$(eval $(call kvar_prune,$(v), \
	$(patsubst check-%,%,$(call kvar_checks,$(v))) $(KVAR_READERS_$(v)), \
	$(addprefix $(call kvar_e2e,$(v))/,$(KVAR_RUN) $(KVAR_RUN).in capture demo))))
$(eval $(call kvar_prune,pages64k52-va48,e2e-hw-pages64k52-va48 e2e-hw-pages64k52-va48-stack, \
	$(BUILD)/e2e-hw-pages64k52-va48))
$(foreach r,$(KVAR_STOP_RUNS),$(eval $(call kvar_prune,$(KVAR_STOP_V)-$(r),e2e-hw-$(KVAR_STOP_V)-$(r), \
	$(addprefix $(call kvar_e2e,$(KVAR_STOP_V))/,$(call kvar_stop_run,$(r)) \
		$(call kvar_stop_run,$(r)).in))))
$(eval $(call kvar_prune,$(KVAR_STOP_V)-letf-oops,e2e-hw-$(KVAR_STOP_V)-letf-oops, \
	$(KVAR_LETF) $(KVAR_LETF).in))
KVAR_PRUNED := $(KVAR_RUNS) pages64k52-va48 $(addprefix $(KVAR_STOP_V)-,$(KVAR_STOP_RUNS) letf-oops)
$(call prune_chain,$(addprefix check-e2e-hw-,$(addsuffix -sysrq,$(KVAR_RUNS)) pages64k52-va48 \
	$(addprefix $(KVAR_STOP_V)-,$(KVAR_STOP_RUNS) letf-oops)),$(addprefix prune-e2e-hw-,$(KVAR_PRUNED)))
CHECKS += $(call prune_tail,$(addprefix prune-e2e-hw-,$(KVAR_PRUNED)))

.PHONY: e2e-variants
e2e-variants: $(foreach v,$(KVAR_RUNS),$(call kvar_checks,$(v))) \
	check-e2e-hw-pages64k52-va48 check-e2e-hw-pages64k52-va48-stack \
	check-crash-extract-kaslr48 $(KVAR_STOP_CHECKS) check-e2e-hw-$(KVAR_STOP_V)-letf-oops
