#!/usr/bin/env bash
# symjson.sh CSDUMP SNAPSHOT_DIR WORK: every "sym" csdump decode prints for
# juno_r1_1 is what nm's symbol table says for that address (a symbol table
# for the Juno kernel made by bench/mksyms.py; the snapshot has no vmlinux).
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
need_snapshot "$snap"
command -v nm >/dev/null || { echo "skip: nm not installed"; exit 77; }
mkdir -p "$work"
"$here/../../bench/mksyms.py" "$work/syms.elf" 0xffffffc000080000 0xffffffc000600000
nm -S --defined-only "$work/syms.elf" >"$work/syms.nm"
"$csdump" decode "$snap" --vmlinux "$work/syms.elf" --format jsonl --last 0 >"$work/syms.jsonl"
python3 - "$work/syms.nm" "$work/syms.jsonl" <<'PY'
import bisect, json, sys
syms = sorted((int(a, 16), int(s, 16), n) for a, s, _, n in
              (l.split() for l in open(sys.argv[1])))
starts = [s[0] for s in syms]
def want(addr):
    i = bisect.bisect_right(starts, addr) - 1
    if i < 0 or addr >= syms[i][0] + syms[i][1]:
        return None
    off = addr - syms[i][0]
    return syms[i][2] + ('+%#x' % off if off else '')
n = bad = 0
for line in open(sys.argv[2]):
    o = json.loads(line)
    key = {'range': 'start', 'no_image': 'addr', 'exception': 'ret'}.get(o['type'])
    if not key or key not in o:
        continue
    w, got = want(int(o[key], 16)), o.get('sym')
    n += 1
    if w != got:
        bad += 1
        if bad <= 5:
            print('%s %s: csdump says %s, nm %s' % (o['type'], o[key], got, w))
print('%d addresses, %d with the symbol nm gives' % (n, n - bad))
sys.exit(1 if bad or n == 0 else 0)
PY
