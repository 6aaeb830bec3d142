#!/usr/bin/env bash
# prune.sh RESULTS "NAME..." PATH...: remove each PATH once every test NAME
# passed or was skipped (RESULTS/NAME.pass or .skip, tests/harness.sh).
# make check runs it after the last check that reads a scenario's outputs
# (mk/e2e-hw.mk, mk/variants.mk), so that the tree holds a few runs'
# vmcores and records at a time, not every run's: a CI machine ran out of
# disk space (2026-12-07).  A failed or missing test keeps everything for
# its log's reader.  Always exits 0: what it keeps is reported, not a
# failure of its own.
set -u
results=$1 names=$2
shift 2
for n in $names; do
	if [ ! -e "$results/$n.pass" ] && [ ! -e "$results/$n.skip" ]; then
		echo "prune: kept $* ($n did not pass)"
		exit 0
	fi
done
rm -rf -- "$@"
