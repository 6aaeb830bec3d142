#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# e2e-ktext-NAME: the extract of a real vmcore decodes as the vmcore (issue
# 17, defect 3).  `csdump extract --vmlinux` keeps the kernel text as it ran
# (kernel-text.bin); the decode of the extract, JSON lines and text, must be
# byte for byte the vmcore's, whose text the kernel patched (alternatives,
# static keys).  Also said: whether an extract without it decodes
# differently (the demo's trace runs through patched code; sysrq's, the Juno
# capture, does not).
# Usage: extract_text.sh CSDUMP VMCORE VMLINUX WORKDIR
set -u
csdump=$1 vmcore=$2 vmlinux=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
status=0
"$csdump" extract "$vmcore" -o "$work/x" --vmlinux "$vmlinux" >/dev/null 2>"$work/x.err" ||
	{ echo "FAIL  extract --vmlinux"; cat "$work/x.err"; exit 1; }
"$csdump" extract "$vmcore" -o "$work/plain" >/dev/null 2>&1 ||
	{ echo "FAIL  extract"; exit 1; }
[ -s "$work/x/kernel-text.bin" ] || { echo "FAIL  no kernel-text.bin"; status=1; }
for fmt in jsonl text; do
	"$csdump" decode "$vmcore" --vmlinux "$vmlinux" --format $fmt --last 0 >"$work/vmcore.$fmt" 2>/dev/null
	"$csdump" decode "$work/x" --vmlinux "$vmlinux" --format $fmt --last 0 >"$work/x.$fmt" 2>/dev/null
	"$csdump" decode "$work/plain" --vmlinux "$vmlinux" --format $fmt --last 0 >"$work/plain.$fmt" 2>/dev/null
	if [ -s "$work/vmcore.$fmt" ] && cmp -s "$work/vmcore.$fmt" "$work/x.$fmt"; then
		echo "ok    $fmt: the extract decodes as the vmcore ($(wc -l <"$work/x.$fmt") lines)"
	else
		echo "FAIL  $fmt: the extract decodes differently from the vmcore"
		diff "$work/vmcore.$fmt" "$work/x.$fmt" | head -n 6; status=1
	fi
	cmp -s "$work/vmcore.$fmt" "$work/plain.$fmt" &&
		echo "note  $fmt: without kernel-text.bin the extract decodes the same" ||
		echo "note  $fmt: without kernel-text.bin the extract decodes differently ($(diff "$work/vmcore.$fmt" "$work/plain.$fmt" | grep -c '^[<>]') lines differ)"
done
exit $status
