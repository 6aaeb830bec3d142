# Shared configuration for every fragment.
BUILD   ?= build
RESULTS := $(BUILD)/results
LOGS    := $(BUILD)/logs
SHARED  ?= ../shared
PREFIX  ?= /usr/local
DESTDIR ?=

CC      ?= cc
CSTD    := -std=c11 -D_GNU_SOURCE
WARN    := -Wall -Wextra -Werror
CFLAGS  ?= -O2 -g
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# tests/harness.sh NAME CMD...: runs one test, records pass/fail under $(RESULTS).
HARNESS := tests/harness.sh $(RESULTS) $(LOGS)

# Disk: a QEMU scenario leaves 60 to 500 MB (vmcore, the models' record,
# the decode), and make check runs about 60; a CI machine ran out of space
# with all of them kept (2026-12-07).  Under make check (CSDUMP_CHECK=1)
# with CSDUMP_PRUNE=1, a fragment names, per scenario, a goal prune-NAME
# that depends on every check that reads its outputs and removes them
# (tests/prune.sh: only when each of those passed); and
#   $(call prune_chain,FIRSTS,PRUNES)
# makes the scenario that starts with the i-th target of FIRSTS wait
# (order-only) for the (i-2)-th of PRUNES, so that a fragment has about two
# scenarios' outputs at a time.  Without make check, nothing waits.
# $(call prune_tail,PRUNES): the last two, which no run waits for: the goals
# a fragment adds to CHECKS (make check reaches the others through the runs).
# $(call prune_goal,NAME,READERS,PATHS): prune-NAME, after check-READER for
# each READER (a test's name), removes PATHS.
PRUNE = $(if $(filter 1,$(CSDUMP_PRUNE)),tests/prune.sh $(RESULTS),:)
define prune_goal
.PHONY: prune-$(1)
prune-$(1): $(addprefix check-,$(2))
	@$$(PRUNE) "$(strip $(2))" $(strip $(3))
endef
prune_pairs = $(join $(addsuffix :|,$(wordlist 3,$(words $(1)),$(1))), \
	$(wordlist 1,$(words $(wordlist 3,$(words $(1)),$(1))),$(2)))
prune_tail = $(wordlist $(words $(wordlist 2,$(words $(1)),$(1))),$(words $(1)),$(1))
prune_chain = $(if $(and $(filter 1,$(CSDUMP_CHECK)),$(filter 1,$(CSDUMP_PRUNE))), \
	$(foreach p,$(call prune_pairs,$(1),$(2)),$(eval $(subst :|,: | ,$(p)))))

# Install missing Debian packages once per build tree (the script is idempotent;
# the stamp only saves a dpkg query on every make).
DEPS_STAMP := $(BUILD)/.deps-ok
$(DEPS_STAMP): scripts/install-deps.sh
	@mkdir -p $(BUILD)
	@scripts/install-deps.sh
	@touch $@

# libcsdump's sources, by layer (one folder each, docs/design.md):
#   src/core    memory source, registry walk, dump model, extract and perf.data
#               writers: no libkdumpfile, libelf or OpenCSD (the crash
#               extension links exactly this folder)
#   src/vmcore  the memory source over libkdumpfile
#   src/format  snapshot directories in and out, the ELF of memory dumps, input
#   src/decode  the decoder (OpenCSD), program image, symbols, rendering
# The CLI (src/cli) and the crash extension (src/crash) are not library.  A
# new module joins its layer by being added; every build of the library
# (host, sanitizer, fuzz) uses these.
CORE_SRCS := $(wildcard src/core/*.c)
LIB_DIRS  := core vmcore format decode
LIB_SRCS  := $(wildcard $(patsubst %,src/%/*.c,$(LIB_DIRS)))
CLI_SRCS  := $(wildcard src/cli/*.c)
CRASH_SRCS := $(wildcard src/crash/*.c)
