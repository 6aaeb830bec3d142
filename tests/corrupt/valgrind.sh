#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# corrupt-valgrind: the corrupt-input suite again, the plain build of csdump
# under valgrind memcheck (invalid accesses and leaks are errors, exit 99),
# one command per case (extract, perf, decode) to bound its time.
# Usage: valgrind.sh CSDUMP CORRUPT_GEN WORKDIR "VALGRIND ARGS..."
set -u
csdump=$1 gen=$2 work=$3 vg=$4
command -v valgrind >/dev/null || { echo "valgrind not installed"; exit 77; }
here=$(dirname "$0")
mkdir -p "$work"
suite() {	# SCRIPT
	CORRUPT_WRAP=$vg CORRUPT_ONE=1 CORRUPT_TIMEOUT=300 \
		"$here/$1.sh" "$csdump" "$gen" "$work/$1" >"$work/$1.log" 2>&1
}
# Two at a time (the machine has two cores): vmcore, and the others.
suite vmcore & pid=$!
rc=0
suite snapshot || rc=1
suite vmlinux || rc=1
wait $pid || rc=1
cat "$work"/vmcore.log "$work"/snapshot.log "$work"/vmlinux.log
exit $rc
