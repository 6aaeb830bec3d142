#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Walk the coresight-kdump registry of an arm64 ELF vmcore, by the ABI alone.

An oracle independent of csdump: it knows nothing but docs/record-abi.md, the
ELF format and the standard library (no libkdumpfile).  Kernel virtual
addresses are translated through the vmcore's PT_LOAD headers (arm64's
kexec_file_load describes the linear map and the kernel image there).

    vmcore_registry.py VMCORE [--json OUT] [--dump-dir DIR]

prints one line per record, writes the records as JSON (with the data's
CRC-32 recomputed here) and, with --dump-dir, each SAVED record's data in
trace order as DIR/<name>.bin.  Exit 0 when the registry was found and every
record and CRC is consistent, 1 otherwise.
"""
import argparse
import json
import os
import struct
import sys
import zlib

ABI_MAGIC = 0x444B5343
ABI_VERSIONS = (1, 2, 3)   # 2 added stop_addr and stop_reason, 3 sink_status
STOP_NAMES = ("none", "fault", "panic", "ipi")
REC_SIZE = 128
KIND_TRACE, KIND_META = 1, 2
FLAG_NAMES = ("SAVED", "WRAPPED", "FORMATTED", "IN_PLACE", "FAILED",
              "FAULTED", "FLUSH_TIMEOUT", "STALE")
FLAG_SAVED, FLAG_FAILED, FLAG_FAULTED = 1 << 0, 1 << 4, 1 << 5
MAX_NODES = 1024


class VmcoreError(Exception):
    pass


class Vmcore:
    """Read an ELF64 little-endian vmcore by kernel virtual address."""

    def __init__(self, path):
        self.path = path
        self.f = open(path, "rb")
        ident = self.f.read(64)
        if len(ident) < 64 or ident[:4] != b"\x7fELF":
            raise VmcoreError(f"{path}: not an ELF file")
        if ident[4] != 2 or ident[5] != 1:
            raise VmcoreError(f"{path}: expected ELF64 little-endian")
        (e_type, e_machine, _, _, e_phoff, _, _, _, e_phentsize, e_phnum,
         _, _, _) = struct.unpack_from("<HHIQQQIHHHHHH", ident, 16)
        if e_type != 4 or e_machine != 183:
            raise VmcoreError(f"{path}: expected an AArch64 ET_CORE file "
                              f"(type {e_type}, machine {e_machine})")
        self.loads = []
        self.notes = b""
        for i in range(e_phnum):
            self.f.seek(e_phoff + i * e_phentsize)
            (p_type, _, p_offset, p_vaddr, p_paddr, p_filesz, _, _) = \
                struct.unpack("<IIQQQQQQ", self.f.read(56))
            if p_type == 1:
                self.loads.append((p_vaddr, p_paddr, p_offset, p_filesz))
            elif p_type == 4:
                self.f.seek(p_offset)
                self.notes += self.f.read(p_filesz)

    def vmcoreinfo(self):
        off = 0
        while off + 12 <= len(self.notes):
            namesz, descsz, _ = struct.unpack_from("<III", self.notes, off)
            off += 12
            name = self.notes[off:off + namesz].rstrip(b"\0")
            off += (namesz + 3) & ~3
            desc = self.notes[off:off + descsz]
            off += (descsz + 3) & ~3
            if name == b"VMCOREINFO":
                info = {}
                for line in desc.decode("ascii", "replace").splitlines():
                    key, sep, val = line.partition("=")
                    if sep:
                        info[key] = val
                return info
        raise VmcoreError(f"{self.path}: no VMCOREINFO note")

    def _read(self, addr, size, field):
        for vaddr, paddr, off, filesz in self.loads:
            base = vaddr if field == 0 else paddr
            if base <= addr and addr + size <= base + filesz:
                self.f.seek(off + addr - base)
                data = self.f.read(size)
                if len(data) == size:
                    return data
        space = "virtual" if field == 0 else "physical"
        raise VmcoreError(f"{self.path}: {space} 0x{addr:x}+{size} "
                          "is not in any PT_LOAD segment")

    def read(self, vaddr, size):
        return self._read(vaddr, size, 0)

    def read_phys(self, paddr, size):
        return self._read(paddr, size, 1)

    def u64(self, vaddr):
        return struct.unpack("<Q", self.read(vaddr, 8))[0]


def parse_record(raw, addr):
    (magic, version, rec_size, kind, flags, cpu, name, buf_vaddr, buf_paddr,
     capacity, data_len, data_offset, data_crc, trace_id) = \
        struct.unpack_from("<IHHHHi32sQQQQQII", raw, 0)
    where = f"record at 0x{addr:x}"
    if magic != ABI_MAGIC:
        raise VmcoreError(f"{where}: magic 0x{magic:08x}, "
                          f"expected 0x{ABI_MAGIC:08x}")
    if version not in ABI_VERSIONS or rec_size < REC_SIZE:
        raise VmcoreError(f"{where}: version {version} size {rec_size}")
    if kind not in (KIND_TRACE, KIND_META):
        raise VmcoreError(f"{where}: kind {kind}")
    if b"\0" not in name:
        raise VmcoreError(f"{where}: name not NUL-terminated")
    if data_len > capacity or (capacity and data_offset >= capacity):
        raise VmcoreError(f"{where}: data_len {data_len} data_offset "
                          f"{data_offset} capacity {capacity}")
    stop_addr, stop_reason = struct.unpack_from("<QH", raw, 96)
    sink_status, = struct.unpack_from("<Q", raw, 112)
    reserved = (raw[96:128] if version == 1 else raw[106:128] if version == 2
                else raw[106:112] + raw[120:128])
    if any(reserved):
        raise VmcoreError(f"{where}: reserved bytes are not zero")
    if stop_reason >= len(STOP_NAMES):
        raise VmcoreError(f"{where}: stop_reason {stop_reason}")
    if flags & FLAG_SAVED and flags & FLAG_FAILED:
        raise VmcoreError(f"{where}: flags 0x{flags:x} say both SAVED and "
                          "FAILED")
    if flags & FLAG_FAULTED and not flags & FLAG_FAILED:
        raise VmcoreError(f"{where}: flags 0x{flags:x}: FAULTED without "
                          "FAILED")
    return {
        "addr": addr, "version": version, "kind": kind, "flags": flags,
        "stop_reason": STOP_NAMES[stop_reason], "stop_addr": stop_addr,
        "sink_status": sink_status if version >= 3 else None,
        "flag_names": [n for i, n in enumerate(FLAG_NAMES) if flags >> i & 1],
        "cpu": cpu, "name": name.split(b"\0")[0].decode("ascii", "replace"),
        "buf_vaddr": buf_vaddr, "buf_paddr": buf_paddr,
        "capacity": capacity, "data_len": data_len,
        "data_offset": data_offset, "data_crc": data_crc,
        "trace_id": trace_id,
    }


def record_data(core, rec):
    """The record's data_len bytes in trace order (data_offset unrolled)."""
    if rec["buf_paddr"]:
        read, base = core.read_phys, rec["buf_paddr"]
    else:
        read, base = core.read, rec["buf_vaddr"]
    first = min(rec["data_len"], rec["capacity"] - rec["data_offset"])
    data = read(base + rec["data_offset"], first) if first else b""
    if rec["data_len"] > first:
        data += read(base, rec["data_len"] - first)
    return data


