#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run-qemu.sh: crash one QEMU arm64 guest and bring its vmcore back.
#
#   run-qemu.sh OUT_DIR SCRIPT PAYLOAD_DIR [EXTRA_CMDLINE]
#
# Environment (set by mk/e2e.mk):
#   E2E_IMAGE     the arm64 Image (booted, and loaded as the capture kernel)
#   E2E_CPIO      usr/gen_init_cpio of the kernel build tree
#   E2E_INIT      the static guest init (tests/e2e/init.c)
#   E2E_MODULES   kernel modules (.ko paths, space-separated) put in the
#                 first kernel's /modules/; lib.sh's script loads them
#   E2E_DTSI      DT nodes added to QEMU virt's device tree (empty: none)
#   E2E_TIMEOUT   seconds for the whole QEMU run (default 240)
#   E2E_QEMU      the QEMU binary (default qemu-system-aarch64; the emulated
#                 CoreSight runs use build/qemu's, see mk/qemu.mk)
#   E2E_MACHINE   -M properties after "virt" (e.g. ",coresight=on")
#   E2E_CPU       the -cpu model (default cortex-a57; the 16K and 52-bit VA
#                 kernels of mk/variants.mk need max, which has the 16K
#                 granule and FEAT_LVA)
#   E2E_KASLR     1: boot without nokaslr, so that a kernel built with
#                 RANDOMIZE_BASE runs at a random offset (default: nokaslr)
#   E2E_QEMU_ARGS more QEMU arguments, split on white space
#   E2E_LOG_DIR   a directory made after OUT_DIR is emptied (for QEMU's own
#                 logs, e.g. the emulated CoreSight models')
#   E2E_QEMU_LOCK a lock file (flock) held while QEMU runs: runs given the
#                 same one run one at a time; E2E_TIMEOUT counts from when
#                 QEMU starts
#
# SCRIPT is the first kernel's /e2e/script (see init.c), PAYLOAD_DIR's files
# go to /payload/.  Writes OUT_DIR/console.log (both kernels), OUT_DIR/vmcore
# and OUT_DIR/times (seconds per stage).  Exit 0 when a vmcore came back.
set -euo pipefail

out=$1 script=$2 payload=$3 extra=${4:-}
: "${E2E_IMAGE:?}" "${E2E_CPIO:?}" "${E2E_INIT:?}"
timeout_s=${E2E_TIMEOUT:-240}
qemu=${E2E_QEMU:-qemu-system-aarch64}
mem=512
# Six CPUs: one per trace unit of the Juno capture (E2E_DTSI names cpu@0-5).
# shellcheck disable=SC2206
machine=(-M "virt${E2E_MACHINE:-}" -cpu "${E2E_CPU:-cortex-a57}" -smp 6 -m "$mem" -nic none ${E2E_QEMU_ARGS:-})
# The kernels are built with KASLR (RANDOMIZE_BASE, as distributions'
# are); a run keeps its link-time addresses with nokaslr unless E2E_KASLR=1.
nokaslr=nokaslr
[ "${E2E_KASLR:-}" != 1 ] || nokaslr=
cmdline="console=ttyAMA0 crashkernel=128M panic=1 $nokaslr $extra"
capture_cmdline="console=ttyAMA0 nr_cpus=1 reset_devices panic=1 $nokaslr"

rm -rf "$out"
mkdir -p "$out/stage" ${E2E_LOG_DIR:+"$E2E_LOG_DIR"}
: >"$out/times"

stage_start=0
stage() {
	local now
	now=$(date +%s.%N)
	if [ -n "${stage_name:-}" ]; then
		printf '%s %.1f\n' "$stage_name" "$(echo "$now - $stage_start" | bc)" >>"$out/times"
	fi
	stage_name=${1:-} stage_start=$now
}

stage initramfs
# Inner archive: the capture kernel's userspace (the init alone).
cat >"$out/stage/capture.list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
file /init $E2E_INIT 0755 0 0
EOF
"$E2E_CPIO" "$out/stage/capture.list" >"$out/stage/capture.cpio"
echo "$capture_cmdline" >"$out/stage/capture.cmdline"
cp "$script" "$out/script"

