#!/usr/bin/env bash
# pipe.sh CSDUMP SNAPSHOT_DIR WORK: a reader that closes the output early
# (`csdump decode ... | head -1`) is a normal end of output: exit 0, no
# "decoder crashed", no decode again "to find the damage" (issue 17, defect 2).
set -eu
csdump=$1 snap=$2 work=$3
[ -d "$snap" ] || { echo "skip: $snap is absent"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
fail=0
for fmt in jsonl text; do
	set +e
	"$csdump" decode "$snap" --format $fmt --last 0 2>"$work/err.$fmt" | head -1 >"$work/out.$fmt"
	rc=${PIPESTATUS[0]}
	set -e
	echo "--format $fmt | head -1: exit $rc, first line: $(cut -c1-60 "$work/out.$fmt")"
	if [ ! -s "$work/out.$fmt" ]; then
		echo "FAIL: --format $fmt: no first line"; fail=1
	fi
	if [ "$rc" != 0 ]; then
		echo "FAIL: --format $fmt: exit $rc, want 0 (a closed output is a normal end)"; fail=1
	fi
	if grep -E 'crashed|decoding again|Broken pipe' "$work/err.$fmt"; then
		echo "FAIL: --format $fmt: a closed pipe reported as damage (above)"; fail=1
	fi
done
exit $fail
