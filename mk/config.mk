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

# libcsdump's sources: every src/*.c but the CLI (src/cli*.c, src/main.c), the
# crash extension (src/crash*.c) and benchmarks, so a new module joins by
# being added.  Every build of the library (host, sanitizer, fuzz) uses this.
LIB_SRCS := $(filter-out src/cli%.c src/main.c src/crash%.c src/bench%.c,$(wildcard src/*.c))
