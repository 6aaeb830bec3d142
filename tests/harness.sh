#!/usr/bin/env bash
# harness.sh RESULTS LOGS NAME CMD [ARGS...]
# Run one test; its output goes to LOGS/NAME.log (and to the terminal on
# failure); RESULTS/NAME.pass or RESULTS/NAME.fail records the verdict.
# Exit status 77 means "skipped" (RESULTS/NAME.skip) and is reported as such.
# Exits 0 when the test passed or was skipped, 1 when it failed; with
# HARNESS_VERDICT_ONLY=1 (make check, whose summary reads RESULTS) always 0,
# so that a failed test does not hold back the checks queued behind its
# outputs' removal (tests/prune.sh).
set -u
results=$1 logs=$2 name=$3
shift 3
mkdir -p "$results" "$logs"
rm -f "$results/$name".*
log="$logs/$name.log"
start=$(date +%s.%N)
"$@" >"$log" 2>&1
rc=$?
secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)")
case $rc in
0)  echo "$secs" >"$results/$name.pass"; echo "PASS $name (${secs}s)" ;;
77) echo "$secs" >"$results/$name.skip"; echo "SKIP $name: $(tail -n 1 "$log")" ;;
*)  echo "$secs" >"$results/$name.fail"
    echo "FAIL $name (exit $rc, ${secs}s); last lines of $log:"
    tail -n 40 "$log" | sed 's/^/    /' ;;
esac
[ "${HARNESS_VERDICT_ONLY:-}" != 1 ] || exit 0
exit $(( rc == 0 || rc == 77 ? 0 : 1 ))
