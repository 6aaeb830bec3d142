#!/usr/bin/env bash
# lead.sh CSDUMP ETM4ENC PROG_ELF WORK: a wrapped sink's bytes before its first
# trace ID are decoded at load as the trace of the CPU whose record says it
# faulted (docs/decode.md, "A wrapped sink's first bytes"), in a child
# process: damaged bytes there must not cost the decode.  Two extract
# directories of a two-CPU trace of the project's encoder, each a "wrapped"
# ETF (the barrier, then the last 8,000 bytes of CPU 0's trace with no trace
# ID, then CPU 1's under its ID), CPU 0's record saying it faulted at an
# instruction its trace runs but takes no exception at:
#   clean    exit 0; nothing attributed: CPU 0 is not decoded, CPU 1 is
#   damaged  the same, with a Mispredict header (0x30) put before an A-sync
#            of CPU 0's bytes, on which OpenCSD 1.3.3 crashes (decode-crash):
#            the crash is reported, the bytes left out, CPU 1's decode the
#            clean one's
# CSDUMP must be a plain build: under ASan the library does not crash.
set -eu
csdump=$1 enc=$2 prog=$3 work=$4
. "$(dirname "$0")/common.sh"
encoded "$enc" "$prog" "$work" --cpus 2 --steps 30000
fail=0

# The extract directories, from the encoder's snapshot (perf's ETMv4
# blocks for metadata.bin, from its registers).
python3 - "$work/enc/snapshot" "$work" "$here" <<'PY'
import configparser, os, re, struct, sys
src, work = sys.argv[1], sys.argv[2]
sys.path.insert(0, sys.argv[3])
from frames import deframe, frame

def regs(name):
    c = configparser.ConfigParser()
    c.read(os.path.join(src, name))
    return {k.split('(')[0].upper(): int(v, 0) for k, v in c['regs'].items()}

meta = b''
for cpu in (0, 1):
    r = regs('etm_%d.ini' % cpu)
    meta += struct.pack('<10Q', 0x4040404040404040, cpu, 7, r['TRCCONFIGR'], r['TRCTRACEIDR'],
                        r['TRCIDR0'], r['TRCIDR1'], r['TRCIDR2'], r['TRCIDR8'],
                        r['TRCAUTHSTATUS'])
ini = open(os.path.join(src, 'trace.ini')).read()
buf = re.search(r'file=(\S+)', ini).group(1)
ids = deframe(open(os.path.join(src, buf), 'rb').read())
cpu0, cpu1 = bytes(ids[0x10])[-8000:], bytes(ids[0x11])
at = cpu0.find(bytes(11) + b'\x80', 2000)	# an A-sync
assert at > 0
barrier = b'\xff\xff\xff\x7f' * 4
for name, c0 in (('clean', cpu0), ('damaged', cpu0[:at] + b'\x30' + cpu0[at:])):
    d = os.path.join(work, name)
    os.makedirs(d)
    data = barrier + frame([(None, c0), (0x11, cpu1)])
    open(os.path.join(d, 'cstrace.bin'), 'wb').write(data)
    open(os.path.join(d, 'metadata.bin'), 'wb').write(meta)
    with open(os.path.join(d, 'summary.txt'), 'w') as f:
        f.write('# made by tests/decode/lead.sh\n')
        f.write('sink file=cstrace.bin flags=0x7 bytes=%d name=tmc_etf0 (saved,wrapped,formatted)\n'
                % len(data))
        f.write('etm cpu=0 trace_id=0x10 stop=1 stop_addr=0x400100\n')
        f.write('etm cpu=1 trace_id=0x11 stop=3 stop_addr=0x400100\n')
print('0x30 before the A-sync at byte %d of CPU 0\'s 8000' % at)
PY
for d in clean damaged; do
	rc=0
	"$csdump" decode "$work/$d" --vmlinux "$prog" --format jsonl --last 0 \
		>"$work/$d.jsonl" 2>"$work/$d.err" || rc=$?
	# The CPUs with a range (every trace ID ends in an end_of_trace line).
	cpus=$(python3 -c 'import json, sys; print(" ".join(sorted({str(e.get("cpu")) for e in map(json.loads, open(sys.argv[1])) if e.get("type") == "range"})))' "$work/$d.jsonl")
	echo "$d: exit $rc, CPUs decoded: $cpus; $(grep -c . "$work/$d.err") line(s) on stderr"
	[ $rc = 0 ] || { echo "FAIL: $d: exit $rc, not 0"; sed -n 1,3p "$work/$d.err"; fail=1; }
	[ "$cpus" = 1 ] || { echo "FAIL: $d: CPUs $cpus decoded, not CPU 1 alone"; fail=1; }
	! grep -q 'wrapped inside' "$work/$d.err" ||
		{ echo "FAIL: $d: the leading bytes were given to a CPU"; fail=1; }
done
grep -q 'crashed.*(lead).*left out' "$work/damaged.err" ||
	{ echo "FAIL: damaged: the decoder's crash on the leading bytes not reported:"; cat "$work/damaged.err"; fail=1; }
cmp -s "$work/clean.jsonl" "$work/damaged.jsonl" ||
	{ echo "FAIL: damaged: CPU 1's decode differs from the clean one's"; fail=1; }
[ "$(grep -c '"range"' "$work/clean.jsonl")" -ge 100 ] ||
	{ echo "FAIL: clean: fewer than 100 ranges of CPU 1: tests nothing"; fail=1; }
[ $fail = 0 ] && echo "ok    lead: a crash of the decoder on a sink's leading bytes costs only those bytes"
exit $fail
