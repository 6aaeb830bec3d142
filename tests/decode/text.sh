#!/usr/bin/env bash
# text.sh CSDUMP SNAPSHOT_DIR WORK: the default text report (--last 20, and
# --last 0) shows, per CPU, the newest ranges that trc_pkt_lister decodes.
set -eu
csdump=$1 snap=$2 work=$3
here=$(dirname "$0")
[ -d "$snap" ] || { echo "skip: $snap is absent"; exit 77; }
command -v trc_pkt_lister >/dev/null || { echo "skip: trc_pkt_lister not installed"; exit 77; }
mkdir -p "$work"
rm -f "$work/text.ppl"
(cd "$work" && trc_pkt_lister -ss_dir "$snap" -decode -logfilename text.ppl >/dev/null)
"$here/trace_seq.py" ppl "$work/text.ppl" >"$work/text.oracle"
for last in 20 3 0; do
	if [ $last = 20 ]; then
		"$csdump" decode "$snap" >"$work/text.$last"
	else
		"$csdump" decode "$snap" --last $last >"$work/text.$last"
	fi
	echo "--last $last:"
	"$here/text.py" "$work/text.oracle" "$work/text.$last" $last
done
