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
QEMU_SERIES := qemu/patches/series \
	       $(addprefix qemu/patches/,$(shell grep -v '^\s*\(\#\|$$\)' qemu/patches/series 2>/dev/null))
QEMU_TREE_LOCK := $(BUILD)/.qemu-tree.lock

.PHONY: qemu qemu-tree
qemu: $(QEMU_STAMP)

qemu-tree: $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	@flock $(QEMU_TREE_LOCK) qemu/scripts/tree.sh $(QEMU_SRC)

# ninja decides what to rebuild; the stamp is remade whenever the series or
# the scripts change, and by hand edits through `make qemu` (phony tree step).
$(QEMU_STAMP): $(QEMU_SERIES) qemu/scripts/tree.sh qemu/scripts/build.sh \
	       scripts/series/tree.sh | $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	flock $(QEMU_TREE_LOCK) sh -c 'qemu/scripts/tree.sh $(QEMU_SRC) && \
		qemu/scripts/build.sh $(QEMU_SRC) $(QEMU_OUT)'
	@touch $@
	@echo "qemu: $(QEMU_BIN)"
