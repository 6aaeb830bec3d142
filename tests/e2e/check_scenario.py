#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check one e2e crash scenario against what was loaded into the guest.

    check_scenario.py --console LOG --vmcore VMCORE --snapshot DIR
                      --expect exact|wrapped|none|failed|unsaved
                      [--console-expect TEXT]...
                      [--allow-warn TEXT]... [--extract DIR]
    check_scenario.py --snapshot DIR --expect exact|wrapped --write-trace FILE

The oracles are the payload itself (the snapshot's cstrace.bin and its ETM
.ini files, parsed by snapshot_regs.py) and an independent walk of the
vmcore (vmcore_registry.py); --extract DIR also checks csdump extract's
cstrace.bin and metadata.bin against them.

--expect exact: the sink did not wrap, its trace is the capture byte for
byte; wrapped: the sink wrapped, the trace is a barrier packet and then the
capture from byte 16 on; none: the session ended before the crash, the
registry is empty; failed: the sink's panic save failed (fault injection),
its record is FAILED and holds no data, the tracers' records are intact and
the vmcore came back all the same; unsaved: kdump started before the save
(no crash_kexec_post_notifiers), the sink's record has no flag at all.  --write-trace writes the trace expected from the sink,
for a reference snapshot.
"""
import argparse
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import snapshot_regs  # noqa: E402
import vmcore_registry  # noqa: E402

BARRIER = struct.pack("<4I", *([0x7FFFFFFF] * 4))
SINK = "cstest_sink0"

# Console lines that fail any scenario: sleeping in atomic context, lockdep,
# WARN_ON and BUG from any code, the series included.
FORBIDDEN = [
    "BUG: sleeping function called from invalid context",
    "BUG: ",
    "WARNING: ",
    "DEBUG_LOCKS_WARN_ON",
    "possible recursive locking",
    "possible circular locking",
    "inconsistent lock state",
    "suspicious RCU usage",
    "Possible unsafe locking scenario",
    "e2e-init: FAILED",
]


class Checker:
    def __init__(self):
        self.failures = 0

    def ok(self, cond, what):
        print(("ok    " if cond else "FAIL  ") + what)
        if not cond:
            self.failures += 1
        return cond


def expected_trace(ref, mode):
    return BARRIER + ref[16:] if mode == "wrapped" else ref


def check_console(c, log, mode, extra, allow_warn):
    with open(log, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    for pat in FORBIDDEN:
        lines = [ln for ln in text.splitlines() if pat in ln and
                 not (pat == "WARNING: " and
                      any(a in ln for a in allow_warn))]
        c.ok(not lines, f"console: no '{pat.strip()}'" +
             (f" (found: {lines[0].strip()})" if lines else ""))
    need = ["Kernel panic - not syncing", "Starting crashdump kernel",
            "e2e-init: vmcore saved"]
    if mode in ("exact", "wrapped"):
        need.append("coresight-kdump: saved 1 trace buffer(s), 7 record(s)")
    for pat in need + extra:
        c.ok(pat in text, f"console: '{pat}'")


def meta_bytes(cpu, regs):
    return struct.pack("<10Q", *snapshot_regs.meta_block(cpu, regs))


def check_registry(c, vmcore, trace, regs, mode, faulted=()):
    core = vmcore_registry.Vmcore(vmcore)
    _, head, records = vmcore_registry.walk(core)
    print(f"registry at 0x{head:x}: {len(records)} record(s)")
    if mode == "none":
        c.ok(not records, "registry: empty after the session ended "
             f"({[r['name'] for r in records]})")
        return
    sinks = [r for r in records if r["kind"] == vmcore_registry.KIND_TRACE]
    metas = [r for r in records if r["kind"] == vmcore_registry.KIND_META]
    c.ok(len(records) == 1 + len(regs),
         f"registry: {len(records)} records, expected 1 sink + "
         f"{len(regs)} tracers")
    if c.ok(len(sinks) == 1 and sinks[0]["name"] == SINK,
            f"registry: one trace record, {SINK}"):
        s = sinks[0]
        want = {"SAVED", "FORMATTED"} | ({"WRAPPED"} if mode == "wrapped"
                                         else set())
        if mode == "failed":
            want = {"FAILED"} | set(faulted)
        elif mode == "unsaved":
            want = set()
        c.ok(set(s["flag_names"]) == want,
             f"{SINK}: flags {s['flag_names']}, expected {sorted(want)}")
        c.ok(s["cpu"] == -1 and s["trace_id"] == 0,
             f"{SINK}: cpu {s['cpu']} trace_id {s['trace_id']}")
    if mode in ("failed", "unsaved"):
        sinks = []
    for s in sinks:
        data = vmcore_registry.record_data(core, s)
        c.ok(zlib.crc32(data) == s["data_crc"],
             f"{SINK}: CRC 0x{s['data_crc']:08x} matches the data")
        c.ok(data == trace, f"{SINK}: {len(data)} bytes equal the "
             f"capture ({mode}, {len(trace)} bytes)")
    by_cpu = {r["cpu"]: r for r in metas}
    for cpu, r in sorted(regs.items()):
        rec = by_cpu.get(cpu)
        if not c.ok(rec is not None, f"cpu {cpu}: metadata record"):
            continue
        c.ok(rec["name"] == f"cstest_etm{cpu}" and rec["flag_names"] ==
             ["SAVED"], f"cpu {cpu}: {rec['name']} {rec['flag_names']}")
        c.ok(rec["trace_id"] == r["TRCTRACEIDR"],
             f"cpu {cpu}: trace_id 0x{rec['trace_id']:x}")
        data = vmcore_registry.record_data(core, rec)
        c.ok(zlib.crc32(data) == rec["data_crc"], f"cpu {cpu}: CRC matches")
        c.ok(data == meta_bytes(cpu, r),
             f"cpu {cpu}: metadata equals the registers loaded")


def check_extract(c, d, trace, regs):
    path = os.path.join(d, "cstrace.bin")
    with open(path, "rb") as f:
        got = f.read()
    c.ok(got == trace, f"csdump extract: cstrace.bin ({len(got)} bytes) "
         "equals the capture")
    with open(os.path.join(d, "metadata.bin"), "rb") as f:
        meta = f.read()
    blocks = sorted(meta[i:i + 80] for i in range(0, len(meta), 80))
    want = sorted(meta_bytes(cpu, r) for cpu, r in regs.items())
    c.ok(len(meta) % 80 == 0 and blocks == want,
         f"csdump extract: metadata.bin ({len(meta)} bytes) holds the "
         f"{len(want)} register blocks loaded")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--console")
    ap.add_argument("--vmcore")
    ap.add_argument("--snapshot", required=True)
    ap.add_argument("--expect", required=True,
                    choices=("exact", "wrapped", "none", "failed",
                             "unsaved"))
    ap.add_argument("--console-expect", action="append", default=[])
    ap.add_argument("--allow-warn", action="append", default=[],
                    help="a WARNING line containing this text is expected")
    ap.add_argument("--failed-flag", action="append", default=[],
                    help="with --expect failed: a flag the sink's record "
                    "carries besides FAILED (FAULTED, FLUSH_TIMEOUT)")
    ap.add_argument("--extract")
    ap.add_argument("--write-trace", metavar="FILE",
                    help="only write the expected trace to FILE")
    args = ap.parse_args()

    with open(os.path.join(args.snapshot, "cstrace.bin"), "rb") as f:
        trace = expected_trace(f.read(), args.expect)
    if args.write_trace:
        with open(args.write_trace, "wb") as f:
            f.write(trace)
        return 0
    regs = snapshot_regs.etm_regs(args.snapshot)

    c = Checker()
    check_console(c, args.console, args.expect, args.console_expect,
                  args.allow_warn)
    try:
        check_registry(c, args.vmcore, trace, regs, args.expect,
                       args.failed_flag)
    except (vmcore_registry.VmcoreError, KeyError, ValueError) as e:
        c.ok(False, f"registry walk: {e}")
    if args.extract and args.expect in ("exact", "wrapped"):
        check_extract(c, args.extract, trace, regs)
    print(f"{c.failures} failure(s)")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