def walk(core):
    info = core.vmcoreinfo()
    version = info.get("NUMBER(CORESIGHT_KDUMP_VERSION)")
    if version is None:
        raise VmcoreError(f"{core.path}: VMCOREINFO has no "
                          "NUMBER(CORESIGHT_KDUMP_VERSION)")
    if int(version) not in ABI_VERSIONS:
        raise VmcoreError(f"{core.path}: registry version {version}")
    def need(key, base):
        if key not in info:
            raise VmcoreError(f"{core.path}: VMCOREINFO has no {key}")
        return int(info[key], base)

    head = need("SYMBOL(coresight_kdump_list)", 16)
    list_off = need("OFFSET(coresight_kdump_node.list)", 10)
    rec_size = need("SIZE(coresight_kdump_record)", 10)
    if rec_size < REC_SIZE:
        raise VmcoreError(f"{core.path}: SIZE(coresight_kdump_record)="
                          f"{rec_size}")
    records, seen = [], set()
    p = core.u64(head)
    while p != head:
        if p in seen:
            raise VmcoreError(f"{core.path}: registry list loops at 0x{p:x}")
        if len(seen) >= MAX_NODES:
            raise VmcoreError(f"{core.path}: more than {MAX_NODES} nodes")
        seen.add(p)
        rec_addr = p - list_off
        records.append(parse_record(core.read(rec_addr, REC_SIZE), rec_addr))
        p = core.u64(p)
    return info, head, records


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("vmcore")
    ap.add_argument("--json", help="write the records here")
    ap.add_argument("--dump-dir", help="write each SAVED record's data here")
    args = ap.parse_args()

    ok = True
    try:
        core = Vmcore(args.vmcore)
        _, head, records = walk(core)
        print(f"registry at 0x{head:x}: {len(records)} record(s)")
        for rec in records:
            line = (f"  {rec['name']:<24} kind={rec['kind']} "
                    f"cpu={rec['cpu']} flags={'|'.join(rec['flag_names'])} "
                    f"len={rec['data_len']}/{rec['capacity']} "
                    f"off={rec['data_offset']} id=0x{rec['trace_id']:x}")
            if rec["stop_reason"] != "none":
                line += f" stop={rec['stop_reason']}@0x{rec['stop_addr']:x}"
            if rec["flags"] & 1:
                data = record_data(core, rec)
                rec["crc_computed"] = zlib.crc32(data)
                if args.dump_dir:
                    os.makedirs(args.dump_dir, exist_ok=True)
                    with open(os.path.join(args.dump_dir,
                                           rec["name"] + ".bin"), "wb") as f:
                        f.write(data)
                if rec["crc_computed"] != rec["data_crc"]:
                    line += (f" CRC MISMATCH stored 0x{rec['data_crc']:08x}"
                             f" computed 0x{rec['crc_computed']:08x}")
                    ok = False
            print(line)
    except (VmcoreError, KeyError, ValueError, OSError) as e:
        print(f"vmcore_registry: {e}", file=sys.stderr)
        return 1
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
