#!/usr/bin/env bash
# schema.sh CSDUMP ETM4ENC PROG_ELF TRACES WORK: every JSON line csdump writes
# (decode --format jsonl --stack --functions, and the report's data) against
# the schema docs/decode.md documents (schema.py reads it from there): on
# juno_r1_1 with symbols, juno-uname-001, and an encoder trace of two CPUs
# with timestamps, cycle counts and VMIDs.
set -eu
csdump=$1 enc=$2 prog=$3 traces=$4 work=$5
. "$(dirname "$0")/common.sh"
need_snapshot "$traces/juno_r1_1"
rm -rf "$work"
mkdir -p "$work"
juno_syms "$work"
"$enc" --elf "$prog" --cpus 2 --cc --ts --vmid --steps 2000 -o "$work/enc" >/dev/null
"$csdump" decode "$traces/juno_r1_1" --vmlinux "$work/syms.elf" --lines --format jsonl --stack \
	--functions >"$work/juno.jsonl" 2>/dev/null || true
"$csdump" decode "$traces/juno-uname-001" --format jsonl --stack --functions \
	>"$work/uname.jsonl" 2>/dev/null || true
"$csdump" decode "$work/enc/snapshot" --vmlinux "$prog" --format jsonl --stack --functions \
	>"$work/enc.jsonl" 2>/dev/null
"$csdump" report "$work/enc/snapshot" --vmlinux "$prog" -o "$work/enc.html" 2>/dev/null
"$here/schema.py" "$here/../../docs/decode.md" "$work/juno.jsonl" "$work/uname.jsonl" \
	"$work/enc.jsonl" "$work/enc.html"
