#!/usr/bin/env bash
# help.sh ROOT EXT VMLINUX VMCORE: in crash, `extend EXT` loads the
# extension, `help csdump` prints its help page, and `csdump` with a bad
# command line prints the synopsis.
set -euo pipefail
root=$1 ext=$2 vmlinux=$3 vmcore=$4
here=$(dirname "$0")
. "$here/common.sh"
need_dump "$vmlinux" "$vmcore"

cmds=$(mktemp) out=$(mktemp)
trap 'rm -f "$cmds" "$out"' EXIT
cat >"$cmds" <<CMDS
extend $(readlink -f "$ext")
help csdump
csdump
csdump -i extra
CMDS
"$here/crash.sh" "$root" "$vmlinux" "$vmcore" "$cmds" >"$out" 2>&1 || true
cat "$out"

fail=0
expect() {
	if ! grep -qE -- "$1" "$out"; then
		echo "help: missing from crash's output: $2"
		fail=1
	fi
}
expect "csdump\.so: shared object loaded" "extend's confirmation"
expect "^NAME" "the help page's NAME section"
expect "^  csdump - extract CoreSight trace saved at panic" "the one-line summary"
expect "^SYNOPSIS" "the SYNOPSIS section"
expect "^  csdump \[-i\] \[OUTDIR\]" "the synopsis"
expect "^DESCRIPTION" "the DESCRIPTION section"
expect "  -i  list the registry's records" "the -i option"
# cmd_usage(SYNOPSIS) for `csdump` and `csdump -i extra`
n=$(grep -c '^Usage:' "$out" || true)
[ "$n" -eq 2 ] || { echo "help: expected 2 usage messages for bad command lines, got $n"; fail=1; }
exit $fail
