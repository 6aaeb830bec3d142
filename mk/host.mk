# Host side: libcsdump, the csdump CLI, their unit tests, install.
#
# Two builds of the same sources: $(HOST) (the product, CFLAGS) and
# $(HOST_SAN) (ASan + UBSan, for the tests).  The library is the layers of
# LIB_DIRS (mk/config.mk), the command src/cli/*.c.

HOST     := $(BUILD)/host
HOST_SAN := $(BUILD)/host-san

HOST_PKGS    := libkdumpfile libelf libdw zlib
HOST_CPPFLAGS = $(shell pkg-config --cflags $(HOST_PKGS) 2>/dev/null) -Isrc
HOST_LDLIBS   = $(shell pkg-config --libs $(HOST_PKGS) 2>/dev/null) \
		-lopencsd_c_api -lopencsd

# tests/unit: test_*.c are test programs; the other .c files are helpers
# linked into each of them (e.g. the vmcore generator).
UNIT_HELPERS := $(filter-out tests/unit/test_%.c,$(wildcard tests/unit/*.c))
UNIT_TESTS   := $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_*.c))

# $(call host_variant,DIR,EXTRA_FLAGS): rules for one build of the library,
# the CLI and the unit test programs under DIR.
define host_variant
$(1)/obj/%.o: src/%.c | $(DEPS_STAMP)
	@mkdir -p $$(@D)
	$$(CC) $$(CSTD) $$(WARN) $$(CFLAGS) $(2) $$(HOST_CPPFLAGS) -MMD -MP -c -o $$@ $$<

$(1)/obj/tests/%.o: tests/unit/%.c | $(DEPS_STAMP)
	@mkdir -p $$(@D)
	$$(CC) $$(CSTD) $$(WARN) $$(CFLAGS) $(2) $$(HOST_CPPFLAGS) -Itests/unit -MMD -MP -c -o $$@ $$<

$(1)/libcsdump.a: $(patsubst src/%.c,$(1)/obj/%.o,$(LIB_SRCS))
	@rm -f $$@
	$$(AR) rcs $$@ $$^

$(1)/csdump: $(patsubst src/%.c,$(1)/obj/%.o,$(CLI_SRCS)) $(1)/libcsdump.a
	$$(CC) $$(CFLAGS) $(2) $$(LDFLAGS) -o $$@ $$^ $$(HOST_LDLIBS)

$(1)/tests/%: $(1)/obj/tests/%.o $(patsubst tests/unit/%.c,$(1)/obj/tests/%.o,$(UNIT_HELPERS)) $(1)/libcsdump.a
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $(2) $$(LDFLAGS) -o $$@ $$^ $$(HOST_LDLIBS)

-include $$(wildcard $(1)/obj/*/*.d)
endef

$(eval $(call host_variant,$(HOST),))
$(eval $(call host_variant,$(HOST_SAN),$(SAN_FLAGS)))

.PHONY: host host-san host-tests
all: host
host: $(HOST)/libcsdump.a $(HOST)/csdump
host-san: $(HOST_SAN)/libcsdump.a $(HOST_SAN)/csdump
host-tests: $(addprefix $(HOST)/tests/,$(UNIT_TESTS)) $(addprefix $(HOST_SAN)/tests/,$(UNIT_TESTS))

# Sanitizer runtime options for every test run under $(HOST_SAN).
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	   LSAN_OPTIONS=suppressions=$(abspath tests/unit/lsan.supp)

.PHONY: install
install: $(HOST)/csdump
	install -D -m 0755 $(HOST)/csdump $(DESTDIR)$(PREFIX)/bin/csdump
	install -D -m 0644 man/csdump.1 $(DESTDIR)$(PREFIX)/share/man/man1/csdump.1

# --- tests -------------------------------------------------------------------
.PHONY: check-unit-snapshot
check-unit-snapshot: $(HOST_SAN)/tests/test_snapshot
	@$(HARNESS) unit-snapshot env $(SAN_ENV) $< $(SHARED)/traces
.PHONY: check-unit-cs-frame check-perf-juno
check-unit-cs-frame: $(HOST_SAN)/tests/test_cs_frame
	@$(HARNESS) unit-cs-frame env $(SAN_ENV) $<
# Stock perf and trc_pkt_lister on the real Juno capture (skips without ../shared).
check-perf-juno: $(HOST_SAN)/csdump
	@$(HARNESS) perf-juno env $(SAN_ENV) /usr/bin/python3 tests/unit/perf_juno.py $< $(SHARED)/traces

# The same for the five real ETE snapshots (raw buffers; perf's ETE metadata block).
PERF_ETE_TRACES := ete_ip ete_mem ete_spec_1 trace_file_cid_vmid ts_marker
PERF_ETE_CHECKS := $(addprefix check-perf-ete-,$(PERF_ETE_TRACES))
.PHONY: $(PERF_ETE_CHECKS)
$(PERF_ETE_CHECKS): check-perf-ete-%: $(HOST_SAN)/csdump
	@$(HARNESS) perf-ete-$* env $(SAN_ENV) /usr/bin/python3 tests/unit/perf_juno.py $< \
		$(SHARED)/traces ete/$*
CHECKS += $(PERF_ETE_CHECKS)

.PHONY: check-unit-registry check-unit-registry-mutate
check-unit-registry: $(HOST_SAN)/tests/test_registry
	@$(HARNESS) unit-registry env $(SAN_ENV) $<
check-unit-registry-mutate: $(HOST_SAN)/tests/test_registry_mutate
	@$(HARNESS) unit-registry-mutate env $(SAN_ENV) $<

.PHONY: check-unit-cli-vmcore
check-unit-cli-vmcore: $(HOST_SAN)/csdump $(HOST_SAN)/tests/test_registry
	@$(HARNESS) unit-cli-vmcore env $(SAN_ENV) tests/unit/cli_vmcore.sh $^

.PHONY: check-unit-valgrind check-unit-install
check-unit-valgrind: $(HOST)/csdump $(addprefix $(HOST)/tests/,$(UNIT_TESTS))
	@$(HARNESS) unit-valgrind tests/unit/valgrind.sh $(HOST) tests/unit/valgrind.supp $(SHARED)/traces
check-unit-install: $(HOST)/csdump
	@$(HARNESS) unit-install tests/unit/install.sh
# make check's removal of scenario outputs waits for every check that
# reads them (Makefile, mk/config.mk's prune_chain).
.PHONY: check-unit-prune
check-unit-prune:
	@$(HARNESS) unit-prune /usr/bin/python3 tests/unit/prune_readers.py .
CHECKS += check-unit-prune

CHECKS += check-unit-snapshot check-unit-cs-frame check-perf-juno check-unit-registry
# The Juno capture through a vmcore, decoded by perf (skips without ../shared).
.PHONY: check-perf-juno-vmcore
check-perf-juno-vmcore: $(HOST_SAN)/tests/test_juno_vmcore
	@$(HARNESS) perf-juno-vmcore env $(SAN_ENV) $< $(SHARED)/traces

CHECKS += check-unit-cli-vmcore check-unit-valgrind check-unit-install check-perf-juno-vmcore
# Re-framing per trace ID (what csdump perf writes) checked by trc_pkt_lister.
.PHONY: check-perf-reframe-juno
check-perf-reframe-juno: $(HOST_SAN)/tests/test_reframe
	@$(HARNESS) perf-reframe-juno env $(SAN_ENV) $< $(SHARED)/traces

CHECKS += check-unit-registry-mutate check-perf-reframe-juno
# The sinks' file names: safe, unique, for any number of sinks.
.PHONY: check-unit-sink-names
check-unit-sink-names: $(HOST_SAN)/tests/test_sink_names
	@$(HARNESS) unit-sink-names env $(SAN_ENV) $<

CHECKS += check-unit-sink-names
# The call stack and the function counts on hand-made events.
.PHONY: check-unit-stack
check-unit-stack: $(HOST_SAN)/tests/test_stack
	@$(HARNESS) unit-stack env $(SAN_ENV) $<

CHECKS += check-unit-stack
# Whose a wrapped sink's ID-less leading bytes are (decode/lead.h).
.PHONY: check-unit-lead
check-unit-lead: $(HOST_SAN)/tests/test_lead
	@$(HARNESS) unit-lead env $(SAN_ENV) $<
CHECKS += check-unit-lead
# Module code from a vmcore's vmalloc areas, on memory laid out by hand.
.PHONY: check-unit-modtext
check-unit-modtext: $(HOST_SAN)/tests/test_modtext
	@$(HARNESS) unit-modtext env $(SAN_ENV) $<

CHECKS += check-unit-modtext
