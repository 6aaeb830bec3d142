#!/usr/bin/env bash
# threads.sh CSDUMP ETM4ENC SNAPSHOT_DIR WORK: the output of csdump decode does not
# depend on how many threads decode (--threads 0: all on the main thread; 1,
# 2, 3: workers; the default under taskset to one CPU), on juno_r1_1 (six
# trace IDs) and on a two-CPU trace of the project's encoder (trace IDs busy
# alike, frames mixing them).  CSDUMP may be a ThreadSanitizer build: a data
# race fails the run.
set -eu
csdump=$1 enc=$2 snap=$3 work=$4
. "$(dirname "$0")/common.sh"
rm -rf "$work"
mkdir -p "$work"
inputs=()
[ -d "$snap" ] && inputs+=("$snap")
if [ -x "$enc" ] && command -v aarch64-linux-gnu-gcc >/dev/null; then
	aarch64-linux-gnu-gcc -O1 -fno-inline -nostdlib -static -Wl,-e,main \
		-o "$work/prog.elf" "$here/fixture.c"
	"$enc" --elf "$work/prog.elf" -o "$work/enc" --cpus 2 --size 256K >/dev/null
	inputs+=("$work/enc/snapshot")
fi
[ ${#inputs[@]} -gt 0 ] || { echo "skip: neither $snap nor the encoder"; exit 77; }
export TSAN_OPTIONS=halt_on_error=1:exitcode=66
command -v taskset >/dev/null && cpu0=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
fail=0
for in in "${inputs[@]}"; do
	for fmt in jsonl text; do
		ref=
		for t in 0 1 2 3; do
			out=$work/out.$fmt.$t
			"$csdump" decode "$in" --format $fmt --last 0 --threads $t >"$out" 2>"$out.err" ||
				{ echo "FAIL: --threads $t: exit $?"; tail -n 20 "$out.err"; fail=1; }
			sum=$(md5sum <"$out" | cut -d' ' -f1)
			[ -n "$ref" ] || ref=$sum
			[ "$sum" = "$ref" ] || { echo "FAIL: $in $fmt: --threads $t differs"; fail=1; }
		done
		# The default on one CPU: no workers (csd_decode_cpus() says 1).
		if command -v taskset >/dev/null; then
			taskset -c "$cpu0" "$csdump" decode "$in" --format $fmt --last 0 \
				>"$work/out.$fmt.one" 2>"$work/out.$fmt.one.err" ||
				{ echo "FAIL: one CPU: exit $?"; fail=1; }
			[ "$(md5sum <"$work/out.$fmt.one" | cut -d' ' -f1)" = "$ref" ] ||
				{ echo "FAIL: $in $fmt: the default on one CPU differs"; fail=1; }
		fi
		[ -s "$work/out.$fmt.0" ] || { echo "FAIL: $in $fmt: no output"; fail=1; }
		echo "$in $fmt: --threads 0..3 and one CPU give the same" \
			"$(wc -l <"$work/out.$fmt.0") lines"
	done
done
exit $fail
