#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# corrupt-vmcore: csdump info, extract and perf on every vmcore that
# corrupt_gen writes (one good capture broken in one place each).
#
# For each case: the exit status of each command; a failure prints one
# "error:" line naming the problem and writes nothing (no output directory,
# no perf.data, no temporary file); a partial result (exit 5) names the
# skipped record in a warning and extracts the intact records byte for byte
# as the generator put them in (NAME.expect/); perf.data is written exactly
# when extract succeeds.  Last, an output that fails half-way (efbig).
# Usage: vmcore.sh CSDUMP CORRUPT_GEN WORKDIR   (CORRUPT_WRAP: e.g. valgrind)
csdump=$1 gen=$2 work=$3
. "$(dirname "$0")/common.sh"
rm -rf "$work"
mkdir -p "$work"
"$gen" "$work" || { echo "corrupt_gen failed"; exit 1; }

# extract_ok NAME: extract's files equal NAME.expect, nothing else but
# perf.data and summary.txt.
extract_ok() {
	local name=$1 out=$work/$1.x exp=$work/$1.expect f
	for f in "$exp"/*; do
		cmp -s "$f" "$out/${f##*/}" || fail "$name: ${f##*/} differs from what the dump holds"
	done
	for f in "$out"/*; do
		case ${f##*/} in
		perf.data|summary.txt) ;;
		*) [ -e "$exp/${f##*/}" ] || fail "$name: unexpected file ${f##*/}" ;;
		esac
	done
	[ -s "$out/summary.txt" ] || fail "$name: no summary.txt"
}

# case NAME INFO_RC EXTRACT_RC REGEX: REGEX must match the error (failure) or
# a warning (exit 5; "-" for none required).
check() {
	local name=$1 info_rc=$2 rc_want=$3 re=$4 v=$work/$1.vmcore
	if [ -z "${CORRUPT_ONE:-}" ]; then
		run "$name.info" "$csdump" info "$v"
		verdict "$name.info" "$info_rc" "$re" info
	fi
	run "$name.extract" "$csdump" extract "$v" -o "$work/$name.x"
	verdict "$name.extract" "$rc_want" "$re"
	if [ -z "${CORRUPT_ONE:-}" ]; then
		run "$name.perf" "$csdump" perf "$v" -o "$work/$name.perf.data"
		verdict "$name.perf" "$rc_want" "$re"
	fi
	if [ "$rc_want" -eq 0 ] || [ "$rc_want" -eq 5 ]; then
		extract_ok "$name"
		[ -n "${CORRUPT_ONE:-}" ] || [ -s "$work/$name.perf.data" ] ||
			fail "$name: no perf.data"
	else
		[ -e "$work/$name.x" ] && fail "$name: extract failed but left $name.x"
		[ -e "$work/$name.perf.data" ] && fail "$name: perf failed but left its output"
	fi
}

