# End to end in QEMU: a real arm64 kernel with the series panics, kdump's
# capture kernel saves /proc/vmcore, csdump gets the trace back.
#
#   make e2e     every crash scenario (tests/e2e/scenario.sh), each a separate
#                QEMU run, with the Juno capture from $(SHARED) (skipped when
#                it is absent), and the demo's check
#   make demo    crash the guest with a trace that etm4enc synthesizes along
#                its real sysrq panic path; show csdump's view of each CPU's
#                last moments (needs nothing from $(SHARED))
#
# Outputs under $(E2E): the guest init, and per run NAME: NAME.in/ (the guest
# script and payload), NAME/console.log (both kernels), NAME/vmcore,
# NAME/extract/ (csdump extract) and NAME/times (seconds per stage).
# The kernel, csdump and etm4enc come from `make kernel`, `make host` and
# `make encoder` (prerequisites by their phony names: this file is read
# before theirs).

E2E           := $(BUILD)/e2e
E2E_INIT      := $(E2E)/init
E2E_SCENARIOS := sysrq irq oops locked disabled
E2E_CC        := aarch64-linux-gnu-gcc

$(E2E_INIT): tests/e2e/init.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(E2E_CC) -static -O2 -std=c11 $(WARN) -o $@ $<

E2E_ENV = E2E_IMAGE=$(KERNEL_IMAGE) E2E_CPIO=$(KERNEL_OUT)/usr/gen_init_cpio \
	  E2E_INIT=$(E2E_INIT) E2E_DTSI=tests/e2e/coresight-test.dtsi \
	  E2E_OUT=$(E2E) E2E_SNAPSHOT=$(SHARED)/traces/juno_r1_1 \
	  CSDUMP=$(HOST)/csdump ETM4ENC=$(ENC)/etm4enc VMLINUX=$(KERNEL_VMLINUX)

.PHONY: e2e e2e-prep demo check-e2e-demo $(addprefix check-e2e-,$(E2E_SCENARIOS))
e2e-prep: kernel host encoder $(E2E_INIT)

e2e: $(addprefix check-e2e-,$(E2E_SCENARIOS)) check-e2e-demo

check-e2e-demo: e2e-prep
	@$(HARNESS) e2e-demo env $(E2E_ENV) tests/e2e/demo.sh --check

$(addprefix check-e2e-,$(E2E_SCENARIOS)): check-e2e-%: e2e-prep
	@$(HARNESS) e2e-$* env $(E2E_ENV) tests/e2e/scenario.sh $*

demo: e2e-prep
	@env $(E2E_ENV) tests/e2e/demo.sh

CHECKS += $(addprefix check-e2e-,$(E2E_SCENARIOS)) check-e2e-demo
