# csdump decode / csdump snapshot (issue 8): tests and `make bench`.
#
# The modules (src/decode/, src/cli/decode.c) join libcsdump and the csdump
# CLI through mk/host.mk.  Here: their tests,
# run with the sanitizer build, against independent oracles -- OpenCSD's
# trc_pkt_lister, Arm DS-5's reports, binutils -- and the benchmark.
# Tests that need ../shared skip (exit 77) when it is absent.

DECODE_TRACES := $(abspath $(SHARED)/traces)
DECODE_WORK   := $(BUILD)/decode
# Literal paths: mk/host.mk (which names them) is read after this file.
DECODE_CSDUMP := $(BUILD)/host-san/csdump
DECODE_LIB    := $(BUILD)/host-san/libcsdump.a
DECODE_PROBE  := $(BUILD)/host-san/tests/decode_probe
# A ThreadSanitizer build of csdump, for the test of the decoder threads.
DECODE_TSAN   := $(BUILD)/decode-tsan/csdump
DECODE_TSAN_SRCS = $(LIB_SRCS) $(CLI_SRCS)
# The sanitizer environment, less one leak of OpenCSD 1.3.3 (see the file).
DECODE_ENV     = $(SAN_ENV) \
	LSAN_OPTIONS=suppressions=$(abspath tests/decode/lsan.supp):print_suppressions=0

