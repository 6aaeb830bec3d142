#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perf-juno: `csdump perf` on the real Juno capture, decoded by stock perf,
checked against OpenCSD's own decode of the same snapshot (trc_pkt_lister).

Usage: perf_juno.py CSDUMP TRACES_DIR
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


def cpu_of_trace_id(snap):
    """{trace ID: cpu number} from the snapshot's own files."""
    top = ini(os.path.join(snap, "snapshot.ini"))
    trace = ini(os.path.join(snap, top["trace"]["metadata"]))
    source_to_core = {v: k for k, v in trace["core_trace_sources"].items()}
    out = {}
    for dev in top["device_list"].values():
        d = ini(os.path.join(snap, dev))
        name = d["device"]["name"]
        if not d["device"].get("type", "").upper().startswith("ETM4"):
            continue
        regs = {k.split("(")[0].upper(): v for k, v in d["regs"].items()}
        tid = int(regs["TRCTRACEIDR"], 16) & 0x7F
        core = source_to_core[name]
        out[tid] = int(re.search(r"(\d+)$", core).group(1))
    return out


def lister_ranges(snap, work):
    """{trace ID: [last instruction of each range]}, {ID: [taken-branch ones]}."""
    # cwd: trc_pkt_lister also writes a log file into the current directory.
    res = subprocess.run(["trc_pkt_lister", "-ss_dir", os.path.abspath(snap), "-decode",
                          "-logstdout", "-no_time_print"], capture_output=True, text=True,
                         check=True, cwd=work)
    every, taken = collections.defaultdict(list), collections.defaultdict(list)
    pat = re.compile(r"ID:([0-9a-f]+); OCSD_GEN_TRC_ELEM_INSTR_RANGE\(exec range="
                     r"0x([0-9a-f]+):\[0x([0-9a-f]+)\] num_i\(\d+\) last_sz\((\d+)\) "
                     r"\(ISA=\w+\) ([EN]) (\w+)")
    for line in res.stdout.splitlines():
        m = pat.search(line)
        if not m:
            continue
        tid, last = int(m[1], 16), int(m[3], 16) - int(m[4])
        every[tid].append(last)
        if m[5] == "E" and m[6] in ("BR", "iBR"):
            taken[tid].append(last)
    return every, taken


def perf_samples(csdump, snap, work):
    data = os.path.join(work, "t.data")
    res = subprocess.run([csdump, "perf", snap, "-o", data], capture_output=True, text=True)
    print(res.stdout + res.stderr)
    if res.returncode != 0:
        fail(f"csdump perf exited {res.returncode}")
    m = re.search(r"memory image: (\S+)", res.stdout)
    if not m:
        fail("csdump perf did not print the memory image's path")
    res = subprocess.run(["perf", "script", "-i", data, "-k", m[1], "-F", "cpu,ip,sym"],
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
    return samples


def is_subsequence(small, big):
    it = iter(big)
    return all(x in it for x in small)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 1
    csdump, traces = sys.argv[1], sys.argv[2]
    snap = os.path.join(traces, "juno_r1_1")
    if not os.path.isfile(os.path.join(snap, "snapshot.ini")):
        skip(f"{snap} absent")
    for tool in ("perf", "trc_pkt_lister"):
        if not shutil.which(tool):
            skip(f"{tool} not installed")
    cpus = cpu_of_trace_id(snap)
    with tempfile.TemporaryDirectory() as work:
        every, taken = lister_ranges(snap, work)
        samples = perf_samples(csdump, snap, work)
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
        if not is_subsequence(p, every_t):
            fail(f"CPU {cpu}: perf's sample addresses are not, in order, range ends "
                 f"that trc_pkt_lister decodes for trace ID {tid:#x}")
        missed = [a for a in taken_t if a not in set(p)]
        if len(missed) > 1:
            fail(f"CPU {cpu}: perf misses {len(missed)} taken branches, e.g. {missed[0]:#x}")
    print("PASS: perf and trc_pkt_lister agree per trace ID")
    return 0


if __name__ == "__main__":
    sys.exit(main())
