#!/usr/bin/env bash
# ktext.sh CSDUMP ETM4ENC KTEXT_VMCORE WORK: an extract directory decodes as
# the vmcore it came from (issue 17, defect 3).  The running kernel patches
# its own text (alternatives, static keys); the decode of a vmcore reads the
# text as it ran from the vmcore, and an extract made with --vmlinux carries
# it (kernel-text.bin).
#
# A program built for arm64 at a kernel-image address, traced on two CPUs by
# the project's encoder at the vmcore's KASLR offset, goes into a generated
# vmcore (ktext_vmcore.c) whose copy of the program has one conditional
# branch the trace takes turned into a NOP.  Checked:
#   - kernel-text.bin holds, for every span summary.txt lists, the program's
#     bytes with that NOP (read here from the ELF file, not from csdump);
#   - the extract's decode (JSON lines and text) equals the vmcore's, byte
#     for byte;
#   - without --vmlinux the extract decodes differently (the patch matters
#     on this trace) and says why, in one warning.
set -eu
csdump=$1 enc=$2 gen=$3 work=$4
. "$(dirname "$0")/common.sh"
cc=aarch64-linux-gnu-gcc
command -v $cc >/dev/null || { echo "skip: $cc not installed"; exit 77; }
[ -x "$enc" ] || { echo "skip: no ETMv4 encoder at $enc"; exit 77; }
kaslr=0x12340000		# VG_KASLR (tests/unit/vmcoregen.h)
link=0xffff800008020000		# in vmcoregen's kernel image, clear of its registry
rm -rf "$work"
mkdir -p "$work"
$cc -g -O1 -fno-inline -nostdlib -static -Wl,-e,main -Wl,-Ttext=$link \
	-o "$work/prog.elf" "$here/fixture.c"
"$enc" --elf "$work/prog.elf" -o "$work/enc" --cpus 2 --steps 300 --offset $kaslr \
	--ranges "$work/encoded" >/dev/null
# The last instruction of the first range that ends in a not-taken branch.
patch=$(python3 -c 'import sys
for l in open(sys.argv[1]):
    f = l.split()
    if f[5] == "N":
        print(hex(int(f[3], 16) - 4)); break' "$work/encoded")
[ -n "$patch" ] || { echo "FAIL: the encoded trace has no not-taken branch"; exit 1; }
nop=0xd503201f
"$gen" "$work/enc" "$work/prog.elf" "$work/vmcore" "$patch" $nop

fail=0
"$csdump" extract "$work/vmcore" -o "$work/x" --vmlinux "$work/prog.elf" >/dev/null \
	2>"$work/x.err" || { echo "FAIL: extract --vmlinux"; cat "$work/x.err"; exit 1; }
"$csdump" extract "$work/vmcore" -o "$work/plain" >/dev/null 2>"$work/plain.err"
python3 - "$work/prog.elf" "$work/x" $kaslr "$patch" $nop <<'PY' || fail=1
import re, struct, sys
elf, x, kaslr, patch, nop = sys.argv[1], sys.argv[2], *(int(a, 0) for a in sys.argv[3:])
b = open(elf, 'rb').read()
phoff, = struct.unpack_from('<Q', b, 32)
phnum, = struct.unpack_from('<H', b, 56)
image = {}
for i in range(phnum):
    typ, flags, off, vaddr, _, filesz = struct.unpack_from('<IIQQQQ', b, phoff + 56 * i)
    if typ == 1 and flags & 1:
        for k in range(filesz):
            image[vaddr + kaslr + k] = b[off + k]
for k in range(4):
    image[patch + k] = (nop >> (8 * k)) & 0xff
text = open(x + '/kernel-text.bin', 'rb').read()
spans = [tuple(int(v, 0) for v in m.groups()) for m in
         re.finditer(r'^ktext file=kernel-text.bin offset=(\d+) bytes=(\d+) vaddr=(0x[0-9a-f]+)$',
                     open(x + '/summary.txt').read(), re.M)]
bad = 0
if not spans:
    print('FAIL: summary.txt lists no kernel text'); sys.exit(1)
if not any(v <= patch < v + n for _, n, v in spans):
    print('FAIL: no span covers the patched word'); bad = 1
for off, n, v in spans:
    want = bytes(image.get(v + k, 0) for k in range(n))
    if text[off:off + n] != want:
        print(f'FAIL: kernel text at 0x{v:x} ({n} bytes) is not the program with its patch')
        bad = 1
print(f'kernel-text.bin: {len(spans)} span(s), {len(text)} bytes, NOP at 0x{patch:x}')
sys.exit(bad)
PY
for fmt in jsonl text; do
	"$csdump" decode "$work/vmcore" --vmlinux "$work/prog.elf" --format $fmt --last 0 \
		>"$work/vmcore.$fmt" 2>"$work/vmcore.$fmt.err"
	"$csdump" decode "$work/x" --vmlinux "$work/prog.elf" --format $fmt --last 0 \
		>"$work/x.$fmt" 2>"$work/x.$fmt.err"
	"$csdump" decode "$work/plain" --vmlinux "$work/prog.elf" --format $fmt --last 0 \
		>"$work/plain.$fmt" 2>"$work/plain.$fmt.err" || true
	[ -s "$work/vmcore.$fmt" ] || { echo "FAIL: $fmt: the vmcore decodes to nothing"; fail=1; }
	if cmp -s "$work/vmcore.$fmt" "$work/x.$fmt"; then
		echo "ok: $fmt: the extract with kernel-text.bin decodes as the vmcore ($(wc -l <"$work/x.$fmt") lines)"
	else
		echo "FAIL: $fmt: the extract decodes differently from the vmcore"
		diff "$work/vmcore.$fmt" "$work/x.$fmt" | head -n 6; fail=1
	fi
	cmp -s "$work/vmcore.$fmt" "$work/plain.$fmt" &&
		{ echo "FAIL: $fmt: the patched word changes nothing: the test proves nothing"; fail=1; }
	n=$(grep -c 'no kernel text as it ran (extracted without --vmlinux)' "$work/plain.$fmt.err" || true)
	[ "$n" -eq 1 ] || { echo "FAIL: $fmt: $n warnings about the missing kernel text"; fail=1; }
done
# A summary that cuts kernel-text.bin into more pieces than csdump takes, or
# puts a piece beyond its end: refused (exit 2) in one error line.
hostile() {	# NAME REGEX LINE...
	local name=$1 re=$2 rc=0; shift 2
	cp -r "$work/x" "$work/$name"
	printf '%s\n' "$@" >>"$work/$name/summary.txt"
	"$csdump" decode "$work/$name" --vmlinux "$work/prog.elf" >/dev/null 2>"$work/$name.err" || rc=$?
	if [ "$rc" -eq 2 ] && [ "$(grep -c '^csdump: error: ' "$work/$name.err")" -eq 1 ] &&
	   grep -q -- "$re" "$work/$name.err"; then
		echo "ok: $name: refused"
	else
		echo "FAIL: $name: exit $rc"; cat "$work/$name.err"; fail=1
	fi
}
many=()
for i in $(seq 16); do many+=("ktext file=kernel-text.bin offset=0 bytes=4 vaddr=0x$((1000 + i))000"); done
hostile ktext-many "more kernel text than kernel-text.bin holds" "${many[@]}"
hostile ktext-beyond "kernel-text.bin: [0-9]* bytes, the summary puts 4096 at 4294967296" \
	"ktext file=kernel-text.bin offset=4294967296 bytes=4096 vaddr=0x1000"
exit $fail
