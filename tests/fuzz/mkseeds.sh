#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mkseeds.sh DIR: write the fuzzers' seed corpora into DIR/TARGET (the
# committed tests/fuzz/corpus; `make fuzz-seeds`).  Small by design:
#   registry, vmcoreinfo  a good registry image and its VMCOREINFO (seeds.c)
#   snapshot              the corrupt suite's good snapshot (goodsnap.sh),
#                         its files joined by "%%" lines as fuzz_snapshot reads
#   elf                   a tiny AArch64 executable, stripped and not, and an
#                         object file, from the cross compiler
set -eu
out=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"/registry "$out"/vmcoreinfo "$out"/snapshot "$out"/elf
cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$here" -I"$here/../../src" \
	-o "$work/seeds" "$here/seeds.c" "$here/fakemem.c" -lz
"$work/seeds" "$out"

# snapshot: 256 bytes of formatted frames (ID 0x10) as the trace.
python3 -c "
import sys
sys.stdout.buffer.write(bytes(0x21 if i % 16 == 0 else (i * 37) & 0xfe for i in range(256)))" \
	>"$work/trace.bin"
. "$here/../corrupt/goodsnap.sh"
good_snapshot "$work/snap" "$work/trace.bin" "$work/trace.bin"
{
	for f in snapshot.ini trace.ini etm_0.ini cpu_0.ini cstrace.bin; do
		cat "$work/snap/$f"; printf '\n%%%%\n'
	done
	cat "$work/snap/mem.bin"
} >"$out/snapshot/good"

# elf
cat >"$work/tiny.c" <<'C'
int counter;
void start(void);
static void tick(void) { counter++; }
void start(void) { for (;;) tick(); }
C
xcc=aarch64-linux-gnu-gcc
$xcc -O1 -nostdlib -static -e start -Wl,-z,max-page-size=4096 -Wl,--build-id=none \
	-o "$out/elf/arm64" "$work/tiny.c"
$xcc -O1 -nostdlib -static -e start -Wl,-z,max-page-size=4096 -Wl,--build-id=none -s \
	-o "$out/elf/arm64-stripped" "$work/tiny.c"
$xcc -O1 -c -o "$out/elf/arm64.o" "$work/tiny.c"
du -sh "$out"/*
