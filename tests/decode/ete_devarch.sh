#!/usr/bin/env bash
# ete_devarch.sh CSDUMP ETE_SNAPSHOT WORK: a copy of an ETE snapshot whose
# trace unit lacks TRCDEVARCH (OpenCSD's ETE decoder and perf's ETE block
# take the ETE version from it) is refused: the .ini is named in one line,
# and csdump exits 2 (no usable input, docs/csdump.md) rather than guess.
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
echo "PASS: an ETE without TRCDEVARCH is refused"
