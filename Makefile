# csdump: CoreSight trace out of a kernel crash dump.
#
# The build is split by concern; each mk/*.mk fragment adds its own targets and
# appends the names of its test targets to CHECKS.
#   mk/config.mk   toolchain, flags, directories, the dependency script
#   mk/host.mk     libcsdump, the csdump CLI, unit tests, install
#   mk/kernel.mk   the arm64 kernel with the patch series, KUnit
#   mk/qemu.mk     QEMU from Debian's source with the qemu/ series
#   mk/e2e.mk      QEMU end-to-end crash scenarios, make demo
#   mk/e2e-hw.mk   the same on the emulated CoreSight hardware
#   mk/encoder.mk  the ETMv4 trace encoder (tests and benchmarks only)
#   mk/fuzz.mk     libFuzzer targets
# `make check` runs every test and ends with one "N passed, N failed" line.

.DEFAULT_GOAL := all
CHECKS :=

include mk/config.mk
include $(sort $(filter-out mk/config.mk,$(wildcard mk/*.mk)))

.PHONY: all check deps clean distclean help

# Run each check target even if one fails, then summarise.  The tests'
# verdicts are in $(RESULTS) (HARNESS_VERDICT_ONLY: a failed test is not a
# failed make target), and with CSDUMP_PRUNE=1 each QEMU scenario's outputs
# go once the checks that read them passed (mk/config.mk's prune_chain;
# make check CSDUMP_PRUNE=0 keeps them all).
CSDUMP_PRUNE ?= 1
check:
	@rm -rf $(RESULTS)
	@rc=0; HARNESS_VERDICT_ONLY=1 $(MAKE) --no-print-directory -k \
		CSDUMP_PRUNE=$(CSDUMP_PRUNE) CSDUMP_CHECK=1 $(CHECKS) || rc=$$?; \
	tests/summary.sh $(RESULTS) || exit 1; \
	if [ $$rc -ne 0 ]; then \
		echo "make check: a build step outside the tests failed (see above)"; exit 1; \
	fi

deps:
	@scripts/install-deps.sh

# The check targets, one per line (tests/unit/prune_readers.py).
.PHONY: list-checks
list-checks:
	@printf '%s\n' $(CHECKS)

clean:
	rm -rf $(BUILD)/host $(BUILD)/results $(BUILD)/logs

distclean:
	rm -rf $(BUILD)

help:
	@echo "make            build csdump (host tool and library)"
	@echo "make check      run every test (what CI runs)"
	@echo "make demo       crash a QEMU guest and show its last moments"
	@echo "make install    install csdump and its man page (PREFIX, DESTDIR)"
	@echo "make kernel     build the arm64 kernel with the patch series"
	@echo "make qemu       QEMU with the emulated CoreSight hardware (qemu/)"
	@echo "make kunit      run the KUnit suite of the series in QEMU"
	@echo "make e2e        QEMU end-to-end crash scenarios"
	@echo "make kernel-hw  the same kernel (the test device a module)"
	@echo "make e2e-hw     crash scenarios on the emulated CoreSight hardware"
	@echo "make fuzz       run each fuzz target (FUZZ_SECONDS, default 60)"
	@echo "make bench      decoding throughput against its peers"
	@echo "make crash-ext  the crash extension, build/crash/csdump.so (arm64)"
