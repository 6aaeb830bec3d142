#!/usr/bin/env bash
# run.sh CSDUMP OCSD_NOP TRACES WORK [ETM4ENC PROG_ELF]: decoding throughput
# of csdump against its peers, on the Juno trace, on an 8 MiB trace made of it
# repeated (a formatted-frame buffer repeated is still a valid buffer) and,
# given the project's ETMv4 encoder, on a 2 MiB two-CPU trace of PROG_ELF
# (with its real symbols):
#   (a) csdump decode --format jsonl --last 0 with symbols: every range, printed;
#       once on one core (taskset: csdump then decodes on its main thread), once
#       on all of them (csdump's default: the trace IDs on worker threads)
#   (b) OpenCSD's C API, a callback that only counts (bench/ocsd_nop.c), on
#       one core
#   (c) perf script on a perf.data of the same trace (`csdump perf`)
#   (d) trc_pkt_lister -decode_only
# Wall-clock and CPU (user+system, all threads) seconds of each whole
# process, best of BENCH_REPEAT (7) runs, and what each produced, so a peer that stopped
# early shows.  Ratios are throughput against (b): above 1 is faster than
# the C API.
set -u
csdump=$1 nop=$2 traces=$3 work=$4 enc=${5:-} prog=${6:-}
juno=$traces/juno_r1_1
here=$(dirname "$0")
mkdir -p "$work"
work=$(cd "$work" && pwd)

