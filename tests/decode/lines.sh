#!/usr/bin/env bash
# lines.sh CSDUMP ETM4ENC WORK: the vmcore-like path end to end, without a
# vmcore: a csdump extract directory (trace + metadata, no memory) of a
# program built for arm64 with DWARF, traced by the project's ETMv4 encoder
# at a KASLR-like offset.  csdump decode --vmlinux --lines must place the
# image at link address + offset and give
#   - the ranges the encoder encoded (its --ranges file), per trace ID;
#   - for every range the symbol nm gives and the line addr2line gives.
# Then csdump snapshot --vmlinux of the same directory (vmlinux's code as the
# memory dumps) decodes in trc_pkt_lister to the same elements as csdump's.
set -eu
csdump=$1 enc=$2 work=$3
. "$(dirname "$0")/common.sh"
cc=aarch64-linux-gnu-gcc
command -v $cc >/dev/null || { echo "skip: $cc not installed"; exit 77; }
[ -x "$enc" ] || { echo "skip: no ETMv4 encoder at $enc"; exit 77; }
for t in nm addr2line python3; do
	command -v $t >/dev/null || { echo "skip: $t not installed"; exit 77; }
done
off=0x10000000
rm -rf "$work"
mkdir -p "$work"
$cc -g -O1 -fno-inline -nostdlib -static -Wl,-e,main -o "$work/prog.elf" "$here/fixture.c"
"$enc" --elf "$work/prog.elf" -o "$work/x" --cpus 2 --steps 300 --offset $off \
	--ranges "$work/encoded" >/dev/null
# The encoder's summary.txt does not record --offset: say it, as a vmcore's
# VMCOREINFO would.
sed -i "s/^kaslr_offset=.*/kaslr_offset=$off/" "$work/x/summary.txt"
grep -q "^kaslr_offset=$off" "$work/x/summary.txt"
"$csdump" decode "$work/x" --vmlinux "$work/prog.elf" --lines --format jsonl --last 0 \
	>"$work/out.jsonl"
nm -S --defined-only "$work/prog.elf" >"$work/prog.nm"
python3 - "$work" $off <<'PY'
import bisect, json, subprocess, sys
work, off = sys.argv[1], int(sys.argv[2], 0)
ours = [json.loads(l) for l in open(work + '/out.jsonl')]
ranges = [o for o in ours if o['type'] == 'range']
fail = 0
# 1. The ranges the encoder encoded, per trace ID, in order.
enc = {}
for l in open(work + '/encoded'):
    _, tid, s, e, n = l.split()[:5]
    enc.setdefault(int(tid, 16), []).append((int(s, 16), int(e, 16), int(n)))
got = {}
for o in ranges:
    got.setdefault(o['trace_id'], []).append((int(o['start'], 16), int(o['end'], 16), o['n_instr']))
for tid in sorted(set(enc) | set(got)):
    same = enc.get(tid) == got.get(tid)
    print('trace ID %#x: encoded %d ranges, decoded %d: %s'
          % (tid, len(enc.get(tid, [])), len(got.get(tid, [])), 'same' if same else 'DIFFERENT'))
    fail |= not same
# 2. Symbols (nm) and lines (addr2line) of every range's first instruction.
syms = sorted((int(a, 16), int(sz, 16), n) for a, sz, t, n in
              (l.split() for l in open(work + '/prog.nm') if len(l.split()) == 4)
              if t in 'Tt')
starts = [s[0] for s in syms]
def want_sym(a):
    i = bisect.bisect_right(starts, a) - 1
    if i < 0 or a >= syms[i][0] + syms[i][1]:
        return None
    return syms[i][2] + ('+%#x' % (a - syms[i][0]) if a != syms[i][0] else '')
addrs = sorted({int(o['start'], 16) - off for o in ranges})
a2l = subprocess.run(['addr2line', '-e', work + '/prog.elf'] + ['%#x' % a for a in addrs],
                     capture_output=True, text=True, check=True).stdout.split('\n')
lines = {a: l.split(' (')[0] for a, l in zip(addrs, a2l)}
bad = 0
for o in ranges:
    a = int(o['start'], 16) - off
    if o.get('sym') != want_sym(a) or o.get('line') != lines[a]:
        bad += 1
        if bad <= 5:
            print('%s: csdump %s %s; nm %s, addr2line %s'
                  % (o['start'], o.get('sym'), o.get('line'), want_sym(a), lines[a]))
print('%d ranges, %d with the symbol and line of nm and addr2line' % (len(ranges), len(ranges) - bad))
sys.exit(1 if fail or bad or not ranges else 0)
PY

if command -v trc_pkt_lister >/dev/null; then
	"$csdump" snapshot "$work/x" --vmlinux "$work/prog.elf" -o "$work/snap" >/dev/null
	lister_seq "$work/snap" "$work/snap.seq"
	"$here/trace_seq.py" jsonl "$work/out.jsonl" >"$work/out.seq"
	if [ ! -s "$work/snap.seq" ] || ! cmp "$work/snap.seq" "$work/out.seq"; then
		echo "FAIL: trc_pkt_lister on csdump's snapshot differs (or decodes nothing)"
		exit 1
	fi
	echo "csdump snapshot --vmlinux: trc_pkt_lister gives the same $(wc -l <"$work/snap.seq") elements"
fi
