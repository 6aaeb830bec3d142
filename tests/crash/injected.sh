#!/usr/bin/env bash
# injected.sh ROOT EXT CSDUMP VMLINUX BASE WORK: extract.sh on a copy of the
# vmcore BASE whose registry inject.py replaced with records that exercise
# the edge cases (a wrapped circular buffer, a bad CRC, a sink that saved
# nothing, several sinks).  BASE is any vmcore of VMLINUX's kernel.
set -euo pipefail
root=$1 ext=$2 csdump=$3 vmlinux=$4 base=$5 work=$6
here=$(dirname "$0")
. "$here/common.sh"
need_dump "$vmlinux" "$base"
mkdir -p "$work"
trap 'rm -f "$work/vmcore" "$work/vmcore.tmp"' EXIT
/usr/bin/python3 "$here/inject.py" "$base" "$work/vmcore"
"$here/extract.sh" "$root" "$ext" "$csdump" "$vmlinux" "$work/vmcore" "$work/out"
