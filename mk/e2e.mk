# End to end in QEMU: a real arm64 kernel with the series panics, kdump's
# capture kernel saves /proc/vmcore, csdump gets the trace back.
#
#   make e2e     every crash scenario (tests/e2e/scenario.sh), each a separate
#                QEMU run, with the Juno capture from $(SHARED) (skipped when
#                it is absent), the stand-in demo's check (tests/e2e/demo.sh:
#                a trace that etm4enc synthesizes along the guest's real
#                sysrq panic path) and the capture matrix
#   (make demo is on the emulated hardware's real execution: mk/e2e-hw.mk)
#
# The capture matrix (tests/e2e/capture.sh): the vmcore of a run through
# Debian's arm64 makedumpfile as kdump-tools runs it (-c, -l, -E with -d 31,
# and -l -d 0), under qemu-user from the root scripts/makedumpfile-arm64-env.sh
# builds; csdump's extract and decode of each dump must equal the vmcore's.
#   check-e2e-capture-sysrq, check-e2e-capture-demo   after those runs
#   check-e2e-capture-crashtime0   a copy of the sysrq vmcore whose VMCOREINFO
#                says CRASHTIME=0 (a guest without a clock): the matrix must
#                fail on it
#
# Outputs under $(E2E): the guest init, and per run NAME: NAME.in/ (the guest
# script and payload), NAME/console.log (both kernels), NAME/vmcore,
# NAME/extract/ (csdump extract) and NAME/times (seconds per stage).
# The kernel, csdump and etm4enc come from `make kernel`, `make host` and
# `make encoder` (prerequisites by their phony names: this file is read
# before theirs).

E2E           := $(BUILD)/e2e
E2E_INIT      := $(E2E)/init
E2E_SCENARIOS := sysrq irq oops locked disabled optout nopost
# A sink whose panic save faults must still give a vmcore (scenario.sh).
E2E_SCENARIOS += fault-sysrq-unmapped fault-sysrq-sea fault-sysrq-nofault \
		 fault-sysrq-notready fault-oops-unmapped fault-oops-sea \
		 fault-panic-unmapped fault-panic-sea fault-irq-sea
E2E_CC        := aarch64-linux-gnu-gcc

$(E2E_INIT): tests/e2e/init.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(E2E_CC) -static -O2 -std=c11 $(WARN) -o $@ $<

E2E_ENV = E2E_IMAGE=$(KERNEL_IMAGE) E2E_CPIO=$(KERNEL_OUT)/usr/gen_init_cpio \
	  E2E_MODULES=$(KERNEL_TESTDEV_KO) \
	  E2E_INIT=$(E2E_INIT) E2E_DTSI=tests/e2e/coresight-test.dtsi \
	  E2E_OUT=$(E2E) E2E_SNAPSHOT=$(SHARED)/traces/juno_r1_1 \
	  CSDUMP=$(HOST)/csdump ETM4ENC=$(ENC)/etm4enc VMLINUX=$(KERNEL_VMLINUX)

.PHONY: e2e e2e-prep check-e2e-demo $(addprefix check-e2e-,$(E2E_SCENARIOS))
e2e-prep: kernel host encoder $(E2E_INIT)

e2e: $(addprefix check-e2e-,$(E2E_SCENARIOS)) check-e2e-demo

check-e2e-demo: e2e-prep
	@$(HARNESS) e2e-demo env $(E2E_ENV) tests/e2e/demo.sh --check

$(addprefix check-e2e-,$(E2E_SCENARIOS)): check-e2e-%: e2e-prep
	@$(HARNESS) e2e-$* env $(E2E_ENV) tests/e2e/scenario.sh $*

CHECKS += $(addprefix check-e2e-,$(E2E_SCENARIOS)) check-e2e-demo

# --- the call stack against drgn ---------------------------------------------
# tests/e2e/check_stack.py: `csdump decode --stack` of the panicking CPU
# against drgn's backtrace of the crashed thread, frame for frame over the
# frames both see.  The demo's trace runs the guest's own panic path: at
# least 10 frames must be compared.  sysrq and oops carry the Juno capture,
# another kernel's code: no function in common, nothing to compare (--min 0;
# the check still needs one stack for the CPU, and drgn to read the vmcore).
E2E_STACK := sysrq oops
.PHONY: check-e2e-stack-demo $(addprefix check-e2e-stack-,$(E2E_STACK))
check-e2e-stack-demo: check-e2e-demo
	@$(HARNESS) e2e-stack-demo /usr/bin/python3 tests/e2e/check_stack.py --min 10 \
		$(HOST)/csdump $(E2E)/demo/vmcore $(KERNEL_VMLINUX)

