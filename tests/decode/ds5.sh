#!/usr/bin/env bash
# ds5.sh CSDUMP SNAPSHOT_DIR WORK: csdump's decode of juno_r1_1 against the
# DS-5 trace reports in its ds-5-dumps/ (see ds5.py for what is checked).
set -eu
csdump=$1 snap=$2 work=$3
. "$(dirname "$0")/common.sh"
shopt -s nullglob
reports=("$snap"/ds-5-dumps/Trace_Report_*.txt)
[ "${#reports[@]}" -gt 0 ] || { echo "skip: no DS-5 reports under $snap"; exit 77; }
mkdir -p "$work"
"$csdump" decode "$snap" --format jsonl --last 0 >"$work/ds5.jsonl"
"$here/ds5.py" "$work/ds5.jsonl" "${reports[@]}"
