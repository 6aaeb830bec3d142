#!/usr/bin/env bash
# crash.sh ROOT VMLINUX VMCORE CMDFILE: run the arm64 crash of ROOT (see
# scripts/crash-arm64-env.sh) under qemu-user on VMLINUX + VMCORE, execute
# the crash commands in CMDFILE, then quit.  crash's output goes to stdout.
set -euo pipefail
root=$1 vmlinux=$2 vmcore=$3 cmds=$4
qemu=${QEMU_AARCH64:-qemu-aarch64-static}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cat "$cmds" >"$tmp"
echo quit >>"$tmp"
# -s: no banner; --no_crashrc: nothing from the user's ~/.crashrc.
"$qemu" -L "$root" "$root/usr/bin/crash" -s --no_crashrc -i "$tmp" \
	"$vmlinux" "$vmcore" </dev/null
