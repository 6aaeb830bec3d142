#!/usr/bin/env bash
# runaway.sh CSDUMP ETM4ENC PROG_ELF WORK: a range the decoder ran on and on
# through an image that is not the code that ran is flagged, in JSON and in
# text, never shown as an ordinary range (issue 17, defect 4).
#
# The encoder traces PROG_ELF; its snapshot's memory dump is then changed
# under the trace, so that from the first range CPU 0 executed every opcode
# is a NOP:
#   end   to the end of the dump: the decoder, following the first atom,
#         finds no branch before the image ends;
#   far   the same NOPs go on for 8 KiB past the dump's end, then one
#         conditional branch: the range ends there, far past the end of its
#         function (symbols: mksyms.py's functions of at most 1 KiB).
# The addresses every check expects are the test's own: where the first
# encoded range starts and where the image was made to end.
set -eu
csdump=$1 enc=$2 prog=$3 work=$4
. "$(dirname "$0")/common.sh"
encoded "$enc" "$prog" "$work" --cpus 1 --steps 200 --ranges "$work/encoded"
snap=$work/enc/snapshot
read -r base len < <(sed -n 's/^address=//p; s/^length=//p' "$snap/cpu_0.ini" | paste -s -d' ')
start=$(awk 'NR == 1 { print $3 }' "$work/encoded")
python3 "$here/../../bench/mksyms.py" "$work/syms.elf" 0x400000 0x410000 >/dev/null

# mkimage DIR PAD: DIR, the snapshot with its dump NOPs from $start on, PAD
# more bytes of NOPs and, when PAD > 0, a b.eq after them.
mkimage() {
	cp -r "$snap" "$1"
	python3 - "$1/mem0.bin" "$base" "$start" "$2" <<'PY'
import struct, sys
path, base, start, pad = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3], 0), int(sys.argv[4])
b = bytearray(open(path, 'rb').read())
nop, beq = struct.pack('<I', 0xd503201f), struct.pack('<I', 0x54000040)
for a in range(start - base, len(b), 4):
    b[a:a + 4] = nop
if pad:
    b += nop * (pad // 4) + beq
open(path, 'wb').write(b)
PY
	local n; n=$(stat -c %s "$1/mem0.bin")
	sed -i "s/^length=.*/length=$(printf '0x%x' "$n")/" "$1"/cpu_*.ini
	printf '0x%x\n' $((base + n))
}
fail=0
check() {	# NAME DIR END REASON [--vmlinux FILE]
	local name=$1 dir=$2 end=$3 reason=$4; shift 4
	"$csdump" decode "$dir" "$@" --format jsonl --last 0 >"$work/$name.jsonl" 2>"$work/$name.err" || true
	"$csdump" decode "$dir" "$@" --last 0 >"$work/$name.txt" 2>>"$work/$name.err" || true
	python3 - "$work/$name.jsonl" "$start" "$end" "$reason" <<'PY' || fail=1
import json, sys
path, start, end, reason = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3], 0), sys.argv[4]
evs = [json.loads(l) for l in open(path)]
run = [e for e in evs if e['type'] == 'runaway']
hit = [e for e in run if int(e['start'], 16) == start and int(e['end'], 16) == end]
ok = bool(hit) and hit[0]['reason'] == reason and hit[0]['n_instr'] == (end - start) // 4
plain = [e for e in evs if e['type'] == 'range' and int(e['start'], 16) == start and
         int(e['end'], 16) == end]
print(f"{path.split('/')[-1]}: {len(run)} runaway event(s); 0x{start:x}-0x{end:x}: "
      f"{hit[0]['reason'] if hit else 'not flagged'}")
if not ok or plain:
    print(f"FAIL: the range 0x{start:x}-0x{end:x} is not flagged as '{reason}'"
          f"{' (and it is printed as a range)' if plain else ''}")
    sys.exit(1)
PY
	grep -q -- "-- runaway decode, not what ran: $(printf '%016x' "$start")-$(printf '%016x' "$end") .*($reason)" \
		"$work/$name.txt" || { echo "FAIL: $name: the text report does not flag it"; fail=1; }
	grep -E "^  $(printf '%016x' "$start")-$(printf '%016x' "$end") " "$work/$name.txt" &&
		{ echo "FAIL: $name: the text report shows it as a range"; fail=1; }
	return 0
}
end_end=$(mkimage "$work/end" 0)
check end "$work/end" "$end_end" "ran to the end of the image without a branch"
far_end=$(mkimage "$work/far" 8192)
# The range ends after the b.eq: 4 bytes before the image's end.
check far "$work/far" "$far_end" "ends far past the end of its function" --vmlinux "$work/syms.elf"
# The control: the snapshot as encoded has no runaway range.
"$csdump" decode "$snap" --format jsonl --last 0 >"$work/good.jsonl"
grep -q '"type":"runaway"' "$work/good.jsonl" && { echo "FAIL: the intact snapshot has a runaway range"; fail=1; }
exit $fail
