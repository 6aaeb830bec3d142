#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# unit-valgrind: the unit tests and csdump's own commands (plain build, not
# the sanitizer one) under valgrind memcheck: no invalid access, no leak.
# Usage: valgrind.sh HOST_DIR SUPPRESSIONS TRACES_DIR
set -u
host=$1 supp=$2 traces=$3
command -v valgrind >/dev/null || { echo "valgrind not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
vg=(valgrind -q --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite,possible --suppressions="$supp")
fails=0
run() {		# run EXPECTED_RC CMD...  (a test program may also skip: 77)
	local want=$1; shift
	"${vg[@]}" "$@" >"$work/out" 2>"$work/err"
	local rc=$?
	local ok=0
	[ "$rc" -eq "$want" ] && ok=1
	[ "$want" -eq 0 ] && [ "$rc" -eq 77 ] && ok=1
	if [ "$ok" -eq 0 ]; then
		echo "FAIL ($rc, expected $want): $*"; grep -v '^  \[lib\]' "$work/err" | tail -30
		fails=$((fails + 1))
	else
		echo "ok: ${*##*/}"
	fi
}
for t in "$host"/tests/test_*; do
	run 0 "$t" "$traces"
done
"$host"/tests/test_registry --write "$work" >/dev/null 2>&1
run 0 "$host/csdump" info "$work/good.vmcore"
run 5 "$host/csdump" info "$work/fields.vmcore"
run 0 "$host/csdump" extract "$work/good.vmcore" -o "$work/ex"
run 5 "$host/csdump" extract "$work/loop.vmcore" -o "$work/ex2"
run 3 "$host/csdump" extract "$work/noregistry.vmcore" -o "$work/ex3"
run 0 "$host/csdump" perf "$work/ex" -o "$work/p.data"
if [ -f "$traces/juno_r1_1/snapshot.ini" ]; then
	run 0 "$host/csdump" perf "$traces/juno_r1_1" -o "$work/j.data"
fi
echo "$fails failure(s)"
[ "$fails" -eq 0 ]
