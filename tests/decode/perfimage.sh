#!/usr/bin/env bash
# perfimage.sh CSDUMP ETM4ENC KTEXT_VMCORE WORK: stock perf decodes a
# vmcore's trace as csdump does when csdump gives it the program image
# (issue 17, defect 5).  perf 6.1 given `-k VMLINUX` reads only VMLINUX's
# .text section: trace through other code (a kernel's .head.text,
# .init.text, .rodata.text) is lost to it, and its decode drifts.  `csdump
# perf VMCORE --vmlinux VMLINUX` writes FILE.elf, VMLINUX's code with the
# kernel text as it ran laid over it, every section in one, and a kernel map
# that starts where the image does.
#
# A program at a kernel-image address with a function in .init.text, traced
# by the project's encoder on two CPUs, in a generated vmcore whose .text has
# one word patched (ktext_vmcore.c).  The oracle is stock `perf script`:
#   - with -k FILE.elf, per CPU, every sample but the trace-start one is the
#     last instruction of a range csdump decodes from the vmcore, in
#     csdump's order, and some lie in .init.text (addresses from readelf);
#   - with -k PROG_ELF, the old way, what perf makes of it is reported, not
#     checked (it finds no _stext in this program to relocate the kernel
#     map by; on the e2e demo's real vmlinux it decodes .text only).
set -eu
csdump=$1 enc=$2 gen=$3 work=$4
. "$(dirname "$0")/common.sh"
cc=aarch64-linux-gnu-gcc
command -v $cc >/dev/null || { echo "skip: $cc not installed"; exit 77; }
command -v perf >/dev/null || { echo "skip: perf not installed"; exit 77; }
[ -x "$enc" ] || { echo "skip: no ETMv4 encoder at $enc"; exit 77; }
kaslr=0x12340000		# VG_KASLR (tests/unit/vmcoregen.h)
link=0xffff800008020000
rm -rf "$work"
mkdir -p "$work"
sed 's/return f_gamma(argc) & 1;/return (f_gamma(argc) + f_init(argc)) \& 1;/
     s/^int f_gamma(int x);/int f_gamma(int x);\nint f_init(int x);/' "$here/fixture.c" >"$work/main.c"
grep -q f_init "$work/main.c"
$cc -g -O1 -fno-inline -nostdlib -static -Wl,-e,main -Wl,-Ttext=$link \
	-o "$work/prog.elf" "$work/main.c" "$here/initfn.c"
read -r ilo isize < <(aarch64-linux-gnu-readelf -SW "$work/prog.elf" |
	awk '{ for (i = 1; i <= NF; i++) if ($i == ".init.text") print "0x" $(i + 2), "0x" $(i + 4) }')
[ -n "$ilo" ] || { echo "FAIL: no .init.text in the program"; exit 1; }
"$enc" --elf "$work/prog.elf" -o "$work/enc" --cpus 2 --steps 400 --offset $kaslr \
	--ranges "$work/encoded" >/dev/null
# Patch the first word of .text: NOP (what it is does not matter, that
# perf reads the vmcore's text does: the decode of both must follow it).
patch=$(python3 -c "print(hex($link + $kaslr))")
"$gen" "$work/enc" "$work/prog.elf" "$work/vmcore" "$patch" 0xd503201f

"$csdump" decode "$work/vmcore" --vmlinux "$work/prog.elf" --format jsonl --last 0 \
	>"$work/csdump.jsonl" 2>/dev/null
"$csdump" perf "$work/vmcore" -o "$work/t.data" --vmlinux "$work/prog.elf" >/dev/null 2>&1
[ -s "$work/t.data.elf" ] || { echo "FAIL: no image written"; exit 1; }
perf script -i "$work/t.data" -k "$work/t.data.elf" -F cpu,ip >"$work/image.txt" 2>"$work/image.err"
perf script -i "$work/t.data" -k "$work/prog.elf" -F cpu,ip >"$work/vmlinux.txt" 2>"$work/vmlinux.err" || true
python3 - "$work" "$ilo" "$isize" $kaslr <<'PY'
import collections, difflib, json, re, sys
work, ilo, isize, kaslr = sys.argv[1], *(int(a, 0) for a in sys.argv[2:])
ilo += kaslr
ends = collections.defaultdict(list)
for l in open(work + '/csdump.jsonl'):
    e = json.loads(l)
    if e['type'] == 'range':
        ends[e['cpu']].append(int(e['end'], 16) - 4)
def samples(path):
    s = collections.defaultdict(list)
    for l in open(path):
        m = re.match(r'\s*\[(\d+)\]\s+([0-9a-f]+)\s*$', l)
        if m and int(m.group(2), 16):
            s[int(m.group(1))].append(int(m.group(2), 16))
    return s
def in_init(a):
    return ilo <= a < ilo + isize
fail = 0
img, old = samples(work + '/image.txt'), samples(work + '/vmlinux.txt')
if sorted(img) != sorted(ends):
    print(f'FAIL: perf has samples for CPUs {sorted(img)}, csdump ranges for {sorted(ends)}')
    fail = 1
for cpu in sorted(ends):
    S, E = img.get(cpu, []), ends[cpu]
    m = sum(b.size for b in difflib.SequenceMatcher(None, S, E, autojunk=False).get_matching_blocks())
    n_init = sum(map(in_init, S))
    print(f'cpu {cpu}: perf -k image: {len(S)} samples, {m} in csdump\'s order, {n_init} in '
          f'.init.text; perf -k vmlinux: {len(old.get(cpu, []))} samples, '
          f'{sum(map(in_init, old.get(cpu, [])))} in .init.text')
    if not S or m != len(S):
        print(f'FAIL: cpu {cpu}: {len(S) - m} of perf\'s samples are not csdump\'s range ends in order')
        fail = 1
    if not n_init:
        print(f'FAIL: cpu {cpu}: no sample in .init.text'); fail = 1
sys.exit(fail)
PY
