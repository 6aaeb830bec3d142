#!/usr/bin/env bash
# sympath.sh ETM4ENC ELF WORKDIR [CHAIN]: the etm4enc tool along a call chain.
# CPU 0 walks at random, then follows CHAIN (default, for tests/encoder/prog.c:
# _start -> run -> op_a (through a function pointer) -> classify -> fib);
# CPUs 1 and 2 walk at random. trc_pkt_lister must decode exactly the ranges etm4enc says it
# encoded, for every trace ID, and CPU 0's decode must enter each function of
# the chain (addresses from nm, not from etm4enc) in order.
# Exit 77 when trc_pkt_lister or the ELF (e.g. a kernel not built) is missing.
set -eu
enc=$1 elf=$2 dir=$3
chain=${4:-_start run op_a classify fib}
command -v trc_pkt_lister >/dev/null || { echo "trc_pkt_lister not installed"; exit 77; }
[ -r "$elf" ] || { echo "$elf: not built"; exit 77; }
rm -rf "$dir"
"$enc" --elf "$elf" --path-symbols "${chain// /,}" --cpus 3 --steps 300 --seed 7 \
	--etb-size 65536 --cc --ranges "$dir.ranges" -o "$dir"
trc_pkt_lister -ss_dir "$dir/snapshot" -decode_only -logstdout -logfilename /dev/null >"$dir.lst"

fail=0
for id in 10 11 12; do
	awk -v id="0x$id" '$2 == id { print $3, $4, $5 }' "$dir.ranges" >"$dir.want.$id"
	sed -n "s/.*ID:$id;.*exec range=\(0x[0-9a-f]*\):\[\(0x[0-9a-f]*\)\] num_i(\([0-9]*\)).*/\1 \2 \3/p" \
		"$dir.lst" >"$dir.got.$id"
	n=$(wc -l <"$dir.want.$id")
	if [ "$n" -eq 0 ] || ! cmp -s "$dir.want.$id" "$dir.got.$id"; then
		echo "trace ID 0x$id: encoded and decoded ranges differ ($n encoded)"
		diff "$dir.want.$id" "$dir.got.$id" | head -5
		fail=1
	else
		echo "trace ID 0x$id: $n ranges, identical"
	fi
done

# The chain, against the ELF's own symbol table: CPU 0 walks at random, then
# after a gap (Trace On) runs the chain, whose first range is the first
# function's entry.
sed -n '/ID:10;.*TRACE_ON/=' "$dir.lst" | tail -n 1 >"$dir.gap"
gap=$(cat "$dir.gap")
sed -n "$gap,\$ s/.*ID:10;.*exec range=\(0x[0-9a-f]*\):.*/\1/p" "$dir.lst" >"$dir.chain"
line=0
for sym in $chain; do
	# the symbol, or a compiler clone of it (sym.constprop.0)
	addr=$(nm "$elf" | awk -v s="$sym" '$3 == s || index($3, s ".") == 1 { print "0x" $1; exit }' |
		sed 's/0x0*/0x/')
	at=$(awk -v a="$addr" -v from="$line" 'NR > from && $1 == a { print NR; exit }' "$dir.chain")
	if [ -z "$addr" ] || [ -z "$at" ] || { [ "$line" -eq 0 ] && [ "$at" -ne 1 ]; }; then
		echo "CPU 0: no range starting at $sym ($addr) after range $line of the chain"
		fail=1
		break
	fi
	echo "CPU 0: enters $sym ($addr) at range $at of the chain"
	line=$at
done

size=$(stat -c %s "$dir/metadata.bin")
[ "$size" -eq 240 ] || { echo "metadata.bin: $size bytes, want 3 x 80"; fail=1; }
exit $fail
