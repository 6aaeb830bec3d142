#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hang_report.py MONITOR_SOCKET QEMU_PID [VMLINUX]: what a QEMU run that is
about to time out is doing, in a few lines (run-qemu.sh calls it).

- Each vCPU's PC and LR (X30), from the QEMU monitor's `info registers -a`,
  with vmlinux's symbol for each when VMLINUX is given (addr2line).
- Each QEMU thread's innermost frames, from gdb attached to QEMU: a vCPU
  thread blocked on a lock shows it there (a hang of the emulation), one
  running guest code does not (a hang of the guest).

Prints what it could get; exits 0.
"""
import re
import socket
import subprocess
import sys
import time


def monitor(path, cmd, timeout=10.0):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(path)
    out = b""
    end = time.time() + timeout

    def read_until_prompt():
        nonlocal out
        while not out.rstrip().endswith(b"(qemu)") and time.time() < end:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            out += chunk
    read_until_prompt()
    out = b""
    s.sendall(cmd.encode() + b"\n")
    read_until_prompt()
    s.close()
    return out.decode(errors="replace")


def symbols(vmlinux, addrs):
    if not vmlinux or not addrs:
        return {}
    try:
        r = subprocess.run(["aarch64-linux-gnu-addr2line", "-f", "-e", vmlinux] +
                           ["0x%x" % a for a in addrs], capture_output=True, text=True,
                           timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    lines = r.stdout.splitlines()
    return {a: lines[2 * i] for i, a in enumerate(addrs) if 2 * i < len(lines)}


def vcpus(sock, vmlinux):
    try:
        text = monitor(sock, "info registers -a")
    except OSError as e:
        print("hang: no monitor (%s)" % e)
        return
    cpus = []
    for block in re.split(r"\n(?=CPU#\d+)", text):
        m = re.match(r"CPU#(\d+)", block)
        pc = re.search(r"\bPC=([0-9a-f]+)", block)
        lr = re.search(r"\bX30=([0-9a-f]+)", block)
        if m and pc:
            cpus.append((int(m.group(1)), int(pc.group(1), 16),
                         int(lr.group(1), 16) if lr else None))
    syms = symbols(vmlinux, sorted({a for c in cpus for a in c[1:] if a is not None}))
    for n, pc, lr in cpus:
        print("hang: vCPU %d pc 0x%x %s lr 0x%x %s" % (n, pc, syms.get(pc, ""),
                                                     lr or 0, syms.get(lr, "")))


def threads(pid):
    try:
        r = subprocess.run(["gdb", "-p", str(pid), "-batch", "-nx",
                            "-ex", "thread apply all bt 12"],
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        print("hang: no thread backtraces (%s)" % e)
        return
    for block in re.split(r"\n(?=Thread \d+ )", r.stdout):
        m = re.match(r'Thread \d+ \(Thread 0x[0-9a-f]+ \(LWP \d+\) "([^"]*)"\)', block)
        if not m:
            continue
        frames = re.findall(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(\S+)", block, re.M)
        # The C library's and QEMU's own waiting, not what waits.
        frames = [f for f in frames if not re.match(
            r"(__|_+pthread|syscall|ppoll|qemu_futex|qemu_cond|qemu_event|qemu_sem)", f)]
        print("hang: thread %-10s %s" % (m.group(1), " < ".join(frames[:5])))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    vcpus(sys.argv[1], sys.argv[3] if len(sys.argv) > 3 else None)
    threads(int(sys.argv[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
