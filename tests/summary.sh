#!/usr/bin/env bash
# summary.sh RESULTS: print every test's verdict and one closing
# "N passed, N failed, N skipped" line; exit 1 if anything failed or nothing ran.
set -u
dir=$1
pass=0 fail=0 skip=0
shopt -s nullglob
for f in "$dir"/*.pass; do pass=$((pass + 1)); done
for f in "$dir"/*.skip; do skip=$((skip + 1)); done
for f in "$dir"/*.fail; do fail=$((fail + 1)); echo "failed: $(basename "$f" .fail)"; done
echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
