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