# The 8 MiB trace: juno_r1_1 with its 64 KiB buffer 128 times over.
big=$work/juno_r1_1x128
if [ -d "$juno" ] && [ ! -s "$big/cstrace.bin" ]; then
	mkdir -p "$big"
	for f in "$juno"/*.ini "$juno"/kernel_dump.bin "$juno"/cstraceitm.bin; do
		ln -sf "$f" "$big/"
	done
	for _ in $(seq 128); do cat "$juno/cstrace.bin"; done >"$big/cstrace.bin.tmp"
	mv "$big/cstrace.bin.tmp" "$big/cstrace.bin"
fi
syms=$work/juno-syms.elf
[ -d "$juno" ] && [ ! -s "$syms" ] &&
	"$here/mksyms.py" "$syms" 0xffffffc000080000 0xffffffc000800000 >/dev/null

# timed VAR CMD...: run CMD (stdout to /dev/null) $repeat times; VAR gets
# the best wall seconds, VAR_cpu the best user+system seconds of the process
# and its threads.  Best of a few: the other tenants of a 2-core machine add
# noise, never speed.
repeat=${BENCH_REPEAT:-7}
# One core: the first CPU this shell may run on.
one_core=()
if command -v taskset >/dev/null; then
	cpu0=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
	one_core=(taskset -c "$cpu0")
fi
# timed_once VAR CMD...: run CMD once; keep in VAR / VAR_cpu the best wall /
# CPU seconds so far (unset: none yet).
timed_once() {
	local var=$1 cpu_var=${1}_cpu t wall cpu
	shift
	TIMEFORMAT='%R %U %S'
	t=$( { time "$@" >/dev/null 2>"$work/stderr"; } 2>&1 ) ||
		echo "bench: failed: $* ($(tail -n 1 "$work/stderr"))" >&2
	t=$(echo "$t" | tail -n 1)
	wall=${t%% *}
	cpu=$(echo "$t" | awk '{ print $2 + $3 }')
	printf -v "$var" '%.3f' "$(echo "$wall ${!var:-999999}" | awk '{ print ($1 < $2) ? $1 : $2 }')"
	printf -v "$cpu_var" '%.3f' \
		"$(echo "$cpu ${!cpu_var:-999999}" | awk '{ print ($1 < $2) ? $1 : $2 }')"
}

timed() {
	local i

	unset "$1" "${1}_cpu"
	for ((i = 0; i < repeat; i++)); do
		timed_once "$@"
	done
}

ratio() { echo "$1 $2" | awk '{ printf "%.2f", ($2 > 0) ? $1 / $2 : 0 }'; }

row() {		# label wall cpu count what bytes base_wall base_cpu
	if [ "$2" = - ]; then
		printf '  %-40s %7s %7s %8s %9s  %s\n' "$1" - - - - "$4"
		return
	fi
	printf '  %-40s %7s %7s %8s %9s %-8s %5sx %5sx\n' "$1" "$2" "$3" \
		"$(echo "$6 $2" | awk '{ printf "%.2f", $1 / 1048576 / $2 }')" "$4" "$5" \
		"$(ratio "$7" "$2")" "$(ratio "$8" "$3")"
}

# trc_pkt_lister appends to its log: a fresh one each run.
lister() {
	rm -f "$work/d.ppl"
	trc_pkt_lister -ss_dir "$1" -decode_only -logfilename "$work/d.ppl"
}

bench_one() {	# DIR SYMBOLS BUFFER_FILE NAME
	local dir=$1 syms=$2 name=$4 bytes i na nb nc nd elf pdata
	bytes=$(stat -L -c %s "$dir/$3")
	echo
	echo "$name: $bytes bytes of trace"
	printf '  %-40s %7s %7s %8s %9s %-8s %6s %6s\n' tool wall-s cpu-s "MiB/s" produced "" \
		"wall" "cpu"

	# (a) and (b) in turns, so that a burst of noise falls on both.
	unset ta1 ta1_cpu ta ta_cpu tb tb_cpu
	for ((i = 0; i < repeat; i++)); do
		timed_once ta1 "${one_core[@]}" "$csdump" decode "$dir" --vmlinux "$syms" \
			--format jsonl --last 0
		timed_once ta "$csdump" decode "$dir" --vmlinux "$syms" --format jsonl --last 0
		timed_once tb "${one_core[@]}" "$nop" "$dir"
	done
	na=$("$csdump" decode "$dir" --vmlinux "$syms" --format jsonl --last 0 2>/dev/null |
		grep -c '"type":"range"')
	nb=$("$nop" "$dir" 2>/dev/null | awk '{ print $2 }')

	tc=- tc_cpu=- nc=-
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

	timed td lister "$dir"
	nd=$(grep -c 'OCSD_GEN_TRC_ELEM_INSTR_RANGE' "$work/d.ppl")

	row "(a) csdump decode, jsonl+syms, 1 CPU" "$ta1" "$ta1_cpu" "$na" ranges "$bytes" "$tb" \
		"$tb_cpu"
	row "(a) csdump decode, jsonl+syms, $(nproc) CPUs" "$ta" "$ta_cpu" "$na" ranges "$bytes" "$tb" "$tb_cpu"
	row "(b) OpenCSD C API, nop callback, 1 CPU" "$tb" "$tb_cpu" "$nb" ranges "$bytes" "$tb" \
		"$tb_cpu"
	if [ "$tc" = - ]; then
		row "(c) perf script" - - - "not measured: csdump perf gave no perf.data + ELF"
	else
		row "(c) perf script -F cpu,ip,sym" "$tc" "$tc_cpu" "$nc" samples "$bytes" "$tb" "$tb_cpu"
	fi
	row "(d) trc_pkt_lister -decode_only" "$td" "$td_cpu" "$nd" ranges "$bytes" "$tb" "$tb_cpu"
}

# The views against the plain decode of the same trace, in turns (issue 17:
# each within 1.5x of its time): csdump decode (text, the last 20 entries),
# with --stack, with --stack --functions, and csdump report.  Ratios are
# times against the plain decode's: below 1.5 is the target.
bench_views() {	# DIR SYMBOLS NAME
	local dir=$1 syms=$2 i
	unset tp tp_cpu tsk tsk_cpu tsf tsf_cpu trp trp_cpu
	for ((i = 0; i < repeat; i++)); do
		timed_once tp "$csdump" decode "$dir" --vmlinux "$syms"
		timed_once tsk "$csdump" decode "$dir" --vmlinux "$syms" --stack
		timed_once tsf "$csdump" decode "$dir" --vmlinux "$syms" --stack --functions
		timed_once trp "$csdump" report "$dir" --vmlinux "$syms" -o "$work/report.html"
	done
	echo
	echo "$3: the views against the plain decode (time ratios, target below 1.5x)"
	printf '  %-40s %7s %7s %7s %7s
' tool wall-s cpu-s wall cpu
	printf '  %-40s %7s %7s %6sx %6sx
' "csdump decode (text)" "$tp" "$tp_cpu" 1.00 1.00
	printf '  %-40s %7s %7s %6sx %6sx
' "csdump decode --stack" "$tsk" "$tsk_cpu" \
		"$(ratio "$tsk" "$tp")" "$(ratio "$tsk_cpu" "$tp_cpu")"
	printf '  %-40s %7s %7s %6sx %6sx
' "csdump decode --stack --functions" "$tsf" "$tsf_cpu" \
		"$(ratio "$tsf" "$tp")" "$(ratio "$tsf_cpu" "$tp_cpu")"
	printf '  %-40s %7s %7s %6sx %6sx
' "csdump report" "$trp" "$trp_cpu" \
		"$(ratio "$trp" "$tp")" "$(ratio "$trp_cpu" "$tp_cpu")"
}

echo "csdump decode benchmark ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)," \
	"best of $repeat runs)"
ran=0
if [ -d "$juno" ]; then
	bench_one "$juno" "$syms" cstrace.bin "juno_r1_1 (6 ETMs, one of them 92% of the trace)"
	bench_one "$big" "$syms" cstrace.bin "juno_r1_1 x 128"
	bench_views "$big" "$syms" "juno_r1_1 x 128"
	ran=1
fi
if [ -x "$enc" ] && [ -f "$prog" ]; then
	gen=$work/enc-2cpu-2m
	if [ ! -f "$gen/snapshot/snapshot.ini" ]; then
		rm -rf "$gen"
		"$enc" --elf "$prog" -o "$gen" --cpus 2 --size 2M >/dev/null
	fi
	buf=$(awk -F= '/^file=/ { print $2; exit }' "$gen/snapshot/trace.ini")
	bench_one "$gen/snapshot" "$prog" "$buf" "etm4enc, 2 CPUs, $(basename "$prog")"
	ran=1
fi
[ $ran = 1 ] || echo "bench: neither $juno nor the ETMv4 encoder: no trace to measure"
