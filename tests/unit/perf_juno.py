#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perf-juno: `csdump perf` on a real capture (the Juno one, or another
snapshot such as the ETE ones under ete/), decoded by stock perf, checked
against OpenCSD's own decode of the same snapshot (trc_pkt_lister).

Usage: perf_juno.py CSDUMP TRACES_DIR [SNAPSHOT]   (default juno_r1_1)
Exit 77 (skip) when the capture, perf or trc_pkt_lister is missing.

Checks, per CPU (the trace ID of each CPU is read from the snapshot's .ini
files here, independently of csdump):
  - perf decodes branch samples for exactly the CPUs whose trace ID has
    instruction ranges in trc_pkt_lister's decode (0, 1, 3, 5 for juno_r1_1);
  - every sample address is the last instruction of a range that
    trc_pkt_lister decodes for that CPU's trace ID, in the same order
    (perf's sequence is an ordered subsequence of the lister's);
  - perf misses at most one taken branch per CPU (the last one, which has no
    following packet to end its sample);
  - the symbol column resolves through the ELF image (no [unknown]).
"""
import collections
import configparser
import os
import re
import shutil
import subprocess
import sys
import tempfile


def skip(msg):
    print("SKIP:", msg)
    sys.exit(77)


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def ini(path):
    cp = configparser.ConfigParser(strict=False, interpolation=None)
    cp.optionxform = str
    with open(path) as f:
        cp.read_string(f.read())
    return cp


ETM4_MAGIC, ETE_MAGIC = 0x4040404040404040, 0x5050505050505050


def snapshot_units(snap):
    """{cpu: (magic perf must print, {register: value})} from the snapshot's files."""
    top = ini(os.path.join(snap, "snapshot.ini"))
    trace = ini(os.path.join(snap, top["trace"]["metadata"]))
    source_to_core = {v: k for k, v in trace["core_trace_sources"].items()}
    out = {}
    for dev in top["device_list"].values():
        d = ini(os.path.join(snap, dev))
        kind = d["device"].get("type", "").upper()
        if not kind.startswith("ETM4") and kind != "ETE":
            continue
        regs = {k.split("(")[0].upper(): int(v, 16) for k, v in d["regs"].items()}
        cpu = int(re.search(r"(\d+)$", source_to_core[d["device"]["name"]]).group(1))
        out[cpu] = (ETE_MAGIC if kind == "ETE" else ETM4_MAGIC, regs)
    return out


def perf_units(data):
    """{cpu: (magic, {register: value})}: the AUXTRACE_INFO blocks as perf reads them."""
    res = subprocess.run(["perf", "report", "-D", "-i", data], capture_output=True, text=True)
    out, cur = {}, None
    for line in res.stdout.splitlines():
        f = line.split()
        if line.startswith("\tMagic number") and len(f) == 3:
            cur = [int(f[2], 16), None, {}]
        elif cur and len(f) == 2 and f[0] == "CPU":
            cur[1] = int(f[1])
            out[cur[1]] = (cur[0], cur[2])
        elif cur and len(f) == 2 and re.fullmatch(r"TRC\w+", f[0]):
            cur[2][f[0]] = int(f[1], 16)
        elif cur and not line.startswith("\t"):
            cur = None
    return out


def cpu_of_trace_id(snap):
    """{trace ID: cpu number} from the snapshot's own files."""
    return {regs["TRCTRACEIDR"] & 0x7F: cpu for cpu, (_, regs) in snapshot_units(snap).items()}


def lister_ranges(snap, work):
    """{trace ID: [last instruction of each range]}, {ID: [taken-branch ones]}."""
    # cwd: trc_pkt_lister also writes a log file into the current directory.
    res = subprocess.run(["trc_pkt_lister", "-ss_dir", os.path.abspath(snap), "-decode",
                          "-logstdout", "-no_time_print"], capture_output=True, text=True,
                         check=True, cwd=work)
    # The last field is the range's end: BR, iBR, or --- (no branch: the
    # range ends at an exception, whose address perf samples too).
    every, taken = collections.defaultdict(list), collections.defaultdict(list)
    pat = re.compile(r"ID:([0-9a-f]+); OCSD_GEN_TRC_ELEM_INSTR_RANGE\(exec range="
                     r"0x([0-9a-f]+):\[0x([0-9a-f]+)\] num_i\(\d+\) last_sz\((\d+)\) "
                     r"\(ISA=\w+\) ([EN]) (\S+)")
    for line in res.stdout.splitlines():
        m = pat.search(line)
        if not m:
            continue
        tid, last = int(m[1], 16), int(m[3], 16) - int(m[4])
        every[tid].append(last)
        if m[5] == "E" and m[6] in ("BR", "iBR"):
            taken[tid].append(last)
    return every, taken


def image_ranges(elf):
    """[(lo, hi)] of the image's PT_LOAD segments, read with readelf (binutils)."""
    res = subprocess.run(["readelf", "-lW", elf], capture_output=True, text=True, check=True)
    out = []
    for line in res.stdout.splitlines():
        f = line.split()
        if len(f) >= 6 and f[0] == "LOAD":
            out.append((int(f[2], 16), int(f[2], 16) + int(f[5], 16)))
    return out


