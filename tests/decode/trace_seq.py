#!/usr/bin/env python3
"""Normalise decoded trace to one line per element, grouped by trace ID.

    trace_seq.py ppl FILE     trc_pkt_lister -decode output (the oracle)
    trace_seq.py jsonl FILE   csdump decode --format jsonl output

Both print, per trace ID in ascending order, "ID KIND FIELDS" lines in the
order the decoder produced them: ranges (start, end, count), accesses to code
outside the image (address) and exceptions (number, return address).  The two
outputs of one trace must be identical.  A range csdump flags as a runaway
(it ran to the end of the image, or far past its function's end) is the
range trc_pkt_lister prints: it is compared as one.
"""
import gc
import json
import re
import sys
from collections import defaultdict

PPL = re.compile(r'ID:([0-9a-fA-F]+);\s+OCSD_GEN_TRC_ELEM_(\w+)\((.*)\)\s*$')
RANGE = re.compile(r'exec range=(0x[0-9a-f]+):\[(0x[0-9a-f]+)\] num_i\((\d+)\)')
NACC = re.compile(r'^\s*(0x[0-9a-f]+)')
EXC = re.compile(r'(?:pref ret addr:(0x[0-9a-f]+)[^;]*;\s*)?excep num \((0x[0-9a-f]+)\)')


def from_ppl(path):
    seqs = defaultdict(list)
    with open(path, errors='replace') as f:
        for line in f:
            m = PPL.search(line)
            if not m:
                continue
            tid, kind, body = int(m.group(1), 16), m.group(2), m.group(3)
            if kind == 'INSTR_RANGE':
                r = RANGE.search(body)
                if not r:
                    sys.exit('unparsed range: ' + line)
                seqs[tid].append('range %x %x %d' % (int(r.group(1), 16),
                                                     int(r.group(2), 16), int(r.group(3))))
            elif kind == 'ADDR_NACC':
                seqs[tid].append('nacc %x' % int(NACC.search(body).group(1), 16))
            elif kind == 'EXCEPTION':
                e = EXC.search(body)
                if not e:
                    sys.exit('unparsed exception: ' + line)
                ret = int(e.group(1), 16) if e.group(1) else 0
                seqs[tid].append('exception %d %x' % (int(e.group(2), 16), ret))
    return seqs


def from_jsonl(path):
    seqs = defaultdict(list)
    with open(path) as f:
        for line in f:
            o = json.loads(line)
            tid, kind = o['trace_id'], o['type']
            if kind in ('range', 'runaway'):
                seqs[tid].append('range %x %x %d' % (int(o['start'], 16), int(o['end'], 16),
                                                     o['n_instr']))
            elif kind == 'no_image':
                seqs[tid].append('nacc %x' % int(o['addr'], 16))
            elif kind == 'exception':
                seqs[tid].append('exception %d %x' % (o['number'], int(o.get('ret', '0'), 16)))
    return seqs


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ('ppl', 'jsonl'):
        sys.exit(__doc__)
    gc.disable()    # a million small strings, no cycles
    seqs = (from_ppl if sys.argv[1] == 'ppl' else from_jsonl)(sys.argv[2])
    for tid in sorted(seqs):
        prefix = '%02x ' % tid
        sys.stdout.write(''.join(prefix + item + '\n' for item in seqs[tid]))


if __name__ == '__main__':
    main()
