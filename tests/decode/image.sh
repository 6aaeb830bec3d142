#!/usr/bin/env bash
# image.sh CSDUMP SNAPSHOT_DIR WORK: the program image as the decoder's memory
# accessors (a lone segment is the library's buffer accessor; a run of
# adjacent or overlapping ones goes through csdump's image).  juno_r1_1's one
# kernel dump, cut into pieces:
#   run   three dumps end to end, the last two overlapping (the same bytes):
#         the same JSON, byte for byte, as the snapshot with the one dump
#   gap   two dumps with a 4 KiB hole between them: per trace ID the same
#         elements as trc_pkt_lister on that snapshot, and branches into the
#         hole reported as outside the image
# Each decode runs on the main thread and on workers.
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
fresh_work "$snap" "$work"
fail=0

# cut NAME OFF:LEN...: a copy of the snapshot whose cores' dump is these pieces.
cut() {
	local dir=$work/$1
	shift
	mkdir -p "$dir"
	for f in "$snap"/*; do
		[ -f "$f" ] && ln -s "$f" "$dir/"
	done
	python3 - "$snap" "$dir" "$@" <<'PY'
import glob, os, re, sys
snap, out, pieces = sys.argv[1], sys.argv[2], sys.argv[3:]
for ini in glob.glob(os.path.join(snap, 'cpu_*.ini')):
    text = open(ini).read()
    m = re.search(r'\[dump1\]\s*file=(\S+)\s*address=(\S+)\s*length=(\S+)\s*', text)
    data = open(os.path.join(snap, m.group(1)), 'rb').read()
    base = int(m.group(2), 0)
    dumps = ''
    for i, p in enumerate(pieces):
        off, ln = (int(x, 0) for x in p.split(':'))
        name = 'piece%d.bin' % i
        open(os.path.join(out, name), 'wb').write(data[off:off + ln])
        dumps += '[dump%d]\nfile=%s\naddress=0x%X\nlength=0x%X\n\n' % (i + 1, name, base + off, ln)
    dst = os.path.join(out, os.path.basename(ini))
    os.unlink(dst)
    open(dst, 'w').write(text[:m.start()] + dumps + text[m.end():])
PY
}

for t in 0 2; do
	"$csdump" decode "$snap" --format jsonl --last 0 --threads $t >"$work/whole.$t.jsonl" \
		2>/dev/null
done

cut run 0:0x10000 0x10000:0x20000 0x28000:0x28000
for t in 0 2; do
	"$csdump" decode "$work/run" --format jsonl --last 0 --threads $t >"$work/run.$t.jsonl" \
		2>"$work/run.err" || { echo "FAIL: run, --threads $t: exit $?"; fail=1; }
	if cmp -s "$work/whole.$t.jsonl" "$work/run.$t.jsonl"; then
		echo "run, --threads $t: the same $(wc -l <"$work/run.$t.jsonl") lines as one dump"
	else
		echo "FAIL: run, --threads $t: differs from one dump"
		diff "$work/whole.$t.jsonl" "$work/run.$t.jsonl" | head -n 5
		fail=1
	fi
done

cut gap 0:0x20000 0x21000:0x2f000
lister_seq "$work/gap" "$work/gap.oracle"
for t in 0 2; do
	"$csdump" decode "$work/gap" --format jsonl --last 0 --threads $t >"$work/gap.$t.jsonl" \
		2>"$work/gap.err" || { echo "FAIL: gap, --threads $t: exit $?"; fail=1; }
	"$here/trace_seq.py" jsonl "$work/gap.$t.jsonl" >"$work/gap.$t.ours"
	if diff -q "$work/gap.oracle" "$work/gap.$t.ours" >/dev/null; then
		echo "gap, --threads $t: the same $(wc -l <"$work/gap.oracle") elements as trc_pkt_lister"
	else
		echo "FAIL: gap, --threads $t: differs from trc_pkt_lister"
		diff "$work/gap.oracle" "$work/gap.$t.ours" | head -n 5
		fail=1
	fi
done
# The hole must show: branches into it are outside the image.
hole=$(python3 - "$work/gap.0.jsonl" <<'PY'
import json, sys
lo, hi = 0xFFFFFFC000081000 + 0x20000, 0xFFFFFFC000081000 + 0x21000
print(sum(1 for l in open(sys.argv[1]) for o in [json.loads(l)]
          if o['type'] == 'no_image' and lo <= int(o['addr'], 16) < hi))
PY
)
echo "gap: $hole branches into the hole, outside the image"
[ "$hole" -gt 0 ] || { echo "FAIL: nothing went into the hole: the test tests nothing"; fail=1; }
exit $fail
