#!/usr/bin/env bash
# hostile.sh CSDUMP SNAPSHOT_DIR WORK: csdump decode on damaged copies of a
# snapshot's trace buffer.  Must exit 0 (keeping what is intact), finish in
# bounded time and, under the sanitizers, touch no memory it does not own:
#   cut     the buffer cut at 30000 bytes (a frame boundary): the same
#           elements per trace ID as trc_pkt_lister on the same cut buffer
#   ragged  cut at 30001 bytes: the trailing partial frame is reported and
#           the rest decodes as `cut`
#   flips   2000 flipped bits: decodes, reports nothing fatal
#   random  1 MB of (seeded) random bytes: every trace ID decodes to its end
#   empty   an empty buffer: no ranges, exit 0
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
need_snapshot "$snap"
buf=$(awk -F= '/^file=/ { print $2; exit }' "$snap/trace.ini")
rm -rf "$work"
mkdir -p "$work"
fail=0

make_copy() {	# NAME PYTHON-EXPR-ON-d: a snapshot whose buffer is the expression
	local dir=$work/$1
	mkdir -p "$dir"
	for f in "$snap"/*; do
		[ -f "$f" ] && [ "$(basename "$f")" != "$buf" ] && ln -s "$f" "$dir/"
	done
	python3 -c "
import random, sys
r = random.Random(8)
d = bytearray(open(sys.argv[1], 'rb').read())
$2
open(sys.argv[2], 'wb').write(d)" "$snap/$buf" "$dir/$buf"
}

decode() {	# NAME: decode it, check exit status and time
	local rc=0
	timeout 120 "$csdump" decode "$work/$1" --format jsonl --last 0 \
		>"$work/$1.jsonl" 2>"$work/$1.err" || rc=$?
	echo "$1: exit $rc, $(grep -c '"range"' "$work/$1.jsonl" || true) ranges;" \
		"$(grep -v ignored "$work/$1.err" | head -n 2 | tr '\n' ' ')"
	[ $rc -eq 0 ] || { echo "FAIL: $1: exit status $rc"; fail=1; }
}

make_copy cut 'd = d[:30000]'
make_copy ragged 'd = d[:30001]'
make_copy flips '
for _ in range(2000):
    d[r.randrange(len(d))] ^= 1 << r.randrange(8)'
make_copy random 'd = bytearray(r.getrandbits(8) for _ in range(1000000))'
make_copy empty 'd = b""'
for n in cut ragged flips random empty; do decode $n; done

# The cut buffer against trc_pkt_lister on the same bytes.
lister_seq "$work/cut" "$work/cut.oracle"
"$here/trace_seq.py" jsonl "$work/cut.jsonl" >"$work/cut.ours"
"$here/trace_seq.py" jsonl "$work/ragged.jsonl" >"$work/ragged.ours"
[ -s "$work/cut.oracle" ] || { echo "FAIL: trc_pkt_lister decoded nothing of cut"; fail=1; }
cmp -s "$work/cut.oracle" "$work/cut.ours" ||
	{ echo "FAIL: cut differs from trc_pkt_lister"; fail=1; }
cmp -s "$work/cut.ours" "$work/ragged.ours" ||
	{ echo "FAIL: ragged differs from cut"; fail=1; }
grep -q 'not a whole number of 16-byte frames' "$work/ragged.err" ||
	{ echo "FAIL: ragged: the partial frame was not reported"; fail=1; }
[ "$(grep -c '"end_of_trace"' "$work/random.jsonl")" -eq 6 ] ||
	{ echo "FAIL: random: not every trace ID decoded to its end"; fail=1; }
! grep -q '"range"' "$work/empty.jsonl" || { echo "FAIL: empty buffer gave ranges"; fail=1; }
exit $fail
