# End to end on the emulated CoreSight hardware: the stock TMC, ETB10,
# funnel, replicator and ETMv4 drivers of a kernel without the software test
# device (make kernel-hw) run on build/qemu's -M virt,coresight=on
# (make qemu), panic, kdump, csdump.
#
#   make e2e-hw   every scenario of tests/e2e-hw/scenario.sh (SINK-CRASH),
#                 each a separate QEMU run; outputs in build/e2e-hw/NAME/
#
# Needs nothing from $(SHARED).  Uses variables of mk/kernel.mk, mk/qemu.mk,
# mk/host.mk, mk/encoder.mk and mk/e2e.mk, which are read after this file:
# in recipes and `=` variables only, and in prerequisites through phony
# names or secondary expansion ($$).

E2E_HW           := $(BUILD)/e2e-hw
# The ETMs trace what the guest executes; QEMU's exec_ring plugin records
# it (tests/e2e-hw/oracle/).
# Not exec-etf-sysrq: a 64 KiB ETF that six CPUs share can end holding
# only the panicking CPU's trace, with no ID change before it, which no
# deformatter can attribute (59,730 of 65,536 bytes in one run of four):
# what it shows is issue 15's, not a test that passes each time.
# exec-letf-rsbb-oops, an ETF per CPU (the machine's coresight-local-etf=on),
# runs on a kernel without lockdep: mk/variants.mk's
# check-e2e-hw-pages16k48-letf-oops.
# exec-etr-sg-ete-sysrq: Armv9 trace units, an ETE per CPU (QEMU patch 0013,
# the machine's coresight-ete=on, on QEMU's "max" CPU), through the ETR;
# their records hold perf's ETE block (kernel patch 0034), and every check
# of exec-etr-sg-sysrq holds for them.
# exec-trbe-perfcpus-sysrq: an ETE and a TRBE per CPU (QEMU patch 0014,
# coresight-trbe=on), a CPU-wide perf session on the TRBEs; each CPU saves
# its own TRBE (kernel patches 0035-0036), the other CPUs at the crash-stop
# IPI; the same checks.
# exec-etr-catu-sysrq: the ETR behind a CATU (QEMU patch 0015, the machine's
# coresight-catu=on): Linux has the CATU translate its 1 MiB buffer into
# scattered pages, and the record describes them (kernel patch 0037).
# exec-etr-sg-cti-perfcpus-sysrq: a CPU-wide perf session on the machine with
# CTIs; each CPU's CTI is enabled for the event (kernel patch 0038), so the
# ETR stops at the failure through FLUSHIN, as in a sysfs session.
# exec-etr-sg-modoops: a NULL dereference in a module (the test device's,
# loaded without its device tree nodes: nothing of it joins the session);
# csdump reads the module's code from the vmcore, so the decode follows it
# (check_exec.py --modules: run for run as in vmlinux) up to the faulting
# instruction, which check_stop.py finds from the console's oops, sysfs's
# .text address (init's insmod line) and the .ko's symbols.
# exec-etr-sg-bug: a BUG(); the break handler tells the die notifiers
# before report_bug() prints "kernel BUG at" (DIE_BUG, kernel patch 0042);
# its tracer stops at the registry's notifier, coresight_kdump_die(), which
# stops the sinks there (0043: before panic(), by the ETR's FlushMan).
# exec-etr-sg-warnsysrq: a WARN() and then sysrq-c; the tracer that stopped
# at the notifier for the WARN starts again where the break handler skips
# the BRK (0040-0041, 0043), the sinks were not stopped, and the panic is in
# the trace.
E2E_HW_EXEC      := exec-etr-sg-sysrq exec-etr-sg-rsbb-oops \
		    exec-etr-sg-cti-sysrq exec-etr-sg-ete-sysrq exec-trbe-perfcpus-sysrq \
		    exec-etr-catu-sysrq exec-etr-sg-cti-perfcpus-sysrq exec-etr-sg-modoops \
		    exec-etr-sg-bug exec-etr-sg-warnsysrq
