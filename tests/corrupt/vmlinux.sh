#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# corrupt-vmlinux: csdump decode and csdump snapshot with a --vmlinux that is
# not ELF, is for another architecture, is cut short, has no code, or has a
# program header that lies.  The control is a small AArch64 executable built
# here with the cross compiler; every broken one must fail with exit 2, one
# error line naming the file, and no output.  One whose symbols have no
# string table decodes without names.
# Usage: vmlinux.sh CSDUMP CORRUPT_GEN WORKDIR   (CORRUPT_WRAP: e.g. valgrind)
csdump=$1 gen=$2 work=$3
. "$(dirname "$0")/common.sh"
rm -rf "$work"
mkdir -p "$work/gen"
"$gen" "$work/gen" --good-only || { echo "corrupt_gen failed"; exit 1; }
vmcore=$work/gen/good.vmcore
xcc=aarch64-linux-gnu-gcc
command -v $xcc >/dev/null || { echo "no $xcc (gcc-aarch64-linux-gnu)"; exit 77; }
command -v cc >/dev/null || { echo "no cc"; exit 77; }

cat >"$work/tiny.c" <<'EOF'
void start(void);
int counter;
void start(void)
{
	for (;;)
		counter++;
}
EOF
$xcc -O1 -nostdlib -static -e start -o "$work/arm64.elf" "$work/tiny.c" || exit 1
$xcc -O1 -c -o "$work/arm64.o" "$work/tiny.c" || exit 1
cc -O1 -o "$work/x86.elf" -x c - <<<'int main(void) { return 0; }' || exit 1
printf 'this is not an ELF file\n' >"$work/text.elf"
: >"$work/empty.elf"
head -c 200 "$work/arm64.elf" >"$work/trunc.elf"
# liar: the executable PT_LOAD claims far more file bytes than it has;
# nobits: the string table of the symbols is SHT_NOBITS (no names at all).
python3 - "$work/arm64.elf" "$work/liar.elf" "$work/nobits.elf" <<'EOF'
import struct, sys
good = open(sys.argv[1], 'rb').read()
def headers(off, entsize, num):
    return range(off, off + entsize * num, entsize)
liar, nobits = bytearray(good), bytearray(good)
phoff, shoff = struct.unpack_from('<QQ', good, 32)
phentsize, phnum, shentsize, shnum = struct.unpack_from('<HHHH', good, 54)
for o in headers(phoff, phentsize, phnum):
    ptype, pflags = struct.unpack_from('<II', good, o)
    if ptype == 1 and pflags & 1:                                       # PT_LOAD, PF_X
        struct.pack_into('<QQ', liar, o + 32, 0x7ffffff0, 0x7ffffff0)  # filesz, memsz
for o in headers(shoff, shentsize, shnum):
    if struct.unpack_from('<I', good, o + 4)[0] == 2:                    # SHT_SYMTAB
        link, = struct.unpack_from('<I', good, o + 40)
        struct.pack_into('<I', nobits, shoff + link * shentsize + 4, 8)  # SHT_NOBITS
open(sys.argv[2], 'wb').write(liar)
open(sys.argv[3], 'wb').write(nobits)
EOF

# check NAME RC REGEX: decode and snapshot of the good vmcore with NAME.elf.
check() {
	local name=$1 want=$2 re=$3 k=$work/$1.elf
	[ "$name" = missing ] && k=$work/missing.elf
	[ "$name" = object ] && k=$work/arm64.o
	run "$name.decode" "$csdump" decode "$vmcore" --vmlinux "$k" --last 5
	verdict "$name.decode" "$want" "$re"
	[ -n "${CORRUPT_ONE:-}" ] && return	# valgrind: csdump decode only
	run "$name.snap" "$csdump" snapshot "$vmcore" --vmlinux "$k" -o "$work/$name.out"
	verdict "$name.snap" "$want" "$re"
	if [ "$want" -eq 0 ]; then
		[ -s "$work/$name.out/snapshot.ini" ] || fail "$name: no snapshot written"
	else
		[ -e "$work/$name.out" ] && fail "$name: snapshot failed but wrote $name.out"
		[ -s "$work/$name.decode.out" ] && fail "$name: decode failed but printed a report"
	fi
}

check arm64 0 -
check nobits 0 -
check text 2 'text.elf: not an ELF file'
check empty 2 'empty.elf: not an ELF file'
check missing 2 'missing.elf: No such file'
check x86 2 'x86.elf: .*(x86|machine 62).*AArch64'
check trunc 2 'trunc.elf: (not an ELF|program header)'
check object 2 'arm64.o: no executable PT_LOAD'
check liar 2 'liar.elf: PT_LOAD at 0x[0-9a-f]+: 0x7ffffff0 bytes at offset 0x0 lie beyond the end'
no_leftovers "$work"
echo "$cases checks, $fails failure(s)"
[ "$fails" -eq 0 ]