$(DECODE_TSAN): $(wildcard src/*/*.[ch]) $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O1 -g -fsanitize=thread $(HOST_CPPFLAGS) -o $@ \
		$(DECODE_TSAN_SRCS) $(HOST_LDLIBS)

# A vmcore of an encoder trace whose program text was patched (ktext.sh, perfimage.sh).
DECODE_KTEXT_GEN := $(BUILD)/host-san/tests/ktext_vmcore
$(DECODE_KTEXT_GEN): tests/decode/ktext_vmcore.c tests/unit/vmcoregen.c tests/unit/vgdump.c \
		$(DECODE_LIB)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(SAN_FLAGS) $(HOST_CPPFLAGS) -Itests/unit -o $@ \
		$(filter %.c,$^) $(DECODE_LIB) $(HOST_LDLIBS)

$(DECODE_PROBE): tests/decode/probe.c $(DECODE_LIB)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(SAN_FLAGS) -Isrc -o $@ $^ $(HOST_LDLIBS)

DECODE_ORACLE_TRACES := juno_r1_1 juno-uname-001 a57_single_step
DECODE_ORACLE_CHECKS := $(addprefix check-decode-oracle-,$(DECODE_ORACLE_TRACES))

.PHONY: $(DECODE_ORACLE_CHECKS) check-decode-ds5 check-decode-roundtrip check-decode-symbols \
	check-decode-text check-decode-hostile check-decode-symjson check-decode-valgrind \
	check-decode-lines check-decode-threads check-decode-image check-decode-crash \
	check-decode-rawsinks check-decode-pipe check-decode-messages check-decode-profile \
	check-decode-noimage check-decode-ktext check-decode-runaway check-decode-perfimage

# Per trace ID the same ranges, NACCs and exceptions as trc_pkt_lister -decode.
$(DECODE_ORACLE_CHECKS): check-decode-oracle-%: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-oracle-$* tests/decode/oracle.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/$* $(abspath $(DECODE_WORK))/oracle

# The five real ETE snapshots (Armv9 trace units; raw, unformatted buffers):
# the same comparison with trc_pkt_lister, and csdump's own snapshot of each,
# decoded by trc_pkt_lister, equal to the original.
DECODE_ETE_TRACES := ete_ip ete_mem ete_spec_1 trace_file_cid_vmid ts_marker
DECODE_ETE_ORACLE := $(addprefix check-decode-oracle-ete-,$(DECODE_ETE_TRACES))
DECODE_ETE_ROUNDTRIP := $(addprefix check-decode-roundtrip-ete-,$(DECODE_ETE_TRACES))
DECODE_ETE_CHECKS := $(DECODE_ETE_ORACLE) $(DECODE_ETE_ROUNDTRIP) check-decode-ete-devarch
.PHONY: $(DECODE_ETE_CHECKS)

$(DECODE_ETE_ORACLE): check-decode-oracle-ete-%: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-oracle-ete-$* tests/decode/oracle.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/ete/$* $(abspath $(DECODE_WORK))/oracle-ete

$(DECODE_ETE_ROUNDTRIP): check-decode-roundtrip-ete-%: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-roundtrip-ete-$* tests/decode/roundtrip.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/ete/$* $(abspath $(DECODE_WORK))/roundtrip-ete-$*

# An ETE without TRCDEVARCH (its ETE version) is refused in one line.
check-decode-ete-devarch: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-ete-devarch tests/decode/ete_devarch.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/ete/ete_ip $(abspath $(DECODE_WORK))/ete-devarch

CHECKS += $(DECODE_ETE_CHECKS)

# The DS-5 reports of juno_r1_1: a second, independent decoder.
check-decode-ds5: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-ds5 tests/decode/ds5.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(DECODE_WORK)/ds5

# csdump snapshot of juno_r1_1, decoded by trc_pkt_lister, equals the original.
check-decode-roundtrip: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-snapshot-roundtrip tests/decode/roundtrip.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(abspath $(DECODE_WORK))/roundtrip

# The text report's newest ranges per CPU are trc_pkt_lister's newest ranges.
check-decode-text: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-text tests/decode/text.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(abspath $(DECODE_WORK))/text

# Damaged buffers: cut, ragged, flipped bits, random, empty.
check-decode-hostile: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-hostile tests/decode/hostile.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(abspath $(DECODE_WORK))/hostile

# Every symbol in the JSON output of juno_r1_1 is the one nm gives.
check-decode-symjson: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-symjson tests/decode/symjson.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(DECODE_WORK)/symjson

# OpenCSD 1.3.3 crashes on a damaged trace; csdump must not.  A plain build:
# under ASan the library's read of freed memory does not crash.
check-decode-crash: $(BUILD)/host/csdump $(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf
	@$(HARNESS) decode-crash tests/decode/crash.sh $(BUILD)/host/csdump \
		$(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf $(abspath $(DECODE_WORK))/crash

# A sink's bytes before its first trace ID are decoded at load in a child
# too (decode/lead.c): a crash there costs only those bytes.  Plain build.
.PHONY: check-decode-lead
check-decode-lead: $(BUILD)/host/csdump $(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf
	@$(HARNESS) decode-lead tests/decode/lead.sh $(BUILD)/host/csdump \
		$(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf $(abspath $(DECODE_WORK))/lead

# A raw (source_data) buffer per trace unit, against trc_pkt_lister -src_name.
check-decode-rawsinks: $(BUILD)/host/csdump $(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf
	@$(HARNESS) decode-rawsinks tests/decode/rawsinks.sh $(BUILD)/host/csdump \
		$(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf $(abspath $(DECODE_WORK))/rawsinks

# The image cut into adjacent, overlapping and separate memory dumps.
check-decode-image: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-image tests/decode/image.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(abspath $(DECODE_WORK))/image

# An extract directory (no memory) + vmlinux at a KASLR-like offset, traced by
# the project's encoder: encoded ranges, nm symbols and addr2line lines.
check-decode-lines: $(DECODE_CSDUMP) $(BUILD)/encoder/etm4enc
	@$(DECODE_ENV) $(HARNESS) decode-lines tests/decode/lines.sh \
		$(DECODE_CSDUMP) $(BUILD)/encoder/etm4enc $(DECODE_WORK)/lines

# A range the decoder ran on through code that is not what ran: flagged
# (issue 17, defect 4), on the encoder's trace over an image made NOPs.
check-decode-runaway: $(DECODE_CSDUMP) $(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf
	@$(DECODE_ENV) $(HARNESS) decode-runaway tests/decode/runaway.sh $(DECODE_CSDUMP) \
		$(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf $(abspath $(DECODE_WORK))/runaway

# Stock perf decodes as csdump with the image `csdump perf --vmlinux` writes,
# code outside .text included (issue 17, defect 5).
check-decode-perfimage: $(DECODE_CSDUMP) $(BUILD)/encoder/etm4enc \
		$(DECODE_KTEXT_GEN) $(BUILD)/corrupt/lsan.supp
	@$(SAN_ENV) LSAN_OPTIONS=suppressions=$(abspath $(BUILD)/corrupt/lsan.supp):print_suppressions=0 \
		$(HARNESS) decode-perfimage tests/decode/perfimage.sh $(DECODE_CSDUMP) \
		$(BUILD)/encoder/etm4enc $(DECODE_KTEXT_GEN) $(DECODE_WORK)/perfimage

# An extract directory decodes as its vmcore, whose program text was patched
# (issue 17, defect 3): the extract carries the text as it ran.
# It reads a vmcore: libkdumpfile's known leaks too (mk/corrupt.mk's list).
check-decode-ktext: $(DECODE_CSDUMP) $(BUILD)/encoder/etm4enc $(DECODE_KTEXT_GEN) \
		$(BUILD)/corrupt/lsan.supp
	@$(SAN_ENV) LSAN_OPTIONS=suppressions=$(abspath $(BUILD)/corrupt/lsan.supp):print_suppressions=0 \
		$(HARNESS) decode-ktext tests/decode/ktext.sh $(DECODE_CSDUMP) \
		$(BUILD)/encoder/etm4enc $(DECODE_KTEXT_GEN) $(DECODE_WORK)/ktext

# Any number of decoder threads, the same output; no data race (TSan build).
check-decode-threads: $(DECODE_TSAN) $(BUILD)/encoder/etm4enc
	@$(HARNESS) decode-threads tests/decode/threads.sh $(DECODE_TSAN) \
		$(BUILD)/encoder/etm4enc $(DECODE_TRACES)/juno_r1_1 $(DECODE_WORK)/threads

# The plain build under valgrind (the others run under ASan + UBSan).
check-decode-valgrind: $(BUILD)/host/csdump
	@$(HARNESS) decode-valgrind tests/decode/valgrind.sh \
		$(BUILD)/host/csdump $(DECODE_TRACES)/juno_r1_1 $(DECODE_WORK)/valgrind

# `csdump decode ... | head -1`: a closed pipe is a normal end, exit 0 (issue 17).
check-decode-pipe: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-pipe tests/decode/pipe.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(abspath $(DECODE_WORK))/pipe

# The messages of issue 17, defect 7: each names what and where.
check-decode-messages: $(DECODE_CSDUMP) $(DECODE_PROBE)
	@$(DECODE_ENV) $(HARNESS) decode-messages tests/decode/messages.sh \
		$(DECODE_CSDUMP) $(DECODE_PROBE) $(DECODE_TRACES)/juno_r1_1 \
		$(abspath $(DECODE_WORK))/messages

# A trace unit of an M-profile core refused, of an unknown core warned (issue 17).
check-decode-profile: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-profile tests/decode/profile.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(abspath $(DECODE_WORK))/profile

# No program image: what the trace says, as trc_pkt_lister does; exit 5 (issue 17).
check-decode-noimage: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-noimage tests/decode/noimage.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(abspath $(DECODE_WORK))/noimage

# Symbols, source lines and the vmlinux image against nm, addr2line, readelf.
check-decode-symbols: $(DECODE_PROBE)
	@$(DECODE_ENV) $(HARNESS) decode-symbols tests/decode/symbols.sh \
		$(DECODE_PROBE) $(CC) $(DECODE_WORK)/symbols

CHECKS += $(DECODE_ORACLE_CHECKS) check-decode-ds5 check-decode-roundtrip check-decode-symbols \
	check-decode-text check-decode-hostile check-decode-symjson check-decode-valgrind \
	check-decode-lines check-decode-threads check-decode-image check-decode-crash check-decode-lead \
	check-decode-rawsinks check-decode-pipe check-decode-messages check-decode-profile \
	check-decode-noimage check-decode-ktext check-decode-runaway check-decode-perfimage

# --- the views of issue 17 ---------------------------------------------------
DECODE_VIEW_CHECKS := check-decode-functions check-decode-context check-decode-filter \
		      check-decode-report check-decode-schema
.PHONY: $(DECODE_VIEW_CHECKS)

# --functions against trc_pkt_lister's ranges of `csdump snapshot`, summed with nm.
check-decode-functions: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-functions tests/decode/functions.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(abspath $(DECODE_WORK))/functions

# Exceptions and context in words against trc_pkt_lister's elements.
check-decode-context: $(DECODE_CSDUMP) $(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf
	@$(DECODE_ENV) $(HARNESS) decode-context tests/decode/context.sh \
		$(DECODE_CSDUMP) $(abspath $(DECODE_WORK))/context \
		--enc $(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf \
		$(addprefix $(DECODE_TRACES)/,$(DECODE_ORACLE_TRACES))

# --from/--to by address and function, with --cpu, against trc_pkt_lister cut by hand.
check-decode-filter: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-filter tests/decode/filter.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(abspath $(DECODE_WORK))/filter

# csdump report in headless chromium: no console message, every CPU drawn.
check-decode-report: $(DECODE_CSDUMP)
	@$(DECODE_ENV) $(HARNESS) decode-report tests/decode/report.sh \
		$(DECODE_CSDUMP) $(DECODE_TRACES)/juno_r1_1 $(abspath $(DECODE_WORK))/report

# Every JSON line against the schema docs/decode.md documents.
check-decode-schema: $(DECODE_CSDUMP) $(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf
	@$(DECODE_ENV) $(HARNESS) decode-schema tests/decode/schema.sh $(DECODE_CSDUMP) \
		$(BUILD)/encoder/etm4enc $(BUILD)/encoder/prog.elf $(DECODE_TRACES) \
		$(abspath $(DECODE_WORK))/schema

CHECKS += $(DECODE_VIEW_CHECKS)
