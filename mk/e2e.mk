# End to end in QEMU: a real arm64 kernel with the series panics, kdump's
# capture kernel saves /proc/vmcore, csdump gets the trace back.
#
#   make e2e     every crash scenario (tests/e2e/scenario.sh), each a
#                separate QEMU run, with the Juno capture from $(SHARED)
#                (skipped when it is absent)
#
# Outputs under $(E2E): the guest init, and per scenario NAME: NAME.in/ (the
# guest script and payload), NAME/console.log (both kernels), NAME/vmcore,
# NAME/extract/ (csdump extract) and NAME/times (seconds per stage).

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
	  CSDUMP=$(E2E_CSDUMP)
# csdump's checks run once `csdump extract` exists.
E2E_CSDUMP :=

.PHONY: e2e e2e-prep $(addprefix check-e2e-,$(E2E_SCENARIOS))
e2e-prep: $(KERNEL_STAMP) $(E2E_INIT)

e2e: $(addprefix check-e2e-,$(E2E_SCENARIOS))

check-e2e-%: e2e-prep
	@$(HARNESS) e2e-$* env $(E2E_ENV) tests/e2e/scenario.sh $*
