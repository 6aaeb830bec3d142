#!/usr/bin/env bash
# context.sh CSDUMP WORK SNAPSHOT_DIR...: exceptions and context in words,
# against trc_pkt_lister's elements of the same snapshot.  Per trace ID, in
# order: every PE context's EL, security state (EL1N: non-secure), 64-bit
# (A64), VMID and context ID where traced; every exception's number, its
# name in words from this script's own table of the ETMv4 exception numbers
# (ETMv4 architecture specification, exception packet types), and the state
# it was taken from: the EL and security state of the trace ID's last
# context before it, the ISA of its last range before it ("unknown" before
# any range); every timestamp (with its cycle count) and cycle count.  The
# juno traces have no timestamps or cycle counts: the check also runs on an
# etm4enc trace with both (context.sh CSDUMP WORK --enc ETM4ENC PROG_ELF ...).
set -eu
csdump=$1 work=$2
shift 2
. "$(dirname "$0")/common.sh"
mkdir -p "$work"
if [ "${1:-}" = --enc ]; then
	"$2" --elf "$3" --cpus 2 --cc --ts --vmid --steps 2000 -o "$work/etm4enc" >/dev/null
	shift 3
	set -- "$work/etm4enc/snapshot" "$@"
fi
for snap; do need_snapshot "$snap"; done
fail=0
for snap; do
	name=$(basename "$snap")
	rm -f "$work/$name.ppl"
	(cd "$work" && trc_pkt_lister -ss_dir "$snap" -decode -logfilename "$name.ppl" >/dev/null)
	"$csdump" decode "$snap" --format jsonl --last 0 >"$work/$name.jsonl" 2>/dev/null || true
	echo -n "$name: "
	python3 - "$work/$name.ppl" "$work/$name.jsonl" <<'PY' || fail=1
import json, re, sys
from collections import defaultdict
WORDS = {0: 'PE reset', 1: 'debug halt', 2: 'SVC, HVC or SMC', 3: 'trap', 4: 'SError',
         6: 'breakpoint or step', 7: 'watchpoint', 10: 'alignment fault',
         11: 'instruction abort', 12: 'data abort', 14: 'IRQ', 15: 'FIQ'}
SEC = {'N': 'non-secure', 'S': 'secure', 'R': 'realm'}
from trace_seq import PPL as ELEM
CTX = re.compile(r'EL(\d)([NSR])')
want = defaultdict(list)
state = defaultdict(lambda: {'el': None, 'sec': None, 'isa': 'unknown'})
for line in open(sys.argv[1], errors='replace'):
    m = ELEM.search(line)
    if not m:
        continue
    tid, kind, body = int(m.group(1), 16), m.group(2), m.group(3)
    st = state[tid]
    if kind == 'INSTR_RANGE':
        st['isa'] = re.search(r'ISA=(\w+)', body).group(1)
    elif kind == 'PE_CONTEXT':
        c = CTX.search(body)
        d = {'el': int(c.group(1)), 'sec': SEC[c.group(2)],
             'isa': 'A64' if '64-bit' in body else 'A32'}
        v = re.search(r'VMID=0x([0-9a-f]+)', body)
        if v:
            d['vmid'] = int(v.group(1), 16)
        v = re.search(r'CTXTID=0x([0-9a-f]+)', body)
        d['ctxid'] = int(v.group(1), 16) if v else 0
        st['el'], st['sec'] = d['el'], d['sec']
        want[tid].append(('context', d))
    elif kind == 'TIMESTAMP':
        d = {'ts': int(re.search(r'TS=0x([0-9a-f]+)', body).group(1), 16)}
        c = re.search(r'CC=(\d+)', body)
        if c:
            d['cc'] = int(c.group(1))
        want[tid].append(('timestamp', d))
    elif kind == 'CYCLE_COUNT':
        want[tid].append(('cycle_count', {'cc': int(re.search(r'CC=(\d+)', body).group(1))}))
    elif kind == 'EXCEPTION':
        n = int(re.search(r'excep num \((0x[0-9a-f]+)\)', body).group(1), 16)
        d = {'number': n, 'what': WORDS.get(n)}
        if st['el'] is not None:
            d.update(el=st['el'], sec=st['sec'], isa=st['isa'])
        want[tid].append(('exception', d))
got = defaultdict(list)
for line in open(sys.argv[2]):
    o = json.loads(line)
    if o['type'] == 'context':
        got[o['trace_id']].append(('context', {k: o[k] for k in
                                               ('el', 'sec', 'isa', 'vmid', 'ctxid') if k in o}))
    elif o['type'] in ('timestamp', 'cycle_count'):
        got[o['trace_id']].append((o['type'], {k: o[k] for k in ('ts', 'cc') if k in o}))
    elif o['type'] == 'exception':
        got[o['trace_id']].append(('exception', {k: o.get(k) for k in
                                                 ('number', 'what', 'el', 'sec', 'isa')
                                                 if k in o or k == 'what'}))
bad = n = 0
for tid in sorted(set(want) | set(got)):
    w, g = want[tid], got[tid]
    n += len(w)
    if w != g:
        bad += 1
        i = next((i for i, (a, b) in enumerate(zip(w, g)) if a != b), min(len(w), len(g)))
        print('\n  trace ID %#x, element %d: trc_pkt_lister %s, csdump %s' %
              (tid, i, w[i] if i < len(w) else None, g[i] if i < len(g) else None))
kinds = defaultdict(int)
for tid in want:
    for k, d in want[tid]:
        kinds[d.get('what') or k] += 1
print('%d contexts and exceptions compared (%s)' %
      (n, ', '.join('%s %d' % kv for kv in sorted(kinds.items()))))
sys.exit(1 if bad or not n else 0)
PY
done
exit $fail