# etf-sysrq and etr-sg-sysrq run only on real execution (exec-).
E2E_HW_SCENARIOS := etf-softlockup etf-oops etf-locked etf-disabled \
		    etr-flat-sysrq etr-flat-softlockup etr-flat-oops etr-flat-locked \
		    etr-flat-badrwp-sysrq \
		    etb10-sysrq etb10-unaligned-sysrq etb10-64k-oops \
		    etf-perfcpus-sysrq etf-perfthread-sysrq etr-sg-perfcpus-sysrq \
		    exec-trbe-perfcpus-locked exec-trbe-wrap-sysrq \
		    $(E2E_HW_EXEC)
# The capture matrix (tests/e2e/capture.sh, mk/e2e.mk) on the vmcores whose
# trace lives where -d 31 could drop it: an ETR's scatter-gather pages, a
# CATU's pages and perf sessions' AUX buffers.
E2E_HW_CAPTURE   := exec-etr-sg-sysrq etf-perfcpus-sysrq etr-sg-perfcpus-sysrq \
		    exec-etr-catu-sysrq

E2E_HW_ENV = E2E_IMAGE=$(KERNEL_HW_IMAGE) E2E_CPIO=$(KERNEL_HW_OUT)/usr/gen_init_cpio \
	     E2E_INIT=$(E2E_INIT) E2E_DTSI= E2E_QEMU=$(QEMU_BIN) \
	     E2E_OUT=$(E2E_HW) CSDUMP=$(HOST)/csdump ETM4ENC=$(ENC)/etm4enc \
	     EXEC_RING=$(EXEC_RING) E2E_HW_EXEC_LOCK=$(abspath $(E2E_HW_EXEC_LOCK)) \
	     VMLINUX=$(KERNEL_HW_VMLINUX)
# One real-execution guest at a time (scenario.sh): two side by side on
# two cores hung (tests/e2e-hw/README.md, 2026-12-07).
E2E_HW_EXEC_LOCK := $(BUILD)/.e2e-hw-exec.lock

# make demo: the exec-etr-sg-sysrq scenario without QEMU's record of
# execution and without the checks, then csdump's decode of it
# (tests/e2e-hw/demo.sh).
.PHONY: demo
demo: e2e-hw-prep
	@env $(E2E_HW_ENV) tests/e2e-hw/demo.sh

.PHONY: e2e-hw e2e-hw-prep $(addprefix check-e2e-hw-,$(E2E_HW_SCENARIOS)) \
	$(addprefix check-e2e-hw-capture-,$(E2E_HW_CAPTURE))
.SECONDEXPANSION:
e2e-hw-prep: kernel-hw qemu host encoder $$(E2E_INIT) $$(EXEC_RING)

# The oracle: a stock TCG plugin, against the patched tree's plugin header.
EXEC_RING := $(E2E_HW)/exec_ring.so
$(EXEC_RING): tests/e2e-hw/oracle/exec_ring.c $$(QEMU_STAMP)
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -shared -fPIC \
		-I$(QEMU_SRC)/include/qemu $$(pkg-config --cflags glib-2.0) $< -o $@

e2e-hw: $(addprefix check-e2e-hw-,$(E2E_HW_SCENARIOS)) \
	$(addprefix check-e2e-hw-capture-,$(E2E_HW_CAPTURE))

# exec-trbe-perfcpus-locked: the CPU that holds the registry lock, its
# interrupts off, never answers the crash-stop IPI, so the panicking CPU
# saves its TRBE without the write pointer (STALE, the whole AUX buffer:
# kernel patch 0035); check_hw.py finds its ETE's trace in it.  No decode
# checks: a stale buffer's end is unknown, so its decode's last stretch is
# not that CPU's last moments (exec-trbe-perfcpus-sysrq decodes the rest).
E2E_HW_ENV_exec-trbe-perfcpus-locked := E2E_HW_NO_DECODE=1
E2E_HW_ENV_exec-etr-sg-modoops = E2E_MODULES=$(KERNEL_TESTDEV_KO)
# exec-trbe-wrap-sysrq: no session; CPU 1's ETE runs into its TRBE in wrap
# mode (test-only kernel patch 0093), which Linux's TRBE driver never uses;
# check_trbe_wrap.py holds what the TRBE said and held to the ETE's output.

