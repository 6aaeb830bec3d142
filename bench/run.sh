#!/usr/bin/env bash
# run.sh CSDUMP OCSD_NOP TRACES WORK: decoding throughput of csdump against
# its peers, on the Juno trace and on an 8 MiB trace made of it repeated
# (a formatted-frame buffer repeated is still a valid buffer):
#   (a) csdump decode --format jsonl --last 0 with symbols: every range, printed
#   (b) OpenCSD's C API, a callback that only counts (bench/ocsd_nop.c)
#   (c) perf script on a perf.data of the same trace (`csdump perf`)
#   (d) trc_pkt_lister -decode_only
# Wall-clock seconds of each whole process, one run each, and what each
# produced, so a peer that stopped early shows.  Ratios are against (b).
set -u
csdump=$1 nop=$2 traces=$3 work=$4
juno=$traces/juno_r1_1
here=$(dirname "$0")
if [ ! -d "$juno" ]; then
	echo "bench: $juno is absent: no trace to measure"
	exit 0
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)

# The 8 MiB trace: juno_r1_1 with its 64 KiB buffer 128 times over.
big=$work/juno_r1_1x128
if [ ! -s "$big/cstrace.bin" ]; then
	mkdir -p "$big"
	for f in "$juno"/*.ini "$juno"/kernel_dump.bin "$juno"/cstraceitm.bin; do
		ln -sf "$f" "$big/"
	done
	for _ in $(seq 128); do cat "$juno/cstrace.bin"; done >"$big/cstrace.bin.tmp"
	mv "$big/cstrace.bin.tmp" "$big/cstrace.bin"
fi
syms=$work/juno-syms.elf
[ -s "$syms" ] || "$here/mksyms.py" "$syms" 0xffffffc000080000 0xffffffc000800000 >/dev/null

now() { date +%s.%N; }
# timed OUTVAR CMD...: run CMD, its stdout to /dev/null, seconds into OUTVAR.
timed() {
	local var=$1 t0 t1
	shift
	t0=$(now)
	"$@" >/dev/null 2>"$work/stderr" || echo "bench: failed: $* ($(tail -n 1 "$work/stderr"))" >&2
	t1=$(now)
	printf -v "$var" '%.3f' "$(echo "$t1 - $t0" | bc)"
}

row() {		# label seconds count what bytes base
	local mbs ratio
	if [ "$2" = - ]; then
		printf '  %-44s %8s %9s %10s  %s\n' "$1" - - - "$4"
		return
	fi
	mbs=$(echo "scale=2; $5 / 1048576 / $2" | bc 2>/dev/null || echo inf)
	ratio=$(echo "scale=2; $6 / $2" | bc 2>/dev/null || echo inf)
	printf '  %-44s %8s %9s %10s  %-14s %5sx\n' "$1" "$2" "$mbs" "$3" "$4" "$ratio"
}

bench_one() {
	local dir=$1 bytes ta tb tc td na nb nc nd elf pdata
	bytes=$(stat -L -c %s "$dir/cstrace.bin")
	echo
	echo "$(basename "$dir"): $bytes bytes of trace"
	printf '  %-44s %8s %9s %10s  %-14s %6s\n' tool seconds "MiB/s" produced "" "vs (b)"

	timed ta "$csdump" decode "$dir" --vmlinux "$syms" --format jsonl --last 0
	na=$("$csdump" decode "$dir" --vmlinux "$syms" --format jsonl --last 0 2>/dev/null |
		grep -c '"type":"range"')

	timed tb "$nop" "$dir"
	nb=$("$nop" "$dir" 2>/dev/null | awk '{ print $2 }')

	tc=- nc=-
	pdata=$work/$(basename "$dir").perf.data
	if "$csdump" perf "$dir" -o "$pdata" >"$work/perf.out" 2>&1 && [ -s "$pdata" ]; then
		# csdump perf names the ELF file holding the snapshot's memory.
		elf=$(grep -o '/[^ ]*' "$work/perf.out" | while read -r f; do
			[ -f "$f" ] && [ "$f" != "$pdata" ] && echo "$f"; done | head -n 1)
		if [ -n "$elf" ]; then
			timed tc perf script -i "$pdata" -k "$elf" -F cpu,ip,sym
			nc=$(perf script -i "$pdata" -k "$elf" -F cpu,ip,sym 2>/dev/null | wc -l)
		fi
	fi

	rm -f "$work/d.ppl"
	timed td trc_pkt_lister -ss_dir "$dir" -decode_only -logfilename "$work/d.ppl"
	nd=$(grep -c 'OCSD_GEN_TRC_ELEM_INSTR_RANGE' "$work/d.ppl")

	row "(a) csdump decode, jsonl, symbols" "$ta" "$na" ranges "$bytes" "$tb"
	row "(b) OpenCSD C API, counting callback" "$tb" "$nb" ranges "$bytes" "$tb"
	if [ "$tc" = - ]; then
		row "(c) perf script" - - "not measured: csdump perf gave no perf.data + ELF"
	else
		row "(c) perf script -F cpu,ip,sym" "$tc" "$nc" samples "$bytes" "$tb"
	fi
	row "(d) trc_pkt_lister -decode_only" "$td" "$nd" ranges "$bytes" "$tb"
	echo "  (a)/(b) throughput: $(echo "scale=2; $tb / $ta" | bc)x"
}

echo "csdump decode benchmark ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
bench_one "$juno"
bench_one "$big"
