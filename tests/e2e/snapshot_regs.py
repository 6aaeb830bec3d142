#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The ETMv4 registers of an OpenCSD snapshot, per CPU, from its .ini files.

Written from the snapshot format (snapshot.ini lists the devices, trace.ini's
[core_trace_sources] ties each core to its trace unit) with configparser only,
independently of csdump's own snapshot reader.

    snapshot_regs.py SNAPSHOT_DIR OUT_DIR

writes OUT_DIR/etm<CPU>.regs for every ETMv4 trace unit: the seven registers
perf's ETMv4 metadata carries, in the order the test source's debugfs "regs"
file takes them.
"""
import configparser
import os
import re
import sys

# perf's ETMv4 per-CPU metadata order (docs/record-abi.md, indexes 3..9).
REGS = ("TRCCONFIGR", "TRCTRACEIDR", "TRCIDR0", "TRCIDR1", "TRCIDR2",
        "TRCIDR8", "TRCAUTHSTATUS")
META_MAGIC = 0x4040404040404040


def _ini(path):
    cp = configparser.ConfigParser(strict=False, interpolation=None)
    cp.optionxform = str
    with open(path) as f:
        cp.read_file(f)
    return cp


def etm_regs(snap):
    """{cpu: {register: value}} for every ETMv4 trace unit of snapshot SNAP."""
    top = _ini(os.path.join(snap, "snapshot.ini"))
    units = {}
    for _, fname in top.items("device_list"):
        dev = _ini(os.path.join(snap, fname))
        if dev.get("device", "type", fallback="") != "ETM4":
            continue
        regs = {}
        for key, val in dev.items("regs"):
            name = key.split("(")[0].strip().upper()
            regs[name] = int(val, 0)
        missing = [r for r in REGS if r not in regs]
        if missing:
            raise ValueError(f"{fname}: no {', '.join(missing)}")
        units[dev.get("device", "name")] = regs

    trace = _ini(os.path.join(snap, top.get("trace", "metadata")))
    out = {}
    for core, unit in trace.items("core_trace_sources"):
        m = re.fullmatch(r"\D*(\d+)", core)
        if not m or unit not in units:
            raise ValueError(f"{snap}: core {core} -> {unit} is not an "
                             "ETMv4 unit of a numbered core")
        out[int(m.group(1))] = units[unit]
    return out


def meta_block(cpu, regs):
    """The ten u64 of perf's ETMv4 per-CPU metadata for CPU."""
    return [META_MAGIC, cpu, len(REGS)] + [regs[r] for r in REGS]


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 1
    snap, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    for cpu, regs in sorted(etm_regs(snap).items()):
        with open(os.path.join(out, f"etm{cpu}.regs"), "w") as f:
            f.write(" ".join(f"{regs[r]:#x}" for r in REGS) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