def perf_samples(csdump, snap, work):
    data = os.path.join(work, "t.data")
    res = subprocess.run([csdump, "perf", snap, "-o", data], capture_output=True, text=True)
    print(res.stdout + res.stderr)
    if res.returncode != 0:
        fail(f"csdump perf exited {res.returncode}")
    m = re.search(r"memory image: (\S+)", res.stdout)
    if not m:
        fail("csdump perf did not print the memory image's path")
    elf = m[1]
    res = subprocess.run(["perf", "script", "-i", data, "-k", elf, "-F", "cpu,ip,sym"],
                         capture_output=True, text=True)
    if res.returncode != 0:
        fail(f"perf script exited {res.returncode}: {res.stderr}")
    if res.stderr.strip():
        print("perf stderr:", res.stderr)
    samples = collections.defaultdict(list)
    for line in res.stdout.splitlines():
        m = re.match(r"\s*\[(\d+)\]\s+([0-9a-f]+)\s+(\S+)", line)
        if not m:
            fail(f"unexpected perf script line: {line!r}")
        cpu, ip, sym = int(m[1]), int(m[2], 16), m[3]
        if ip == 0:
            continue            # trace-on / discontinuity marker
        if sym == "[unknown]":
            fail(f"CPU {cpu} sample {ip:#x} not symbolised from the memory image")
        samples[cpu].append(ip)
    # Each trace unit's block, as perf itself parses it: an ETE's has perf's
    # ETE magic and TRCDEVARCH, and every register is the snapshot's.
    want, got = snapshot_units(snap), perf_units(data)
    if sorted(want) != sorted(got):
        fail(f"perf reads metadata for CPUs {sorted(got)}, the snapshot has {sorted(want)}")
    for cpu, (magic, regs) in sorted(want.items()):
        if got[cpu][0] != magic:
            fail(f"CPU {cpu}: perf reads magic {got[cpu][0]:#x}, expected {magic:#x}")
        for reg, val in regs.items():
            if reg in got[cpu][1] and got[cpu][1][reg] != val:
                fail(f"CPU {cpu}: perf reads {reg}={got[cpu][1][reg]:#x}, the snapshot {val:#x}")
        if magic == ETE_MAGIC and got[cpu][1].get("TRCDEVARCH") != regs["TRCDEVARCH"]:
            fail(f"CPU {cpu}: perf reads no TRCDEVARCH {regs['TRCDEVARCH']:#x} for the ETE")
    print(f"perf reads the metadata of CPUs {sorted(got)} as the snapshot gives it")
    return samples, image_ranges(elf)


def first_outside(small, big):
    """Index of the first item of @small that is not, in order, in @big; or None."""
    it = iter(big)
    for i, x in enumerate(small):
        if x not in it:
            return i
    return None


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__)
        return 1
    csdump, traces = sys.argv[1], sys.argv[2]
    snap = os.path.join(traces, sys.argv[3] if len(sys.argv) == 4 else "juno_r1_1")
    if not os.path.isfile(os.path.join(snap, "snapshot.ini")):
        skip(f"{snap} absent")
    for tool in ("perf", "trc_pkt_lister"):
        if not shutil.which(tool):
            skip(f"{tool} not installed")
    cpus = cpu_of_trace_id(snap)
    with tempfile.TemporaryDirectory() as work:
        every, taken = lister_ranges(snap, work)
        samples, image = perf_samples(csdump, snap, work)
    want = sorted(cpus[t] for t in every)
    got = sorted(samples)
    print(f"CPUs with decoded ranges (trc_pkt_lister): {want}; with perf samples: {got}")
    if got != want:
        fail("perf decodes other CPUs than trc_pkt_lister")
    for tid, cpu in sorted(cpus.items()):
        if cpu not in samples:
            continue
        p, every_t, taken_t = samples[cpu], every[tid], taken[tid]
        print(f"CPU {cpu} (trace ID {tid:#x}): {len(p)} perf samples, "
              f"{len(every_t)} lister ranges, {len(taken_t)} taken branches")
        bad = first_outside(p, every_t)
        if bad is not None:
            fail(f"CPU {cpu}: perf's sample addresses are not, in order, range ends "
                 f"that trc_pkt_lister decodes for trace ID {tid:#x}: sample {bad}, "
                 f"{p[bad]:#x} (after {[hex(a) for a in p[max(0, bad - 3):bad]]})")
        # A dump that the image leaves out (docs/csdump.md: more than 64 MiB
        # from the rest) is code perf cannot decode: its branches do not count.
        outside = [a for a in taken_t if not any(lo <= a < hi for lo, hi in image)]
        if outside:
            print(f"CPU {cpu}: {len(outside)} taken branches outside the image, "
                  f"e.g. {outside[0]:#x}, not counted")
        missed = [a for a in taken_t if a not in set(p) and a not in outside]
        if len(missed) > 1:
            fail(f"CPU {cpu}: perf misses {len(missed)} taken branches, e.g. {missed[0]:#x}")
    print("PASS: perf and trc_pkt_lister agree per trace ID")
    return 0


if __name__ == "__main__":
    sys.exit(main())
