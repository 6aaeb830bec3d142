#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check one crash of the emulated CoreSight hardware against the models' log.

    check_hw.py --console LOG --vmcore VMCORE --sink NAME --held FILE
                --streams DIR --expect exact|wrapped|none|failed
                [--sink NAME --held FILE [--held-rwp N] --expect E]...
                [--devices "etm0 ... tmc_etf0"] [--console-expect TEXT]...
                [--allow TEXT]...
                [--etm-regs FILE] [--extract DIR]

The oracles share nothing with csdump: what the emulated sink held when it
last stopped (--held, written by the QEMU model outside the guest), the
per-CPU streams the emulated ETMs were given (--streams DIR/etm<N>.bin), an
independent walk of the vmcore by the record ABI (tests/e2e/vmcore_registry.py),
the tests' own deframer (tests/decode/frames.py) and, for the ETM records,
the register values the models report (--etm-regs, "cpu REG value" lines).

--expect exact: the sink did not wrap and holds the start of every stream;
wrapped: it wrapped, the record starts with a barrier packet; none: the
session ended before the crash and the registry holds no trace; failed: the
sink's save had to fail (a fault injected in the model), its record says
FAILED and not SAVED, the tracers' records are there.

Each --sink, with its own --held, --held-rwp and --expect in the same
order (one --expect for all of them, or one each), is checked: a session
whose tracers each have a sink of their own (the local ETF topology).
"""
import argparse
import os
import re
import struct
import sys
import zlib

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "e2e"))
import check_scenario  # noqa: E402
import deformat  # noqa: E402  (the tests' own deframer, tests/decode/frames.py)
import models  # noqa: E402  (the models' own logs, tests/e2e-hw/models.py)
import snapshot_regs  # noqa: E402
import vmcore_registry  # noqa: E402

BARRIER = check_scenario.BARRIER
# perf's ETMv4 block as the series records it (docs/record-abi.md): magic,
# cpu, count, then these registers in this order.
META_REGS = snapshot_regs.REGS


class Vmcore(vmcore_registry.Vmcore):
    """The ABI walker's vmcore, which reads through PT_LOAD segments only
    (the linear map and the kernel image), with drgn (python3-drgn, the
    kernel's own page tables, with VMLINUX) for the addresses outside them:
    a TMC-ETR scatter-gather buffer's vmap() address."""

    def __init__(self, path, vmlinux):
        super().__init__(path)
        self.vmlinux, self.prog = vmlinux, None

    def read(self, vaddr, size):
        try:
            return super().read(vaddr, size)
        except vmcore_registry.VmcoreError:
            if not self.vmlinux:
                raise
        if self.prog is None:
            import drgn
            self.prog = drgn.Program()
            self.prog.set_core_dump(self.path)
            self.prog.load_debug_info([self.vmlinux])
        return self.prog.read(vaddr, size)


def check_console(c, log, extra, devices, allow):
    with open(log, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    for pat in check_scenario.FORBIDDEN:
        lines = [ln for ln in text.splitlines() if pat in ln and
                 not any(a in ln for a in allow)]
        c.ok(not lines, f"console: no '{pat.strip()}'" +
             (f" (found: {lines[0].strip()})" if lines else ""))
    for pat in ["Kernel panic - not syncing", "Starting crashdump kernel",
                "e2e-init: vmcore saved"] + extra:
        c.ok(pat in text, f"console: '{pat}'")
    if devices:
        line = next((ln for ln in text.splitlines()
                     if "e2e-init: ls /sys/bus/coresight/devices:" in ln), "")
        have = set(line.split(":", 2)[-1].split())
        missing = sorted(set(devices.split()) - have)
        c.ok(line and not missing, "stock drivers probed: " +
             (" ".join(sorted(have)) if not missing else f"missing {missing}"))
    return text


def record_bytes(c, core, rec, name):
    """The record's data, in trace order, and a check of its CRC."""
    data = vmcore_registry.record_data(core, rec)
    c.ok(zlib.crc32(data) == rec["data_crc"],
         f"{name}: CRC 0x{rec['data_crc']:08x} matches the data")
    return data


def check_trbe_stale(c, core, rec, flags, name, cpu, streams, qemu_log):
    """A TRBE whose CPU never answered the crash-stop IPI (the CPU that held
    the registry lock, interrupts off): the panicking CPU saved it without
    its write pointer, the whole AUX buffer.  A piece of MIN_TRBE_TAIL bytes
    of what its ETE emitted, among the last the buffer can hold, is in it
    (somewhere: it may have wrapped).  Not necessarily the very last: with
    interrupts off the CPU cannot restart a TRBE that filled, which then
    discards the rest.  How much that is depends on how long the CPU went
    on after the stop (it spins for 10 s, on the host's clock: 5.97 MB in
    one loaded CI run), so when QEMU's log says the TRBE stopped (TRBSR.S),
    the piece may come from anywhere in the stream."""
    c.ok(flags == {"SAVED", "IN_PLACE", "WRAPPED", "STALE"},
         f"{name}: flags {rec['flag_names']}: saved stale, the whole buffer")
    c.ok(rec["cpu"] == cpu and rec["data_len"] == rec["capacity"] and
         rec["data_offset"] == 0,
         f"{name}: CPU {rec['cpu']}, {rec['data_len']} of {rec['capacity']} bytes "
         f"from offset {rec['data_offset']}")
    c.ok(rec["stop_reason"] == "panic",
         f"{name}: stopped by the panic's save, not at an IPI ({rec['stop_reason']})")
    data = record_bytes(c, core, rec, name)
    tid = 0x10 + 2 * cpu
    src, ring = streams.get(tid, b""), data + data
    stopped = bool(qemu_log) and models.trbe_stopped(qemu_log, cpu)
    lo = 0 if stopped else max(0, len(src) - 2 * len(data))
    k = len(src) - MIN_TRBE_TAIL
    while k >= lo and src[k:k + MIN_TRBE_TAIL] not in ring:
        k -= MIN_TRBE_TAIL // 2
    found = k >= lo and len(src) >= MIN_TRBE_TAIL
    c.ok(found, f"{name}: {MIN_TRBE_TAIL} bytes of CPU {cpu}'s ETE stream are in it"
         + (f", from byte {k} of {len(src)} (the {len(src) - k - MIN_TRBE_TAIL} "
            f"after them were discarded or are not in this piece"
            f"{'; QEMU logged the TRBE stop' if stopped else ''})" if found else
            f" (searched from byte {lo} of {len(src)})"))
    return data, rec["trace_id"], [tid]


def check_trbe(c, core, rec, flags, name, streams, holder=None, qemu_log=None):
    """A TRBE's record (kernel patches 0035-0036): the part of its CPU's perf
    AUX buffer it wrote since it last started, raw, in place, up to where
    it stopped writing at panic.  Its ETE went on emitting into it, so the
    data is the last bytes that ETE emitted (QEMU's record,
    models/etmN.bin), at least MIN_TRBE_TAIL of them."""
    cpu = int(name[len("trbe"):])
    # Record version 3: the TRBSR_EL1 its CPU read (none for a stale one).
    st = rec.get("sink_status")
    c.ok(st is not None and not st & TRBSR_BAD and not ("STALE" in flags and st),
         f"{name}: sink_status (TRBSR) {st if st is None else hex(st)}: no fault, "
         "trigger or abort" + (", none read (stale)" if "STALE" in flags else ""))
    if holder == cpu:
        # It held the registry lock with its interrupts off for 10 s, past
        # the crash-stop IPI's 1 s and the walk: the walk saved its TRBE, and
        # its late answer, while the capture kernel ran, wrote nothing
        # (kernel patch 0039; before it, that answer rewrote the record).
        c.ok("STALE" in flags, f"{name}: CPU {cpu} held the registry lock with "
             f"interrupts off: saved stale by the walk ({rec['flag_names']})")
    if "STALE" in flags:
        return check_trbe_stale(c, core, rec, flags, name, cpu, streams, qemu_log)
    c.ok(flags == {"SAVED", "IN_PLACE"},
         f"{name}: flags {rec['flag_names']}: saved, in place, raw, not wrapped")
    c.ok(rec["cpu"] == cpu, f"{name}: the record names CPU {rec['cpu']}")
    tid = 0x10 + 2 * cpu
    c.ok(rec["trace_id"] == tid, f"{name}: its one source is CPU {cpu}'s "
         f"trace unit (trace ID 0x{rec['trace_id']:x}, expected 0x{tid:x})")
    data = record_bytes(c, core, rec, name)
    src = streams.get(tid, b"")
    if st is not None and st & TRBSR_S:
        # It had stopped (filled, its interrupt not taken) and was not started
        # again: what it wrote ends where it stopped, and its ETE's later
        # bytes were discarded (seen in CI before kernel patch 0039: the CPU
        # holding the registry lock, interrupts off, answered the IPI after
        # the walk and saved its TRBE then, 32 MB discarded after a 512 KiB
        # chunk).
        k = src.find(data)
        c.ok(len(data) >= MIN_TRBE_TAIL and k >= 0,
             f"{name}: stopped before the save (TRBSR.S): its {len(data)} bytes (at "
             f"least {MIN_TRBE_TAIL}) are bytes {k} to {k + len(data)} of the "
             f"{len(src)} CPU {cpu}'s ETE emitted")
    else:
        # As many bytes as the TRBE wrote since it last started, by QEMU's
        # log of its enables; without the log at least MIN_TRBE_TAIL.  A
        # CPU whose TRBE perf restarted just before the panic holds only a
        # few KiB (3,652 in one CI run: the rest is in its AUX buffer).
        run = models.trbe_last_run(qemu_log, cpu) if qemu_log else None
        want = (f"the {run} it wrote since it last started, by QEMU's log"
                if run is not None else f"at least {MIN_TRBE_TAIL}")
        c.ok((len(data) == run if run is not None else len(data) >= MIN_TRBE_TAIL)
             and data and src.endswith(data),
             f"{name}: its {len(data)} bytes ({want}) are the last "
             f"bytes CPU {cpu}'s ETE emitted (of {len(src)})")
    return data, rec["trace_id"], [tid]


def check_sink(c, core, records, a, held, streams):
    """One sink: a.sink, a.expect and a.held_rwp are its own."""
    sinks = [r for r in records if r["kind"] == vmcore_registry.KIND_TRACE]
    if a.expect == "none":
        c.ok(not sinks, f"registry: no trace record after the session ended "
             f"({[r['name'] for r in sinks]})")
        return None, None, []
    rec = next((r for r in sinks if r["name"] == a.sink), None)
    if not c.ok(rec is not None, f"registry: a trace record {a.sink} "
                f"(have {[r['name'] for r in sinks]})"):
        return None, None, []
    flags = set(rec["flag_names"])
    if a.expect == "trbe":
        return check_trbe(c, core, rec, flags, a.sink, streams, a.holder, a.qemu_log)
    if a.expect == "failed":
        c.ok("FAILED" in flags and "SAVED" not in flags,
             f"{a.sink}: flags {rec['flag_names']}: FAILED, not SAVED")
        return None, None, []
    c.ok("SAVED" in flags and "FORMATTED" in flags,
         f"{a.sink}: flags {rec['flag_names']}")
    c.ok(("WRAPPED" in flags) == (a.expect == "wrapped"),
         f"{a.sink}: WRAPPED {'set' if 'WRAPPED' in flags else 'clear'} "
         f"({a.expect})")
    data = record_bytes(c, core, rec, a.sink)
    # Whole frames only.  A wrapped RAM is read from the first frame
    # boundary at or after the write pointer (the oldest word): a partly
    # overwritten frame is dropped, and the barrier replaces the first
    # frame.  With the write pointer off a frame boundary (etb10-unaligned)
    # the data ends at the last whole frame before it.
    skip = -a.held_rwp % 16 if a.expect == "wrapped" else 0
    frames = held[skip:len(held) - (len(held) - skip) % 16]
    want = BARRIER + frames[16:] if a.expect == "wrapped" else frames
    c.ok(data == want, f"{a.sink}: the {len(data)} bytes in the vmcore are "
         f"what the emulated sink held at its stop ({len(held)} bytes"
         f"{', barrier first' if a.expect == 'wrapped' else ''}"
         f"{f', from the frame boundary {skip} bytes after RWP 0x{a.held_rwp:x}' if skip else ''})")
    # What the sink held is the ETMs' streams, framed: each trace ID's
    # bytes are a piece of what its ETM was given (its start, unless the
    # sink wrapped).
    # A sink whose record names its one source (record ABI version 2): the
    # bytes no ID change claims are that source's.
    one = rec["trace_id"] or None
    got = deformat.streams_of(frames, one)
    # A sink that wrapped inside one source's run starts with bytes of no
    # ID (the wrap overwrote it; a formatter writes one only when the source
    # changes), and holds none at all when that run fills it.  Those bytes
    # are a piece of the stream of the ETM whose run it was.
    lead = b"" if one or a.expect != "wrapped" else \
        bytes(deformat.frames.deframe(frames).get(None, b""))
    c.ok(bool(got) or bool(lead), f"{a.sink}: trace IDs {sorted(hex(t) for t in got)}"
         f"{f' (the record names 0x{one:x} its one source)' if one else ''}"
         f"{f', and {len(lead)} bytes before the first ID' if lead else ''}")
    if lead:
        owners = [hex(t) for t, src in sorted(streams.items())
                  if (src * (len(lead) // max(len(src), 1) + 2)).find(lead) >= 0]
        c.ok(bool(owners), f"{a.sink}: its {len(lead)} bytes before the first trace "
             f"ID are a piece of the stream of the ETM of trace ID {', '.join(owners)}")
    for tid, b in sorted(got.items()):
        src = streams.get(tid)
        if src is None:
            c.ok(False, f"trace ID 0x{tid:x}: no ETM was given a stream for it")
            continue
        # An ETM emits its stream at each enable: a perf session's
        # schedule-ins repeat it.
        rep = src * (len(b) // max(len(src), 1) + 2)
        pos = rep.find(b) if a.expect == "wrapped" else (0 if rep.startswith(b) else -1)
        c.ok(pos >= 0 and len(b) > 0,
             f"trace ID 0x{tid:x}: {len(b)} bytes = the ETM's stream "
             f"(of {len(src)} bytes, repeated) from byte {pos % max(len(src), 1)}")
    return data, one, sorted(got)


# TRBSR_EL1 (DDI 0487J): what must not be there: an EC other than "other"
# (a fault), TRG, EA (ABORT).
TRBSR_BAD = (0x3f << 26) | (1 << 21) | (1 << 18)
TRBSR_S = 1 << 17       # collection stopped (DDI 0487J D10)

# A TRBE's data must end with at least this many bytes of its ETE's output
# (about two A-Sync periods of the 6.1 driver's TRCSYNCPR, 4 KiB).
MIN_TRBE_TAIL = 8192

# perf's per-CPU blocks (tools/perf/util/cs-etm.h): ETMv4 and ETE (kernel
# patch 0034), by magic: the ETE's adds TRCDEVARCH.
BLOCKS = {"ETMv4": (0x4040404040404040, META_REGS),
          "ETE": (0x5050505050505050, META_REGS + ("TRCDEVARCH",))}


def check_etms(c, core, records, etm_regs, cpus, which, console, kind):
    metas = {r["cpu"]: r for r in records
             if r["kind"] == vmcore_registry.KIND_META}
    if which == "saved":
        # A per-thread session's tracers join at setup; only those its
        # event ran on leave metadata, the panicking CPU's among them.
        m = re.search(r"CPU: (\d+) PID: \d+ Comm: init", console)
        crash_cpu = int(m.group(1)) if m else -1
        cpus = sorted(cpu for cpu, r in metas.items() if "SAVED" in r["flag_names"])
        c.ok(crash_cpu in cpus, f"ETM metadata saved for CPUs {cpus}, the "
             f"panicking CPU {crash_cpu} among them")
    for cpu in cpus:
        rec = metas.get(cpu)
        if not c.ok(rec is not None, f"cpu {cpu}: {kind} metadata record"):
            continue
        data = vmcore_registry.record_data(core, rec)
        c.ok(zlib.crc32(data) == rec["data_crc"], f"cpu {cpu}: CRC matches")
        magic, names = BLOCKS[kind]
        n = 3 + len(names)
        vals = struct.unpack(f"<{n}Q", data) if len(data) == 8 * n else ()
        c.ok(vals[:3] == (magic, cpu, len(names)),
             f"cpu {cpu}: perf's {kind} block: {len(data)} bytes, magic, CPU "
             f"and {len(names)} parameters")
        regs = dict(zip(names, vals[3:])) if vals else {}
        want = etm_regs.get(cpu, {})
        for name in names:
            if name not in want:
                continue
            c.ok(regs.get(name) == want[name],
                 f"cpu {cpu}: {name} 0x{regs.get(name, -1):x} = the emulated "
                 f"register 0x{want[name]:x}")


def read_etm_regs(path):
    """'cpu NAME value' lines (the ETM models' log) -> {cpu: {NAME: value}}."""
    out = {}
    if not path:
        return out
    with open(path) as f:
        for ln in f:
            p = ln.split()
            if len(p) == 3 and p[0].isdigit():
                out.setdefault(int(p[0]), {})[p[1]] = int(p[2], 0)
    return out


def check_quiet(c, console, start, end):
    """Between the console line holding START and the next one holding END,
    only the init's own lines: the kernel logged nothing while the session
    ran through the context switches (issue 14, item 2: nothing that runs
    under the runqueue lock prints).  END's line says how many turns the
    init's two tasks took (each turn two context switches)."""
    lines = console.splitlines()
    i = next((n for n, ln in enumerate(lines) if start in ln), None)
    j = next((n for n, ln in enumerate(lines) if i is not None and n > i and
              end in ln), None)
    if i is None or j is None:
        c.ok(False, f"console: '{start}' ... '{end}'")
        return
    m = re.search(r"(\d+) turns", lines[j])
    turns = int(m.group(1)) if m else 0
    c.ok(turns >= 100, f"console: {turns} yield turns (>= 100) in the session")
    noise = [ln for ln in lines[i + 1:j] if not ln.startswith("e2e-init: ")]
    c.ok(not noise, f"console: no kernel line during {2 * turns} context "
         "switches" + (f" (found: {noise[0].strip()})" if noise else ""))


def check_qemu_log(c, path):
    """No register write the guest made was lost: the models log each one
    they ignore because a lock was set (-d guest_errors), as the hardware
    would ignore it (CoreSight architecture, IHI 0029, "Software lock";
    ETMv4, IHI 0064, the OS Lock)."""
    with open(path, errors="replace") as f:
        lost = [ln.strip() for ln in f if re.search(r"ignored: (software|OS) lock set", ln)]
    c.ok(not lost, f"qemu: no register write ignored under a lock"
         + (f" ({len(lost)}, first: {lost[0]})" if lost else ""))


def check_catu(c, path):
    """The ETR's buffer went through the CATU: the guest set its translate
    mode (MODE 1) and a first table (SLADDR), and no translation failed
    (the model logs an address error under -d guest_errors)."""
    with open(path, errors="replace") as f:
        log = f.read()
    mode = re.search(r"catu0: write 0x004 <- 0x1\b", log)
    sladdr = re.findall(r"catu0: write 0x020 <- (0x[0-9a-f]+)", log)
    c.ok(mode and any(int(a, 16) for a in sladdr),
         "catu: the guest set translate mode, first table at "
         + (sladdr[-1] if sladdr else "none"))
    err = re.search(r"catu0: address error at .*", log)
    c.ok(not err, "catu: no translation failed"
         + (f" ({err.group(0)})" if err else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--console", required=True)
    ap.add_argument("--vmcore", required=True)
    ap.add_argument("--sink", required=True, action="append")
    ap.add_argument("--held", action="append", default=[],
                    help="what the emulated sink held at its stop")
    ap.add_argument("--held-rwp", type=int, action="append", default=[],
                    help="its write pointer then, a byte offset")
    ap.add_argument("--streams", required=True)
    ap.add_argument("--expect", required=True, action="append",
                    choices=("exact", "wrapped", "none", "failed", "trbe"))
    ap.add_argument("--devices", default="")
    ap.add_argument("--console-expect", action="append", default=[])
    ap.add_argument("--allow", action="append", default=[],
                    help="a forbidden line containing this text is the crash's own")
    ap.add_argument("--etm-regs")
    ap.add_argument("--tracer", choices=("ETMv4", "ETE"), default="ETMv4",
                    help="the kind of every tracer's metadata record")
    ap.add_argument("--qemu-log", help="QEMU's -D log, with -d guest_errors")
    ap.add_argument("--catu", action="store_true",
                    help="the ETR writes through a CATU (--qemu-log has its writes)")
    ap.add_argument("--etm-cpus", choices=("all", "saved"), default="all",
                    help="whose metadata must be saved: every CPU's, or those "
                    "a per-thread session ran on")
    ap.add_argument("--quiet-between", nargs=2, metavar=("START", "END"),
                    help="no kernel line between these two console lines")
    ap.add_argument("--own-sinks", action="store_true",
                    help="each sink holds one trace ID, and no other sink holds it")
    ap.add_argument("--extract")
    ap.add_argument("--vmlinux", help="for drgn, to read vmap() addresses")
    a = ap.parse_args()
    n = len(a.sink)
    expects = a.expect * n if len(a.expect) == 1 else a.expect
    if len(expects) != n or len(a.held) not in (0, n) or len(a.held_rwp) not in (0, n):
        ap.error("give each --sink its --held, --held-rwp and --expect, or one --expect")
    each = [argparse.Namespace(**{**vars(a), "sink": name, "expect": e,
                                  "held": a.held[i] if a.held else None,
                                  "held_rwp": a.held_rwp[i] if a.held_rwp else 0})
            for i, (name, e) in enumerate(zip(a.sink, expects))]
    # What is not a sink's: as the first sink says.
    a = each[0]

    streams, cpus = {}, []
    for name in sorted(os.listdir(a.streams)):
        if name.startswith("etm") and name.endswith(".bin"):
            cpu = int(name[3:-4])
            cpus.append(cpu)
            with open(os.path.join(a.streams, name), "rb") as f:
                # The 6.1 driver's trace ID for a CPU (coresight-pmu.h).
                streams[0x10 + 2 * cpu] = f.read()
    helds = []
    for one in each:
        held = b""
        if one.expect not in ("none", "failed", "trbe"):
            with open(one.held, "rb") as f:
                held = f.read()
        helds.append(held)

    c = check_scenario.Checker()
    console = check_console(c, a.console, a.console_expect, a.devices, a.allow)
    if a.quiet_between:
        check_quiet(c, console, *a.quiet_between)
    if a.qemu_log:
        check_qemu_log(c, a.qemu_log)
    if a.catu:
        check_catu(c, a.qemu_log)
    # The locked crash's lock holder (coresight-kdump-locktest.c's line).
    m = re.search(r"CPU (\d+) holds the kdump registry lock", console)
    for one in each:
        one.holder = int(m.group(1)) if m else None
    datas, checked = [], []
    try:
        core = Vmcore(a.vmcore, a.vmlinux)
        _, head, records = vmcore_registry.walk(core)
        print(f"registry at 0x{head:x}: {len(records)} record(s)")
        checked = [check_sink(c, core, records, one, held, streams)
                   for one, held in zip(each, helds)]
        datas = [d for d, _, _ in checked]
        if a.expect != "none":
            check_etms(c, core, records, read_etm_regs(a.etm_regs), cpus,
                       a.etm_cpus, console, a.tracer)
    except (vmcore_registry.VmcoreError, KeyError, ValueError) as e:
        c.ok(False, f"registry walk: {e}")
    if a.own_sinks:
        # Each record names its one source, a different one each, and the
        # sink holds that source's trace and no other's.
        named = [one for _, one, _ in checked]
        ids = [i for _, _, i in checked]
        c.ok(all(named) and len(set(named)) == len(each) and
             all(i == [n] for n, i in zip(named, ids)),
             f"each of the {len(each)} sinks holds one tracer's trace, its own: the records "
             f"name {[hex(n) if n else n for n in named]}, the bytes are of "
             f"{[[hex(t) for t in i] for i in ids]}")
    for one, data in zip(each, datas):
        if not a.extract or data is None:
            continue
        # One sink: cstrace.bin; several: SINK.bin each (docs/csdump.md).
        name = "cstrace.bin" if len(each) == 1 else one.sink + ".bin"
        path = os.path.join(a.extract, name)
        got = open(path, "rb").read() if os.path.exists(path) else b""
        c.ok(got == data, f"csdump extract: {name} ({len(got)} bytes) "
             f"equals the record of {one.sink} in the vmcore")
    print(f"{c.failures} failure(s)")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
