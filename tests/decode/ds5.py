#!/usr/bin/env python3
"""ds5.py JSONL REPORT...: csdump's decode against Arm DS-5's trace reports.

DS-5 (an independent decoder) lists every executed instruction of one trace
ID ("EL1N:0xADDR<TAB>OPCODE<TAB>disassembly").  Checks, per report:
  1. every instruction DS-5 lists appears in csdump's ranges, in the same order;
  2. every instruction csdump decodes appears in DS-5's list in the same order,
     except the tail of a range that ends with an exception return: DS-5 2015
     prints "Return from exception" in place of the instructions leading to
     the ERET.  Those are counted: at most 16 per exception return.
"""
import difflib
import json
import re
import sys

INSN = re.compile(r'^EL\w+:0x([0-9A-Fa-f]+)\t[0-9A-Fa-f]{8}\t')
TID = re.compile(r'Report_0x([0-9a-fA-F]+)_')


def ours_for(events, tid):
    """Instruction addresses, and for each the index of its range's event."""
    mine = [e for e in events if e['trace_id'] == tid]
    addrs, eret_tail = [], []
    for i, e in enumerate(mine):
        if e['type'] != 'range':
            continue
        start, end = int(e['start'], 16), int(e['end'], 16)
        if (end - start) // 4 != e['n_instr']:
            sys.exit('trace ID %#x: range %s-%s is not %d A64 instructions'
                     % (tid, e['start'], e['end'], e['n_instr']))
        nxt = i + 1
        while nxt < len(mine) and mine[nxt]['type'] == 'context':
            nxt += 1
        before_eret = nxt < len(mine) and mine[nxt]['type'] == 'exception_return'
        for a in range(start, end, 4):
            addrs.append(a)
            eret_tail.append(before_eret)
    n_eret = sum(1 for e in mine if e['type'] == 'exception_return')
    return addrs, eret_tail, n_eret


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    events = [json.loads(line) for line in open(sys.argv[1])]
    failed = False
    for rep in sys.argv[2:]:
        tid = int(TID.search(rep).group(1), 16)
        with open(rep, errors='replace') as f:
            ds5 = [int(m.group(1), 16) for m in (INSN.match(line) for line in f) if m]
        ours, eret_tail, n_eret = ours_for(events, tid)
        sm = difflib.SequenceMatcher(None, ours, ds5, autojunk=False)
        missing_in_ours = extra_ok = extra_bad = 0
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == 'equal':
                continue
            missing_in_ours += j2 - j1
            for i in range(i1, i2):
                if eret_tail[i]:
                    extra_ok += 1
                else:
                    extra_bad += 1
                    if extra_bad <= 5:
                        print('  trace ID %#x: csdump has %#x, DS-5 does not' % (tid, ours[i]))
        print('trace ID %#x: DS-5 %d instructions, csdump %d; DS-5 ones not in csdump: %d; '
              'csdump ones not in DS-5: %d (before %d ERETs) + %d (other)'
              % (tid, len(ds5), len(ours), missing_in_ours, extra_ok, n_eret, extra_bad))
        if not ds5 or missing_in_ours or extra_bad or extra_ok > 16 * n_eret:
            failed = True
    if failed:
        print('FAIL')
        sys.exit(1)


if __name__ == '__main__':
    main()
