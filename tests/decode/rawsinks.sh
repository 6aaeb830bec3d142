#!/usr/bin/env bash
# rawsinks.sh CSDUMP ETM4ENC PROG_ELF WORK: a snapshot whose trace units each
# have a raw (source_data) buffer of their own, as the encoder's two-CPU trace
# split by frames.py: per trace ID, csdump decode gives the elements
# trc_pkt_lister gives for that buffer (-src_name), and `csdump snapshot` of
# it decodes the same again.
set -eu
csdump=$1 enc=$2 prog=$3 work=$4
. "$(dirname "$0")/common.sh"
[ -x "$enc" ] && [ -f "$prog" ] || { echo "skip: no encoder or $prog"; exit 77; }
command -v trc_pkt_lister >/dev/null || { echo "skip: trc_pkt_lister not installed"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
"$enc" --elf "$prog" -o "$work/enc" --cpus 2 --steps 3000 >/dev/null
"$here/frames.py" raw "$work/enc/snapshot" "$work/raw"

# lister SNAPSHOT NAME: trc_pkt_lister's decode of every buffer of SNAPSHOT
# (-src_name each), normalised into $work/NAME.seq.
lister() {
	local buf
	: >"$work/$2.ppl"
	for buf in $(sed -n 's/^name=//p' "$1/trace.ini"); do
		rm -f "$work/$buf.$2.ppl"
		(cd "$work" && trc_pkt_lister -ss_dir "$1" -src_name "$buf" -decode \
			-logfilename "$buf.$2.ppl" >/dev/null)
		cat "$work/$buf.$2.ppl" >>"$work/$2.ppl"
	done
	"$here/trace_seq.py" ppl "$work/$2.ppl" >"$work/$2.seq"
}
lister "$work/raw" oracle
"$csdump" decode "$work/raw" --format jsonl --last 0 >"$work/raw.jsonl"
"$here/trace_seq.py" jsonl "$work/raw.jsonl" >"$work/raw.seq"
"$csdump" snapshot "$work/raw" -o "$work/again" >/dev/null
"$csdump" decode "$work/again" --format jsonl --last 0 >"$work/again.jsonl"
"$here/trace_seq.py" jsonl "$work/again.jsonl" >"$work/again.seq"

fail=0
for id in 10 11; do
	n=$(grep -c "^$id range" "$work/oracle.seq" || true)
	echo "trace ID 0x$id: trc_pkt_lister $n ranges, csdump $(grep -c "^$id range" "$work/raw.seq" || true)"
	[ "$n" -gt 0 ] || { echo "FAIL: the oracle decoded nothing for 0x$id"; fail=1; }
done
cmp -s "$work/oracle.seq" "$work/raw.seq" ||
	{ echo "FAIL: csdump differs from trc_pkt_lister"; diff "$work/oracle.seq" "$work/raw.seq" |
		head -n 6; fail=1; }
cmp -s "$work/raw.seq" "$work/again.seq" ||
	{ echo "FAIL: csdump snapshot of it decodes differently"; fail=1; }

# Trace ID 0 (null on the ATB, so never in formatted frames) is no obstacle
# in a raw buffer, which carries no IDs (issue 17, defect 6): CPU 0's unit
# with TRCTRACEIDR 0 decodes, as its own (not as CPU 1's, the only other
# unit), to what trc_pkt_lister gives for that buffer.
cp -r "$work/raw" "$work/raw0"
sed -i 's/^\(TRCTRACEIDR([^)]*)=\).*/\10x00000000/' "$work/raw0/etm_0.ini"
grep -q '^TRCTRACEIDR(0x010)=0x00000000$' "$work/raw0/etm_0.ini" ||
	{ echo "FAIL: could not set CPU 0's TRCTRACEIDR to 0"; exit 1; }
lister "$work/raw0" oracle0
"$csdump" decode "$work/raw0" --format jsonl --last 0 >"$work/raw0.jsonl" 2>"$work/raw0.err"
"$here/trace_seq.py" jsonl "$work/raw0.jsonl" >"$work/raw0.seq"
n=$(grep -c '^00 range' "$work/oracle0.seq" || true)
echo "trace ID 0x0 (raw): trc_pkt_lister $n ranges, csdump $(grep -c '^00 range' "$work/raw0.seq" || true)"
[ "$n" -gt 0 ] || { echo "FAIL: the oracle decoded nothing for trace ID 0"; fail=1; }
cmp -s "$work/oracle0.seq" "$work/raw0.seq" ||
	{ echo "FAIL: trace ID 0 in a raw buffer: csdump differs from trc_pkt_lister"
	  diff "$work/oracle0.seq" "$work/raw0.seq" | head -n 6; fail=1; }
grep -q 'reserved' "$work/raw0.err" && { echo "FAIL: trace ID 0 refused"; cat "$work/raw0.err"; fail=1; }
exit $fail
