#!/usr/bin/env bash
# roundtrip.sh CSDUMP SNAPSHOT_DIR WORK: `csdump snapshot` of a snapshot,
# decoded by trc_pkt_lister, gives the same elements per trace ID as
# trc_pkt_lister's decode of the original.
set -eu
csdump=$1 snap=$2 work=$3
here=$(dirname "$0")
[ -d "$snap" ] || { echo "skip: $snap is absent"; exit 77; }
command -v trc_pkt_lister >/dev/null || { echo "skip: trc_pkt_lister not installed"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
"$csdump" snapshot "$snap" -o "$work/snap"
ls "$work/snap"
(cd "$work" && trc_pkt_lister -ss_dir "$snap" -decode -logfilename orig.ppl >/dev/null)
(cd "$work" && trc_pkt_lister -ss_dir "$work/snap" -decode -logfilename copy.ppl >/dev/null)
"$here/trace_seq.py" ppl "$work/orig.ppl" >"$work/orig.seq"
"$here/trace_seq.py" ppl "$work/copy.ppl" >"$work/copy.seq"
n=$(grep -c ' range ' "$work/orig.seq" || true)
echo "original: $(wc -l <"$work/orig.seq") elements, $n ranges"
[ "$n" -gt 0 ] || { echo "FAIL: the original decodes to no ranges"; exit 1; }
if ! diff -u "$work/orig.seq" "$work/copy.seq" >"$work/diff"; then
	echo "FAIL: trc_pkt_lister decodes csdump's snapshot differently:"
	head -n 20 "$work/diff"
	exit 1
fi
echo "csdump's snapshot decodes to the same $(wc -l <"$work/copy.seq") elements"