$(addprefix check-e2e-stack-,$(E2E_STACK)): check-e2e-stack-%: check-e2e-%
	@$(HARNESS) e2e-stack-$* /usr/bin/python3 tests/e2e/check_stack.py --min 0 \
		$(HOST)/csdump $(E2E)/$*/vmcore $(KERNEL_VMLINUX)

e2e: check-e2e-stack-demo $(addprefix check-e2e-stack-,$(E2E_STACK))
CHECKS += check-e2e-stack-demo $(addprefix check-e2e-stack-,$(E2E_STACK))

# --- the capture matrix ------------------------------------------------------
MAKEDUMPFILE_ENV   := $(BUILD)/makedumpfile-arm64
MAKEDUMPFILE_ROOT  := $(MAKEDUMPFILE_ENV)/root
MAKEDUMPFILE_STAMP := $(MAKEDUMPFILE_ENV)/.root-ok
E2E_CAPTURE        := sysrq demo
CAPTURE_ENV = CSDUMP=$(HOST)/csdump MAKEDUMPFILE_ROOT=$(MAKEDUMPFILE_ROOT)

.PHONY: makedumpfile-env $(addprefix check-e2e-capture-,$(E2E_CAPTURE)) check-e2e-capture-crashtime0
makedumpfile-env: $(MAKEDUMPFILE_STAMP)

$(MAKEDUMPFILE_STAMP): scripts/makedumpfile-arm64-env.sh scripts/arm64-root.sh | $(DEPS_STAMP)
	scripts/makedumpfile-arm64-env.sh $(MAKEDUMPFILE_ENV)

# Each after the run that writes its vmcore (a prerequisite: run alone, the
# target runs the scenario again, so the dump is always of this kernel).
$(addprefix check-e2e-capture-,$(E2E_CAPTURE)): check-e2e-capture-%: check-e2e-% $(MAKEDUMPFILE_STAMP)
	@$(HARNESS) e2e-capture-$* env $(CAPTURE_ENV) tests/e2e/capture.sh \
		$(E2E)/$*/vmcore $(KERNEL_VMLINUX) $(E2E)/capture-$* $(E2E)/$*/extract

check-e2e-capture-crashtime0: check-e2e-sysrq $(MAKEDUMPFILE_STAMP)
	@$(HARNESS) e2e-capture-crashtime0 env $(CAPTURE_ENV) tests/e2e/crashtime0.sh \
		$(E2E)/sysrq/vmcore $(KERNEL_VMLINUX) $(E2E)/capture-crashtime0

# What csdump says of a sink the kernel did not save (tests/e2e/save_outcome.sh),
# on the vmcore of each scenario whose sink is FAILED or never saved.
E2E_OUTCOME := nopost $(filter fault-%,$(E2E_SCENARIOS))
.PHONY: $(addprefix check-e2e-outcome-,$(E2E_OUTCOME))
$(addprefix check-e2e-outcome-,$(E2E_OUTCOME)): check-e2e-outcome-%: check-e2e-%
	@$(HARNESS) e2e-outcome-$* tests/e2e/save_outcome.sh $(HOST)/csdump \
		$(E2E)/$*/vmcore $(E2E)/outcome-$*
e2e: $(addprefix check-e2e-outcome-,$(E2E_OUTCOME))
CHECKS += $(addprefix check-e2e-outcome-,$(E2E_OUTCOME))

# An extract made with --vmlinux decodes as its vmcore (tests/e2e/extract_text.sh):
# the demo's trace runs through code the kernel patched, sysrq's does not.
E2E_KTEXT := sysrq demo
.PHONY: $(addprefix check-e2e-ktext-,$(E2E_KTEXT))
$(addprefix check-e2e-ktext-,$(E2E_KTEXT)): check-e2e-ktext-%: check-e2e-%
	@$(HARNESS) e2e-ktext-$* tests/e2e/extract_text.sh $(HOST)/csdump \
		$(E2E)/$*/vmcore $(KERNEL_VMLINUX) $(E2E)/ktext-$*
e2e: $(addprefix check-e2e-ktext-,$(E2E_KTEXT))
CHECKS += $(addprefix check-e2e-ktext-,$(E2E_KTEXT))

e2e: $(addprefix check-e2e-capture-,$(E2E_CAPTURE)) check-e2e-capture-crashtime0
CHECKS += $(addprefix check-e2e-capture-,$(E2E_CAPTURE)) check-e2e-capture-crashtime0
