#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""check_stop.py VMCORE VMLINUX CONSOLE KIND OUT: what stopped each CPU's trace.

The registry records of record ABI version 2 say, per tracer, what stopped
its trace (kernel patches 0028-0029, docs/record-abi.md), and csdump prints
it and marks the fault in its decode.  Judged against sources that are not
the records' writer:

- the failing CPU and, for an oops, the faulting instruction: the kernel's
  own oops report in CONSOLE ("CPU: N PID: ...", "pc : name+0xoff/0xsize",
  resolved with VMLINUX's symbol table);
- the CPUs the crash-stop IPI stopped: the vmcore's NT_PRSTATUS notes, which
  crash_save_cpu() wrote from that CPU's interrupted registers (their
  program counters, as a multiset: the notes do not name their CPU);
- the records are read by the tests' own ABI walker (tests/e2e/
  vmcore_registry.py), not by csdump.

Then csdump's decode of the vmcore (OUT/decode.jsonl and OUT/decode.txt of
decode_check.sh) must say the same: for an oops, one exception marked
"fault" on the failing CPU, returning to the faulting instruction; per CPU,
a "trace stopped" line with the reason.

KIND is the scenario's crash kind: oops (a kernel fault with
panic_on_oops), bug, or sysrq/softlockup (a direct panic()).
--sink REASON: what each saved sink's record must say stopped it (fault
when kernel patch 0027 stopped it at the oops, panic when its save did).
A sink of one CPU (a TRBE: its record names the CPU, kernel patch 0035)
is saved by that CPU: another CPU's says ipi, at that CPU's IPI address,
and only the failing CPU's says REASON.
--no-mark: the trace is etm4enc's, not what the guest ran; the fault's
exception is not in it to be marked.
--ipi-in-trace: each CPU that the crash-stop IPI stopped has the IPI in
the saved trace (a sink that was not stopped before the IPIs came): the
last IRQ exception whose preferred return address is the record's
stop_addr, followed by crash_save_cpu() (an idle CPU returns to the same
wfi from every interrupt: the address alone does not tell the IPI); the
instructions after it, up to the end of that CPU's trace, are printed.
--ipi-stop SYMBOL: with --ipi-in-trace, each such CPU's trace must also
end in the block that holds SYMBOL's first instruction (vmlinux's nm): its
tracer's stop point for the crash-stop IPI (kernel patch 0031).
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, os.path.join(HERE, "oracle"))
import vmcore_registry  # noqa: E402
import after_fault  # noqa: E402
import check_exec  # noqa: E402

NT_PRSTATUS = 1
PRSTATUS_PC = 112 + 32 * 8      # struct elf_prstatus: pr_reg at 112, pc = pr_reg[32]


def fail(msg):
    print("FAIL  stop: " + msg)
    sys.exit(1)


def prstatus_pcs(core):
    """Program counters of the vmcore's NT_PRSTATUS notes, in note order."""
    pcs, off, notes = [], 0, core.notes
    while off + 12 <= len(notes):
        namesz, descsz, ntype = struct.unpack_from("<III", notes, off)
        off += 12
        name = notes[off:off + namesz].rstrip(b"\0")
        off += (namesz + 3) & ~3
        desc = notes[off:off + descsz]
        off += (descsz + 3) & ~3
        if name == b"CORE" and ntype == NT_PRSTATUS and len(desc) >= PRSTATUS_PC + 8:
            pcs.append(struct.unpack_from("<Q", desc, PRSTATUS_PC)[0])
    return pcs


def module_symbol(console, kos, module, name):
    """The address of function NAME of MODULE: its offset in the module's
    .text (the .ko's own symbol table) above where the kernel loaded that
    .text (init.c's "module PATH loaded, .text at ADDR" line, from sysfs)."""
    ko = next((k for k in kos if os.path.basename(k).split(".")[0].replace("-", "_")
               == module), None)
    if ko is None:
        fail(f"the oops is in module {module}; no --module .ko for it")
    base = None
    with open(console, errors="replace") as f:
        for line in f:
            m = re.search(r"module (\S+) loaded, \.text at (0x[0-9a-f]+)", line)
            if m and os.path.basename(m.group(1)) == os.path.basename(ko):
                base = int(m.group(2), 16)
    if base is None:
        fail(f"no .text address of {module} in {console}")
    out = subprocess.run(["nm", "--defined-only", ko], capture_output=True, text=True,
                         check=True).stdout
    for f3 in (line.split() for line in out.splitlines()):
        if len(f3) == 3 and f3[1] in "tT" and f3[2] == name:
            return base + int(f3[0], 16)
    fail(f"{name} is not a .text symbol of {ko}")


