#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# corrupt-snapshot: csdump perf and csdump snapshot on OpenCSD snapshot
# directories with missing files, bad ini syntax and memory dumps shorter
# than they claim.
#
# The good snapshot is written here by hand from the snapshot format (not by
# csdump): one ETMv4 (trace ID 0x10) feeding one ETB whose buffer is the
# trace of corrupt_gen's good vmcore, one core with a 256-byte memory dump.
# What survives is checked against the input bytes: the trace buffer that
# `csdump snapshot` writes back, and the .text of the memory image that
# `csdump perf` writes (read by objcopy).  Unusable parts of a snapshot are
# reported in a warning naming the file and skipped (exit 0 if a trace and
# its ETM remain); without them the exit is 2 with one error line.
# Usage: snapshot.sh CSDUMP CORRUPT_GEN WORKDIR   (CORRUPT_WRAP: e.g. valgrind)
csdump=$1 gen=$2 work=$3
. "$(dirname "$0")/common.sh"
rm -rf "$work"
mkdir -p "$work/gen"
"$gen" "$work/gen" --good-only || { echo "corrupt_gen failed"; exit 1; }
trace=$work/gen/good.expect/cstrace.bin
objcopy=aarch64-linux-gnu-objcopy
command -v $objcopy >/dev/null || { echo "no $objcopy (binutils-aarch64-linux-gnu)"; exit 77; }
# A file the snapshot names but cannot be read is reported where it is read
# (one error line) and again where the snapshot gives up (a second one).
max_errors=2

. "$(dirname "$0")/goodsnap.sh"

# check NAME RC REGEX DUMP EDIT: a good snapshot, the shell command EDIT run
# in it, then csdump perf and csdump snapshot on it.  DUMP (yes/no): whether
# the memory dump survives into perf's memory image.
check() {
	local name=$1 want=$2 re=$3 dump=$4 edit=$5 d=$work/$1
	good_snapshot "$d" "$trace" "$work/gen/good.vmcore"
	(cd "$d" && eval "$edit") || { fail "$name: cannot build the case"; return; }
	run "$name.perf" "$csdump" perf "$d" -o "$work/$name.data"
	verdict "$name.perf" "$want" "$re"
	[ -n "${CORRUPT_ONE:-}" ] && return	# valgrind: csdump perf only
	run "$name.snap" "$csdump" snapshot "$d" -o "$work/$name.out"
	verdict "$name.snap" "$want" "$re"
	if [ "$want" -ne 0 ]; then
		[ -e "$work/$name.data" ] && fail "$name: perf failed but wrote perf.data"
		[ -e "$work/$name.data.elf" ] && fail "$name: perf failed but wrote an image"
		[ -e "$work/$name.out" ] && fail "$name: snapshot failed but wrote $name.out"
		return
	fi
	[ -s "$work/$name.data" ] || fail "$name: no perf.data"
	# The trace buffer comes back byte for byte.
	local f found=0
	for f in "$work/$name.out"/*.bin; do
		cmp -s "$f" "$trace" && found=1
	done
	[ $found -eq 1 ] || fail "$name: the trace buffer did not come back intact"
	if [ "$dump" = yes ]; then
		$objcopy -O binary --only-section=.text "$work/$name.data.elf" "$work/$name.text" &&
			cmp -s "$work/$name.text" "$d/mem.bin" ||
			fail "$name: the memory image does not hold mem.bin"
	else
		[ -e "$work/$name.data.elf" ] && fail "$name: a memory image without a usable dump"
	fi
}

check snap-good 0 - yes true
# missing files
check snap-no-trace-ini 2 'trace.ini' no 'rm trace.ini'
check snap-no-device-ini 2 'etm_0.ini' no 'rm etm_0.ini'
check snap-no-buffer 2 'cstrace.bin' no 'rm cstrace.bin'
check snap-no-dump 0 'mem.bin' no 'rm mem.bin'
check snap-no-snapshot-ini 2 'snap-no-snapshot-ini' no 'rm snapshot.ini'
# bad ini syntax
check snap-version 2 'version is 2.0, expected 1.0' no \
	'sed -i "s/^version=1.0/version=2.0/" snapshot.ini'
check snap-empty-ini 2 'version is missing' no ': >snapshot.ini'
check snap-bad-line 0 'snapshot.ini:3: expected key=value' yes \
	'sed -i "3i this line has no equals sign" snapshot.ini'
check snap-unclosed-section 2 "etm_0.ini:1: section header without '\]'" no \
	'sed -i "1s/.*/[device/" etm_0.ini'
check snap-nul 2 'trace.ini: contains NUL bytes' no 'printf "x\0y\n" >>trace.ini'
check snap-binary-ini 2 'etm_0.ini' no 'head -c 4096 /dev/urandom >etm_0.ini'
check snap-bad-reg 2 'TRCTRACEIDR=0xZZ is not a number' no \
	'sed -i "s/^TRCTRACEIDR.*/TRCTRACEIDR=0xZZ/" etm_0.ini'
check snap-no-reg 2 'has no TRCIDR0' no 'sed -i "/^TRCIDR0/d" etm_0.ini'
check snap-bad-format 2 'format "raw"' no 'sed -i "s/^format=.*/format=raw/" trace.ini'
check snap-no-buffers 2 'no \[trace_buffers\] buffers=' no 'sed -i "/^buffers=/d" trace.ini'
check snap-self-device 0 'no \[device\] name' yes \
	'sed -i "/^device1=/a device2=snapshot.ini" snapshot.ini'
check snap-same-trace-id 0 'trace ID 0x10 of ETM_1 already used' yes \
	'sed "s/ETM_0/ETM_1/" etm_0.ini >etm_1.ini &&
	 sed -i "/^device1=/a device2=etm_1.ini" snapshot.ini'
# memory dumps shorter than they claim, or nowhere
check snap-dump-short 0 'mem.bin is 256 bytes, cannot hold 65536 bytes at offset 0' no \
	'sed -i "s/^length=.*/length=0x10000/" cpu_0.ini'
check snap-dump-offset 0 'mem.bin is 256 bytes, cannot hold' no 'echo offset=0x1000 >>cpu_0.ini'
check snap-dump-wraps 0 'mem.bin is 256 bytes, cannot hold' no \
	'sed -i "s/^address=.*/address=0xffffffffffffff80/" cpu_0.ini'
check snap-dump-bad-address 0 'dump1\] needs file=, address=' no \
	'sed -i "s/^address=.*/address=here/" cpu_0.ini'
no_leftovers "$work"
echo "$cases checks, $fails failure(s)"
[ "$fails" -eq 0 ]
