#!/usr/bin/env bash
# run.sh SRC OUT: the coresight-kdump KUnit suite on arm64 in QEMU (two CPUs),
# built by kunit.py from the kernel tree SRC into OUT.  The caller holds the
# kernel build lock (mk/kernel.mk); this script does not take it.
# The suite runs on a registry of its own: the test kernel boots without
# the administrator's opt-in (coresight_kdump.enable), and needs none.
set -euo pipefail
src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cd "$src"
exec python3 tools/testing/kunit/kunit.py run \
	--arch=arm64 --cross_compile=aarch64-linux-gnu- \
	--build_dir="$out" --kunitconfig="$here/coresight-kdump.kunitconfig" \
	--qemu_args='-smp 2' --make_options=-j2 --timeout=300
