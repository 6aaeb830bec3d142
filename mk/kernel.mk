# The kernel half: Debian's linux-source-6.1 with kernel/patches applied,
# an arm64 Image for QEMU virt, the KUnit suite and the series' checks.
#
# Stable outputs (other fragments use these variables, not the paths):
#   KERNEL_SRC      build/linux                the tree, a git repo (tag "base")
#   KERNEL_IMAGE    build/kernel-out/arch/arm64/boot/Image
#   KERNEL_VMLINUX  build/kernel-out/vmlinux
#   KERNEL_STAMP    touched after every successful `make kernel`; depend on it
#   KERNEL_HW_IMAGE, KERNEL_HW_VMLINUX, KERNEL_HW_STAMP
#                   the same for `make kernel-hw`: the stock CoreSight drivers
#                   only (no software test device), for the emulated hardware
# Every kernel build takes /tmp/csdump-kbuild.lock (kernel/scripts/build.sh).

KERNEL_SRC     := $(BUILD)/linux
KERNEL_OUT     := $(BUILD)/kernel-out
KERNEL_IMAGE   := $(KERNEL_OUT)/arch/arm64/boot/Image
KERNEL_VMLINUX := $(KERNEL_OUT)/vmlinux
KERNEL_STAMP   := $(KERNEL_OUT)/.csdump-kernel.stamp
KUNIT_OUT      := $(BUILD)/kunit-out
KBUILD_LOCK    := /tmp/csdump-kbuild.lock

KERNEL_SERIES  := kernel/patches/series \
		  $(addprefix kernel/patches/,$(shell grep -v '^\s*\(\#\|$$\)' kernel/patches/series 2>/dev/null))
KERNEL_INPUTS  := $(KERNEL_SERIES) $(wildcard kernel/configs/*.config kernel/configs/hw/*.config) \
		  kernel/scripts/tree.sh kernel/scripts/build.sh scripts/series/tree.sh

# The kernel for the emulated CoreSight hardware (make e2e-hw): every
# fragment but the software test device's, so that only the stock drivers
# can have produced what the vmcore holds.
KERNEL_HW_OUT       := $(BUILD)/kernel-hw-out
KERNEL_HW_IMAGE     := $(KERNEL_HW_OUT)/arch/arm64/boot/Image
KERNEL_HW_VMLINUX   := $(KERNEL_HW_OUT)/vmlinux
KERNEL_HW_STAMP     := $(KERNEL_HW_OUT)/.csdump-kernel.stamp
KERNEL_HW_FRAGMENTS := $(filter-out kernel/configs/e2e-test.config,$(wildcard kernel/configs/*.config)) \
		       $(wildcard kernel/configs/hw/*.config)

.PHONY: kernel kernel-hw kernel-tree kunit kernel-check \
	check-kernel-apply check-kernel-checkpatch check-kernel-build \
	check-kernel-sparse check-kernel-modular check-kernel-nokdump check-kunit \
	check-kernel-panicpath

kernel: $(KERNEL_STAMP)

# Several make processes may want the kernel at once (`make -j2 check` runs
# check-kernel-build's own make beside the e2e prerequisites): TREE_LOCK
# serialises everything that changes build/linux or build/kernel-out, so the
# later one finds the work done and only runs the incremental checks.  It is
# not the build lock (KBUILD_LOCK, taken inside build.sh), which serialises
# compilers machine-wide; flock is not reentrant, hence two locks.
TREE_LOCK := $(BUILD)/.kernel-tree.lock

kernel-tree: $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	@flock $(TREE_LOCK) kernel/scripts/tree.sh $(KERNEL_SRC)

$(KERNEL_STAMP): $(KERNEL_INPUTS) | $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	flock $(TREE_LOCK) sh -c 'kernel/scripts/tree.sh $(KERNEL_SRC) && \
		kernel/scripts/build.sh $(KERNEL_SRC) $(KERNEL_OUT) Image modules'
	@touch $@
	@echo "kernel: $(KERNEL_IMAGE)"

kernel-hw: $(KERNEL_HW_STAMP)

# $(call kernel_hw_build,FRAGMENTS,OUT): the series' tree, then an Image
# of allnoconfig + FRAGMENTS in OUT (also mk/variants.mk's kernels).
kernel_hw_build = flock $(TREE_LOCK) sh -c 'kernel/scripts/tree.sh $(KERNEL_SRC) && \
	KCONFIG_FRAGMENTS="$(abspath $(1))" kernel/scripts/build.sh $(KERNEL_SRC) $(2) Image'

$(KERNEL_HW_STAMP): $(KERNEL_INPUTS) | $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	$(call kernel_hw_build,$(KERNEL_HW_FRAGMENTS),$(KERNEL_HW_OUT))
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
