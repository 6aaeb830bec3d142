#!/usr/bin/env python3
"""mksyms.py OUT START END [hostile]: an ELF file holding only a symbol table
of functions covering [START, END), so that `csdump decode --vmlinux OUT`
looks up a symbol for every range, as it would with a real vmlinux.  The Juno
snapshots come without their kernel's vmlinux; function sizes are drawn
(fixed seed) from 16 to 1 KiB, about a kernel's density.  With "hostile",
some names need escaping in JSON (quote, backslash, control and non-ASCII
bytes) and some are hundreds of bytes long."""
import random
import struct
import sys

EM_AARCH64, ET_EXEC = 183, 2
SHT_SYMTAB, SHT_STRTAB, SHT_NOBITS = 2, 3, 8
SHF_ALLOC, SHF_EXECINSTR = 2, 4
STB_GLOBAL, STT_FUNC = 1, 2


def write_elf(out, base, size, syms, strtab):
    """Write @out: an AArch64 ELF file with one NOBITS code section .text of
    @size bytes at @base and the symbol table @syms (packed Elf64_Sym, the
    null symbol first) over the string table @strtab."""
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
             shdr(1, SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, base, 0, size, align=4),
             shdr(7, SHT_SYMTAB, 0, 0, off_sym, len(symtab), link=3, info=1, align=8,
                  entsize=24),
             shdr(15, SHT_STRTAB, 0, 0, off_str, len(strtab)),
             shdr(23, SHT_STRTAB, 0, 0, off_shstr, len(shstr))]
    ehdr = struct.pack('<4sBBBBB7sHHIQQQIHHHHHH', b'\x7fELF', 2, 1, 1, 0, 0, b'\0' * 7,
                       ET_EXEC, EM_AARCH64, 1, base, 0, off_sh, 0, 64, 56, 0, 64, len(shdrs), 4)
    with open(out, 'wb') as f:
        f.write(ehdr + symtab + strtab + shstr)
        f.write(b'\0' * (off_sh - off_shstr - len(shstr)))
        f.write(b''.join(shdrs))


def main():
    out, start, end = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3], 0)
    hostile = sys.argv[4:] == ['hostile']
    rng = random.Random(8)
    strtab = bytearray(b'\0')
    syms = [struct.pack('<IBBHQQ', 0, 0, 0, 0, 0, 0)]
    addr, n = start, 0
    while addr < end:
        size = min(rng.randrange(16, 1024, 4), end - addr)
        name = b'fn_%05d_%x' % (n, addr & 0xffffff)
        if hostile and n % 7 == 3:
            name += b'"q\\b\x01\x7f\xe9'
        elif hostile and n % 11 == 5:
            name += b'_long' * (20 + n % 60)
        syms.append(struct.pack('<IBBHQQ', len(strtab), (STB_GLOBAL << 4) | STT_FUNC, 0, 1,
                                addr, size))
        strtab += name + b'\0'
        addr += size
        n += 1
    write_elf(out, start, end - start, syms, strtab)
    print('%s: %d functions in 0x%x-0x%x' % (out, n, start, end))


if __name__ == '__main__':
    main()
