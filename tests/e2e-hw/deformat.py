#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Split CoreSight formatted trace into one byte stream per trace ID.

    deformat.py FRAMES OUT_DIR [--map ID=NAME,...]

The deframer is the tests' own (tests/decode/frames.py, from the CoreSight
Architecture Specification v3.0, D4.2), which shares no code with csdump's
(src/) or with the QEMU formatter.  ID 0 is padding and IDs 0x70-0x7f are
reserved (a wrapped sink's barrier, 0x7fffffff x 4, reads as ID 0x7f): their
bytes are dropped.

Writes OUT_DIR/idNN.bin (NN the ID in hex) or, with --map, OUT_DIR/NAME.bin
for each listed ID only.  Prints one line per stream written.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "decode"))
import frames  # noqa: E402


def streams_of(data, one=None):
    """{trace ID: bytes} of the whole frames of data, padding dropped.

    one: the sink's one source (its record says), whose are the bytes before
    any ID change and after a barrier (which reads as ID 0x7f): a formatter
    writes an ID only when it changes, and a wrapped buffer of one source
    holds none."""
    out = {}
    for tid, b in frames.deframe(data).items():
        if one and tid in (None, 0x7f):
            tid = one
        if tid is not None and 0 < tid < 0x70:
            out[tid] = out.get(tid, b"") + bytes(b)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("frames")
    ap.add_argument("out_dir")
    ap.add_argument("--map", default="",
                    help="ID=NAME,... (IDs in hex): write only these, as NAME.bin")
    a = ap.parse_args()
    names = {}
    for item in filter(None, a.map.split(",")):
        tid, name = item.split("=")
        names[int(tid, 16)] = name
    with open(a.frames, "rb") as f:
        streams = streams_of(f.read())
    os.makedirs(a.out_dir, exist_ok=True)
    for tid in sorted(streams):
        if names and tid not in names:
            continue
        name = names.get(tid, f"id{tid:02x}")
        with open(os.path.join(a.out_dir, name + ".bin"), "wb") as f:
            f.write(streams[tid])
        print(f"0x{tid:02x} {name}.bin {len(streams[tid])} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
