#!/usr/bin/env bash
# injected.sh ROOT EXT CSDUMP VMLINUX BASE WORK: extract.sh on a copy of the
# vmcore BASE whose registry inject.py replaced with records that exercise
# the edge cases (a wrapped circular buffer, a bad CRC, a sink that saved
# nothing, several sinks).  BASE is any vmcore of VMLINUX's kernel.
set -euo pipefail
root=$1 ext=$2 csdump=$3 vmlinux=$4 base=$5 work=$6
here=$(dirname "$0")
for f in "$vmlinux" "$base"; do
	[ -e "$f" ] || { echo "no $f (needs the kernel and a vmcore of it)"; exit 77; }
done
if [ "$vmlinux" -nt "$base" ]; then
	echo "$base is older than $vmlinux: a stale vmcore"
	exit 77
fi
mkdir -p "$work"
trap 'rm -f "$work/vmcore" "$work/vmcore.tmp"' EXIT
/usr/bin/python3 "$here/inject.py" "$base" "$work/vmcore"
"$here/extract.sh" "$root" "$ext" "$csdump" "$vmlinux" "$work/vmcore" "$work/out"
