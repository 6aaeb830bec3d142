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
E2E_HW_SCENARIOS := etf-sysrq etf-softlockup etf-oops etf-disabled \
		    etr-flat-sysrq etr-flat-softlockup etr-flat-oops \
		    etr-sg-sysrq etb10-sysrq \
		    etf-perfcpus-sysrq etf-perfthread-sysrq etr-sg-perfcpus-sysrq
# The capture matrix (tests/e2e/capture.sh, mk/e2e.mk) on the vmcores whose
# trace lives where -d 31 could drop it: an ETR's scatter-gather pages and
# perf sessions' AUX buffers.
E2E_HW_CAPTURE   := etr-sg-sysrq etf-perfcpus-sysrq etr-sg-perfcpus-sysrq

E2E_HW_ENV = E2E_IMAGE=$(KERNEL_HW_IMAGE) E2E_CPIO=$(KERNEL_HW_OUT)/usr/gen_init_cpio \
	     E2E_INIT=$(E2E_INIT) E2E_DTSI= E2E_QEMU=$(QEMU_BIN) \
	     E2E_OUT=$(E2E_HW) CSDUMP=$(HOST)/csdump ETM4ENC=$(ENC)/etm4enc \
	     VMLINUX=$(KERNEL_HW_VMLINUX)

.PHONY: e2e-hw e2e-hw-prep $(addprefix check-e2e-hw-,$(E2E_HW_SCENARIOS)) \
	$(addprefix check-e2e-hw-capture-,$(E2E_HW_CAPTURE))
.SECONDEXPANSION:
e2e-hw-prep: kernel-hw qemu host encoder $$(E2E_INIT)

e2e-hw: $(addprefix check-e2e-hw-,$(E2E_HW_SCENARIOS)) \
	$(addprefix check-e2e-hw-capture-,$(E2E_HW_CAPTURE))

$(addprefix check-e2e-hw-,$(E2E_HW_SCENARIOS)): check-e2e-hw-%: e2e-hw-prep
	@$(HARNESS) e2e-hw-$* env $(E2E_HW_ENV) tests/e2e-hw/scenario.sh $*

$(addprefix check-e2e-hw-capture-,$(E2E_HW_CAPTURE)): check-e2e-hw-capture-%: \
		check-e2e-hw-% makedumpfile-env
	@$(HARNESS) e2e-hw-capture-$* env $(CAPTURE_ENV) tests/e2e/capture.sh \
		$(E2E_HW)/$*/vmcore $(KERNEL_HW_VMLINUX) $(E2E_HW)/capture-$* \
		$(E2E_HW)/$*/extract

CHECKS += $(addprefix check-e2e-hw-,$(E2E_HW_SCENARIOS)) \
	  $(addprefix check-e2e-hw-capture-,$(E2E_HW_CAPTURE))