def oops_report(console, vmlinux, kos=()):
    """(CPU, pc) of the first oops report after the crash began."""
    syms = check_exec.symbols(vmlinux)
    seen, cpu = False, None
    with open(console, errors="replace") as f:
        for line in f:
            if "crashing:" in line:
                seen = True
            if not seen:
                continue
            m = re.search(r"CPU: (\d+) PID: \d+", line)
            if m and cpu is None:
                cpu = int(m.group(1))
            m = re.search(r"\bpc : ([\w.]+)\+0x([0-9a-f]+)/0x[0-9a-f]+ \[(\w+)\]", line)
            if m and cpu is not None:
                return cpu, (module_symbol(console, kos, m.group(3), m.group(1)) +
                             int(m.group(2), 16))
            m = re.search(r"\bpc : ([\w.]+)\+0x([0-9a-f]+)/0x[0-9a-f]+", line)
            if m and cpu is not None:
                if m.group(1) not in syms:
                    fail(f"the oops' pc symbol {m.group(1)} is not in {vmlinux}")
                return cpu, syms[m.group(1)] + int(m.group(2), 16)
    fail(f"no oops report (CPU: N PID, pc : ...) after the crash in {console}")


def text_stops(path):
    """{cpu: the "trace stopped" line of its block} of csdump's text decode."""
    stops, cpu = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r"CPU (\d+) \(trace ID", line)
            if m:
                cpu = int(m.group(1))
            elif cpu is not None and line.startswith("  -- trace stopped: "):
                stops[cpu] = line[len("  -- trace stopped: "):].strip()
    return stops


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("vmcore")
    ap.add_argument("vmlinux")
    ap.add_argument("console")
    ap.add_argument("kind")
    ap.add_argument("out")
    ap.add_argument("--sink", choices=("fault", "panic"), default="panic")
    ap.add_argument("--ipi-in-trace", action="store_true",
                    help="every other CPU's trace holds the crash-stop IPI")
    ap.add_argument("--ipi-stop", metavar="SYMBOL",
                    help="with --ipi-in-trace: each other CPU's trace ends at SYMBOL")
    ap.add_argument("--module", action="append", default=[], metavar="KO",
                    help="a module the guest loaded, to resolve an oops' pc in it")
    ap.add_argument("--no-mark", action="store_true",
                    help="trace that is not the guest's execution (etm4enc's): "
                         "no fault mark to look for")
    args = ap.parse_args()

    core = vmcore_registry.Vmcore(args.vmcore)
    _, _, records = vmcore_registry.walk(core)
    tracers = [r for r in records if r["kind"] == vmcore_registry.KIND_META]
    sinks = [r for r in records
             if r["kind"] == vmcore_registry.KIND_TRACE and r["flags"] & 1]
    if not tracers or not sinks:
        fail(f"{len(tracers)} tracer and {len(sinks)} saved sink records")
    old = [r["name"] for r in records if r["version"] < 2]
    if old:
        fail("records of version 1: " + " ".join(old))

    fault = args.kind in ("oops", "modoops", "bug")
    if fault:
        cpu, pc = oops_report(args.console, args.vmlinux, args.module)
        want = ("fault", pc)
    else:
        cpu = after_fault.panicking_cpu(args.console)
        want = ("panic", 0)
    by_cpu = {r["cpu"]: r for r in tracers}
    if cpu not in by_cpu:
        fail(f"no tracer record for the failing CPU {cpu}")
    got = (by_cpu[cpu]["stop_reason"], by_cpu[cpu]["stop_addr"])
    if got != want:
        fail(f"CPU {cpu} (failing): record says {got[0]} at 0x{got[1]:x}, the "
             f"console says {want[0]} at 0x{want[1]:x}")
    print(f"ok    stop: failing CPU {cpu}: {want[0]}" +
          (f" at 0x{pc:x}, the oops' pc" if fault else ""))

    pcs = prstatus_pcs(core)
    others = [r for r in tracers if r["cpu"] != cpu]
    for r in others:
        if r["stop_reason"] != "ipi":
            fail(f"CPU {r['cpu']}: record says {r['stop_reason']}, expected ipi")
        if r["stop_addr"] not in pcs:
            fail(f"CPU {r['cpu']}: IPI at 0x{r['stop_addr']:x}, in no crash note "
                 f"({len(pcs)} notes)")
        pcs.remove(r["stop_addr"])
    print(f"ok    stop: {len(others)} other CPU(s): ipi, each at the pc of a crash note")
    ipi_at = {r["cpu"]: r["stop_addr"] for r in others}
    for r in sinks:
        want_sink = (args.sink, None)
        if r["cpu"] >= 0 and r["cpu"] != cpu:
            want_sink = ("ipi", ipi_at.get(r["cpu"]))
        if r["stop_reason"] != want_sink[0] or \
           want_sink[1] is not None and r["stop_addr"] != want_sink[1]:
            fail(f"sink {r['name']} (CPU {r['cpu']}): record says {r['stop_reason']} "
                 f"at 0x{r['stop_addr']:x}, expected {want_sink[0]}" +
                 (f" at 0x{want_sink[1]:x}" if want_sink[1] is not None else ""))
    cpu_sinks = sum(1 for r in sinks if r["cpu"] >= 0 and r["cpu"] != cpu)
    print(f"ok    stop: {len(sinks)} sink(s): {args.sink}" +
          (f", but {cpu_sinks} other CPUs' own, ipi where their tracers stopped"
           if cpu_sinks else ""))

    marked, events, last, before_fault = [], [], {}, None
    with open(os.path.join(args.out, "decode.jsonl")) as f:
        for line in f:
            if '"fault":true' in line:
                marked.append(json.loads(line))
                before_fault = last.get(marked[-1].get("cpu"))
            elif '"cpu"' in line and '"type":"range"' in line or '"no_image"' in line:
                e = json.loads(line)
                last[e.get("cpu")] = e
            if args.ipi_in_trace and ('"exception"' in line or '"range"' in line):
                events.append(json.loads(line))
    if args.ipi_stop:
        stop_sym = check_exec.symbols(args.vmlinux)[args.ipi_stop]
    for r in others if args.ipi_in_trace else []:
        mine = [e for e in events if e.get("cpu") == r["cpu"]]
        at = [i for i, e in enumerate(mine) if e["type"] == "exception" and
              e.get("number") in (14, 15) and int(e.get("ret", "0"), 16) == r["stop_addr"]]
        if not at:
            fail(f"CPU {r['cpu']}: no IRQ returning to 0x{r['stop_addr']:x} (the crash-stop "
                 f"IPI) in its {len(mine)} decoded events")
        ranges = [e for e in mine[at[-1]:] if e["type"] == "range"]
        if not any(e.get("sym", "").startswith("crash_save_cpu") for e in ranges):
            fail(f"CPU {r['cpu']}: its last IRQ returning to 0x{r['stop_addr']:x} is not "
                 f"the crash-stop IPI: no crash_save_cpu() after it")
        after = sum(e["n_instr"] for e in ranges)
        print(f"ok    stop: CPU {r['cpu']}'s trace holds the crash-stop IPI that interrupted "
              f"0x{r['stop_addr']:x}, and {after} instructions after it")
        if args.ipi_stop:
            last = ranges[-1:]
            if not last or not (int(last[0]["start"], 16) <= stop_sym <=
                                int(last[0]["end"], 16)):
                fail(f"CPU {r['cpu']}: its trace ends in "
                     f"{last[0]['sym'] if last else 'nothing'}, not at {args.ipi_stop} "
                     f"(0x{stop_sym:x})")
            print(f"ok    stop: CPU {r['cpu']}'s trace ends at {args.ipi_stop}")
    if args.no_mark:
        pass
    elif fault:
        if len(marked) != 1:
            fail(f"csdump marked {len(marked)} exceptions as the fault, expected 1")
        ev = marked[0]
        if ev.get("type") != "exception" or ev.get("cpu") != cpu or \
                int(ev.get("ret", "0"), 16) != pc:
            fail(f"csdump marked {ev} as the fault, expected CPU {cpu}'s "
                 f"exception returning to 0x{pc:x}")
        print(f"ok    stop: csdump marks CPU {cpu}'s exception returning to 0x{pc:x} "
              f"as the fault ({ev.get('what', ev.get('name', '?'))})")
        # The instructions up to the faulting one decode: a range ends there
        # (the faulting instruction did not complete, so the range ends at it).
        b = before_fault or {}
        if b.get("type") != "range" or int(b.get("end", "0"), 16) != pc:
            fail(f"CPU {cpu}: before the fault csdump decoded {b or 'nothing'}, not a "
                 f"range up to the faulting instruction 0x{pc:x}")
        print(f"ok    stop: CPU {cpu}'s code up to the faulting instruction decodes "
              f"({b['start']}-{b['end']} {b.get('sym', '')})")
    elif marked:
        fail(f"csdump marked {len(marked)} exceptions as a fault after a {args.kind}")

    stops = text_stops(os.path.join(args.out, "decode.txt"))
    expect = {cpu: ("an oops on this CPU, at %016x" % pc) if fault else "panic() on this CPU"}
    expect.update({r["cpu"]: "the crash-stop IPI, which interrupted %016x" % r["stop_addr"]
                   for r in others})
    for c, text in sorted(expect.items()):
        if c in stops and not stops[c].startswith(text):
            fail(f"csdump's text says CPU {c}'s trace stopped: {stops[c]!r}, expected {text!r}")
    shown = sorted(c for c in expect if c in stops)
    if cpu not in stops:
        fail(f"csdump's text has no 'trace stopped' line for the failing CPU {cpu}")
    print(f"ok    stop: csdump's text says why, for CPUs {' '.join(map(str, shown))}")


if __name__ == "__main__":
    main()
