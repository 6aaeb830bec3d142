# The kernel half: Debian's linux-source-6.1 with kernel/patches applied,
# an arm64 Image for QEMU virt, the KUnit suite and the series' checks.
#
# Stable outputs (other fragments use these variables, not the paths):
#   KERNEL_HW_IMAGE   build/kernel-hw-out/arch/arm64/boot/Image
#   KERNEL_HW_VMLINUX build/kernel-hw-out/vmlinux
#   KERNEL_HW_STAMP   touched after every successful `make kernel-hw`
#   KERNEL_TESTDEV_KO the software test device (make e2e) as a module of
#                     that build: only the e2e runs load it
#   KERNEL_IMAGE, KERNEL_VMLINUX, KERNEL_STAMP, KERNEL_OUT
#                     the same kernel (`make kernel` is `make kernel-hw`)
# Every kernel build takes /tmp/csdump-kbuild.lock (kernel/scripts/build.sh).

KERNEL_SRC     := $(BUILD)/linux
KUNIT_OUT      := $(BUILD)/kunit-out
KBUILD_LOCK    := /tmp/csdump-kbuild.lock

KERNEL_SERIES  := kernel/patches/series \
		  $(addprefix kernel/patches/,$(shell grep -v '^\s*\(\#\|$$\)' kernel/patches/series 2>/dev/null))
