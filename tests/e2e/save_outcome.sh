#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# e2e-outcome-NAME: what csdump says of a trace record the kernel did not
# save (a fault scenario's FAILED sink, nopost's save that never ran), on the
# vmcore the real kernel wrote.
#
# The oracle for the flags is the ABI-only walker (vmcore_registry.py), not
# csdump; the words each flag combination must give are docs/csdump.md's,
# written out here.  Checked: `csdump info` lists the record with its flag
# names and those words; `csdump extract` exits 4 (nothing saved: every
# scenario here has one sink), prints exactly one stderr line per unsaved
# trace record, naming it, with the words, and writes no directory.
# Usage: save_outcome.sh CSDUMP VMCORE WORKDIR
set -u
csdump=$1 vmcore=$2 work=$3
here=$(dirname "$0")
rm -rf "$work"
mkdir -p "$work"
status=0
fail() { echo "FAIL  $*"; status=1; }
ok() { echo "ok    $*"; }

python3 "$here/vmcore_registry.py" "$vmcore" --json "$work/records.json" >"$work/walk.txt" ||
	{ cat "$work/walk.txt"; echo "FAIL  the ABI walker could not read $vmcore"; exit 1; }
flags_defined=$(strings -n 8 "$vmcore" | sed -n 's/^NUMBER(CORESIGHT_KDUMP_FLAGS)=//p' | head -1)
# name flags (hex), one line per trace record without SAVED or with FLUSH_TIMEOUT.
python3 - "$work/records.json" >"$work/expect.txt" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1])):
    if r["kind"] == 1 and (not r["flags"] & 1 or r["flags"] & 0x40):
        print(r["name"], hex(r["flags"]), "0x%x" % r["addr"])
PY
[ -s "$work/expect.txt" ] || fail "the walker found no unsaved trace record"

words() {	# FLAGS -> what csdump must say (docs/csdump.md)
	local f=$(($1))
	if ((f & 0x10)); then
		if ((f & 0x20)); then echo "save failed: the sink faulted at panic, its trace is not in the dump"
		elif ((f & 0x40)); then echo "save failed: the sink did not confirm it stopped, its trace is not in the dump"
		else echo "save failed: the sink's panic save gave up or returned an error, its trace is not in the dump"
		fi
	elif ((f & 1)); then echo "flush timed out: the last bytes may be missing"
	elif [ -n "$flags_defined" ]; then
		echo "not saved: the panic save did not run (crash_kexec_post_notifiers not set? the kernel needs it on its command line)"
	else echo "not saved (this kernel does not record why)"
	fi
}

rc=0
"$csdump" info "$vmcore" >"$work/info.out" 2>"$work/info.err" || rc=$?
[ "$rc" -eq 4 ] || fail "info: exit $rc, expected 4"
rc=0
"$csdump" extract "$vmcore" -o "$work/extract" >"$work/extract.out" 2>"$work/extract.err" || rc=$?
[ "$rc" -eq 4 ] || fail "extract: exit $rc, expected 4 (nothing saved)"
[ -e "$work/extract" ] && fail "extract: exit $rc but $work/extract was written"
n_unsaved=0
while read -r name flags addr; do
	w=$(words "$flags")
	n_unsaved=$((n_unsaved + 1))
	grep -F -- "$name" "$work/info.out" | grep -qF -- "  $w" &&
		ok "info: $name (flags $flags): $w" || fail "info: no line for $name with '$w'"
	n=$(grep -cF -- "$name (record at $addr): $w" "$work/extract.err")
	[ "$n" -eq 1 ] && ok "extract: $name (flags $flags): one line: $w" ||
		fail "extract: $n lines for $name with '$w'"
done <"$work/expect.txt"
# One line per unsaved record, and the one error of exit 4.
n=$(grep -c '^csdump: warning: ' "$work/extract.err")
[ "$n" -eq "$n_unsaved" ] || fail "extract: $n warnings for $n_unsaved unsaved record(s)"
grep -q '^csdump: error: .*holds no saved trace' "$work/extract.err" ||
	fail "extract: no 'holds no saved trace' error"
[ "$status" -eq 0 ] || { sed 's/^/    /' "$work/info.out" "$work/extract.err"; }
exit $status
