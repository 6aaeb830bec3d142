#!/usr/bin/env bash
# ete_limits.sh CSDUMP ETE_SNAPSHOT WORK: what csdump does not do with ETE
# input it says, in one line, and exits 2 (docs/csdump.md):
# - a copy of the snapshot whose trace unit lacks TRCDEVARCH (OpenCSD's ETE
#   decoder takes the ETE version from it) is not decoded with a guess;
# - `csdump perf` of the intact snapshot writes no perf.data with ETMv4
#   metadata for an ETE (perf's ETE block is not written yet).
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
fresh_work "$snap" "$work"
cp -r "$snap" "$work/snap"
chmod -R u+w "$work/snap"
ini=$(grep -l '^type=ETE' "$work/snap"/*.ini)
grep -q '^TRCDEVARCH=' "$ini" || { echo "FAIL: $ini has no TRCDEVARCH to take out"; exit 1; }
sed -i '/^TRCDEVARCH=/d' "$ini"
rc=0
"$csdump" decode "$work/snap" --format jsonl --last 0 >"$work/out" 2>"$work/err" || rc=$?
cat "$work/err"
[ "$rc" -eq 2 ] || { echo "FAIL: exit $rc, expected 2 (no usable input)"; exit 1; }
grep -q "$(basename "$ini"): trace source .* has no TRCDEVARCH" "$work/err" ||
	{ echo "FAIL: no line names the missing TRCDEVARCH"; exit 1; }
[ ! -s "$work/out" ] || { echo "FAIL: something was decoded"; exit 1; }
rc=0
"$csdump" perf "$snap" -o "$work/t.data" 2>"$work/perf.err" || rc=$?
cat "$work/perf.err"
[ "$rc" -eq 2 ] || { echo "FAIL: csdump perf exit $rc, expected 2"; exit 1; }
grep -q "CPU 0 traces with an ETE" "$work/perf.err" || { echo "FAIL: no line says why"; exit 1; }
[ ! -e "$work/t.data" ] || { echo "FAIL: csdump perf left a perf.data"; exit 1; }
echo "PASS: an ETE without TRCDEVARCH, and perf.data of an ETE, are refused"
