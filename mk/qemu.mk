# QEMU from source: Debian's qemu 7.2 source package with the qemu/patches
# series (the emulated CoreSight hardware), qemu-system-aarch64 only, with
# TCG plugins.  The e2e runs that need CoreSight use this binary; the others
# keep Debian's qemu-system-aarch64.
#
# Stable outputs (other fragments use these variables, not the paths):
#   QEMU_SRC   build/qemu-src   the tree, a git repo (tag "base")
#   QEMU_BIN   build/qemu/qemu-system-aarch64
#   QEMU_STAMP touched after every successful `make qemu`; depend on it
# Builds take the kernel's build lock (/tmp/csdump-kbuild.lock): one
# compiler job set at a time on this machine.

QEMU_SRC   := $(BUILD)/qemu-src
QEMU_OUT   := $(BUILD)/qemu
QEMU_BIN   := $(QEMU_OUT)/qemu-system-aarch64
QEMU_STAMP := $(QEMU_OUT)/.csdump-qemu.stamp
QEMU_TREE_LOCK := $(BUILD)/.qemu-tree.lock

.PHONY: qemu qemu-tree
qemu-tree: $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	@flock $(QEMU_TREE_LOCK) qemu/scripts/tree.sh $(QEMU_SRC)

# Always run: tree.sh re-applies the series only when qemu/patches changed
# and ninja rebuilds only what changed, so an edit in $(QEMU_SRC) (see
# qemu/README.md) is built too; a no-op costs about a second.
qemu: $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	@flock $(QEMU_TREE_LOCK) sh -c 'qemu/scripts/tree.sh $(QEMU_SRC) && \
		qemu/scripts/build.sh $(QEMU_SRC) $(QEMU_OUT)'
	@touch $(QEMU_STAMP)