# Outer archive: the same init, the scenario, its payload and the capture
# kernel (an initramfs cannot contain itself, hence two archives).
{
	cat "$out/stage/capture.list"
	echo "dir /capture 0755 0 0"
	echo "file /capture/Image $E2E_IMAGE 0644 0 0"
	echo "file /capture/initrd $out/stage/capture.cpio 0644 0 0"
	echo "file /capture/cmdline $out/stage/capture.cmdline 0644 0 0"
	echo "dir /e2e 0755 0 0"
	echo "file /e2e/script $out/script 0644 0 0"
	echo "dir /payload 0755 0 0"
	echo "dir /modules 0755 0 0"
	for f in ${E2E_MODULES:-}; do
		echo "file /modules/$(basename "$f") $(realpath "$f") 0644 0 0"
	done
	for f in "$payload"/*; do
		[ -f "$f" ] && echo "file /payload/$(basename "$f") $(realpath "$f") 0644 0 0"
	done
} >"$out/stage/first.list"
"$E2E_CPIO" "$out/stage/first.list" >"$out/stage/first.cpio"

stage dtb
# QEMU's own device tree for this machine, plus the test CoreSight topology.
# The capture kernel inherits it through kexec_file_load.
if ! "$qemu" "${machine[@]}" -machine dumpdtb="$out/stage/virt.dtb" \
	-display none >"$out/stage/dumpdtb.log" 2>&1; then
	cat "$out/stage/dumpdtb.log" >&2
	exit 1
fi
dtc -q -I dtb -O dts -o "$out/stage/virt.dts" "$out/stage/virt.dtb"
cat "$out/stage/virt.dts" ${E2E_DTSI:+"$E2E_DTSI"} >"$out/stage/e2e.dts"
dtc -q -I dts -O dtb -o "$out/stage/e2e.dtb" "$out/stage/e2e.dts"

stage qemu
# The dumpdtb run above realized the same devices: its logs are not this run's.
if [ -n "${E2E_LOG_DIR:-}" ]; then
	rm -rf "$E2E_LOG_DIR"
	mkdir -p "$E2E_LOG_DIR"
fi
rm -f "$out/stage/disk.img"
truncate -s $((mem + 64))M "$out/stage/disk.img"
# A run about to time out says what it was doing: each vCPU's pc and lr
# (the monitor, on a socket) and QEMU's threads (gdb), in $out/hang.txt
# and at the end of this script's output (hang_report.py).
pidfile=$out/stage/qemu.pid
watch_s=$((timeout_s > 60 ? timeout_s - 20 : timeout_s * 2 / 3))
(
	# From QEMU's start: it may wait for E2E_QEMU_LOCK first.
	until [ -s "$pidfile" ]; do
		sleep 1
	done
	end=$(($(date +%s) + watch_s))
	while [ "$(date +%s)" -lt "$end" ]; do
		sleep 2
	done
	if [ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
		/usr/bin/python3 "$(dirname "$0")/hang_report.py" "$out/stage/monitor.sock" \
			"$(cat "$pidfile")" ${VMLINUX:+"$VMLINUX"} >"$out/hang.txt" 2>&1
	fi
) &
watcher=$!
rc=0
${E2E_QEMU_LOCK:+flock "$E2E_QEMU_LOCK"} timeout --foreground -k 5 "$timeout_s" "$qemu" "${machine[@]}" \
	-display none -monitor "unix:$out/stage/monitor.sock,server=on,wait=off" \
	-pidfile "$pidfile" -name e2e,debug-threads=on -serial "file:$out/console.log" \
	-no-reboot -kernel "$E2E_IMAGE" -initrd "$out/stage/first.cpio" \
	-dtb "$out/stage/e2e.dtb" -append "$cmdline" \
	-drive "file=$out/stage/disk.img,if=none,format=raw,id=vmcore" \
	-device virtio-blk-device,drive=vmcore,serial=vmcore </dev/null || rc=$?
# After a timeout the report is being written (bounded by its own
# timeouts); otherwise it will not be.
[ "$rc" = 124 ] || kill "$watcher" 2>/dev/null || true
wait "$watcher" 2>/dev/null || true
hang() {
	[ ! -s "$out/hang.txt" ] || { echo "run-qemu: what the run did before its timeout:"; cat "$out/hang.txt"; } >&2
}

stage vmcore
if [ "$rc" = 124 ]; then
	echo "run-qemu: QEMU timed out after ${timeout_s}s" >&2
fi
if grep -a 'e2e-init: FAILED' "$out/console.log" >&2; then
	stage
	exit 1
fi
if ! grep -aq 'e2e-init: vmcore saved' "$out/console.log"; then
	echo "run-qemu: no vmcore saved (QEMU exit $rc); see $out/console.log" >&2
	tail -n 30 "$out/console.log" >&2 || true
	hang
	stage
	exit 1
fi
hdr=$(head -c 64 "$out/stage/disk.img" | tr -d '\0')
size=$(printf '%s\n' "$hdr" | sed -n 's/^size=\([0-9]*\)$/\1/p')
if [ "$(printf '%s\n' "$hdr" | head -n 1)" != "CSDUMP-E2E-VMCORE 1" ] || [ -z "$size" ]; then
	echo "run-qemu: $out/stage/disk.img: no vmcore header" >&2
	stage
	exit 1
fi
dd if="$out/stage/disk.img" of="$out/vmcore" bs=4096 skip=1 count="$size" \
	iflag=count_bytes conv=sparse status=none
rm -f "$out/stage/disk.img"
stage
echo "run-qemu: vmcore $out/vmcore ($size bytes)"
cat "$out/times"
