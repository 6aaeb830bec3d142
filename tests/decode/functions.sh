#!/usr/bin/env bash
# functions.sh CSDUMP SNAPSHOT_DIR WORK: `csdump decode --functions` against
# an independent count.  csdump snapshot writes juno_r1_1 out again;
# trc_pkt_lister decodes that; a Python script sums its ranges per trace ID
# and per function, with the symbols nm reads from a table made for the Juno
# kernel by bench/mksyms.py: each range's instructions go to the function of
# its first address; a call is a range that follows (in its trace ID, with no
# branch out of the image, exception or gap between) a range whose last
# instruction was an executed branch with link ("E ... b+link").  The window:
# all of a trace ID's instructions.  Every function's instructions, ranges
# and calls, and the totals, must be csdump's, and the order by instructions.
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
need_snapshot "$snap"
rm -rf "$work"
mkdir -p "$work"
juno_syms "$work"
"$csdump" snapshot "$snap" -o "$work/snap" 2>/dev/null
(cd "$work" && trc_pkt_lister -ss_dir "$work/snap" -decode -logfilename lister.ppl >/dev/null)
"$csdump" decode "$snap" --vmlinux "$work/syms.elf" --functions --format jsonl \
	>"$work/ours.jsonl" 2>/dev/null
python3 - "$work/syms.nm" "$work/lister.ppl" "$work/ours.jsonl" <<'PY'
import json, re, sys
from collections import defaultdict
import nmsyms
from trace_seq import PPL as ELEM
func = nmsyms.Syms(sys.argv[1]).func
RANGE = re.compile(r'exec range=(0x[0-9a-f]+):\[(0x[0-9a-f]+)\] num_i\((\d+)\).*\) ([EN]) (.*)$')
want = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))   # tid -> func -> [instr, ranges, calls]
after_call = defaultdict(bool)
for line in open(sys.argv[2], errors='replace'):
    m = ELEM.search(line)
    if not m:
        continue
    tid, kind, body = int(m.group(1), 16), m.group(2), m.group(3)
    if kind == 'INSTR_RANGE':
        r = RANGE.search(body)
        st = want[tid][func(int(r.group(1), 16))]
        st[0] += int(r.group(3))
        st[1] += 1
        st[2] += after_call[tid]
        after_call[tid] = r.group(4) == 'E' and 'b+link' in r.group(5)
    elif kind in ('ADDR_NACC', 'EXCEPTION', 'NO_SYNC', 'TRACE_ON'):
        after_call[tid] = False
ours = [json.loads(l) for l in open(sys.argv[3]) if '"type":"functions"' in l]
bad = n = 0
for o in ours:
    tid = o['trace_id']
    got = {f['sym']: [f['instructions'], f['ranges'], f['calls']] for f in o['functions']}
    exp = {k: v for k, v in want.get(tid, {}).items()}
    if got != exp:
        bad += 1
        for k in sorted(set(got) | set(exp), key=str)[:400]:
            if got.get(k) != exp.get(k):
                print('trace ID %#x, %s: csdump %s, trc_pkt_lister + nm %s' % (tid, k, got.get(k), exp.get(k)))
                break
    tot = [sum(v[i] for v in exp.values()) for i in range(3)]
    if [o['instructions'], o['ranges'], o['calls']] != tot:
        bad += 1
        print('trace ID %#x: totals %s, want %s' % (tid, [o['instructions'], o['ranges'], o['calls']], tot))
    order = [f['instructions'] for f in o['functions']]
    if order != sorted(order, reverse=True):
        bad += 1
        print('trace ID %#x: not by instructions' % tid)
    n += len(got)
    print('trace ID %#x (CPU %s): %d instructions, %d calls, %d functions' %
          (tid, o['cpu'], tot[0], tot[2], len(exp)))
missing = {t for t, v in want.items() if any(x[1] for x in v.values())} - {o['trace_id'] for o in ours}
if missing:
    bad += 1
    print('no functions object for trace IDs %s' % sorted(missing))
print('%d trace IDs, %d functions compared' % (len(ours), n))
sys.exit(1 if bad or not n else 0)
PY
