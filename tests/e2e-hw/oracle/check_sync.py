#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Every synchronization of a saved trace resumes where a decoder can.

    check_sync.py SNAPSHOT_DIR RING_DIR --vmlinux FILE [--kaslr-offset N]

SNAPSHOT_DIR is what `csdump snapshot` wrote of the vmcore; RING_DIR holds
the exec_ring plugin's record (check_exec.py).  An ETMv4 or ETE trace unit
synchronizes (A-Sync, Trace Info) every TRCSYNCPR bytes, and the Address
packet after the Trace Info is where a decoder resumes: the instruction
after the last P0 element.  If it names a later instruction, the ones in
between are in no decode.  OpenCSD's trc_pkt_lister lists the packets of
each buffer.  Per trace ID (its CPU from the snapshot's trace.ini and
etm_N.ini, or the one unit of an unformatted buffer), a synchronization
at an address of the kernel image that QEMU's record executed, but never
at the start of a run (a branch target, an exception vector, a trace
start), must follow a P0 instruction of vmlinux's text (a branch taken or
not, or an ISB: the A64 encodings of Arm DDI 0487, C4.1).  An address the
record does not have (it keeps the last runs only) is not judged.  Exit 1
on any other, each shown.

Measured on a run of exec-letf-rsbb-oops before QEMU patch 0016: one
synchronization of 89 came after `msr contextidr_el1` in __switch_to,
which ends a QEMU block without a P0 element; the decode of that CPU lost
the two instructions before it, and check_exec.py failed.
"""
import argparse
import bisect
import configparser
import gc
import os
import re
import subprocess
import sys
import tempfile

import check_exec

PACKET = re.compile(r'ID:([0-9a-f]+);\s+(I_[A-Z0-9_]+)')


def is_p0(insn):
    """An A64 instruction that is a P0 element: a branch or an ISB."""
    return ((insn & 0x7c000000) == 0x14000000 or      # B, BL
            (insn & 0xff000010) == 0x54000000 or      # B.cond
            (insn & 0x7e000000) == 0x34000000 or      # CBZ, CBNZ
            (insn & 0x7e000000) == 0x36000000 or      # TBZ, TBNZ
            (insn & 0xfe000000) == 0xd6000000 or      # BR, BLR, RET, ERET (+PAuth)
            (insn & 0xfffff0ff) == 0xd50330df)        # ISB


class Record:
    """The runs of one CPU's record, to ask of an address whether the
    record has it only inside runs: executed, never where a run starts."""

    def __init__(self, ring, image):
        runs = [r for r in check_exec.oracle_runs(ring, image) if r[1] is not None]
        self.starts = {r[0] for r in runs}
        self.runs = sorted(runs)
        self.keys = [r[0] for r in self.runs]
        self.longest = max((r[1] - r[0] for r in runs), default=0)

    def only_within(self, addr):
        if addr in self.starts:
            return False
        i = bisect.bisect_left(self.keys, addr) - 1
        while i >= 0 and addr - self.keys[i] <= self.longest:
            if self.runs[i][0] < addr < self.runs[i][1]:
                return True
            i -= 1
        return False


def sources(snap):
    """{trace ID: CPU} of the snapshot's trace units, {buffer: CPU} of
    buffers that hold one unit's trace alone (unformatted: no IDs), and
    the buffers' names."""
    ini = configparser.ConfigParser()
    ini.read(os.path.join(snap, 'trace.ini'))
    cpu_of = {v.lower(): int(k.split('_')[1]) for k, v in ini['core_trace_sources'].items()}
    ids = {}
    for f in os.listdir(snap):
        if re.match(r'(etm|ete)_\d+\.ini$', f):
            dev = configparser.ConfigParser()
            dev.read(os.path.join(snap, f))
            for k, v in dev['regs'].items():
                if k.startswith('trctraceidr'):
                    ids[int(v, 16) & 0x7f] = cpu_of[dev['device']['name'].lower()]
    # A buffer that several units share (formatted, by trace ID) is no one
    # unit's: csdump's snapshot lists every unit's source buffer.
    units = {}
    if ini.has_section('source_buffers'):
        for src, buf in ini['source_buffers'].items():
            units.setdefault(buf, []).append(cpu_of[src])
    alone = {buf: cpus[0] for buf, cpus in units.items() if len(cpus) == 1}
    names = [ini[b.strip()]['name'] for b in ini['trace_buffers']['buffers'].split(',')]
    return ids, alone, names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('snapshot')
    ap.add_argument('rings')
    ap.add_argument('--vmlinux', required=True)
    check_exec.add_offset_arg(ap)
    a = ap.parse_args()
    # Millions of small lists and no cycles among them: the collector
    # would only walk them again and again.
    gc.disable()
    image = check_exec.image_of(a.vmlinux, offset=a.kaslr_offset)
    text = check_exec.Text(a.vmlinux, a.kaslr_offset)
    ids, alone, buffers = sources(a.snapshot)
    starts = {}
    total, bad = 0, []
    snap = os.path.abspath(a.snapshot)
    for buf in buffers:
        # trc_pkt_lister also writes its listing to ./trc_pkt_lister.ppl
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run(['trc_pkt_lister', '-ss_dir', snap, '-src_name', buf,
                                  '-no_time_print'], capture_output=True, text=True,
                                 cwd=tmp, check=True).stdout
        last = {}
        for line in out.splitlines():
            m = PACKET.search(line)
            if not m:
                continue
            tid, kind = int(m.group(1), 16), m.group(2)
            prev_kind, last[tid] = last.get(tid), kind
            if not kind.startswith('I_ADDR_CTXT_L_64') or prev_kind != 'I_TRACE_INFO':
                continue
            total += 1
            addr = int(re.search(r'Addr=0x([0-9A-Fa-f]+)', line).group(1), 16)
            cpu = alone.get(buf, ids.get(tid))
            if cpu is None or not image[0] <= addr < image[1]:
                continue
            insn = text.word(addr - 4)
            if insn is not None and is_p0(insn):
                continue
            if cpu not in starts:
                starts[cpu] = Record(os.path.join(a.rings, 'cpu%d.ring' % cpu), image)
            if starts[cpu].only_within(addr):
                bad.append('cpu %d: %s: a synchronization at %#x, after the non-P0 '
                           'instruction %s' % (cpu, buf, addr,
                                               '?' if insn is None else '%08x' % insn))
    if total == 0:
        print('FAIL  sync: no synchronization in the trace')
        return 1
    for b in bad:
        print('FAIL  sync: ' + b)
    if not bad:
        print('ok    sync: all %d synchronizations resume after a P0 element or where '
              'a run of the record starts' % total)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
