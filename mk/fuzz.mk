# libFuzzer targets for every parser of outside data (issue 5):
#   registry    the registry walk and record checks over hostile memory
#   vmcoreinfo  VMCOREINFO parsing and the registry keys
#   snapshot    OpenCSD snapshot directories (.ini files, buffers, dumps)
#   elf         a vmlinux: architecture check, program image, symbols
# Each is built with clang, -fsanitize=fuzzer,address,undefined, against its
# own instrumented build of the library, and starts from the committed seed
# corpus tests/fuzz/corpus/TARGET (written by tests/fuzz/mkseeds.sh).
# `make fuzz` runs each for FUZZ_SECONDS (default 60); make check runs each
# for FUZZ_CI_SECONDS (20).  New inputs go to build/fuzz/TARGET/corpus, a
# crash to build/fuzz/TARGET/artifacts.

FUZZ          := $(BUILD)/fuzz
FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 60
FUZZ_CI_SECONDS ?= 20
FUZZ_TARGETS  := registry vmcoreinfo snapshot elf
FUZZ_SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS   := -g -O1 $(FUZZ_SAN)
FUZZ_HELPERS  := fakemem fuzzutil
FUZZ_BINS     := $(addprefix $(FUZZ)/fuzz_,$(FUZZ_TARGETS))

$(FUZZ)/obj/%.o: src/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CSTD) $(WARN) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(HOST_CPPFLAGS) \
		-MMD -MP -c -o $@ $<

$(FUZZ)/obj/tests/%.o: tests/fuzz/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CSTD) $(WARN) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(HOST_CPPFLAGS) \
		-Itests/fuzz -MMD -MP -c -o $@ $<

$(FUZZ)/libcsdump.a: $(patsubst src/%.c,$(FUZZ)/obj/%.o,$(LIB_SRCS))
	@rm -f $@
	$(AR) rcs $@ $^

$(FUZZ)/fuzz_%: $(FUZZ)/obj/tests/fuzz_%.o $(addprefix $(FUZZ)/obj/tests/,$(addsuffix .o,$(FUZZ_HELPERS))) \
		$(FUZZ)/libcsdump.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(HOST_LDLIBS)

-include $(wildcard $(FUZZ)/obj/*/*.d)

.PHONY: fuzz fuzz-build fuzz-seeds $(addprefix check-fuzz-,$(FUZZ_TARGETS))
fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
		tests/fuzz/run.sh $(FUZZ)/fuzz_$$t tests/fuzz/corpus/$$t $(FUZZ)/$$t $(FUZZ_SECONDS) \
			|| exit 1; \
	done

# Regenerate the committed seed corpora (needs the cross compiler).
fuzz-seeds:
	tests/fuzz/mkseeds.sh tests/fuzz/corpus

$(addprefix check-fuzz-,$(FUZZ_TARGETS)): check-fuzz-%: $(FUZZ)/fuzz_%
	@$(HARNESS) fuzz-$* tests/fuzz/run.sh $< tests/fuzz/corpus/$* $(FUZZ)/ci-$* \
		$(FUZZ_CI_SECONDS)

CHECKS += $(addprefix check-fuzz-,$(FUZZ_TARGETS))
