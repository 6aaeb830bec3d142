#!/usr/bin/env bash
# oracle.sh CSDUMP TRACE_DIR WORK: csdump's decode of an OpenCSD snapshot gives,
# per trace ID, the same ranges (start, end, count), accesses outside the image
# and exceptions as trc_pkt_lister, OpenCSD's own reference decoder.
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
need_snapshot "$snap"
mkdir -p "$work"
name=$(basename "$snap")

lister_seq "$snap" "$work/$name.oracle"

"$csdump" decode "$snap" --format jsonl --last 0 >"$work/$name.jsonl"
"$here/trace_seq.py" jsonl "$work/$name.jsonl" >"$work/$name.ours"

ranges=$(grep -c ' range ' "$work/$name.oracle" || true)
total=$(wc -l <"$work/$name.oracle")
echo "$name: trc_pkt_lister: $total elements, $ranges ranges"
if [ "$total" -eq 0 ]; then
	echo "FAIL: the oracle decoded nothing; the comparison would be empty"
	exit 1
fi
if ! diff -u "$work/$name.oracle" "$work/$name.ours" >"$work/$name.diff"; then
	echo "FAIL: csdump differs from trc_pkt_lister (first differences):"
	head -n 20 "$work/$name.diff"
	exit 1
fi
echo "$name: csdump gives the same $total elements"
