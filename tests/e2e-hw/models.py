#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read what the emulated CoreSight models recorded outside the guest.

    models.py held DIR SINK     the file of what SINK held at its last stop
    models.py rwp DIR SINK      the byte offset of its write pointer then
    models.py full DIR SINK     1 if it had wrapped by then, else 0
    models.py etm-regs QEMULOG  the ETMs' metadata registers, as the guest
                                read (ID registers) or wrote (TRCCONFIGR,
                                TRCTRACEIDR) them: "cpu NAME value" lines

DIR is the machine's coresight-log directory: each sink appends a line per
stop of capture to DIR/SINK.log ("stop=N reason=R ... file=F") and writes
the trace memory, oldest byte first, to DIR/F (docs/emulated-hardware.md).
A stop at QEMU's exit ("reason=exit") is not one the guest asked for.

QEMULOG is QEMU's log (-D) with the trace events coresight_etm4_read and
coresight_etm4_write enabled: QEMU's own record of each register access.
"""
import os
import re
import sys

# The registers of perf's ETMv4 metadata (tests/e2e/snapshot_regs.py REGS),
# and TRCDEVARCH, which perf's ETE block adds, by offset (ETMv4 architecture
# specification, IHI 0064, chapter 7; an ETE's system registers are the same
# offsets, QEMU's log names them so).
OFFSETS = {0x010: "TRCCONFIGR", 0x040: "TRCTRACEIDR", 0x1E0: "TRCIDR0",
           0x1E4: "TRCIDR1", 0x1E8: "TRCIDR2", 0x180: "TRCIDR8",
           0xFB8: "TRCAUTHSTATUS", 0xFBC: "TRCDEVARCH"}
WRITTEN = ("TRCCONFIGR", "TRCTRACEIDR")
ACCESS = re.compile(r"coresight_etm4_(read|write) etm(\d+): (?:read|write) "
                    r"(0x[0-9a-f]+) (?:->|<-) (0x[0-9a-f]+)")


def stops(log_dir, sink):
    """The fields of each stop of capture SINK logged, oldest first, but
    those at QEMU's exit."""
    with open(os.path.join(log_dir, sink + ".log")) as f:
        for line in f:
            fields = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
            if fields.get("reason") != "exit":
                yield fields


def sinks(log_dir):
    """The sinks that logged a stop of capture in LOG_DIR."""
    return sorted(n[:-4] for n in os.listdir(log_dir)
                  if n.endswith(".log") and n != "qemu.log")


def last_stop(log_dir, sink):
    last = None
    for last in stops(log_dir, sink):
        pass
    if last is None:
        raise SystemExit(f"models.py: {sink} never stopped capture")
    return last


def held(log_dir, sink):
    return os.path.join(log_dir, last_stop(log_dir, sink)["file"])


def etm_regs(qemu_log):
    regs = {}
    with open(qemu_log, errors="replace") as f:
        for line in f:
            m = ACCESS.search(line)
            if not m:
                continue
            kind, cpu, off, val = m.group(1), int(m.group(2)), int(m.group(3), 16), m.group(4)
            name = OFFSETS.get(off)
            if name and (kind == "write") == (name in WRITTEN):
                regs.setdefault(cpu, {})[name] = val
    return regs


TRBE_ENABLE = re.compile(r"coresight_trbe_enable cpu (\d+): enable ([01]), (\d+) bytes written")
TRBE_EVENT = re.compile(r"coresight_trbe_event cpu (\d+): TRBSR (0x[0-9a-f]+)")
TRBSR_S = 1 << 17       # collection stopped (DDI 0487J D10)


def trbe_stopped(qemu_log, cpu):
    """Did CPU's TRBE stop collecting (an event with TRBSR.S, by QEMU's
    trace event coresight_trbe_event) after its last enable?  Then what its
    trace unit made after that was discarded."""
    stopped = False
    with open(qemu_log, errors="replace") as f:
        for line in f:
            m = TRBE_ENABLE.search(line)
            if m and int(m.group(1)) == cpu and m.group(2) == "1":
                stopped = False
            m = TRBE_EVENT.search(line)
            if m and int(m.group(1)) == cpu and int(m.group(2), 16) & TRBSR_S:
                stopped = True
    return stopped


def trbe_last_run(qemu_log, cpu):
    """How many bytes CPU's TRBE wrote from its last enable to the disable
    after it, by QEMU's trace event coresight_trbe_enable (each line gives
    the bytes it has written in all); None if it was never enabled, or
    not disabled after its last enable."""
    start = run = None
    with open(qemu_log, errors="replace") as f:
        for line in f:
            m = TRBE_ENABLE.search(line)
            if not m or int(m.group(1)) != cpu:
                continue
            if m.group(2) == "1":
                start, run = int(m.group(3)), None
            elif start is not None:
                run = int(m.group(3)) - start
    return run


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "held":
        print(held(sys.argv[2], sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "full":
        print(int(last_stop(sys.argv[2], sys.argv[3])["full"]))
    elif len(sys.argv) == 4 and sys.argv[1] == "rwp":
        print(int(last_stop(sys.argv[2], sys.argv[3])["rwp"], 16))
    elif len(sys.argv) == 3 and sys.argv[1] == "etm-regs":
        for cpu, r in sorted(etm_regs(sys.argv[2]).items()):
            for name, val in r.items():
                print(cpu, name, val)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
