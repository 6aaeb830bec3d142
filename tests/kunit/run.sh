#!/usr/bin/env bash
# run.sh IMAGE QEMU SRC OUT: the coresight-kdump KUnit suites (the registry's,
# coresight-kdump, and the CTI driver's mapping, coresight-cti-kdump), built into the
# kernel for the emulated hardware (make kernel-hw, with
# kernel/configs/hw/kunit.config), booted on QEMU virt with two CPUs (one
# test holds the registry lock on the other CPU while the panic walk runs)
# and no root file system: the suites run before init, and
# kunit_shutdown=poweroff ends the boot.  The TAP on the console is judged
# by the tree's own kunit.py parser (SRC/tools/testing/kunit); OUT gets
# console.log and results.txt.
#
# The suite runs on a registry of its own: the boot has no opt-in
# (coresight_kdump.enable) and no trace session, and needs neither.
# tests/kunit/coresight-kdump.kunitconfig is the same suite for kunit.py's
# own build (`make kunit-standalone`), as an upstream developer runs it.
set -euo pipefail
image=$1 qemu=$2 src=$3 out=$4
mkdir -p "$out"
out=$(cd "$out" && pwd)	# kunit.py works from the kernel tree's root
rm -f "$out/console.log" "$out/results.txt"
timeout --foreground -k 5 300 "$qemu" -M virt -cpu cortex-a57 -smp 2 -m 512 \
	-nic none -display none -monitor none -serial "file:$out/console.log" \
	-no-reboot -kernel "$image" \
	-append "console=ttyAMA0 panic=-1 kunit.enable=1 kunit.filter_glob=coresight-*kdump kunit_shutdown=poweroff" \
	</dev/null || { echo "run.sh: QEMU exited $?" >&2; exit 1; }
# At least the suites' cases must have run: a filter that matched nothing
# gives "1..0", which the parser would call a success.
for suite in coresight-kdump coresight-cti-kdump; do
	grep -q "# Subtest: $suite.\?\$" "$out/console.log" || {
		echo "run.sh: the $suite suite did not run (console.log)" >&2
		exit 1
	}
done
python3 "$src/tools/testing/kunit/kunit.py" parse "$out/console.log" | tee "$out/results.txt"
