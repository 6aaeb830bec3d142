#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perf_branches.py ETM4ENC CSDUMP PROG_ELF WORKDIR

Stock `perf script -k PROG_ELF` on a perf.data that `csdump perf` made from an
etm4enc snapshot must print the encoded path's taken branches: for each CPU,
one "from => to" per range that ends in a taken branch or an exception (from =
its last instruction, to = the next range's start), in order. CPU 0 runs a call chain whose functions perf must name in order,
from the ELF's own symbols. Exit 77 when perf or csdump is missing.
CPU 0 walks first and reaches the chain after a gap in the trace; perf
prints the branch before a gap as going to 0.
"""
import os
import re
import shutil
import subprocess
import sys

CHAIN = ["_start", "run", "op_a", "classify", "fib"]


def main():
    enc, csdump, elf, work = sys.argv[1:5]
    if (not shutil.which("perf") or not os.access(csdump, os.X_OK) or
            subprocess.run(["perf", "version"], capture_output=True).returncode):
        print("perf or csdump not available")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    ranges = work + ".ranges"
    subprocess.run([enc, "--elf", elf, "--path-symbols", ",".join(CHAIN), "--cpus", "3",
                    "--steps", "400", "--seed", "11", "--cc", "--ranges", ranges, "-o", work],
                   check=True)
    data = os.path.join(work, "perf.data")
    subprocess.run([csdump, "perf", os.path.join(work, "snapshot"), "-o", data], check=True,
                   stdout=subprocess.DEVNULL)
    out = subprocess.run(["perf", "script", "-i", data, "-k", elf, "-F", "cpu,ip,sym,addr"],
                         check=True, capture_output=True, text=True).stdout

    want = {}
    last = {}           # cpu -> the end of its previous range, if that was taken
    for line in open(ranges):
        if line.startswith("# trace-on "):
            # a gap: perf ends the branch before it nowhere ("=> 0") and
            # starts again from 0, which is skipped below
            cpu = int(line.split()[2])
            if cpu in last:
                want.setdefault(cpu, []).append((last.pop(cpu) - 4, 0))
            continue
        cpu, _, start, end, _, how = line.split()
        cpu, start, end = int(cpu), int(start, 16), int(end, 16)
        if cpu in last:
            want.setdefault(cpu, []).append((last.pop(cpu) - 4, start))
        if how != "N":  # a taken branch or an exception, even to the next instruction
            last[cpu] = end

    got, syms = {}, []
    pat = re.compile(r"\s*\[(\d+)\]\s+([0-9a-f]+)\s+(\S+)\s+=>\s+([0-9a-f]+)\s+(\S+)")
    for line in out.splitlines():
        m = pat.match(line)
        if not m:
            continue
        cpu, frm, to = int(m.group(1)), int(m.group(2), 16), int(m.group(4), 16)
        if cpu == 0:
            syms.append(m.group(5))
        if frm == 0:        # the first sample of a CPU: where trace starts
            continue
        got.setdefault(cpu, []).append((frm, to))

    fail = 0
    for cpu in sorted(want):
        w, g = want[cpu], got.get(cpu, [])
        if w == g:
            print(f"CPU {cpu}: {len(w)} taken branches, identical")
            continue
        fail = 1
        i = next((k for k, (a, b) in enumerate(zip(w, g)) if a != b), min(len(w), len(g)))
        print(f"CPU {cpu}: {len(w)} branches encoded, perf printed {len(g)}; first difference at {i}:"
              f" encoded {w[i] if i < len(w) else None} perf {g[i] if i < len(g) else None}")
    entered = [s for k, s in enumerate(syms) if k == 0 or syms[k - 1] != s]
    pos = 0 if CHAIN[0] not in entered else max(k for k, s in enumerate(entered) if s == CHAIN[0])
    for s in CHAIN:
        while pos < len(entered) and entered[pos] != s:
            pos += 1
        if pos == len(entered):
            print(f"CPU 0: perf never names {s} after the previous link of the chain: {entered}")
            fail = 1
            break
    else:
        print("CPU 0: perf names " + " -> ".join(CHAIN))
    return fail


if __name__ == "__main__":
    sys.exit(main())
