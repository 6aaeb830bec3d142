#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Give a real arm64 vmcore a coresight-kdump registry of chosen records.

    inject.py BASE OUT

BASE is an ELF vmcore of a kernel with the series (its VMCOREINFO has the
registry's keys).  OUT is a copy whose registry list head points at records
written, by docs/record-abi.md alone, into zero-filled (unused) pages of the
linear map: sinks that are plain, wrapped (circular, unrolled by the reader),
saved without trace and corrupted (bad CRC), and ETMv4 metadata.  The kernel
and everything else in the dump are left as they were, so crash still opens
OUT with the kernel's vmlinux, and crash's readmem() and libkdumpfile read
the same records through two different address translations.

Every physical page is patched wherever the dump holds it (arm64 dumps map
the kernel image twice: in the linear map and at its own PT_LOAD).
"""
import os
import random
import shutil
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import vmcore_registry  # noqa: E402

PAGE = 4096
MAGIC, VERSION, REC_SIZE = 0x444B5343, 1, 128
KIND_TRACE, KIND_META = 1, 2
SAVED, WRAPPED, FORMATTED, IN_PLACE = 1, 2, 4, 8
ETM_MAGIC = 0x4040404040404040
REGION = 256 * 1024          # zero-filled bytes needed for nodes and buffers


class Dump:
    def __init__(self, path):
        self.f = open(path, "r+b")
        hdr = self.f.read(64)
        if hdr[:4] != b"\x7fELF" or hdr[4] != 2 or hdr[5] != 1:
            sys.exit(f"inject: {path}: not an ELF64 little-endian file")
        e_phoff, = struct.unpack_from("<Q", hdr, 32)
        e_phentsize, e_phnum = struct.unpack_from("<HH", hdr, 54)
        self.loads = []
        for i in range(e_phnum):
            self.f.seek(e_phoff + i * e_phentsize)
            p_type, _, off, vaddr, paddr, filesz = struct.unpack("<IIQQQQ", self.f.read(40))
            if p_type == 1:
                self.loads.append((paddr, vaddr, off, filesz))
        # The note parsed by its headers (the ABI walker's parser): a
        # pattern over the bytes mistakes name padding for the end.
        try:
            self.info = vmcore_registry.Vmcore(path).vmcoreinfo()
        except vmcore_registry.VmcoreError as e:
            sys.exit(f"inject: {e}")
        for key in ("SYMBOL(coresight_kdump_list)", "OFFSET(coresight_kdump_node.list)"):
            if key not in self.info:
                sys.exit(f"inject: {path}: VMCOREINFO lacks {key} (kernel without the series)")
        self.va_bits = int(self.info["NUMBER(VA_BITS)"])
        self.phys_offset = int(self.info["NUMBER(PHYS_OFFSET)"], 0)
        self.kimage_voffset = int(self.info["NUMBER(kimage_voffset)"], 0)
        self.page_offset = (1 << 64) - (1 << self.va_bits)

    def pa(self, va):
        """Physical address of a linear-map or kernel-image address."""
        if va >= self.page_offset and va < self.page_offset + (1 << (self.va_bits - 1)):
            return va - self.page_offset + self.phys_offset
        return va - self.kimage_voffset

    def va(self, pa):
        return pa - self.phys_offset + self.page_offset

    def write(self, va, data):
        pa, done = self.pa(va), 0
        for paddr, _, off, size in self.loads:
            if paddr <= pa and pa + len(data) <= paddr + size:
                self.f.seek(off + pa - paddr)
                self.f.write(data)
                done += 1
        if not done:
            sys.exit(f"inject: {va:#x} (pa {pa:#x}) is not in the dump")

    def zero_region(self, size):
        """A page-aligned run of @size zero bytes in the linear map."""
        zero = bytes(PAGE)
        for paddr, vaddr, off, filesz in sorted(self.loads, key=lambda l: -l[3]):
            if vaddr < self.page_offset or vaddr >= self.page_offset + (1 << (self.va_bits - 1)):
                continue
            start = (filesz // 2) & ~(PAGE - 1)
            run = 0
            for pos in range(start, filesz - PAGE, PAGE):
                self.f.seek(off + pos)
                run = run + PAGE if self.f.read(PAGE) == zero else 0
                if run == size:
                    return self.va(paddr + pos + PAGE - size)
        sys.exit(f"inject: no {size} zero bytes in the linear map")


def frames(trace_id, n, rnd):
    """@n formatted 16-byte frames, each opening with an ID change to @trace_id."""
    out = bytearray()
    for _ in range(n):
        f = bytearray(rnd.getrandbits(8) for _ in range(16))
        f[0] = (trace_id << 1) | 1
        for i in range(2, 15, 2):
            f[i] &= 0xFE                 # data bytes, not ID changes
        f[15] = 0
        out += f
    return bytes(out)


def record(kind, flags, cpu, name, buf_va, capacity, data_len, data_offset, crc, trace_id):
    r = struct.pack("<IHHHHi32sQQQQQII", MAGIC, VERSION, REC_SIZE, kind, flags, cpu,
                    name.encode(), buf_va, 0, capacity, data_len, data_offset, crc, trace_id)
    return r + bytes(REC_SIZE - len(r))


def main():
    base, out = sys.argv[1:3]
    tmp = out + ".tmp"
    shutil.copyfile(base, tmp)
    d = Dump(tmp)
    list_off = int(d.info["OFFSET(coresight_kdump_node.list)"])
    head = int(d.info["SYMBOL(coresight_kdump_list)"], 16)
    region = d.zero_region(REGION)
    rnd = random.Random(20261130)
    bufs = region + PAGE               # data buffers after one page of nodes

    def buffer(data):
        nonlocal bufs
        va = bufs
        d.write(va, data)
        bufs += (len(data) + PAGE - 1) & ~(PAGE - 1)
        return va

    recs = []
    # A copy at panic (ETF), in trace order.
    t1 = frames(0x10, 1024, rnd)
    recs.append(record(KIND_TRACE, SAVED | FORMATTED, -1, "tmc_etf0", buffer(t1),
                       len(t1), len(t1), 0, zlib.crc32(t1), 0))
    # A wrapped ETR in place: the oldest byte at 12288, read back circularly.
    t2 = frames(0x12, 2048, rnd)
    off = 12288
    mem = t2[len(t2) - off:] + t2[:len(t2) - off]
    recs.append(record(KIND_TRACE, SAVED | FORMATTED | WRAPPED | IN_PLACE, -1, "tmc_etr0",
                       buffer(mem), len(mem), len(mem), off, zlib.crc32(t2), 0))
    # ETMv4 metadata for the two trace IDs (perf's block, ten u64).
    for cpu, tid in ((0, 0x10), (1, 0x12)):
        meta = struct.pack("<10Q", ETM_MAGIC, cpu, 7, 0x10C1, tid, 0x28000EA1,
                           0x4100F403, 0x488, 0, 0xCC)
        recs.append(record(KIND_META, SAVED, cpu, f"etm{cpu}", buffer(meta), len(meta),
                           len(meta), 0, zlib.crc32(meta), tid))
    # A sink that saved nothing, and one whose data fails its CRC.
    recs.append(record(KIND_TRACE, FORMATTED, -1, "tmc_etf1", 0, 0, 0, 0, 0, 0))
    t3 = frames(0x10, 64, rnd)
    recs.append(record(KIND_TRACE, SAVED | FORMATTED, -1, "tmc_etb0", buffer(t3),
                       len(t3), len(t3), 0, zlib.crc32(t3) ^ 1, 0))
    if bufs > region + REGION:
        sys.exit("inject: records overflow the zero region")

    # Nodes: record at 0, list_head at list_off; a circular list through head.
    stride = (list_off + 16 + 63) & ~63
    nodes = [region + i * stride for i in range(len(recs))]
    links = [head] + [n + list_off for n in nodes] + [head]
    for i, (n, rec) in enumerate(zip(nodes, recs)):
        d.write(n, rec)
        d.write(n + list_off, struct.pack("<QQ", links[i + 2], links[i]))
    d.write(head, struct.pack("<QQ", links[1], links[-2]))
    d.f.close()
    os.replace(tmp, out)
    print(f"inject: {out}: {len(recs)} records at {region:#x}, list head {head:#x}")


if __name__ == "__main__":
    main()