KERNEL_INPUTS  := $(KERNEL_SERIES) $(wildcard kernel/configs/*.config kernel/configs/hw/*.config) \
		  kernel/scripts/tree.sh kernel/scripts/build.sh scripts/series/tree.sh

# One kernel for both QEMU suites: allnoconfig + every fragment.  The
# software test device (kernel/configs/hw/testdev.config) is a module that
# only the e2e runs put in their initramfs and load (tests/e2e/lib.sh), so
# on the emulated hardware (make e2e-hw) only the stock drivers can have
# produced what the vmcore holds.  The e2e runs used to have a kernel build
# of their own, a sixth cold build in CI for one driver.
KERNEL_HW_OUT       := $(BUILD)/kernel-hw-out
KERNEL_HW_IMAGE     := $(KERNEL_HW_OUT)/arch/arm64/boot/Image
KERNEL_HW_VMLINUX   := $(KERNEL_HW_OUT)/vmlinux
KERNEL_HW_STAMP     := $(KERNEL_HW_OUT)/.csdump-kernel.stamp
KERNEL_HW_FRAGMENTS := $(wildcard kernel/configs/*.config) $(wildcard kernel/configs/hw/*.config)
KERNEL_TESTDEV_KO   := $(KERNEL_HW_OUT)/drivers/hwtracing/coresight/coresight-kdump-testdev.ko

KERNEL_OUT     := $(KERNEL_HW_OUT)
KERNEL_IMAGE   := $(KERNEL_HW_IMAGE)
KERNEL_VMLINUX := $(KERNEL_HW_VMLINUX)
KERNEL_STAMP   := $(KERNEL_HW_STAMP)

.PHONY: kernel kernel-hw kernel-tree kunit kernel-check \
	check-kernel-apply check-kernel-checkpatch check-kernel-build \
	check-kernel-sparse check-kernel-modular check-kernel-nokdump check-kunit \
	check-kernel-panicpath

kernel: kernel-hw

# Several make processes may want the kernel at once (`make -j2 check` runs
# check-kernel-build's own make beside the e2e prerequisites): TREE_LOCK
# serialises everything that changes build/linux or a kernel build tree, so the
# later one finds the work done and only runs the incremental checks.  It is
# not the build lock (KBUILD_LOCK, taken inside build.sh), which serialises
# compilers machine-wide; flock is not reentrant, hence two locks.
TREE_LOCK := $(BUILD)/.kernel-tree.lock

kernel-tree: $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	@flock $(TREE_LOCK) kernel/scripts/tree.sh $(KERNEL_SRC)

kernel-hw: $(KERNEL_HW_STAMP)

# $(call kernel_hw_build,FRAGMENTS,OUT,TARGETS): the series' tree, then
# TARGETS of allnoconfig + FRAGMENTS in OUT (also mk/variants.mk's kernels,
# which need no modules).
kernel_hw_build = flock $(TREE_LOCK) sh -c 'kernel/scripts/tree.sh $(KERNEL_SRC) && \
	KCONFIG_FRAGMENTS="$(abspath $(1))" kernel/scripts/build.sh $(KERNEL_SRC) $(2) $(3)'

$(KERNEL_HW_STAMP): $(KERNEL_INPUTS) | $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	$(call kernel_hw_build,$(KERNEL_HW_FRAGMENTS),$(KERNEL_HW_OUT),Image modules)
	@touch $@
	@echo "kernel-hw: $(KERNEL_HW_IMAGE)"

# KUnit in QEMU arm64 (two CPUs: one test holds the registry lock on the
# other CPU while the panic walk runs), in the kernel-hw build that the
# e2e-hw scenarios boot (kernel/configs/hw/kunit.config): no kernel build
# of its own.
kunit: kernel-hw qemu
	tests/kunit/run.sh $(KERNEL_HW_IMAGE) $(QEMU_BIN) $(KERNEL_SRC) $(KUNIT_OUT)

# The same suite as an upstream developer runs it: kunit.py builds its own
# kernel from tests/kunit/coresight-kdump.kunitconfig (about 15 minutes on
# two cores).  Not part of make check, which runs `kunit`.
.PHONY: kunit-standalone
kunit-standalone: kernel-tree
	cd $(KERNEL_SRC) && flock $(KBUILD_LOCK) python3 tools/testing/kunit/kunit.py run \
		--arch=arm64 --cross_compile=aarch64-linux-gnu- \
		--build_dir=$(abspath $(KUNIT_OUT))-standalone \
		--kunitconfig=$(abspath tests/kunit/coresight-kdump.kunitconfig) \
		--qemu_args='-smp 2' --make_options=-j2 --timeout=300

# The series' checks, cheapest first; all of them, and KUnit, run in `make check`.
CHECKS += check-kernel-apply check-kernel-checkpatch check-kernel-build \
	  check-kernel-sparse check-kernel-modular check-kernel-nokdump check-kunit \
	  check-kernel-panicpath

kernel-check: check-kernel-apply check-kernel-checkpatch check-kernel-sparse \
	      check-kernel-modular check-kernel-nokdump check-kernel-panicpath

check-kernel-apply: kernel-tree
	@$(HARNESS) kernel-apply kernel/scripts/check.sh apply $(KERNEL_SRC) $(BUILD)/kernel-check

check-kernel-checkpatch: kernel-tree
	@$(HARNESS) kernel-checkpatch kernel/scripts/check.sh checkpatch $(KERNEL_SRC) $(BUILD)/kernel-check

check-kernel-build: $(DEPS_STAMP)
	@$(HARNESS) kernel-build $(MAKE) --no-print-directory kernel

check-kernel-sparse: kernel-tree
	@$(HARNESS) kernel-sparse kernel/scripts/check.sh sparse $(KERNEL_SRC) $(BUILD)/kernel-check

check-kernel-modular: kernel-tree
	@$(HARNESS) kernel-modular kernel/scripts/check.sh modular $(KERNEL_SRC) $(BUILD)/kernel-check

check-kernel-panicpath: kernel-tree
	@$(HARNESS) kernel-panicpath kernel/scripts/check.sh panicpath $(KERNEL_SRC) $(BUILD)/kernel-check

check-kernel-nokdump: kernel-tree
	@$(HARNESS) kernel-nokdump kernel/scripts/check.sh nokdump $(KERNEL_SRC) $(BUILD)/kernel-check

check-kunit: kernel-hw qemu
	@$(HARNESS) kunit-coresight-kdump tests/kunit/run.sh $(KERNEL_HW_IMAGE) $(QEMU_BIN) \
		$(KERNEL_SRC) $(KUNIT_OUT)