$(addprefix check-e2e-hw-,$(E2E_HW_SCENARIOS)): check-e2e-hw-%: e2e-hw-prep
	@$(HARNESS) e2e-hw-$* env $(E2E_HW_ENV) $(E2E_HW_ENV_$*) tests/e2e-hw/scenario.sh $*

$(addprefix check-e2e-hw-capture-,$(E2E_HW_CAPTURE)): check-e2e-hw-capture-%: \
		check-e2e-hw-% makedumpfile-env
	@$(HARNESS) e2e-hw-capture-$* env $(CAPTURE_ENV) tests/e2e/capture.sh \
		$(E2E_HW)/$*/vmcore $(KERNEL_HW_VMLINUX) $(E2E_HW)/capture-$* \
		$(E2E_HW)/$*/extract

CHECKS += $(addprefix check-e2e-hw-,$(E2E_HW_SCENARIOS)) \
	  $(addprefix check-e2e-hw-capture-,$(E2E_HW_CAPTURE))

# The record's comparison itself (oracle/check_exec.py) on records built
# by hand, whose answers are known: what it must find, refuse, and the
# damage it must catch (oracle/test_check_exec.py).  No QEMU run.
.PHONY: check-e2e-hw-oracle
check-e2e-hw-oracle:
	@$(HARNESS) e2e-hw-oracle /usr/bin/python3 tests/e2e-hw/oracle/test_check_exec.py

e2e-hw: check-e2e-hw-oracle
CHECKS += check-e2e-hw-oracle

# The panic save's cost against the size of an ETR buffer it saves in place
# (issue 14, item 9): a wrapped scatter-gather buffer of 1, 16 and 64 MiB,
# each a full scenario; the time is the one the panic log line gives.
# Not part of `make check` (a few minutes).
E2E_HW_COST_MIB := 1 16 64
.PHONY: e2e-hw-cost
e2e-hw-cost: e2e-hw-prep
	@mkdir -p $(E2E_HW); for m in $(E2E_HW_COST_MIB); do \
		n=etr-sg$${m}m-sysrq; \
		env $(E2E_HW_ENV) E2E_HW_NO_DECODE=1 tests/e2e-hw/scenario.sh $$n >$(E2E_HW)/$$n.log 2>&1 || \
			echo "e2e-hw-cost: $$n failed, see $(E2E_HW)/$$n.log"; \
		printf '%3d MiB ETR: %s\n' $$m \
			"$$(grep -o 'saved [0-9]* trace buffer(s), [0-9]* record(s) in [0-9]* us' $(E2E_HW)/$$n/console.log)"; \
	done

# `csdump decode --stack` against drgn (tests/e2e/check_stack.py, mk/e2e.mk),
# at least E2E_HW_STACK_MIN_<scenario> frames compared (default 0).  On
# real execution a 1 MiB ETR holds the panicking task's whole way from the
# system call into panic(), so drgn's backtrace (from the vmcore: registers
# and stack memory) must be the trace's call chain, frame for frame, return
# addresses included.  Not on the scenarios whose ETMs emit etm4enc's random
# walks: their call chains are random, and whether one lines up with drgn's
# frames depends on where the linker put each function (etr-flat-oops was
# here, and failed once 0031 moved the text).
E2E_HW_STACK := exec-etr-sg-sysrq exec-etr-sg-ete-sysrq exec-trbe-perfcpus-sysrq
E2E_HW_STACK_MIN_exec-etr-sg-sysrq := 10
E2E_HW_STACK_MIN_exec-etr-sg-ete-sysrq := 10
E2E_HW_STACK_MIN_exec-trbe-perfcpus-sysrq := 10
.PHONY: $(addprefix check-e2e-hw-stack-,$(E2E_HW_STACK))
$(addprefix check-e2e-hw-stack-,$(E2E_HW_STACK)): check-e2e-hw-stack-%: check-e2e-hw-%
	@$(HARNESS) e2e-hw-stack-$* /usr/bin/python3 tests/e2e/check_stack.py \
		--min $(or $(E2E_HW_STACK_MIN_$*),0) \
		$(HOST)/csdump $(E2E_HW)/$*/vmcore $(KERNEL_HW_VMLINUX)

