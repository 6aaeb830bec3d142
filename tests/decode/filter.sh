#!/usr/bin/env bash
# filter.sh CSDUMP SNAPSHOT_DIR WORK: --from/--to, by address and by
# function, alone and with --cpu, against trc_pkt_lister's elements cut by
# this script: per trace ID, from the first range that runs FROM (an address
# in [start, end); a function: a range starting in it, by nm's table of
# bench/mksyms.py) up to and with the first later range that runs TO.
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
need_snapshot "$snap"
mkdir -p "$work"
juno_syms "$work"
lister_seq "$snap" "$work/oracle"
fail=0
# The places: a range's last instruction and another's first, from the
# oracle (CPU 0's trace ID 0x10), and the functions those are in.
read -r from to fromsym tosym < <(python3 - "$work/oracle" "$work/syms.nm" <<'PY'
import nmsyms, sys
func = nmsyms.Syms(sys.argv[2]).func
r = [l.split() for l in open(sys.argv[1]) if l.startswith('10 range')]
a, b = r[len(r) // 4], r[len(r) // 2]
print('%#x %#x %s %s' % (int(a[3], 16) - 4, int(b[2], 16), func(int(r[len(r) // 3][2], 16)),
                         func(int(r[2 * len(r) // 3][2], 16))))
PY
)
echo "places: $from $to, $fromsym $tosym"
check() {	# NAME MODE(addr|sym) FROM TO CPU(-1: all) -- csdump's options
	local name=$1 mode=$2 f=$3 t=$4 cpu=$5
	shift 6
	"$csdump" decode "$snap" --format jsonl --last 0 "$@" >"$work/$name.jsonl" 2>/dev/null
	"$here/trace_seq.py" jsonl "$work/$name.jsonl" >"$work/$name.ours"
	python3 - "$work/oracle" "$work/syms.nm" "$mode" "$f" "$t" "$cpu" >"$work/$name.want" <<'PY'
import nmsyms, sys
from collections import defaultdict
func = nmsyms.Syms(sys.argv[2]).func
mode, f, t, cpu = sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
def runs(place, w):
    if w[1] != 'range' or place == '-':
        return False
    s, e = int(w[2], 16), int(w[3], 16)
    if mode == 'sym':
        return func(s) == place
    return s <= int(place, 16) < e
state = defaultdict(lambda: 0 if f != '-' else 1)
for line in open(sys.argv[1]):
    w = line.split()
    tid = int(w[0], 16)
    if cpu >= 0 and tid != 0x10 + cpu:
        continue
    if state[tid] == 0 and runs(f, w):
        state[tid] = 1
        print(line, end='')
        continue
    if state[tid] != 1:
        continue
    if runs(t, w):
        state[tid] = 2
    print(line, end='')
PY
	if cmp -s "$work/$name.want" "$work/$name.ours"; then
		echo "ok $name: $(wc -l <"$work/$name.ours") elements"
	else
		echo "FAIL $name: $(diff "$work/$name.want" "$work/$name.ours" | head -3)"
		fail=1
	fi
}
check addr addr "$from" "$to" -1 -- --from "$from" --to "$to"
check addr-from addr "$from" - -1 -- --from "$from"
check addr-to addr - "$to" -1 -- --to "$to"
check sym sym "$fromsym" "$tosym" -1 -- --vmlinux "$work/syms.elf" --from "$fromsym" --to "$tosym"
check sym-cpu sym "$fromsym" "$tosym" 0 -- --vmlinux "$work/syms.elf" --cpu 0 --from "$fromsym" \
	--to "$tosym"
# The text report of a window (--last composes with it): each CPU's header
# counts the ranges and instructions of the window.
"$csdump" decode "$snap" --from "$from" --to "$to" --last 3 2>/dev/null >"$work/addr.txt"
python3 - "$work/addr.want" "$work/addr.txt" <<'PY' || fail=1
import re, sys
from collections import defaultdict
n, instr = defaultdict(int), defaultdict(int)
for line in open(sys.argv[1]):
    w = line.split()
    if w[1] == 'range':
        n[int(w[0], 16)] += 1
        instr[int(w[0], 16)] += int(w[4])
got = {int(m.group(1), 16): (int(m.group(2)), int(m.group(3))) for m in
       re.finditer(r'trace ID 0x([0-9a-f]+)\): (\d+) ranges, (\d+) instructions', open(sys.argv[2]).read())}
bad = [t for t in set(n) | set(got) if got.get(t, (0, 0)) != (n[t], instr[t])]
for t in bad:
    print('FAIL text, trace ID %#x: %s, want %s' % (t, got.get(t), (n[t], instr[t])))
print('ok text: %d trace IDs, %s' % (len(got), ', '.join('%#x %d/%d' % (t, *got[t]) for t in sorted(got))))
sys.exit(1 if bad else 0)
PY
# Not a place: a usage error naming the option.
if "$csdump" decode "$snap" --from no_such_function 2>"$work/err" >/dev/null; then
	echo "FAIL: an unknown function was taken"; fail=1
elif ! grep -q "for --from" "$work/err"; then
	echo "FAIL: $(cat "$work/err")"; fail=1
fi
exit $fail
