#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Stock perf's branches of an extracted perf.data against QEMU's record.

    check_perf.py PERF_SCRIPT.txt RING_DIR --vmlinux FILE [--kaslr-offset N]

PERF_SCRIPT.txt is `perf script -k vmlinux -F cpu,ip,addr` of the
perf.data `csdump extract` wrote: one branch a line, "[CPU] FROM => TO".
RING_DIR holds the exec_ring plugin's record (check_exec.py).  Per CPU,
perf's taken branches (TO not the next instruction, FROM not 0: a trace
start) must be, in order, a subsequence of the record's: the record's
branch from a run to the next goes from the run's last instruction, or,
for a run cut short by a synchronous exception, from inside it, to the
next run's first.  Code outside vmlinux is left out on both sides: perf
cannot follow it without that code, and goes from the last branch before
it to the first address after it.  Exit 1
on the first perf branch the record does not have.

With --modules the guest ran module code, which `csdump perf` does not
give perf (it maps the kernel image only): a module calling the kernel
with a direct branch gives perf's decoder no address, so it resumes at the
trace's next address, later in the kernel.  A perf branch from where the
record goes into such code may then go to any later instruction of the
record (within RESYNC_RUNS runs), and the search goes on from its run:
that next address is a run's start, or, where it is a synchronization's
(an A-Sync every 256 bytes in the sync256 runs), any instruction of one
(exec-etf16k-cti-sync256-warm-modoops, 2026-12-07: strim()'s return to
the module resumed at vprintk_emit+0x4c, the last instruction of a run).

perf reads the code from the image `csdump perf --vmlinux` writes (vmlinux
with the kernel text as it ran laid over it): given vmlinux itself, perf
6.1 follows unpatched text where the kernel patched it (alternatives,
static keys) and its branches leave the record there (measured on
exec-etr-sg-rsbb-oops: CPU 0, branch 5,602 of 39,681).
"""
import argparse
import gc
import os
import re
import sys
from collections import defaultdict

import check_exec

RESYNC_RUNS = 100000

LINE = re.compile(r'^\s*\[(\d+)\]\s+([0-9a-f]+)\s+=>\s+([0-9a-f]+)')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('script')
    ap.add_argument('rings')
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--modules', action='store_true',
                    help='the guest ran module code, which perf does not have')
    check_exec.add_offset_arg(ap)
    a = ap.parse_args()
    # Millions of small lists and no cycles among them: the collector
    # would only walk them again and again.
    gc.disable()
    image = check_exec.image_of(a.vmlinux, offset=a.kaslr_offset)
    text = check_exec.Text(a.vmlinux, a.kaslr_offset)
    inside = lambda x: image[0] <= x < image[1]
    branches = defaultdict(list)
    with open(a.script, errors='replace') as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            cpu, src, dst = int(m.group(1)), int(m.group(2), 16), int(m.group(3), 16)
            if src and dst != src + 4 and inside(src) and inside(dst):
                branches[cpu].append((src, dst))
    if not branches:
        print('FAIL  perf script printed no branch')
        return 1
    fails = 0
    for cpu in sorted(branches):
        # The record's runs in the image; gap[n]: code outside it came
        # between orc[n - 1] and orc[n].
        orc, gap, out = [], [], False
        for r in check_exec.oracle_runs(os.path.join(a.rings, 'cpu%d.ring' % cpu), image,
                                        text):
            if r[1] is None:
                out = True
                continue
            orc.append(r)
            gap.append(out)
            out = False
        want = branches[cpu]
        i, k = 0, 0
        while k < len(want) and i + 1 < len(orc):
            src, dst = want[k]
            o, nxt = orc[i], orc[i + 1]
            at_src = src == o[1] - 4 or o[0] <= src < o[1]
            if nxt[0] == dst and at_src:
                k += 1
            elif a.modules and at_src and gap[i + 1]:
                j = next((j for j in range(i + 1, min(len(orc), i + 1 + RESYNC_RUNS))
                          if orc[j][0] <= dst < orc[j][1]), None)
                if j is not None:
                    k += 1
                    i = j - 1
            i += 1
        if k < len(want):
            print('FAIL  cpu %d: perf branch %d of %d (%#x => %#x) is not in the record'
                  ' after the ones before it' % (cpu, k, len(want), want[k][0], want[k][1]))
            fails += 1
        else:
            print('ok    cpu %d: perf\'s %d taken branches are a subsequence of the'
                  ' record\'s (%d runs)' % (cpu, len(want), len(orc)))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
