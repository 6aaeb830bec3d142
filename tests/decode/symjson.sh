#!/usr/bin/env bash
# symjson.sh CSDUMP SNAPSHOT_DIR WORK: every "sym" csdump decode prints for
# juno_r1_1 is what nm's symbol table says for that address (a symbol table
# for the Juno kernel made by bench/mksyms.py; the snapshot has no vmlinux),
# and every line is valid JSON, with plain names and with hostile ones.
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
need_snapshot "$snap"
command -v nm >/dev/null || { echo "skip: nm not installed"; exit 77; }
mkdir -p "$work"
# Once with plain names, once with names JSON must escape and names hundreds
# of bytes long: the same answer from every path of the writer.
fail=0
for kind in plain hostile; do
	"$here/../../bench/mksyms.py" "$work/$kind.elf" 0xffffffc000080000 0xffffffc000600000 \
		$([ $kind = hostile ] && echo hostile)
	nm -S --defined-only "$work/$kind.elf" >"$work/$kind.nm"
	"$csdump" decode "$snap" --vmlinux "$work/$kind.elf" --format jsonl --last 0 \
		>"$work/$kind.jsonl"
	echo -n "$kind names: "
	python3 - "$work/$kind.nm" "$work/$kind.jsonl" <<'PY' || fail=1
import bisect, json, sys
# nm prints names as their bytes: one byte, one code point, as csdump escapes them.
syms = sorted((int(a, 16), int(s, 16), n) for a, s, _, n in
              (l.split() for l in open(sys.argv[1], encoding='latin-1')))
starts = [s[0] for s in syms]
def want(addr):
    i = bisect.bisect_right(starts, addr) - 1
    if i < 0 or addr >= syms[i][0] + syms[i][1]:
        return None
    off = addr - syms[i][0]
    return syms[i][2] + ('+%#x' % off if off else '')
n = bad = 0
odd = set()
for line in open(sys.argv[2], encoding='ascii'):
    o = json.loads(line)
    key = {'range': 'start', 'no_image': 'addr', 'exception': 'ret'}.get(o['type'])
    if not key or key not in o:
        continue
    w, got = want(int(o[key], 16)), o.get('sym')
    n += 1
    if got and (len(got) > 64 or any(c in got for c in '"\\\x01\x7f\xe9')):
        odd.add(got.split('+')[0])
    if w != got:
        bad += 1
        if bad <= 5:
            print('%s %s: csdump says %r, nm %r' % (o['type'], o[key], got, w))
print('%d addresses, %d with the symbol nm gives; %d functions with odd names' %
      (n, n - bad, len(odd)))
sys.exit(1 if bad or n == 0 else 0)
PY
done
# The hostile table must have put odd names in the output, or it tested nothing.
grep -q '\\u0001' "$work/hostile.jsonl" || { echo "FAIL: no escaped name in the output"; fail=1; }
grep -q '_long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_long' \
	"$work/hostile.jsonl" || { echo "FAIL: no long name in the output"; fail=1; }
exit $fail
