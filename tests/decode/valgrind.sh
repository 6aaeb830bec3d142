#!/usr/bin/env bash
# valgrind.sh CSDUMP SNAPSHOT_DIR WORK: csdump decode, report and snapshot (the plain
# build, both threads of the pipelined decode) under valgrind memcheck: no
# invalid access, no uninitialised value used, no leak of csdump's own.
set -u
csdump=$1 snap=$2 work=$3
here=$(dirname "$0")
[ -d "$snap" ] || { echo "skip: $snap is absent"; exit 77; }
command -v valgrind >/dev/null || { echo "skip: valgrind not installed"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
"$here/../../bench/mksyms.py" "$work/syms.elf" 0xffffffc000080000 0xffffffc000800000 >/dev/null
vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,possible
    --suppressions="$here/valgrind.supp")
fails=0
run() {
	if "${vg[@]}" "$@" >"$work/out" 2>"$work/err"; then
		echo "ok: $*"
	else
		echo "FAIL: $*"
		grep -v ignored "$work/err" | tail -n 30
		fails=$((fails + 1))
	fi
}
run "$csdump" decode "$snap" --vmlinux "$work/syms.elf"
run "$csdump" decode "$snap" --vmlinux "$work/syms.elf" --format jsonl --last 0
run "$csdump" decode "$snap" --cpu 5 --last 0
run "$csdump" snapshot "$snap" -o "$work/snap"
# The views, the window and the report (issue 17).
run "$csdump" decode "$snap" --vmlinux "$work/syms.elf" --stack --functions --last 0
run "$csdump" decode "$snap" --vmlinux "$work/syms.elf" --stack --functions --format jsonl \
	--from 0xffffffc0000c5378
run "$csdump" report "$snap" --vmlinux "$work/syms.elf" -o "$work/report.html"
exit $((fails > 0))
