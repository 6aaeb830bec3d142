#!/usr/bin/env bash
# report.sh CSDUMP SNAPSHOT_DIR WORK: `csdump report` of juno_r1_1 (with a
# symbol table by bench/mksyms.py) in a real browser, Debian's chromium,
# headless:
# - the page is one file that fetches nothing: no src=/href= attribute, no
#   URL but the SVG namespace name;
# - it loads with no console message at all (errors, uncaught exceptions);
# - its DOM after the script ran has one lane per trace unit of the
#   snapshot (counted from its .ini files), and a lane with slices for each
#   trace ID where trc_pkt_lister decodes instructions;
# - a screenshot, read by this script's own PNG reader, has each lane's
#   colour (the page gives lane i of n the hue 360 i / n, HSL 70%/50%): its
#   8x24 swatch, and more where the lane has slices.
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
need_snapshot "$snap"
command -v chromium >/dev/null || { echo "skip: chromium not installed"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
juno_syms "$work"
"$csdump" report "$snap" --vmlinux "$work/syms.elf" -o "$work/report.html" 2>"$work/report.err"
fail=0
# Usage: -o is needed and is report's; decode's own options are refused.
rc() { "$@" >/dev/null 2>&1; echo $?; }
[ "$(rc "$csdump" report "$snap")" = 1 ] || { echo "FAIL: report without -o"; fail=1; }
[ "$(rc "$csdump" report "$snap" -o "$work/x.html" --format jsonl)" = 1 ] ||
	{ echo "FAIL: report --format"; fail=1; }
[ "$(rc "$csdump" decode "$snap" -o "$work/x.html")" = 1 ] || { echo "FAIL: decode -o"; fail=1; }
# A page that cannot be written: exit 2, nothing left behind.
[ "$(rc "$csdump" report "$snap" -o "$work/no/such/dir/r.html")" = 2 ] ||
	{ echo "FAIL: an unwritable page"; fail=1; }
[ ! -e "$work/x.html" ] || { echo "FAIL: a page written after a usage error"; fail=1; }
if grep -Eo '(src|href)=|https?://[^"'\'' ]*' "$work/report.html" | grep -v '^http://www.w3.org/2000/svg$'; then
	echo "FAIL: the page refers to something outside it"; fail=1
fi
chrome() {
	timeout 120 chromium --headless --disable-gpu --no-sandbox --user-data-dir="$work/profile" \
		--enable-logging=stderr --v=0 "$@" "file://$work/report.html"
}
chrome --dump-dom >"$work/dom.html" 2>"$work/dom.err"
if grep ':CONSOLE' "$work/dom.err"; then
	echo "FAIL: console messages"; fail=1
fi
chrome --screenshot="$work/shot.png" --window-size=1300,6000 >/dev/null 2>"$work/shot.err"
lister_seq "$snap" "$work/oracle"
units=$(grep -l -E '^type *= *ETM' "$snap"/*.ini | wc -l)
python3 - "$work/dom.html" "$work/oracle" "$units" "$work/shot.png" <<'PY' || fail=1
import colorsys, re, struct, sys, zlib
dom, oracle, units, png = open(sys.argv[1]).read(), sys.argv[2], int(sys.argv[3]), sys.argv[4]
lanes = re.findall(r'<svg class="lane" id="lane-(\d+)" data-cpu="([^"]*)" data-slices="(\d+)"', dom)
traced = {int(l.split()[0], 16) for l in open(oracle) if ' range ' in l}
bad = 0
if len(lanes) != units:
    print('FAIL: %d lanes, the snapshot has %d trace units' % (len(lanes), units)); bad = 1
for tid, cpu, n in lanes:
    if (int(tid) in traced) != (int(n) > 0):
        print('FAIL: lane of trace ID %s: %s slices, trc_pkt_lister %s instructions' %
              (tid, n, 'has' if int(tid) in traced else 'has no')); bad = 1
print('%d lanes (%s), %d with slices' % (len(lanes), ', '.join('CPU ' + c for _, c, _ in lanes),
                                       sum(int(n) > 0 for _, _, n in lanes)))

def read_png(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, inter = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6) and not inter, (depth, ctype, inter)
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows

w, h, bpp, rows = read_png(png)
counts = {}
for row in rows:
    for x in range(0, w * bpp, bpp):
        px = row[x:x + 3]
        counts[px] = counts.get(px, 0) + 1
slices_of = {tid: n for tid, _, n in lanes}
for i, (tid, cpu, _) in enumerate(lanes):
    r, g, b = colorsys.hls_to_rgb(i / len(lanes), 0.5, 0.7)
    want = tuple(round(v * 255) for v in (r, g, b))
    n = sum(c for px, c in counts.items() if all(abs(px[k] - want[k]) <= 2 for k in range(3)))
    # The lane's swatch is 8 x 24 pixels; a lane with slices draws more.
    need = 192 + 100 if int(slices_of[tid]) else 150
    print('CPU %s: %d pixels of its colour rgb%s (at least %d)' % (cpu, n, want, need))
    if n < need:
        print('FAIL: CPU %s is not drawn' % cpu); bad = 1
sys.exit(bad)
PY
exit $fail