e2e-hw: $(addprefix check-e2e-hw-stack-,$(E2E_HW_STACK))
CHECKS += $(addprefix check-e2e-hw-stack-,$(E2E_HW_STACK))

# The saved trace ends at the failure (kernel patch 0026: each tracer stops
# at bust_spinlocks(), which every oops and panic calls before it prints).
# In the real-execution scenarios of make check the failing CPU's trace,
# decoded alone by OpenCSD (oracle/after_fault.py, on the scenario's own
# vmcore: no QEMU run of its own), must hold the failure (the call of
# panic(), the fault's exception) and end in bust_spinlocks(), with at most
# 2,000 instructions after panic() outside interrupt handlers (measured:
# 491; panic() masks interrupts at its 20th instruction, and a timer
# interrupt taken before that added 8,447 instructions in one CI run of
# exec-etr-sg-cti-sysrq, 2026-12-06: --max-own, not --max-after) and,
# after a kernel fault, at most 10,000 outside interrupt handlers (measured
# 5,524 in three runs, about 4,300 of them lockdep and irq-flag tracing on
# this PROVE_LOCKING kernel: issue 15's 2,000 is not met there; with the
# timer interrupts that come in the fault's handling, 5,524 to 73,252,
# depending on the emulation's speed).  For the oops, QEMU's record must
# also show the ETR stopped before panic() was called (0027).  Issue 15's
# 2,000 on a 16 KiB ETF that six CPUs share, every crash kind: on a kernel
# without lockdep, mk/variants.mk's check-e2e-hw-pages16k48-etf16k-KIND.
# On the machine with CTIs (QEMU patch 0012, coresight-cti=on; kernel patch
# 0032) the failing CPU's tracer raises its event at bust_spinlocks() and
# the CTIs carry it to the ETR's FLUSHIN: QEMU's capture log must say
# FLUSHIN stopped the ETR first (exec-etr-sg-sysrq's, without CTIs, says
# "flush", the save's FlushMan), before the panic's printing and the
# crash-stop IPIs (measured: 491 instructions after panic(), QEMU's record
# 491).
E2E_HW_STOP_CHECK := exec-etr-sg-sysrq exec-etr-sg-rsbb-oops \
		     exec-etr-sg-cti-sysrq exec-etr-sg-cti-perfcpus-sysrq \
		     exec-etr-sg-ete-sysrq exec-trbe-perfcpus-sysrq exec-etr-catu-sysrq \
		     exec-etr-sg-modoops exec-etr-sg-bug exec-etr-sg-warnsysrq
