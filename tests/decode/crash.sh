#!/usr/bin/env bash
# crash.sh CSDUMP ETM4ENC PROG_ELF WORK: OpenCSD 1.3.3 crashes on some damaged
# trace -- one Mispredict packet header (0x30) put before an A-sync of a trace
# unit without speculation makes TrcPktDecodeEtmV4I::mispredictAtom() read
# freed memory -- and csdump must outlive it.  A two-CPU trace of the
# project's encoder, with that byte put into CPU 0's trace past its first
# 8 KiB:
#   jsonl  exit 5, the crash reported; the lines written are the first
#          lines of the undamaged trace's decode
#   text   exit 5, decoded again without CPU 0's trace from the damaged
#          operation on: the report is that of the trace cut there (CPU 1's
#          part equals the undamaged trace's)
# CSDUMP must be a plain build: under ASan or valgrind the library's read of
# freed memory does not crash.
set -eu
csdump=$1 enc=$2 prog=$3 work=$4
. "$(dirname "$0")/common.sh"
encoded "$enc" "$prog" "$work" --cpus 2 --steps 30000
fail=0

# Three snapshots of the same trace, re-framed with the two trace IDs taking
# turns every 4000 bytes (one operation each: csdump gathers up to 4 KiB):
# whole; damaged; and CPU 0's trace cut where the damaged 4000 bytes begin.
python3 - "$work/enc/snapshot" "$work" "$here" <<'PY'
import os, re, shutil, sys
src, work = sys.argv[1], sys.argv[2]
sys.path.insert(0, sys.argv[3])
from frames import deframe, frame

def turns(c0, c1, n=4000):
    chunks = []
    for i in range(0, max(len(c0), len(c1)), n):
        chunks += [(0x10, c0[i:i + n]), (0x11, c1[i:i + n])]
    return chunks

ini = open(os.path.join(src, 'trace.ini')).read()
buf = re.search(r'file=(\S+)', ini).group(1)
ids = deframe(open(os.path.join(src, buf), 'rb').read())
cpu0, cpu1 = bytes(ids[0x10]), bytes(ids[0x11])
at = cpu0.find(bytes(11) + b'\x80', 9000)	# an A-sync
assert at // 4000 >= 2, at
bad = cpu0[:at] + b'\x30' + cpu0[at:]
for name, c0 in (('whole', cpu0), ('damaged', bad), ('cut', cpu0[:at // 4000 * 4000])):
    dst = os.path.join(work, name)
    shutil.copytree(src, dst)
    open(os.path.join(dst, buf), 'wb').write(frame(turns(c0, cpu1)))
print('0x30 put before the A-sync at byte %d of CPU 0\'s %d' % (at, len(cpu0)))
PY

# The framing above is right: per trace ID, whole decodes as the original.
for d in "$work/enc/snapshot" "$work/whole"; do
	"$csdump" decode "$d" --format jsonl --last 0 2>/dev/null |
		"$here/trace_seq.py" jsonl /dev/stdin >"$d.seq"
done
cmp -s "$work/enc/snapshot.seq" "$work/whole.seq" ||
	{ echo "FAIL: the re-framed trace does not decode as the original"; exit 1; }

rc=0
"$csdump" decode "$work/whole" --format jsonl --last 0 >"$work/whole.jsonl" 2>/dev/null
"$csdump" decode "$work/damaged" --format jsonl --last 0 >"$work/damaged.jsonl" \
	2>"$work/damaged.jsonl.err" || rc=$?
n=$(wc -l <"$work/damaged.jsonl")
echo "jsonl: exit $rc, $n of $(wc -l <"$work/whole.jsonl") lines; $(head -n 1 "$work/damaged.jsonl.err")"
[ $rc = 5 ] || { echo "FAIL: jsonl: exit $rc, not 5"; fail=1; }
grep -q 'crashed' "$work/damaged.jsonl.err" || { echo "FAIL: jsonl: no crash reported"; fail=1; }
head -n "$n" "$work/whole.jsonl" | cmp -s - "$work/damaged.jsonl" ||
	{ echo "FAIL: jsonl: the lines are not the undamaged decode's first lines"; fail=1; }
[ "$n" -ge 100 ] || { echo "FAIL: jsonl: $n lines before the crash: tests nothing"; fail=1; }

rc=0
"$csdump" decode "$work/damaged" --last 20 >"$work/damaged.txt" 2>"$work/damaged.txt.err" ||
	rc=$?
"$csdump" decode "$work/cut" --last 20 >"$work/cut.txt" 2>/dev/null
"$csdump" decode "$work/whole" --last 20 >"$work/whole.txt" 2>/dev/null
echo "text: exit $rc; $(grep -c . "$work/damaged.txt") lines; $(tail -n 1 "$work/damaged.txt.err")"
[ $rc = 5 ] || { echo "FAIL: text: exit $rc, not 5"; fail=1; }
grep -q 'decoding again' "$work/damaged.txt.err" || { echo "FAIL: text: not decoded again"; fail=1; }
cmp -s "$work/cut.txt" "$work/damaged.txt" ||
	{ echo "FAIL: text: not the report of the trace cut at the damage"; diff "$work/cut.txt" \
		"$work/damaged.txt" | head -n 6; fail=1; }
cpu1() { sed -n '/^CPU 1 /,$p' "$1"; }
[ -n "$(cpu1 "$work/whole.txt")" ] && [ "$(cpu1 "$work/whole.txt")" = "$(cpu1 "$work/damaged.txt")" ] ||
	{ echo "FAIL: text: CPU 1's report is not the undamaged one"; fail=1; }
grep -q '^CPU 0 .*: [1-9][0-9]* ranges' "$work/damaged.txt" ||
	{ echo "FAIL: text: nothing left of CPU 0"; fail=1; }
exit $fail
