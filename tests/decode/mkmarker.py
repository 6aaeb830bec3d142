#!/usr/bin/env python3
"""mkmarker.py OUT: an AArch64 ELF file with one code section .text at
0xffff800008010000, 0x1000 bytes, holding f (FUNC, 0x100 bytes), g (NOTYPE,
no size) at +0x200 and __exittext_end (NOTYPE, no size) at the section's
end, as the linker script's section-end markers are in a vmlinux.  An address
far past the section must not be named after __exittext_end."""
import struct
import sys

EM_AARCH64, ET_EXEC = 183, 2
SHT_SYMTAB, SHT_STRTAB, SHT_NOBITS = 2, 3, 8
SHF_ALLOC, SHF_EXECINSTR = 2, 4
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
    shstr = b'\0.text\0.symtab\0.strtab\0.shstrtab\0'
    symtab = b''.join(syms)
    off_sym = 64
    off_str = off_sym + len(symtab)
    off_shstr = off_str + len(strtab)
    off_sh = (off_shstr + len(shstr) + 7) & ~7

    def shdr(name, typ, flags, addr, off, size, link=0, info=0, align=1, entsize=0):
        return struct.pack('<IIQQQQIIQQ', name, typ, flags, addr, off, size, link, info, align,
                           entsize)
    shdrs = [shdr(0, 0, 0, 0, 0, 0),
             shdr(1, SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, BASE, 0, SIZE, align=4),
             shdr(7, SHT_SYMTAB, 0, 0, off_sym, len(symtab), link=3, info=1, align=8,
                  entsize=24),
             shdr(15, SHT_STRTAB, 0, 0, off_str, len(strtab)),
             shdr(23, SHT_STRTAB, 0, 0, off_shstr, len(shstr))]
    ehdr = struct.pack('<4sBBBBB7sHHIQQQIHHHHHH', b'\x7fELF', 2, 1, 1, 0, 0, b'\0' * 7,
                       ET_EXEC, EM_AARCH64, 1, BASE, 0, off_sh, 0, 64, 56, 0, 64, len(shdrs), 4)
    with open(sys.argv[1], 'wb') as f:
        f.write(ehdr + symtab + strtab + shstr)
        f.write(b'\0' * (off_sh - off_shstr - len(shstr)))
        f.write(b''.join(shdrs))


if __name__ == '__main__':
    main()
