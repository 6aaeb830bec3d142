#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Hold csdump's decode of a real-execution trace against QEMU's record.

    check_exec.py DECODE.jsonl RING_DIR --vmlinux FILE [--kaslr-offset N]
                  [--min-insns N] [--cpus LIST]

DECODE.jsonl is `csdump decode --format jsonl --last 0`; RING_DIR holds the
exec_ring plugin's cpuN.ring files (what each vCPU executed, as QEMU's
plugin interface reported it, up to machine_kexec or its last block).  Both are
turned into runs of sequential instructions: [start, end) with end
exclusive, a run ending where execution did not go on to the next
instruction.  Per CPU, the decode's last stretch of trace (since its last
gap: trace on, loss of sync) must be, run for run, a stretch of the record:
the same starts and ends, except that the first run may start late (the
trace starts at a synchronization point, or is cut to its last
--max-runs runs, default 200000, what the record holds), the last may
end early (the
trace ends at its last P0 element), and a run the decode ends at a
synchronous exception ends early (the record has the whole block, the
trace the instructions before the faulting one).  It must cover at least
--min-insns instructions (default 10000) or all the decode has of that
CPU: where the last stretch is shorter (a trace that an include range
cut at each visit to user space), the stretches before it are compared
too, each ending in the record before the next one starts.  Exit 1 on any
mismatch, with the first one shown.

Code outside the program image (user space: the image is vmlinux's
[_text, _etext)) cannot be decoded: the decode says where the trace went
(no_image) and loses its way until the next address.  A KASLR kernel ran
its image --kaslr-offset above vmlinux's link addresses.  So each stretch of
execution outside the image is one run on both sides, of unknown end,
compared by its first address.  With --modules the decode has module code
too (csdump reads it from the vmcore): every kernel address below the
image's end is then compared run for run, as the image is.

The check holds itself to account: for every CPU that matches, it also
searches two damaged copies of the record (a run near the middle of the
matched stretch one instruction longer; that run left out) and fails if
either still matches.  The run is one that differs from the run before
it: in a spin loop, one more or one fewer iteration of the same run is
no damage a trace can show (damage_site()).
"""
import argparse
import functools
import gc
import json
import os
import re
import struct
import subprocess
import sys
from collections import defaultdict

import numpy


def decoded_segments(path):
    """Per CPU: a list of segments, each a list of [start, end, exc]."""
    segs = defaultdict(lambda: [[]])
    with open(path) as f:
        for line in f:
            o = json.loads(line)
            cpu, kind = o.get('cpu'), o['type']
            if cpu is None:
                continue
            cur = segs[cpu][-1]
            if kind in ('range', 'runaway'):
                s, e = int(o['start'], 16), int(o['end'], 16)
                if cur and cur[-1][1] == s and not cur[-1][2]:
                    cur[-1][1] = e
                else:
                    cur.append([s, e, False])
            elif kind == 'no_image':
                if not cur or cur[-1][1] is not None:
                    cur.append([int(o['addr'], 16), None, False])
            elif kind == 'exception':
                if cur:
                    cur[-1][2] = True
            elif kind in ('trace_on', 'no_sync'):
                if cur:
                    segs[cpu].append([])
    return {c: [s for s in v if s] for c, v in segs.items() if any(v)}


# BRK #imm (A64: 0xd4200000 | imm16 << 5).
BRK_MASK, BRK = 0xffe0001f, 0xd4200000
BRK_TOP = re.compile(rb'[\x20-\x3f]\xd4')


class Text:
    """vmlinux's loadable bytes by address, moved by the KASLR offset (its
    PT_LOAD segments, read with the ELF64 header's own layout)."""

    def __init__(self, vmlinux, offset=0):
        with open(vmlinux, 'rb') as f:
            self.data = f.read()
        phoff, = struct.unpack_from('<Q', self.data, 32)
        phentsize, phnum = struct.unpack_from('<HH', self.data, 54)
        self.segs = []
        for i in range(phnum):
            typ, _, off, vaddr, _, filesz = struct.unpack_from(
                '<IIQQQQ', self.data, phoff + i * phentsize)
            if typ == 1:
                self.segs.append((vaddr + offset, off, filesz))

    def word(self, addr):
        """The 32-bit word at @addr, or None outside the segments."""
        for vaddr, off, size in self.segs:
            if vaddr <= addr and addr + 4 <= vaddr + size:
                return struct.unpack_from('<I', self.data, off + addr - vaddr)[0]
        return None

    @functools.cached_property
    def brks(self):
        """The addresses of every BRK in the segments.  A BRK's top bytes
        (little endian) are a byte of 0x20-0x3f and then 0xd4, a pair no
        other pair overlaps, so each is found once; the word around it
        must be aligned and match BRK_MASK too."""
        found = set()
        for vaddr, off, size in self.segs:
            seg = self.data[off:off + size]
            for m in BRK_TOP.finditer(seg):
                pos = m.start() - 2
                if pos >= 0 and (vaddr + pos) % 4 == 0 and \
                        struct.unpack_from('<I', seg, pos)[0] & BRK_MASK == BRK:
                    found.add(vaddr + pos)
        return found

    def branch_target(self, addr):
        """Where the B or BL at @addr goes (Arm ARM C6.2.26, C6.2.34:
        imm26, in words, signed), or None for any other instruction."""
        return branch_target(self.word(addr), addr)


