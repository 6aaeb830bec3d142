#!/usr/bin/env python3
"""text.py ORACLE TEXT LAST: csdump's text report against trc_pkt_lister.

ORACLE is trace_seq.py's normalised trc_pkt_lister decode; TEXT is
`csdump decode --last LAST` without symbols, where every range is an entry
of its own.  Per CPU block, the range lines must be exactly the last ranges
of that trace ID in the oracle, newest last, and there must be no more
entries than LAST (all of the ranges when LAST is 0)."""
import re
import sys
from collections import defaultdict

HEAD = re.compile(r'^CPU \S+ \(trace ID 0x([0-9a-f]+)\): (\d+) ranges')
RANGE = re.compile(r'^  ([0-9a-f]{16})-([0-9a-f]{16}) +(\d+) instr')


def main():
    oracle_path, text_path, last = sys.argv[1], sys.argv[2], int(sys.argv[3])
    oracle = defaultdict(list)
    for line in open(oracle_path):
        tid, kind, *rest = line.split()
        if kind == 'range':
            oracle[int(tid, 16)].append(tuple(int(x, 16) for x in rest[:2]) + (int(rest[2]),))
    blocks, tid = defaultdict(list), None
    entries = defaultdict(int)
    for line in open(text_path):
        m = HEAD.match(line)
        if m:
            tid = int(m.group(1), 16)
            blocks[tid]
            continue
        if tid is None or not line.startswith('  '):
            continue
        entries[tid] += 1
        m = RANGE.match(line)
        if m:
            blocks[tid].append((int(m.group(1), 16), int(m.group(2), 16), int(m.group(3))))
    bad = False
    for tid in sorted(set(oracle) | set(blocks)):
        want, got = oracle.get(tid, []), blocks.get(tid, [])
        ok = got == want[len(want) - len(got):]
        if last == 0:
            ok = ok and got == want
        elif entries[tid] > last:
            ok = False
        print('trace ID %#x: %d of %d ranges shown in %d entries: %s'
              % (tid, len(got), len(want), entries[tid], 'ok' if ok else 'WRONG'))
        bad |= not ok
    shown = sum(len(b) for b in blocks.values())
    if (last == 0 or last >= 20) and not shown:
        print('no range shown at all')
        bad = True
    sys.exit(1 if bad or not blocks else 0)


if __name__ == '__main__':
    main()
