#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The TRBE's wrap mode against what the ETE emitted.
    check_trbe_wrap.py CONSOLE MODELS_DIR
The test-only coresight-trbe-wraptest (kernel patch 0093) ran CPU N's ETE
into its TRBE, a 16 KiB buffer in wrap mode, and logged TRBSR_EL1, where
TRBPTR_EL1 ended and the CRC-32 of the buffer read from TRBPTR_EL1 on.
QEMU's record of every byte that ETE emitted is MODELS_DIR/etmN.bin, and
the run was the last trace it made.  In wrap mode (DDI 0487J D10) the
TRBE goes back to the base at the limit and collects on, setting WRAP and
neither S nor IRQ; so the buffer, oldest byte at TRBPTR, is the last 16 KiB
the ETE emitted, and, the ETE having traced nothing before (no session),
TRBPTR is at the count of bytes it emitted, modulo the buffer's size.
Exit 1 if a check fails.
"""
import os
import re
import sys
import zlib

LINE = re.compile(r"coresight-trbe-wraptest: cpu (\d+) TRBSR 0x([0-9a-f]+) TRBPTR "
                  r"\+0x([0-9a-f]+) of (\d+), crc32 0x([0-9a-f]+) from TRBPTR")
TRBSR_WRAP, TRBSR_S, TRBSR_IRQ = 1 << 20, 1 << 17, 1 << 22


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], errors="replace") as f:
        m = LINE.search(f.read())
    if not m:
        print("FAIL  console: no coresight-trbe-wraptest line")
        return 1
    cpu, sr, ptr, size, crc = (int(m.group(1)), int(m.group(2), 16), int(m.group(3), 16),
                               int(m.group(4)), int(m.group(5), 16))
    fails = 0

    def ok(cond, what):
        nonlocal fails
        print(("ok    " if cond else "FAIL  ") + what)
        fails += not cond

    ok(sr & TRBSR_WRAP and not sr & (TRBSR_S | TRBSR_IRQ),
       f"TRBSR 0x{sr:x}: WRAP, not stopped, no interrupt")
    with open(os.path.join(sys.argv[2], f"etm{cpu}.bin"), "rb") as f:
        emitted = f.read()
    ok(len(emitted) > size, f"CPU {cpu}'s ETE emitted {len(emitted)} bytes, more than "
       f"the {size}-byte buffer")
    ok(ptr == len(emitted) % size,
       f"TRBPTR +0x{ptr:x} = the {len(emitted)} bytes emitted, modulo {size}")
    ok(zlib.crc32(emitted[-size:]) == crc,
       f"the buffer from TRBPTR (+0x{ptr:x}) is the last {size} bytes the ETE emitted "
       f"(CRC 0x{crc:08x})")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
