#!/usr/bin/env bash
# extract.sh ROOT EXT CSDUMP VMLINUX VMCORE WORK: inside crash (the arm64
# crash of ROOT under qemu-user, on VMLINUX + VMCORE), `extend EXT` then
# `csdump WORK/crash` must write the same files, byte for byte, as the CLI's
# `csdump extract VMCORE -o WORK/cli`, and `csdump -i` must print what
# `csdump info VMCORE` prints.  The CLI reads the vmcore through
# libkdumpfile, the extension through crash's readmem(): two independent
# memory sources under one library.
set -euo pipefail
root=$1 ext=$2 csdump=$3 vmlinux=$4 vmcore=$5 work=$6
here=$(dirname "$0")
. "$here/common.sh"
need_dump "$vmlinux" "$vmcore"

rm -rf "$work"
mkdir -p "$work"
work=$(readlink -f "$work")

# The oracle: the CLI on the same vmcore.
rc=0
"$csdump" extract "$vmcore" -o "$work/cli" || rc=$?
"$csdump" info "$vmcore" >"$work/cli-info.txt" 2>"$work/cli-info.err" || true
# 0, or 5 (some records bad, the intact ones extracted)
if [ "$rc" -ne 0 ] && [ "$rc" -ne 5 ]; then
	echo "extract: csdump extract exited $rc: no trace to compare against"
	exit 1
fi
for f in cstrace.bin metadata.bin perf.data summary.txt; do
	[ -s "$work/cli/$f" ] || { echo "extract: the CLI wrote no $f"; exit 1; }
done

cat >"$work/cmds" <<CMDS
extend $(readlink -f "$ext")
csdump $work/crash
csdump -i > $work/crash-info.txt
CMDS
start=$(date +%s)
"$here/crash.sh" "$root" "$vmlinux" "$vmcore" "$work/cmds" >"$work/crash.log" 2>&1 || true
echo "crash session: $(( $(date +%s) - start )) s"
cat "$work/crash.log"

fail=0
if ! diff -r "$work/cli" "$work/crash"; then
	echo "extract: the extension's files differ from csdump extract's"
	fail=1
fi
# In crash, the library's warnings come through error() into the same
# output, as "WARNING: ..."; the CLI writes "csdump: warning: ..." to stderr.
# The listing and the warnings must each be the same.
grep -v '^WARNING: ' "$work/crash-info.txt" >"$work/crash-info.list" || true
sed -n 's/^WARNING: //p' "$work/crash-info.txt" >"$work/crash-info.warn"
sed -n 's/^csdump: warning: //p' "$work/cli-info.err" >"$work/cli-info.warn"
if ! diff -u "$work/cli-info.txt" "$work/crash-info.list"; then
	echo "extract: csdump -i differs from csdump info"
	fail=1
fi
if ! diff -u "$work/cli-info.warn" "$work/crash-info.warn"; then
	echo "extract: csdump -i warns differently from csdump info"
	fail=1
fi
[ "$fail" -eq 0 ] || exit 1
echo "extract: identical: $(cd "$work/cli" && ls | tr '\n' ' ')"
echo "extract: csdump -i lists the same $(($(wc -l <"$work/cli-info.txt") - 2)) record(s) as csdump info, with the same $(wc -l <"$work/cli-info.warn") warning(s)"
