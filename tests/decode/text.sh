#!/usr/bin/env bash
# text.sh CSDUMP SNAPSHOT_DIR WORK: the default text report (--last 20, and
# --last 0) shows, per CPU, the newest ranges that trc_pkt_lister decodes.
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
need_snapshot "$snap"
mkdir -p "$work"
lister_seq "$snap" "$work/text.oracle"
for last in 20 3 0; do
	if [ $last = 20 ]; then
		"$csdump" decode "$snap" >"$work/text.$last"
	else
		"$csdump" decode "$snap" --last $last >"$work/text.$last"
	fi
	echo "--last $last:"
	"$here/text.py" "$work/text.oracle" "$work/text.$last" $last
done
