#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# unit-cli-vmcore: csdump info / extract / perf on vmcores from vmcoregen
# (written by test_registry --write): exit codes as documented, the files
# extract writes, and perf's own reading of the perf.data (perf script -D
# prints the AUXTRACE_INFO it parsed: header, per-CPU magic, CPU, trace ID).
# Usage: cli_vmcore.sh CSDUMP TEST_REGISTRY
set -u
csdump=$1 gen=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

expect_rc() {	# expect_rc RC CMD...
	local want=$1; shift
	"$@" >"$work/out" 2>"$work/err"
	local rc=$?
	[ "$rc" -eq "$want" ] || { fail "$* exited $rc, expected $want"; cat "$work/out" "$work/err"; }
}

"$gen" --write "$work" >/dev/null 2>&1 || { echo "generator failed"; exit 1; }

expect_rc 1 "$csdump"
expect_rc 1 "$csdump" bogus
expect_rc 0 "$csdump" --help
grep -q "exit status" "$work/out" || fail "--help lacks the exit codes"
expect_rc 1 "$csdump" extract "$work/good.vmcore"
expect_rc 2 "$csdump" info "$work/missing.vmcore"
expect_rc 2 "$csdump" info "$work/junk"
expect_rc 3 "$csdump" info "$work/noregistry.vmcore"
expect_rc 3 "$csdump" extract "$work/noregistry.vmcore" -o "$work/x"
expect_rc 4 "$csdump" info "$work/notrace.vmcore"
expect_rc 4 "$csdump" extract "$work/notrace.vmcore" -o "$work/x"
expect_rc 5 "$csdump" info "$work/badcrc.vmcore"
grep -q "tmc_etf0.*bad" "$work/out" || fail "info does not flag the bad CRC"
expect_rc 5 "$csdump" extract "$work/badcrc.vmcore" -o "$work/bad"
[ -s "$work/bad/cstrace.bin" ] || fail "intact sink not extracted from badcrc"

expect_rc 0 "$csdump" info "$work/good.vmcore"
[ "$(grep -c ' ok' "$work/out")" -eq 3 ] || fail "info: expected 3 records with CRC ok"
expect_rc 0 "$csdump" extract "$work/good.vmcore" -o "$work/ex"
for f in cstrace.bin metadata.bin perf.data summary.txt; do
	[ -s "$work/ex/$f" ] || fail "extract did not write $f"
done
[ "$(stat -c %s "$work/ex/cstrace.bin")" -eq 2048 ] || fail "cstrace.bin size"
[ "$(stat -c %s "$work/ex/metadata.bin")" -eq 160 ] || fail "metadata.bin: 2 x 80 bytes"
ls "$work/ex" | grep -q tmp && fail "temporary files left in the output"

# perf itself parses what we wrote.
if command -v perf >/dev/null; then
	perf script -i "$work/ex/perf.data" -D >"$work/dump" 2>&1
	grep -q "PERF_RECORD_AUXTRACE_INFO" "$work/dump" || fail "perf sees no AUXTRACE_INFO"
	[ "$(grep -c 'Magic number.*4040404040404040' "$work/dump")" -eq 2 ] ||
		fail "perf does not see two ETMv4 blocks"
	grep -q "TRCTRACEIDR.*11" "$work/dump" || fail "perf does not see trace ID 0x11"
	grep -q "PERF_RECORD_MMAP.*\[kernel.kallsyms\]_stext" "$work/dump" ||
		fail "no kernel MMAP relocated by _stext"
	grep -q "PERF_RECORD_AUXTRACE size" "$work/dump" || fail "perf sees no AUXTRACE data"
fi

# makedumpfile's compressed format gives the same extract.
expect_rc 0 "$csdump" extract "$work/good.kdump" -o "$work/exk"
for f in cstrace.bin metadata.bin perf.data; do
	cmp -s "$work/ex/$f" "$work/exk/$f" || fail "$f differs between ELF and compressed vmcore"
done

# The extract directory is itself an input.
expect_rc 0 "$csdump" perf "$work/ex" -o "$work/again.data"
cmp -s "$work/ex/perf.data" "$work/again.data" || fail "perf.data from the extract directory differs"

# A failed output leaves no temporary file and no partial perf.data.
mkdir -p "$work/ro/perf.data"
expect_rc 2 "$csdump" extract "$work/good.vmcore" -o "$work/ro"
ls -a "$work/ro" | grep -q tmp && fail "temporary file left after a failed write"

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
