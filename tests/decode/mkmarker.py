#!/usr/bin/env python3
"""mkmarker.py OUT: an AArch64 ELF file with one code section .text at
0xffff800008010000, 0x1000 bytes, holding f (FUNC, 0x100 bytes), g (NOTYPE,
no size) at +0x200 and __exittext_end (NOTYPE, no size) at the section's
end, as the linker script's section-end markers are in a vmlinux.  An address
far past the section must not be named after __exittext_end."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'bench'))
import mksyms  # noqa: E402  (its ELF writer)

STB_GLOBAL, STT_NOTYPE, STT_FUNC = 1, 0, 2
BASE, SIZE = 0xffff800008010000, 0x1000


def main():
    strtab = bytearray(b'\0')
    syms = [struct.pack('<IBBHQQ', 0, 0, 0, 0, 0, 0)]
    for name, typ, off, size in ((b'f', STT_FUNC, 0, 0x100), (b'g', STT_NOTYPE, 0x200, 0),
                                 (b'__exittext_end', STT_NOTYPE, SIZE, 0)):
        syms.append(struct.pack('<IBBHQQ', len(strtab), (STB_GLOBAL << 4) | typ, 0, 1,
                                BASE + off, size))
        strtab += name + b'\0'
    mksyms.write_elf(sys.argv[1], BASE, SIZE, syms, strtab)


if __name__ == '__main__':
    main()
