#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# decode_check.sh CSDUMP VMCORE VMLINUX OUT: csdump's decode of a vmcore
# gives, per trace ID, the elements OpenCSD's trc_pkt_lister gives on the
# snapshot `csdump snapshot` writes of it (normalised by
# tests/decode/trace_seq.py).  Writes OUT/snapshot, OUT/decode.{oracle,ours,
# jsonl,txt}.
set -euo pipefail
csdump=$1 vmcore=$2 vmlinux=$3 out=$4
. "$(dirname "$0")/../decode/common.sh"
command -v trc_pkt_lister >/dev/null || { echo "FAIL  trc_pkt_lister not installed"; exit 1; }
rm -rf "$out/snapshot"
"$csdump" snapshot "$vmcore" -o "$out/snapshot" --vmlinux "$vmlinux" >/dev/null
lister_seq "$out/snapshot" "$out/decode.oracle"
"$csdump" decode "$vmcore" --vmlinux "$vmlinux" --format jsonl --last 0 >"$out/decode.jsonl"
"$here/trace_seq.py" jsonl "$out/decode.jsonl" >"$out/decode.ours"
"$csdump" decode "$vmcore" --vmlinux "$vmlinux" --last 8 >"$out/decode.txt"
ranges=$(grep -c ' range ' "$out/decode.oracle" || true)
ids=$(cut -d' ' -f1 "$out/decode.oracle" | sort -u | xargs)
if [ "$ranges" -eq 0 ]; then
	echo "FAIL  decode: trc_pkt_lister decoded no range; the comparison would be empty"
	exit 1
fi
if ! diff -u "$out/decode.oracle" "$out/decode.ours" >"$out/decode.diff"; then
	echo "FAIL  decode: csdump differs from trc_pkt_lister on csdump snapshot:"
	head -n 12 "$out/decode.diff"
	exit 1
fi
runaway=$(grep -c '"type":"runaway"' "$out/decode.jsonl" || true)
echo "ok    decode: csdump = trc_pkt_lister on csdump snapshot: $ranges ranges ($runaway flagged runaway), trace IDs $ids"
