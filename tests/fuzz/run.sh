#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run.sh FUZZER SEEDS WORK SECONDS: run one libFuzzer target for SECONDS
# from the committed SEEDS plus what earlier runs found (WORK/corpus); a
# crash, leak, sanitizer report or timeout (10 s per input) fails, leaving
# the input in WORK/artifacts.  Ends with the number of executions.
set -u
fuzzer=$1 seeds=$2 work=$3 secs=$4
mkdir -p "$work/corpus" "$work/artifacts"
[ -d "$seeds" ] && [ -n "$(ls -A "$seeds")" ] || { echo "no seed corpus in $seeds"; exit 1; }
# 1 GiB is the largest buffer a record may claim: allow reading it.
"$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2560 -malloc_limit_mb=1100 \
	-print_final_stats=1 -artifact_prefix="$work/artifacts/" \
	"$work/corpus" "$seeds" >"$work/log" 2>&1
rc=$?
grep -E '^(INFO: seed corpus|#[0-9]+ +DONE|Done [0-9]+ runs)|^stat::(number_of_executed_units|peak_rss_mb|new_units_added)' "$work/log"
if [ "$rc" -ne 0 ]; then
	echo "FAIL: ${fuzzer##*/} exited $rc:"
	grep -A40 -E '^==[0-9]+==ERROR|runtime error|ALARM|deadly signal' "$work/log" | head -60
	ls "$work/artifacts"
fi
exit $rc
