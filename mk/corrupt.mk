# The corrupt-input suite (issue 5): csdump on vmcores, snapshots and
# vmlinux files broken one way each, built by the tests from a good generated
# capture.  Every case must end in bounded time with the documented exit
# status and message and leave no half-written output.  The suite runs with
# the ASan+UBSan build, then again with the plain build under valgrind.

CORRUPT      := $(BUILD)/corrupt
CORRUPT_GEN  := $(CORRUPT)/corrupt_gen
# Literal paths: mk/host.mk (which defines them) is read after this file.
CORRUPT_SAN  := $(BUILD)/host-san/csdump
CORRUPT_PLAIN := $(BUILD)/host/csdump
CORRUPT_VALGRIND = valgrind -q --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,possible \
	$(foreach f,tests/unit/valgrind.supp tests/decode/valgrind.supp,\
		--suppressions=$(abspath $(f)))
CORRUPT_SCRIPTS := vmcore snapshot vmlinux
# The known leaks of libkdumpfile and OpenCSD (tests/unit, tests/decode),
# without the report of them.
CORRUPT_SUPP := tests/unit/lsan.supp tests/decode/lsan.supp
CORRUPT_LSAN = LSAN_OPTIONS=suppressions=$(abspath $(CORRUPT)/lsan.supp):print_suppressions=0

$(CORRUPT_GEN): tests/corrupt/corrupt_gen.c tests/unit/vmcoregen.c tests/unit/vmcoregen.h \
		| $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Itests/unit -o $@ $(filter %.c,$^) -lz

$(CORRUPT)/lsan.supp: $(CORRUPT_SUPP)
	@mkdir -p $(@D)
	cat $^ >$@

.PHONY: corrupt $(addprefix check-corrupt-,$(CORRUPT_SCRIPTS)) check-corrupt-valgrind \
	check-corrupt-plain
corrupt: $(addprefix check-corrupt-,$(CORRUPT_SCRIPTS)) check-corrupt-valgrind check-corrupt-plain

$(addprefix check-corrupt-,$(CORRUPT_SCRIPTS)): check-corrupt-%: $(CORRUPT_SAN) $(CORRUPT_GEN) \
		$(CORRUPT)/lsan.supp
	@$(HARNESS) corrupt-$* env $(SAN_ENV) $(CORRUPT_LSAN) tests/corrupt/$*.sh \
		$(CORRUPT_SAN) $(CORRUPT_GEN) $(abspath $(CORRUPT))/$*

# Every case again, the plain build under valgrind memcheck (no leak).
check-corrupt-valgrind: $(CORRUPT_PLAIN) $(CORRUPT_GEN)
	@$(HARNESS) corrupt-valgrind tests/corrupt/valgrind.sh \
		$(CORRUPT_PLAIN) $(CORRUPT_GEN) $(abspath $(CORRUPT))/valgrind "$(CORRUPT_VALGRIND)"
# The vmcore cases once more on the plain build, as users run it: ASan's and
# valgrind's allocators keep freed memory away, which hides a double free's
# crash (libkdumpfile's, after a cut compressed header).
check-corrupt-plain: $(CORRUPT_PLAIN) $(CORRUPT_GEN)
	@$(HARNESS) corrupt-plain tests/corrupt/vmcore.sh \
		$(CORRUPT_PLAIN) $(CORRUPT_GEN) $(abspath $(CORRUPT))/plain
CHECKS += $(addprefix check-corrupt-,$(CORRUPT_SCRIPTS)) check-corrupt-valgrind check-corrupt-plain
