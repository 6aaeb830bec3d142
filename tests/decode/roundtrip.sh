#!/usr/bin/env bash
# roundtrip.sh CSDUMP SNAPSHOT_DIR WORK: `csdump snapshot` of a snapshot,
# decoded by trc_pkt_lister, gives the same elements per trace ID as
# trc_pkt_lister's decode of the original.
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
fresh_work "$snap" "$work"
"$csdump" snapshot "$snap" -o "$work/snap"
ls "$work/snap"
lister_seq "$snap" "$work/orig.seq"
lister_seq "$work/snap" "$work/copy.seq"
n=$(grep -c ' range ' "$work/orig.seq" || true)
echo "original: $(wc -l <"$work/orig.seq") elements, $n ranges"
[ "$n" -gt 0 ] || { echo "FAIL: the original decodes to no ranges"; exit 1; }
if ! diff -u "$work/orig.seq" "$work/copy.seq" >"$work/diff"; then
	echo "FAIL: trc_pkt_lister decodes csdump's snapshot differently:"
	head -n 20 "$work/diff"
	exit 1
fi
echo "csdump's snapshot decodes to the same $(wc -l <"$work/copy.seq") elements"
