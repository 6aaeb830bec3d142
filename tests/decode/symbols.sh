#!/usr/bin/env bash
# symbols.sh PROBE CC WORK: csdump's symbol, line and image modules against
# binutils (nm, addr2line, readelf) on a program built here with -g.
set -eu
probe=$1 cc=$2 work=$3
here=$(dirname "$0")
for t in nm addr2line readelf; do
	command -v $t >/dev/null || { echo "skip: $t not installed"; exit 77; }
done
mkdir -p "$work"
elf=$work/fixture
$cc -g -O1 -fno-inline -no-pie -o "$elf" "$here/fixture.c"
fail=0
off=0xffff800008000000

for f in f_alpha f_beta f_gamma main; do
	read -r addr size <<<"$(nm -S --defined-only "$elf" | awk -v f=$f '$4 == f { print $1, $2 }')"
	[ -n "$addr" ] || { echo "FAIL: nm does not list $f"; exit 1; }
	a=$((16#$addr)) s=$((16#$size))
	# The first, a middle and the last byte, at link and at KASLR-shifted addresses.
	for o in 0 $((s / 2)) $((s - 1)); do
		want=$f; [ $o -eq 0 ] || want=$(printf '%s+0x%x' $f $o)
		for base in 0 $((off)); do
			q=$(printf '0x%x' $((a + o + base)))
			got=$("$probe" syms "$elf" $((base)) $q | cut -d' ' -f2)
			[ "$got" = "$want" ] || { echo "FAIL: $q: got '$got', nm says '$want'"; fail=1; }
		done
	done
	# Source line of the first instruction, as addr2line reads it.
	q=$(printf '0x%x' $((a + 4)))
	want=$(addr2line -e "$elf" $q | sed 's/ (discriminator.*//')
	got=$("$probe" lines "$elf" 0 $q | cut -d' ' -f2)
	[ "$(basename "$got")" = "$(basename "$want")" ] ||
		{ echo "FAIL: line of $f+4: got '$got', addr2line says '$want'"; fail=1; }
	echo "$f: 0x$addr size 0x$size, line $got"
done
# Below every function: no symbol.
got=$("$probe" syms "$elf" 0 0x10 | cut -d' ' -f2)
[ "$got" = "?" ] || { echo "FAIL: 0x10 has symbol '$got'"; fail=1; }

# Image: the executable PT_LOADs at link address + offset, with their bytes.
readelf -lW "$elf" | awk '$1 == "LOAD" && ($7 $8) ~ /E/ { print $2, $3, $5 }' >"$work/loads"
[ -s "$work/loads" ] || { echo "FAIL: readelf lists no executable PT_LOAD"; exit 1; }
"$probe" image "$elf" $off >"$work/image"
i=0
while read -r foff vaddr filesz; do
	i=$((i + 1))
	line=$(sed -n "${i}p" "$work/image")
	bytes=$(od -An -tx1 -v -j $((foff)) -N 16 "$elf" | tr -d ' \n')
	want=$(printf '0x%x 0x%x %s 1' $((vaddr + off)) $((filesz)) "$bytes")
	[ "$line" = "$want" ] || { echo "FAIL: segment $i: got '$line', readelf+od say '$want'"; fail=1; }
done <"$work/loads"
[ "$(wc -l <"$work/image")" -eq "$i" ] || { echo "FAIL: $(wc -l <"$work/image") segments, readelf $i"; fail=1; }
echo "image: $i executable segment(s) match readelf"

# The running kernel's text over vmlinux's: a fake vmcore serving 0xa5 bytes
# at even page numbers only.  Expected values from the file itself.  The
# offset puts the segment across an even and an odd page.  `overlay` replaces
# every byte of the segments; `overlay-text` only the code that stays after
# boot: executable sections but .init*/.exit* (freed, their pages reused),
# never data, with the sections taken from readelf, not from csdump.
ooff=$(printf '0x%x' $((off + 0x1f00)))
"$probe" overlay "$elf" $ooff >"$work/overlay"
"$probe" overlay-text "$elf" $ooff >"$work/overlay-text"
readelf -SW "$elf" | sed -n 's/^ *\[ *[0-9]*\] //p' |
	awk '$2 == "PROGBITS" && $7 ~ /A/ && $7 ~ /X/ && $1 !~ /^\.(init|exit)/ { print "0x" $3, "0x" $5 }' \
	>"$work/text"
[ -s "$work/text" ] || { echo "FAIL: readelf lists no code section"; fail=1; }
python3 - "$elf" "$work/loads" $ooff "$work/overlay" "$work/overlay-text" "$work/text" <<'PY' || fail=1
import sys
elf, loads, off = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
data = open(elf, 'rb').read()
text = [(int(a, 0) + off, int(a, 0) + off + int(n, 0))
        for a, n in (l.split() for l in open(sys.argv[6]))]

def expect(spans):
    """pages, words and every 64th byte after the overlay, within @spans."""
    pages = words = 0
    want = []
    for line in open(loads):
        foff, vaddr, size = (int(x, 0) for x in line.split())
        seg = bytearray(data[foff:foff + size])
        base = vaddr + off
        a = base
        while a < base + size:
            end = min((a // 4096 + 1) * 4096, base + size)
            inside = [s for s in spans if s[0] <= a < s[1]]
            if not inside:
                nxt = [s[0] for s in spans if a < s[0] < end]
                a = min(nxt) if nxt else end
                continue
            end = min(end, inside[0][1])
            if (a // 4096) % 2 == 0:
                pages += 1
                chunk = seg[a - base:end - base]
                words += sum(1 for k in range(0, len(chunk) - 3, 4)
                             if chunk[k:k + 4] != b'\xa5' * 4)
                seg[a - base:end - base] = b'\xa5' * (end - a)
            a = end
        want += ['0x%x %02x' % (base + k, seg[k]) for k in range(0, size, 64)]
    return pages, words, want

ok = True
for name, got, spans in (('overlay', sys.argv[4], [(0, 1 << 64)]),
                         ('overlay-text', sys.argv[5], text)):
    pages, words, want = expect(spans)
    lines = open(got).read().split('\n')
    ok &= pages > 0 and lines[0] == 'pages %d words %d' % (pages, words) and lines[1:-1] == want
    print('%s: %s (expected pages %d words %d, %d spans)' % (name, lines[0], pages, words, len(spans)))
sys.exit(0 if ok else 1)
PY
# Image lookups over overlapping and far-apart segments (a snapshot may list
# any): every answer comes from a segment covering the address, with the
# bytes left in it; "-" exactly where none does.
python3 - "$probe" <<'PY' || fail=1
import random, subprocess, sys
r = random.Random(8)
segs = [(r.randrange(0, 1 << 20) & ~3, r.randrange(1, 4096)) for _ in range(200)]
segs += [(0xffffffffffff0000, 0x10000), (0, 16)]
addrs = [r.randrange(0, (1 << 20) + 4096) for _ in range(2000)]
addrs += [0xffffffffffffffff, 0xfffffffffffefff0, 15, 16]
spec = ','.join('%#x:%#x' % s for s in segs)
out = subprocess.run([sys.argv[1], 'lookup', spec] + ['%#x' % a for a in addrs],
                     capture_output=True, text=True, check=True).stdout.split('\n')
bad = 0
for a, line in zip(addrs, out):
    _, seg, got = line.split()
    covering = [i for i, (v, n) in enumerate(segs) if v <= a < v + n]
    if seg == '-':
        ok = not covering
    else:
        i = int(seg)
        ok = i in covering and int(got) == min(8, segs[i][0] + segs[i][1] - a)
    if not ok:
        bad += 1
        print('lookup %#x: got %s, covering %s' % (a, line, covering))
print('image lookups: %d of %d right' % (len(addrs) - bad, len(addrs)))
sys.exit(1 if bad else 0)
PY
exit $fail