# The cases run in two shards at once (two cores); each shard's counts come
# back through a file.
shard() {	# K: every other case, from K
	local i=0 name info extract re
	while read -r name info extract re; do
		case $name in ''|'#'*) continue ;; esac
		[ $((i++ % 2)) -eq "$1" ] && check "$name" "$info" "$extract" "$re"
	done <"$work/cases"
	echo "$cases $fails" >"$work/shard$1.counts"
}
cat >"$work/cases" <<'EOF'
# name                    info extract  what the message must say
good                        0  0  -
trunc-lastbyte              0  0  -
buf-paddr-unmapped          0  0  -
vmcoreinfo-version-future   0  0  registry version 4
# the file
text                        2  2  text.vmcore: not a vmcore
empty                       2  2  empty.vmcore: not a vmcore
random                      2  2  random.vmcore: not a vmcore
elf-not-core                2  2  elf-not-core.vmcore: not a vmcore
arch-x86                    2  2  arch-x86.vmcore: a x86_64 dump; csdump reads arm64
arch-kdump-x86              2  2  arch-kdump-x86.vmcore: a x86_64 dump; csdump reads arm64
trunc-ehdr                  2  2  trunc-ehdr.vmcore: not a vmcore
trunc-phdrs                 2  2  trunc-phdrs.vmcore: not a vmcore
trunc-note                  2  2  trunc-note.vmcore: .*truncated
trunc-noram                 5  2  trunc-noram.vmcore: .*truncated
trunc-head                  5  2  trunc-head.vmcore: .*truncated
trunc-buffer                5  5  truncated
trunc-kdump-header          2  2  trunc-kdump-header.vmcore: truncated inside its makedumpfile header \(300 bytes, the header is 464\)
trunc-kdump-signature       2  2  trunc-kdump-signature.vmcore: truncated inside its makedumpfile header \(8 bytes
trunc-kdump-subheader       2  2  trunc-kdump-subheader.vmcore: truncated inside its makedumpfile headers \(4196 bytes, its sub-header ends at 8192\)
trunc-kdump-bitmap          2  2  trunc-kdump-bitmap.vmcore: cannot read the registry head
trunc-kdump-half            2  2  trunc-kdump-half.vmcore: cannot read the registry head
# VMCOREINFO
vmcoreinfo-missing          2  2  vmcoreinfo-missing.vmcore: no VMCOREINFO
vmcoreinfo-binary           3  3  without the coresight-kdump series
vmcoreinfo-noregistry       3  3  vmcoreinfo-noregistry.vmcore: VMCOREINFO has no coresight_kdump registry
vmcoreinfo-only-symbol      2  2  lacks NUMBER\(CORESIGHT_KDUMP_VERSION\)
vmcoreinfo-symbol-garbage   2  2  SYMBOL\(coresight_kdump_list\)=zz-not-hex
vmcoreinfo-symbol-empty     2  2  SYMBOL\(coresight_kdump_list\)= is not
vmcoreinfo-symbol-huge      2  2  SYMBOL\(coresight_kdump_list\)=1ffffffffffffffffff
vmcoreinfo-size-small       2  2  SIZE\(coresight_kdump_record\)=12
vmcoreinfo-size-negative    2  2  SIZE\(coresight_kdump_record\)=-128
vmcoreinfo-offset-odd       2  2  OFFSET\(coresight_kdump_node.list\)=13
vmcoreinfo-offset-huge      2  2  OFFSET\(coresight_kdump_node.list\)=9999
vmcoreinfo-version-garbage  2  2  NUMBER\(CORESIGHT_KDUMP_VERSION\)=one
vmcoreinfo-head-unmapped    2  2  cannot read the registry head at 0xffff000100000000
vmcoreinfo-head-null        2  2  cannot read the registry head at 0x0
# the list
list-first-unmapped         5  2  no intact record holds saved trace
list-next-unmapped          5  5  next pointer at 0xffff000100000000 not in the dump
list-next-misaligned        5  5  bad link 0xffff0000[0-9a-f]+c3;
list-next-null              5  5  bad link 0x0
list-loop-self              5  5  loop: node 0x[0-9a-f]+ reached twice
list-loop-earlier           5  5  loop: node 0x[0-9a-f]+ reached twice
list-loop-head              5  2  no intact record holds saved trace
# one record
rec-magic                   5  5  \(victim\): magic 0x12345678, expected 0x444b5343
rec-version                 5  5  \(victim\): record version 4, this csdump reads 1 to 3
rec-version-zero            5  5  \(victim\): record version 0,
rec-size-small              5  5  \(victim\): rec_size 64
rec-size-huge               5  5  \(victim\): rec_size 65535
rec-kind                    5  5  \(victim\): kind 7
rec-name-unterminated       5  5  name is not NUL-terminated
rec-len-over-capacity       5  5  \(victim\): data_len 5000 exceeds capacity 4096
rec-capacity-4g             5  5  \(victim\): capacity 4294967296
rec-capacity-1g             5  5  \(victim\): buffer at 0x[0-9a-f]+ .*not in the dump
rec-capacity-zero           5  5  \(victim\): capacity 0
rec-offset-over-capacity    5  5  \(victim\): data_offset 4096 not below capacity 4096
rec-bad-crc                 5  5  \(victim\): CRC 0x[0-9a-f]+ of the 1000 data bytes, recorded 0xdeadbeef
buf-unmapped                5  5  \(victim\): buffer at 0xffff000100000000 \(phys 0x7f000000\) not in the dump
buf-wraps-address-space     5  5  \(victim\): buffer at 0xfffffffffffff800
rec-all-bad                 5  2  no intact record holds saved trace
rec-unsaved                 4  4  intact \(2 record\(s\)\) but holds no saved trace
# the metadata
meta-dup-cpu                0  5  \(etm0\): CPU 0 already has metadata
meta-traceid-collide        0  5  \(etm1\): trace ID 0x10 already belongs to CPU 0
meta-traceid-0x70           5  5  \(etm1\): trace ID 0x70
meta-traceid-0x7f           5  5  \(etm1\): trace ID 0x7f
meta-traceid-0              5  5  \(etm1\): trace ID 0x0
meta-traceid-mismatch       5  5  \(etm1\): trace ID 0x11, TRCTRACEIDR 0x12
meta-cpu-mismatch           5  5  \(etm1\): metadata for CPU 3 in the record of CPU 1
meta-cpu-negative           5  5  \(etm1\): metadata for CPU 1 in the record of CPU -1
meta-short                  5  5  \(etm1\): metadata of 72 bytes, expected 80
# the save's outcome (FAILED, FAULTED, FLUSH_TIMEOUT): words, not bits
save-faulted                0  0  victim .*: save failed: the sink faulted at panic, its trace is not in the dump
save-notready               0  0  victim .*: save failed: the sink did not confirm it stopped
save-gave-up                0  0  victim .*: save failed: the sink's panic save gave up or returned an error
save-not-run                0  0  victim .*: not saved: the panic save did not run \(crash_kexec_post_notifiers not set\?
save-not-run-old-kernel     0  0  victim .*: not saved \(this kernel does not record why\)
save-faulted-only-sink      4  4  victim .*: save failed: the sink faulted at panic
save-saved-and-failed       5  5  \(victim\): flags 0x11: saved and failed together
save-faulted-not-failed     5  5  \(victim\): flags 0x20: faulted without failed
save-timeout-alone          5  5  \(victim\): flags 0x40: flush-timeout without saved or failed
save-flush-timeout          0  0  tmc_etf0 .*: flush timed out: the last bytes may be missing
EOF
shard 0 >"$work/shard0.log" 2>&1 &
pid=$!
(shard 1) >"$work/shard1.log" 2>&1
wait $pid
cat "$work/shard0.log" "$work/shard1.log"
for k in 0 1; do
	read -r c f <"$work/shard$k.counts" || { fail "shard $k did not finish"; continue; }
	cases=$((cases + c)) fails=$((fails + f))
done

# info says a save's outcome in words on its record's line (the flag names
# and, for bits no kernel defines, their hex mask).
listing() {	# NAME REGEX
	cases=$((cases + 1))
	grep -Eq -- "$2" "$work/$1.info.out" || { fail "$1.info: no line matching /$2/"
		sed 's/^/    /' "$work/$1.info.out"; return; }
	echo "ok $1.info listing"
}
if [ -z "${CORRUPT_ONE:-}" ]; then
	listing save-faulted ' victim .* failed,faulted +- +save failed: the sink faulted at panic'
	listing save-notready ' victim .* failed,flush-timeout +- +save failed: the sink did not confirm'
	listing save-gave-up ' victim .* failed +- +save failed: the sink.s panic save gave up'
	listing save-not-run ' victim .* - +- +not saved: the panic save did not run'
	listing save-flush-timeout \
		' tmc_etf0 .* saved,formatted,flush-timeout,0x8000 +ok +flush timed out: the last bytes'
	listing good ' tmc_etf0 .* saved,wrapped,formatted +ok$'
fi

# The same capture in makedumpfile's format extracts the same files.
run good-kdump "$csdump" extract "$work/good.kdump" -o "$work/good-kdump.x"
verdict good-kdump 0 -
for f in cstrace.bin metadata.bin; do
	cmp -s "$work/good.expect/$f" "$work/good-kdump.x/$f" || fail "good.kdump: $f differs"
done
# An output that cannot be written whole (a 2 KiB file size limit: perf.data
# fails with EFBIG) is reported and leaves no part of itself; the files
# written before it are complete.
(
	trap '' XFSZ
	ulimit -f 2
	run efbig "$csdump" extract "$work/good.vmcore" -o "$work/efbig.x"
	echo "$rc" >"$work/efbig.rc"
)
read -r rc <"$work/efbig.rc"
verdict efbig 2 'efbig.x/perf.data: write failed: File too large'
[ -e "$work/efbig.x/perf.data" ] && fail "efbig: a perf.data was left"
for f in cstrace.bin metadata.bin; do
	cmp -s "$work/good.expect/$f" "$work/efbig.x/$f" || fail "efbig: $f incomplete"
done
no_leftovers "$work"
echo "$cases checks, $fails failure(s)"
# 8 MiB each: kept only to look into a failure.
[ "$fails" -eq 0 ] && rm -f "$work"/*.vmcore "$work"/*.kdump
[ "$fails" -eq 0 ]
