#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""How much of a saved trace the panicking CPU spent after the failure.

    after_fault.py [--max-after N] [--max-own N] [--stop-at FUNC] [--sink-stop-early]
                   [--sink-stop-reason R]
                   SNAPSHOT VMLINUX CONSOLE KIND [DECODE.jsonl RING_DIR]

SNAPSHOT is `csdump snapshot` of the vmcore; KIND the crash kind (sysrq,
softlockup, warnsysrq, modirq: the failure is the call of panic(); oops, modoops,
bug: the exception the fault took; modoops and modirq run a module's code, which the snapshot
holds as csdump read it from the vmcore).  The panicking CPU is the one the console's first
"CPU: N PID" line after the script's "crashing:" names.  Its trace ID's
bytes are taken out of the sink that holds them (the session's, or with a
sink per CPU its own; our own deframer) and decoded alone by
OpenCSD's trc_pkt_lister, whose element indexes are then byte offsets
into that CPU's stream.  Prints one line:

    KIND cpu=N sink=BYTES cpu_bytes=B found=yes|no insns_after=I bytes_after=A

insns_after and bytes_after: the instructions and the bytes of that CPU's
trace from the failure to the end of the saved trace (the sink's stop);
with found=no the failure is no longer in the saved trace and both are
what the whole saved trace of that CPU holds (a lower bound).  With the
decode and the exec_ring record (check_exec.py's inputs) it also prints
executed=E: the instructions the CPU executed from the failure (the block
at panic, or the last at el1h_64_sync before it) to the end of the saved
trace, as QEMU recorded them, whether or not the sink kept them; and
to_save=S: those from the failure to the save's panic notifier
(coresight_kdump_panic), whatever the sink.

last=F: the function the CPU's last decoded range starts in.

own=O: those of insns_after that are not in an interrupt's handler (from
an IRQ or FIQ exception to the range at its return address), which the
emulation's timing does not change; --max-own N bounds them.

With --max-after N it exits 1 (after the line) unless the failure is in
the saved trace with at most N instructions of that CPU's after it; with
--stop-at F, unless the failure is in it and that CPU's trace ends in F
(its last range starts in F, or ends in a B or BL to F: F's first
instruction, where the tracer stops, gives no atom unless it branches).
to_sink_stop=T: from the record, the instructions from the failure to the
CPU's first call of a sink's stop, tmc_kdump_flush_and_stop() (a TMC) or
etb_kdump_stop() (an ETB10), at the oops (kernel patch 0027) or in the
save; --sink-stop-early fails unless that call came before panic(), and
--max-to-sink-stop N unless it came at most N instructions after the
failure (until then the other CPUs' trace goes on into the sink).

stop_reason=R: what first stopped each sink's capture, by the QEMU models'
own logs (RING_DIR/<sink>.log, "stop=1 reason=R": flush for a FlushMan
write, flushin for the FLUSHIN input, that is a CTI); --sink-stop-reason R
fails unless every sink's was R.
"""
import argparse
import bisect
import configparser
import functools
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))
import deformat  # noqa: E402
import models  # noqa: E402
import check_exec  # noqa: E402

ELEM = re.compile(r'Idx:(\d+); ID:([0-9a-fA-F]+);\s+OCSD_GEN_TRC_ELEM_(\w+)\((.*)\)')
RANGE = re.compile(r'exec range=(0x[0-9a-f]+):\[(0x[0-9a-f]+)\] num_i\((\d+)\)')
EXC = re.compile(r'excep num \((0x[0-9a-f]+)\)')
RET = re.compile(r'pref ret addr:(0x[0-9a-f]+)')
IRQS = {0xe, 0xf}                # IRQ, FIQ
# Crash kinds whose failure is the call of panic(), not a fault.
PANIC_KINDS = ('sysrq', 'softlockup', 'warnsysrq', 'modirq')
# Crash kinds whose failing CPU runs a module's code (the test device's).
MODULE_KINDS = ('modoops', 'modirq')
FAULTS = {0x3, 0x6, 0xb, 0xc}    # trap, instruction debug (BRK), faults


def symbol(vmlinux, name, _cache={}):
    if vmlinux not in _cache:
        _cache[vmlinux] = check_exec.symbols(vmlinux)
    if name not in _cache[vmlinux]:
        raise SystemExit('after_fault.py: no %s in %s' % (name, vmlinux))
    return _cache[vmlinux][name]


def panicking_cpu(console):
    seen = False
    with open(console, errors='replace') as f:
        for line in f:
            if 'crashing:' in line:
                seen = True
            m = re.search(r'CPU: (\d+) PID: \d+', line)
            if seen and m:
                return int(m.group(1))
    raise SystemExit('after_fault.py: no "CPU: N PID" line after the crash in ' + console)


@functools.lru_cache(maxsize=None)
def text_of(vmlinux):
    """vmlinux's words, read once for the three record() calls."""
    return check_exec.Text(vmlinux)


def record(rings, cpu, vmlinux, kind):
    """QEMU's record of what the CPU executed in vmlinux's text (and, for a
    crash in a module, whose code csdump decodes too, below it), as runs."""
    lo = check_exec.KERNEL_HALF if kind in MODULE_KINDS else symbol(vmlinux, '_text')
    return check_exec.oracle_runs(os.path.join(rings, 'cpu%d.ring' % cpu),
                                  (lo, symbol(vmlinux, '_etext')), text_of(vmlinux))


def failure_at(orc, upto, kind, vmlinux):
    """The record's index of the failure at or before upto: the first call
    of panic() (sysrq, softlockup) or, for a fault, the last exception entry
    before it (before upto when the trace stopped ahead of panic())."""
    panic = symbol(vmlinux, 'panic')
    at = next((j for j in range(upto + 1) if orc[j][0] == panic), None)
    if kind in PANIC_KINDS:
        return at
    entry = symbol(vmlinux, 'el1h_64_sync')
    return next((j for j in range(upto if at is None else at, -1, -1)
                 if orc[j][0] == entry), None)


def run_insns(orc, start, end):
    """Instructions of the record's runs [start, end)."""
    return sum((orc[j][1] - orc[j][0]) // 4 for j in range(start, end) if orc[j][1])


def executed(decode, rings, cpu, kind, vmlinux):
    """Instructions from the failure to the trace's end, in the record."""
    segs = check_exec.decoded_segments(decode)
    if cpu not in segs:
        return 'unknown'    # nothing of that CPU decodes
    dec = segs[cpu][-1][-200000:]
    orc = record(rings, cpu, vmlinux, kind)
    end, why = check_exec.find(dec, orc)
    if end is None:
        print('after_fault.py: the trace is not in the record: ' + why, file=sys.stderr)
        return 'unknown'
    at = failure_at(orc, end, kind, vmlinux)
    if at is None:
        return 'unknown'
    return str(run_insns(orc, at, end) + (dec[-1][1] - orc[end][0]) // 4)


def to_save(rings, cpu, kind, vmlinux):
    """Instructions from the failure to the save's panic notifier, recorded."""
    orc = record(rings, cpu, vmlinux, kind)
    save = symbol(vmlinux, 'coresight_kdump_panic')
    end = next((j for j in range(len(orc) - 1, -1, -1) if orc[j][0] == save), None)
    at = None if end is None else failure_at(orc, end, kind, vmlinux)
    return 'unknown' if at is None else str(run_insns(orc, at, end))


def own_insns(after):
    """Instructions of the elements that are not in an interrupt's handler:
    from an IRQ or FIQ exception to the range that starts at its preferred
    return address, nested."""
    n, returns = 0, []
    for _, _, k, b in after:
        e, r = EXC.search(b), RET.search(b)
        if k == 'EXCEPTION' and e and r and int(e.group(1), 16) in IRQS:
            returns.append(int(r.group(1), 16))
            continue
        m = RANGE.search(b) if k == 'INSTR_RANGE' else None
        if not m:
            continue
        if returns and int(m.group(1), 16) == returns[-1]:
            returns.pop()
        if not returns:
            n += int(m.group(3))
    return n


def function_at(vmlinux, addr):
    """The name of the vmlinux text symbol whose code holds addr."""
    syms = sorted((a, n) for n, a in check_exec.symbols(vmlinux).items())
    i = bisect.bisect_right([a for a, _ in syms], addr) - 1
    return syms[i][1] if i >= 0 else '?'


def calls(vmlinux, end, func):
    """Does the range ending at @end (exclusive) end in a B or BL to @func?

    The stop point is @func's first instruction.  The trace unit traces it
    and stops (IHI 0064H 4.3.2), but an instruction that is not a branch
    gives no atom, so unless @func begins with one the decode's last range
    is the caller's, ending at the call."""
    return text_of(vmlinux).branch_target(end - 4) == symbol(vmlinux, func)


# The sinks' flush-and-stop for kdump: the TMC's, the ETB10's.
SINK_STOPS = ('tmc_kdump_flush_and_stop', 'etb_kdump_stop')


def sink_stop(rings, cpu, kind, vmlinux):
    """(instructions from the failure to a sink's stop, stopped before
    panic()?), from the record; (None, False) when it has neither."""
    orc = record(rings, cpu, vmlinux, kind)
    syms = check_exec.symbols(vmlinux)
    stops = {syms[n] for n in SINK_STOPS if n in syms}
    if not stops:
        raise SystemExit('after_fault.py: none of %s in %s' % (', '.join(SINK_STOPS), vmlinux))
    panic = symbol(vmlinux, 'panic')
    end = next((j for j in range(len(orc)) if orc[j][0] in stops), None)
    at = None if end is None else failure_at(orc, end, kind, vmlinux)
    if at is None:
        return None, False
    before = all(orc[j][0] != panic for j in range(end))
    return run_insns(orc, at, end), before


def sink_stop_reasons(log_dir):
    """{sink: reason} of each sink's first stop of capture."""
    first = {sink: next(models.stops(log_dir, sink), None)
             for sink in models.sinks(log_dir)}
    return {sink: f['reason'] for sink, f in first.items() if f}


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument('--max-after', type=int)
    ap.add_argument('--max-own', type=int)
    ap.add_argument('--stop-at')
    ap.add_argument('--sink-stop-early', action='store_true')
    ap.add_argument('--sink-stop-reason')
    ap.add_argument('--max-to-sink-stop', type=int)
    ap.add_argument('args', nargs='+')
    opt = ap.parse_args()
    # Millions of small lists and no cycles among them: the collector
    # would only walk them again and again.
    gc.disable()
    if len(opt.args) not in (4, 6):
        sys.exit(__doc__)
    snap, vmlinux, console, kind = opt.args[:4]
    decode, rings = opt.args[4:] or (None, None)
    cpu = panicking_cpu(console)
    ini = configparser.ConfigParser()
    ini.read(os.path.join(snap, 'trace.ini'))
    etm = configparser.ConfigParser()
    etm.read(os.path.join(snap, 'etm_%d.ini' % cpu))
    regs = {k.split('(')[0].upper(): v for k, v in etm['regs'].items()}
    tid = int(regs['TRCTRACEIDR'], 0) & 0x7f
    # The sink that holds the CPU's trace: the one of the session, or, with
    # a sink per CPU (the local ETFs), its own.
    # A raw (source_data) buffer is the stream of the ETM the snapshot maps
    # to it: csdump writes one for a sink with one source.
    sink, stream = b'', b''
    own = ini['source_buffers'].get('ETM_%d' % cpu, '') if 'source_buffers' in ini else ''
    for name in ini['trace_buffers']['buffers'].split(','):
        buf = ini[name.strip()]
        with open(os.path.join(snap, buf['file']), 'rb') as f:
            data = f.read()
        if buf.get('format') == 'source_data':
            got = data if buf.get('name') == own else b''
        else:
            got = deformat.streams_of(data[:len(data) // 16 * 16]).get(tid, b'')
        if got or not sink:
            sink, stream = data, got
        if got:
            break
    panic = symbol(vmlinux, 'panic')
    with tempfile.TemporaryDirectory() as tmp:
        one = os.path.join(tmp, 'snap')
        shutil.copytree(snap, one)
        with open(os.path.join(one, 'stream.bin'), 'wb') as f:
            f.write(stream)
        t = configparser.ConfigParser()
        t.optionxform = str
        t['trace_buffers'] = {'buffers': 'buffer0'}
        t['buffer0'] = {'name': 'stream', 'file': 'stream.bin', 'format': 'source_data'}
        t['core_trace_sources'] = {'cpu_%d' % cpu: 'ETM_%d' % cpu}
        t['source_buffers'] = {'ETM_%d' % cpu: 'stream'}
        with open(os.path.join(one, 'trace.ini'), 'w') as f:
            t.write(f)
        subprocess.run(['trc_pkt_lister', '-ss_dir', one, '-decode',
                        '-logfilename', os.path.join(tmp, 'l.ppl')],
                       stdout=subprocess.DEVNULL, check=True, cwd=tmp)
        with open(os.path.join(tmp, 'l.ppl'), errors='replace') as f:
            elems = [m.groups() for m in map(ELEM.search, f) if m]
    # The failure: the first call of panic() (sysrq, softlockup), or the
    # last fault exception before it (oops, bug).
    at = None
    for i, (idx, _, kind_e, body) in enumerate(elems):
        if kind_e == 'INSTR_RANGE':
            r = RANGE.search(body)
            if r and int(r.group(1), 16) == panic:
                if kind in PANIC_KINDS:
                    at = i
                break
        if kind_e == 'EXCEPTION' and kind not in PANIC_KINDS:
            e = EXC.search(body)
            if e and int(e.group(1), 16) in FAULTS:
                at = i
    after = elems[at:] if at is not None else elems
    insns = sum(int(RANGE.search(b).group(3)) for _, _, k, b in after
                if k == 'INSTR_RANGE' and RANGE.search(b))
    first = int(after[0][0]) if after else len(stream)
    ranges = [RANGE.search(b) for _, _, k, b in elems if k == 'INSTR_RANGE']
    ranges = [r for r in ranges if r]
    last = function_at(vmlinux, int(ranges[-1].group(1), 16)) if ranges else 'none'
    own = own_insns(after) if at is not None else 0
    line = ('%s cpu=%d sink=%d cpu_bytes=%d found=%s insns_after=%d own=%d bytes_after=%d last=%s'
            % (kind, cpu, len(sink), len(stream), 'yes' if at is not None else 'no',
               insns, own, len(stream) - first, last))
    before_panic = False
    to_stop = None
    if rings:
        line += ' executed=' + executed(decode, rings, cpu, kind, vmlinux)
        line += ' to_save=' + to_save(rings, cpu, kind, vmlinux)
        to_stop, before_panic = sink_stop(rings, cpu, kind, vmlinux)
        line += ' to_sink_stop=%s%s' % (to_stop, ' (before panic)' if before_panic else '')
    reasons = sink_stop_reasons(rings) if rings else {}
    if reasons:
        line += ' stop_reason=' + ','.join('%s:%s' % kv for kv in sorted(reasons.items()))
    print(line)
    if opt.sink_stop_reason and (not reasons or
                                 set(reasons.values()) != {opt.sink_stop_reason}):
        sys.exit('after_fault.py: FAIL: the sinks\' capture did not stop by %s first'
                 % opt.sink_stop_reason)
    if opt.sink_stop_early and not before_panic:
        sys.exit('after_fault.py: FAIL: the sink did not stop before panic() was called')
    if opt.max_to_sink_stop is not None and (to_stop is None or
                                             to_stop > opt.max_to_sink_stop):
        sys.exit('after_fault.py: FAIL: %s of the failing CPU\'s instructions from the'
                 ' failure to the sinks\' stop, more than %d'
                 % (to_stop, opt.max_to_sink_stop))
    checks = opt.max_after is not None or opt.max_own is not None or opt.stop_at
    if checks and at is None:
        sys.exit('after_fault.py: FAIL: the failure is not in the saved trace')
    if opt.max_after is not None and insns > opt.max_after:
        sys.exit('after_fault.py: FAIL: %d instructions after the failure, more than %d'
                 % (insns, opt.max_after))
    if opt.max_own is not None and own > opt.max_own:
        sys.exit('after_fault.py: FAIL: %d instructions after the failure outside interrupt'
                 ' handlers, more than %d' % (own, opt.max_own))
    if opt.stop_at and last != opt.stop_at and not (
            ranges and calls(vmlinux, int(ranges[-1].group(2), 16), opt.stop_at)):
        sys.exit('after_fault.py: FAIL: the trace ends in %s, not %s nor at a call of it'
                 % (last, opt.stop_at))


if __name__ == '__main__':
    main()