E2E_HW_STOP_OPTS_exec-etr-sg-sysrq     := --max-own 2000
E2E_HW_STOP_OPTS_exec-etr-sg-bug       := --max-own 2000 --sink-stop-early --max-to-sink-stop 5000
E2E_HW_STOP_AT_exec-etr-sg-bug         := coresight_kdump_die
E2E_HW_STOP_OPTS_exec-etr-sg-warnsysrq := --max-own 2000
E2E_HW_STOP_OPTS_exec-etr-sg-modoops   := --max-own 10000 --sink-stop-early
E2E_HW_STOP_OPTS_exec-etr-catu-sysrq   := --max-own 2000
E2E_HW_STOP_OPTS_exec-etr-sg-rsbb-oops := --max-own 10000 --sink-stop-early
E2E_HW_STOP_OPTS_exec-etr-sg-cti-sysrq := --max-own 2000 --sink-stop-reason flushin
E2E_HW_STOP_OPTS_exec-etr-sg-cti-perfcpus-sysrq := --max-own 2000 --sink-stop-reason flushin
E2E_HW_STOP_OPTS_exec-etr-sg-ete-sysrq := --max-own 2000
E2E_HW_STOP_OPTS_exec-trbe-perfcpus-sysrq := --max-own 2000
.PHONY: $(addprefix check-e2e-hw-stop-,$(E2E_HW_STOP_CHECK))
$(addprefix check-e2e-hw-stop-,$(E2E_HW_STOP_CHECK)): check-e2e-hw-stop-%: check-e2e-hw-%
	@$(HARNESS) e2e-hw-stop-$* tests/e2e-hw/oracle/after_fault.py \
		$(E2E_HW_STOP_OPTS_$*) --stop-at $(or $(E2E_HW_STOP_AT_$*),bust_spinlocks) \
		$(E2E_HW)/$*/snapshot $(KERNEL_HW_VMLINUX) $(E2E_HW)/$*/console.log \
		$(lastword $(subst -, ,$*)) $(E2E_HW)/$*/decode.jsonl $(E2E_HW)/$*/models

e2e-hw: $(addprefix check-e2e-hw-stop-,$(E2E_HW_STOP_CHECK))
CHECKS += $(addprefix check-e2e-hw-stop-,$(E2E_HW_STOP_CHECK))

# What stopped each CPU's trace (record ABI version 2, kernel patches
# 0028-0029): the failing CPU's record says fault at the oops' pc (the
# console's report) or panic, every other CPU's says the crash-stop IPI at
# the pc of a crash note, each sink what stopped it; csdump's decode of the
# vmcore marks the fault's exception and says why each CPU's trace ends
# (tests/e2e-hw/check_stop.py).  On the scenarios' own outputs.
# Where the sink was still capturing when the crash-stop IPIs came (a direct
# panic(): exec-etr-sg-sysrq), each other CPU's trace must hold the IPI that
# stopped it (an IRQ returning to the record's address, then
# crash_save_cpu()) and end at its tracer's stop point for it,
# coresight_kdump_crash_stop_cpu() (kernel patch 0031).  With an oops the
# sinks stop at the die notifier (0027), before the IPIs: not in the trace.
# etb10-64k-oops: the ETB10 stops at the oops too (kernel patch 0033; its
# record said panic before).  64 KiB: a 16 KiB ETB10 stopped there holds one
# run of the failing CPU's trace with no trace ID in it (the shared-sink
# limit of tests/e2e-hw/README.md).
E2E_HW_STOPINFO := exec-etr-sg-sysrq exec-etr-sg-rsbb-oops etf-oops \
		   etb10-64k-oops exec-etr-sg-ete-sysrq exec-trbe-perfcpus-sysrq \
		   exec-etr-catu-sysrq exec-etr-sg-modoops
