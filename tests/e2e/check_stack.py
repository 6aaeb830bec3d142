#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""check_stack.py CSDUMP VMCORE VMLINUX [--min N]

The call stack `csdump decode --stack` rebuilds from the trace of the
panicking CPU, against the backtrace drgn reads from the same vmcore (the
crashed thread's saved registers and its stack memory: nothing of the
trace), frame for frame over the frames both see.

What both see: the trace shows the calls made in its window, up to where
the trace stopped (the panic notifier that saved it); drgn shows the stack
when the registers were saved (crash_setup_regs, later in panic()).  So the
innermost frames differ by design.  The frames both see are those from the
innermost trace frame whose function drgn's backtrace also has (the anchor,
matched by name) outward, as long as both have frames: the trace's stop at
the outermost frame it saw entered (the callers of the first function in its
window are not in it), drgn's at the bottom of the stack.  drgn's inline
frames are left out (the trace sees calls, and an inlined function makes
none); names are compared without GCC's clone suffixes (.constprop.0, .isra.0).
Each pair is compared by name, which must match.  Outside the anchor the
return addresses are compared too and reported (drgn's pc of a caller frame
is the address its callee returns to; the trace has it from the BL) but do
not fail the check: the demo's trace is synthesized by etm4enc along the
shortest way from each function to a call of the next, which need not be
the call site the kernel took (proc_reg_write calls write_sysrq_trigger
through the inlined pde_write, ksys_write calls vfs_write at another site).

Needs python3-drgn (Debian's /usr/bin/python3).  Prints the numbers; fails
when fewer than --min frames were compared (default 1) or any differ.
"""
import json
import os
import re
import subprocess
import sys

import drgn
from drgn.helpers.linux.percpu import per_cpu


def base(name):
    return name.split('.')[0] if name else name


def same_kernel(vmcore, vmlinux):
    """The vmlinux must be the crashed kernel's: VMCOREINFO's BUILD-ID against
    its GNU build ID (a kernel rebuilt since the run would make every frame
    name a guess)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from vmcore_registry import Vmcore
    theirs = Vmcore(vmcore).vmcoreinfo().get('BUILD-ID')
    notes = subprocess.run(['readelf', '-n', vmlinux], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL).stdout.decode()
    m = re.search(r'Build ID: ([0-9a-f]+)', notes)
    ours = m.group(1) if m else None
    if theirs and ours and theirs != ours:
        sys.exit('FAIL: %s is not the kernel of %s (build ID %s, VMCOREINFO says %s): '
                 'run the scenario again' % (vmlinux, vmcore, ours, theirs))


def drgn_frames(vmcore, vmlinux):
    prog = drgn.Program()
    prog.set_core_dump(vmcore)
    prog.load_debug_info([vmlinux])
    # The CPU that called panic() (panic_cpu), and the task it ran.  Not
    # crashed_thread(): drgn 0.0.22 gives the idle task of CPU 0 when the
    # crash-stop IPI powered the other CPUs off (PSCI CPU_OFF), whichever
    # CPU panicked.
    cpu = prog['panic_cpu'].counter.value_()
    frames = []
    for f in prog.stack_trace(per_cpu(prog["runqueues"], cpu).curr):
        if f.is_inline:
            continue
        try:
            f.pc
        except LookupError:
            break       # drgn could not unwind further
        name = f.name
        if name is None:
            try:
                name = prog.symbol(f.pc).name
            except LookupError:
                name = None
        frames.append((base(name), f.pc))
    return cpu, frames


def trace_frames(csdump, vmcore, vmlinux, cpu):
    out = subprocess.run([csdump, 'decode', vmcore, '--vmlinux', vmlinux, '--cpu', str(cpu),
                          '--format', 'jsonl', '--stack'], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=False).stdout.decode()
    stacks = [json.loads(line) for line in out.splitlines() if '"type":"stack"' in line]
    if len(stacks) != 1:
        sys.exit('FAIL: %d stack objects for CPU %d' % (len(stacks), cpu))
    frames = []
    for f in stacks[0]['frames']:
        sym = f.get('sym')
        frames.append((base(sym.split('+')[0]) if sym else None,
                       int(f['ret'], 16) if 'ret' in f else None))
    return frames


def main():
    args = sys.argv[1:]
    want = 1
    if '--min' in args:
        i = args.index('--min')
        want = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    csdump, vmcore, vmlinux = args
    same_kernel(vmcore, vmlinux)
    cpu, theirs = drgn_frames(vmcore, vmlinux)
    ours = trace_frames(csdump, vmcore, vmlinux, cpu)
    print('CPU %d: drgn %d frames (%s), the trace %d (%s)' %
          (cpu, len(theirs), ' < '.join(n or '?' for n, _ in theirs), len(ours),
           ' < '.join(n or '?' for n, _ in ours)))
    names = {n for n, _ in theirs if n}
    anchor = next((i for i, (n, _) in enumerate(ours) if n and n in names), None)
    compared = matched = rets = rets_ok = 0
    if anchor is not None:
        j = next(k for k, (n, _) in enumerate(theirs) if n == ours[anchor][0])
        i = anchor
        while i < len(ours) and j < len(theirs):
            compared += 1
            ok = ours[i][0] == theirs[j][0]
            matched += ok
            if not ok:
                print('  differ: trace #%d %s vs drgn #%d %s' %
                      (i, ours[i][0], j, theirs[j][0]))
            if i > anchor:
                # The callee's return address (trace) is the caller's pc (drgn).
                rets += 1
                if ours[i - 1][1] == theirs[j][1]:
                    rets_ok += 1
                else:
                    print('  %s: the trace returns to %s, drgn is at %#x (another call site)'
                          % (ours[i][0], '%#x' % ours[i - 1][1] if ours[i - 1][1] else '-',
                             theirs[j][1]))
            i += 1
            j += 1
    print('frames compared %d, matched %d; return addresses compared %d, matched %d%s' %
          (compared, matched, rets, rets_ok,
           '' if anchor is not None else ' (no function in common: the trace is not of '
           'this kernel, or shows none of its panic path)'))
    if compared < want or matched != compared:
        print('FAIL')
        sys.exit(1)
    print('ok')


if __name__ == '__main__':
    main()