def branch_target(word, addr):
    """The target of @word, a B or BL at @addr, or None if it is neither."""
    if word is None or word & 0x7c000000 != 0x14000000:
        return None
    imm = word & 0x3ffffff
    if imm & 0x2000000:
        imm -= 0x4000000
    return addr + 4 * imm


RECORD = numpy.dtype([('start', '<u8'), ('insns', '<u4'), ('frozen', '<u4')])


def oracle_runs(path, image, text=None):
    """QEMU's record as runs.  A block that ends in a BRK (BUG(), WARN())
    is counted executed by QEMU's plugin, BRK included; architecturally the
    BRK raises its exception before it completes (the exception's preferred
    return address is the BRK's), and a trace says so: with @text (a Text)
    that BRK is taken off the block, and a block of it alone dropped.

    A run is [start, end): blocks of the image that follow each other
    without a gap; or [start, None): consecutive blocks outside the image,
    by the first one's address.  (Two million blocks a CPU: whole arrays
    at a time, not block by block.)"""
    lo, hi = image
    with open(path, 'rb') as f:
        data = f.read()
    rec = numpy.frombuffer(data, RECORD, len(data) // RECORD.itemsize)
    start = rec['start']
    insns = rec['insns'].astype(numpy.uint64)
    end = start + 4 * insns
    inside = (start >= lo) & (start < hi)
    if text and text.brks:
        brks = numpy.fromiter(text.brks, numpy.uint64, len(text.brks))
        brk = inside & (insns > 0) & numpy.isin(end - 4, brks)
        end = numpy.where(brk, end - 4, end)
        keep = ~(brk & (end == start))
        start, end, inside = start[keep], end[keep], inside[keep]
    if not len(start):
        return []
    # A block starts a new run unless it goes on from the one before: both
    # inside the image, the earlier ending where it starts; or both outside.
    cont = numpy.zeros(len(start), bool)
    cont[1:] = numpy.where(inside[1:], inside[:-1] & (end[:-1] == start[1:]),
                           ~inside[:-1])
    first = numpy.flatnonzero(~cont)
    last = numpy.append(first[1:], len(start)) - 1
    return [[s, e if i else None] for s, e, i in
            zip(start[first].tolist(), end[last].tolist(), inside[first].tolist())]


def symbols(vmlinux):
    """{name: address} of vmlinux's symbol table (nm)."""
    out = subprocess.run(['nm', vmlinux], capture_output=True, text=True, check=True).stdout
    return {f[2]: int(f[0], 16) for f in (l.split() for l in out.splitlines()) if len(f) == 3}


# The lowest kernel address of any arm64 layout (52-bit VA: 0xfff0...).
KERNEL_HALF = 0xfff0000000000000


def image_of(vmlinux, syms=None, offset=0):
    """[_text, _etext) of vmlinux, where it ran: moved by the KASLR offset."""
    syms = syms or symbols(vmlinux)
    return syms['_text'] + offset, syms['_etext'] + offset


def add_offset_arg(ap):
    """--kaslr-offset: the kernel's own word on where it ran."""
    ap.add_argument('--kaslr-offset', type=lambda v: int(v, 0), default=0,
                    help="the KASLR offset the kernel printed ('Kernel Offset:'"
                    " at panic), 0 without KASLR")


def match_at(dec, orc, j):
    """Does dec end at orc[j]?  Returns None or the first mismatch."""
    m = len(dec)
    if j - m + 1 < 0:
        return 'the record is shorter than the trace'
    for i in range(m):
        d, o = dec[m - 1 - i], orc[j - i]
        if d[1] is None or o[1] is None:
            # Outside the image, by first address; the first run may start late
            ok = d[1] is None and o[1] is None and (d[0] == o[0] or i == m - 1)
        else:
            ok_start = o[0] <= d[0] < o[1] if i == m - 1 else d[0] == o[0]
            ok_end = d[1] <= o[1] if i == 0 or d[2] else d[1] == o[1]
            ok = ok_start and ok_end
        if not ok:
            return ('run %d from the end: decode [%#x, %s) record [%#x, %s)'
                    % (i, d[0], hex(d[1]) if d[1] else '?', o[0],
                       hex(o[1]) if o[1] else '?'))
    return None


def starts_of(runs):
    """The runs' first addresses as one string of bytes (a search in C)."""
    return struct.pack('<%dQ' % len(runs), *(r[0] for r in runs))


def find(dec, orc, before=None):
    """The index in orc (below @before) at which dec ends, or None; and
    why not.

    Every run of dec but its first starts where its run of the record does
    (match_at()): those starts are searched for as one string, from the end
    of the record, and the rest is compared only where they are.  (Run by
    run from each run where dec's last starts, a trace of a loop the record
    repeats took minutes: 296 s for 12,572 runs in one CI run.)"""
    n = len(orc) if before is None else before
    last = dec[-1][0]
    if len(dec) == 1:
        why = 'the last run starts nowhere in the record'
        for j in range(n - 1, -1, -1):
            o = orc[j]
            if o[0] == last or (o[1] and o[0] <= last < o[1]):
                why = match_at(dec, orc, j)
                if why is None:
                    return j, None
        return None, why
    hay, pat = starts_of(orc[:n]), starts_of(dec[1:])
    end = len(hay)
    while True:
        pos = hay.rfind(pat, 0, end)
        if pos < 0:
            break
        end = pos + len(pat) - 1
        if pos % 8 == 0:
            j = pos // 8 + len(dec) - 2
            if match_at(dec, orc, j) is None:
                return j, None
    # Why not: the first difference where the record's last run that
    # starts as dec's last ends it.
    for j in range(n - 1, -1, -1):
        if orc[j][0] == last:
            return None, match_at(dec, orc, j)
    return None, 'the last run starts nowhere in the record'


def damage_site(dec, orc, j):
    """The run of orc to damage, in the stretch dec matched ending at j.

    Not any run will do.  A run that repeats its predecessor (a spin
    loop: a CPU waiting for a lock repeats one run thousands of times)
    can be left out without any trace telling, when the repeats reach back
    to the stretch's start: no trace can count the iterations before its
    first synchronization.  So the site is the run nearest the stretch's
    middle that differs from the run before it, is not the first (which
    may start late) or the last (which may end early) of the stretch, has
    a known end, and is not one the decode ends at an exception (which
    may end early too).  None if there is no such run.
    """
    m = len(dec)
    first = j - m + 1
    mid = j - m // 2
    for d in range(m):
        for k in (mid - d, mid + d) if d else (mid,):
            if not first + 1 <= k <= j - 1:
                continue
            if (orc[k][1] is not None and orc[k] != orc[k - 1]
                    and not dec[k - first][2]):
                return k
    return None


def insns_of(runs):
    """The instructions of @runs that are in the image (of known end)."""
    return sum((r[1] - r[0]) // 4 for r in runs if r[1] is not None)


def earlier_stretches(segs, orc, start, want):
    """Compare the stretches before the last (@segs but the last, newest
    last) while fewer than @want instructions are compared: each must end
    in @orc before @start, where the one after it starts.  Returns the
    instructions and stretches compared, and None or why one is not in the
    record."""
    insns = count = 0
    for k in range(len(segs) - 1, -1, -1):
        if insns >= want:
            break
        j, why = find(segs[k], orc, start)
        if j is None:
            return insns, count, ('stretch %d before the last (%d runs) is not in the'
                                  ' record before the one after it: %s'
                                  % (len(segs) - k, len(segs[k]), why))
        insns += insns_of(segs[k])
        count += 1
        start = j - len(segs[k]) + 1
    return insns, count, None


def caught(dec, orc, j):
    """Do both damaged copies of the record fail to match?"""
    mid = damage_site(dec, orc, j)
    if mid is None:
        return False
    longer = orc[:]
    longer[mid] = [orc[mid][0], orc[mid][1] + 4]
    missing = orc[:mid] + orc[mid + 1:]
    return find(dec, longer)[0] is None and find(dec, missing)[0] is None


def caught_in_decode(dec, orc):
    """Is a damaged copy of the decode refused by the record?

    For a stretch that recurs in the record (an idle CPU's few hundred
    runs of the same wake-up path: a small sink keeps no more of it), a
    damaged record still holds an undamaged occurrence, so caught() cannot
    tell a comparison that works from one that matches anything.  The
    damage is then done to the decode: a run nearest its middle, not the
    first or the last, of a known end and not ending at an exception, is
    made one instruction longer, and no stretch of the record may match
    it.  It proves the comparison can fail, not where in the record the
    stretch is.
    """
    m = len(dec)
    mid = m // 2
    for d in range(m):
        for k in (mid - d, mid + d) if d else (mid,):
            if 1 <= k <= m - 2 and dec[k][1] is not None and not dec[k][2]:
                longer = dec[:]
                longer[k] = [dec[k][0], dec[k][1] + 4] + dec[k][2:]
                return find(longer, orc)[0] is None
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('decode')
    ap.add_argument('rings')
    ap.add_argument('--min-insns', type=int, default=10000)
    ap.add_argument('--cpus', default='')
    ap.add_argument('--max-runs', type=int, default=200000)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--modules', action='store_true',
                    help='module code is decoded: kernel addresses below the image too')
    add_offset_arg(ap)
    a = ap.parse_args()
    # Millions of small lists and no cycles among them: the collector
    # would only walk them again and again.
    gc.disable()
    segs = decoded_segments(a.decode)
    image = image_of(a.vmlinux, offset=a.kaslr_offset)
    if a.modules:
        image = (KERNEL_HALF, image[1])
    text = Text(a.vmlinux, a.kaslr_offset)
    want = [int(c) for c in a.cpus.split(',') if c] or sorted(segs)
    fails = 0
    for cpu in want:
        ring = os.path.join(a.rings, 'cpu%d.ring' % cpu)
        if cpu not in segs:
            print('FAIL  cpu %d: no decoded trace' % cpu)
            fails += 1
            continue
        if not os.path.exists(ring):
            print('FAIL  cpu %d: no record %s' % (cpu, ring))
            fails += 1
            continue
        dec = segs[cpu][-1][-a.max_runs:]
        total = sum(insns_of(s) for s in segs[cpu])
        insns = insns_of(dec)
        orc = oracle_runs(ring, image, text)
        found, why = find(dec, orc)
        if found is None:
            print('FAIL  cpu %d: the trace (%d runs, %d instructions) is not in the'
                  ' record (%d runs): %s' % (cpu, len(dec), insns, len(orc), why))
            fails += 1
            continue
        if insns < min(a.min_insns, total) and len(dec) == len(segs[cpu][-1]):
            more, count, why = earlier_stretches(segs[cpu][:-1], orc, found - len(dec) + 1,
                                                 a.min_insns - insns)
            if why:
                print('FAIL  cpu %d: %s' % (cpu, why))
                fails += 1
                continue
            if count:
                print('ok    cpu %d: %d instructions in %d stretch(es) before the last'
                      ' = the record, in order' % (cpu, more, count))
            insns += more
        if insns < min(a.min_insns, total):
            print('FAIL  cpu %d: %d instructions compared, fewer than %d and than'
                  ' the %d decoded' % (cpu, insns, a.min_insns, total))
            fails += 1
            continue
        if len(dec) >= 3 and not caught(dec, orc, found):
            if caught_in_decode(dec, orc):
                print('ok    cpu %d: %d runs, %d instructions = the record, a stretch that'
                      ' recurs in it (a damaged record still matches; a damaged decode is'
                      ' refused), the last ending %d runs before its end'
                      % (cpu, len(dec), insns, len(orc) - 1 - found))
                continue
            print('FAIL  cpu %d: a damaged record matches too, and a damaged decode:'
                  ' the check proves nothing' % cpu)
            fails += 1
            continue
        print('ok    cpu %d: %d runs, %d instructions = the record (2 damaged copies refused), ending %d runs'
              ' before its end (%d segment(s) decoded, %d instructions in all)'
              % (cpu, len(dec), insns, len(orc) - 1 - found, len(segs[cpu]), total))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