E2E_HW_STOPINFO_OPTS_exec-etr-sg-rsbb-oops := --sink fault
E2E_HW_STOPINFO_OPTS_exec-etr-sg-modoops = --sink fault --module $(KERNEL_TESTDEV_KO)
E2E_HW_STOPINFO_OPTS_etf-oops := --sink fault --no-mark
E2E_HW_STOPINFO_OPTS_etb10-64k-oops := --sink fault --no-mark
E2E_HW_STOPINFO_OPTS_exec-etr-sg-sysrq := --ipi-in-trace --ipi-stop coresight_kdump_crash_stop_cpu
E2E_HW_STOPINFO_OPTS_exec-etr-sg-ete-sysrq := --ipi-in-trace --ipi-stop coresight_kdump_crash_stop_cpu
E2E_HW_STOPINFO_OPTS_exec-etr-catu-sysrq := --ipi-in-trace --ipi-stop coresight_kdump_crash_stop_cpu
E2E_HW_STOPINFO_OPTS_exec-trbe-perfcpus-sysrq := --ipi-in-trace --ipi-stop coresight_kdump_crash_stop_cpu
.PHONY: $(addprefix check-e2e-hw-stopinfo-,$(E2E_HW_STOPINFO))
$(addprefix check-e2e-hw-stopinfo-,$(E2E_HW_STOPINFO)): check-e2e-hw-stopinfo-%: check-e2e-hw-%
	@$(HARNESS) e2e-hw-stopinfo-$* tests/e2e-hw/check_stop.py $(E2E_HW_STOPINFO_OPTS_$*) \
		$(E2E_HW)/$*/vmcore $(KERNEL_HW_VMLINUX) $(E2E_HW)/$*/console.log \
		$(lastword $(subst -, ,$*)) $(E2E_HW)/$*

e2e-hw: $(addprefix check-e2e-hw-stopinfo-,$(E2E_HW_STOPINFO))
CHECKS += $(addprefix check-e2e-hw-stopinfo-,$(E2E_HW_STOPINFO))

# Each scenario's outputs go once the checks above that read them passed
# (make check; mk/config.mk's prune_chain).
e2e_hw_readers = e2e-hw-$(1) \
	$(if $(filter $(1),$(E2E_HW_CAPTURE)),e2e-hw-capture-$(1)) \
	$(if $(filter $(1),$(E2E_HW_STACK)),e2e-hw-stack-$(1)) \
	$(if $(filter $(1),$(E2E_HW_STOP_CHECK)),e2e-hw-stop-$(1)) \
	$(if $(filter $(1),$(E2E_HW_STOPINFO)),e2e-hw-stopinfo-$(1))
$(foreach s,$(E2E_HW_SCENARIOS),$(eval $(call prune_goal,e2e-hw-$(s),$(call e2e_hw_readers,$(s)), \
	$(E2E_HW)/$(s) $(E2E_HW)/$(s).in $(E2E_HW)/capture-$(s))))
$(call prune_chain,$(addprefix check-e2e-hw-,$(E2E_HW_SCENARIOS)), \
	$(addprefix prune-e2e-hw-,$(E2E_HW_SCENARIOS)))
CHECKS += $(call prune_tail,$(addprefix prune-e2e-hw-,$(E2E_HW_SCENARIOS)))

# How much trace the panicking CPU makes between the failure and the sink's
# stop (issue 13's table; issue 15 is judged by it): real execution, an ETF
# of 4, 16 and 64 KiB, each crash kind; tests/e2e-hw/oracle/after_fault.py.
# Not part of `make check` (about 12 QEMU runs).
E2E_HW_STOP_KINDS := sysrq softlockup oops bug
E2E_HW_STOP_KIB   := 4 16 64
.PHONY: e2e-hw-stop-report
e2e-hw-stop-report: e2e-hw-prep
	@mkdir -p $(E2E_HW); for k in $(E2E_HW_STOP_KINDS); do for s in $(E2E_HW_STOP_KIB); do \
		n=exec-etf$${s}k-$$k; \
		env $(E2E_HW_ENV) tests/e2e-hw/scenario.sh $$n >$(E2E_HW)/$$n.log 2>&1 || \
			echo "e2e-hw-stop-report: $$n: some checks failed, see $(E2E_HW)/$$n.log"; \
		printf '%2d KiB ETF: ' $$s; tests/e2e-hw/oracle/after_fault.py $(E2E_HW)/$$n/snapshot \
			$(KERNEL_HW_VMLINUX) $(E2E_HW)/$$n/console.log $$k \
			$(E2E_HW)/$$n/decode.jsonl $(E2E_HW)/$$n/models || true; \
	done; done
