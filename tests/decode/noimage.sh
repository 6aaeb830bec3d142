#!/usr/bin/env bash
# noimage.sh CSDUMP SNAPSHOT_DIR WORK: without a program image (a copy of the
# snapshot, under WORK, without its memory dump) csdump decode reports what
# the trace says -- per trace ID the same addresses the trace went to,
# exceptions, context and gaps as trc_pkt_lister on the same copy -- and
# exits 5 (partial), in JSON and in text (issue 17, defect 1).
set -u
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
need_snapshot "$snap"
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
cp -r "$snap" "$work/snap"
rm -f "$work/snap/kernel_dump.bin"
fail=0
lister_seq "$work/snap" "$work/oracle"
total=$(wc -l <"$work/oracle")
nacc=$(grep -c ' nacc ' "$work/oracle")
echo "trc_pkt_lister, no image: $total elements, $nacc addresses not in the image"
[ "$nacc" -gt 0 ] || { echo "FAIL: the oracle decoded no address"; exit 1; }

"$csdump" decode "$work/snap" --format jsonl --last 0 >"$work/out.jsonl" 2>"$work/err"; rc=$?
echo "csdump --format jsonl: exit $rc, $(wc -l <"$work/out.jsonl") lines"
[ "$rc" = 5 ] || { echo "FAIL: exit $rc, want 5 (partial: no program image)"; fail=1; }
grep -q 'no program image' "$work/err" || { echo "FAIL: no warning about the image"; fail=1; }
"$here/trace_seq.py" jsonl "$work/out.jsonl" >"$work/ours"
if ! diff -u "$work/oracle" "$work/ours" >"$work/diff"; then
	echo "FAIL: csdump differs from trc_pkt_lister (first differences):"
	head -n 12 "$work/diff"; fail=1
else
	echo "ok: the same $total elements as trc_pkt_lister"
fi

# Text: a report per CPU, not "no trace decoded"; exit 5.
"$csdump" decode "$work/snap" >"$work/out.txt" 2>/dev/null; rc=$?
[ "$rc" = 5 ] || { echo "FAIL: text: exit $rc, want 5"; fail=1; }
if grep -q 'no trace decoded' "$work/out.txt" || ! grep -q 'not in the image' "$work/out.txt"; then
	echo "FAIL: text report without the addresses:"; head -5 "$work/out.txt"; fail=1
else
	echo "ok: text: $(grep -c '^CPU ' "$work/out.txt") CPUs reported"
fi

exit $fail
