#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh: `make demo`, csdump's main job, on the emulated CoreSight hardware.
#
# The guest (the stock CoreSight drivers and the coresight-kdump series:
# make kernel-hw) runs on the patched QEMU's -M virt,coresight=on, whose
# ETMs trace what its six CPUs really execute into a 1 MiB scatter-gather
# TMC-ETR buffer.  The guest crashes with sysrq-c, kdump's capture kernel
# saves the vmcore, and csdump shows what each CPU executed last, with the
# guest's symbols, and the panicking CPU's call stack.  This is the
# exec-etr-sg-sysrq scenario of make e2e-hw (tests/e2e-hw/scenario.sh),
# which make check also holds against QEMU's own record of what each vCPU
# executed; the demo runs it without that record and without the checks.
# Needs nothing from ../shared.
#
# Environment: scenario.sh's.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
: "${E2E_OUT:?}" "${CSDUMP:?}" "${VMLINUX:?}"
name=exec-etr-sg-sysrq
out=$E2E_OUT/$name

echo "== crashing the guest on the emulated hardware (console: $out/console.log)"
t0=$(date +%s.%N)
E2E_HW_QUICK=1 "$here/scenario.sh" "$name" >"$E2E_OUT/demo.log" 2>&1 || {
	tail -n 20 "$E2E_OUT/demo.log" >&2
	exit 1
}
run_t=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")
cpu=$(sed -n 's/.*CPU: \([0-9]*\) PID: [0-9]* Comm: init.*/\1/p' "$out/console.log" | head -n 1)

echo "== csdump info $out/vmcore"
"$CSDUMP" info "$out/vmcore"
echo "== csdump decode: the last moments of each CPU"
t0=$(date +%s.%N)
"$CSDUMP" decode "$out/vmcore" --vmlinux "$VMLINUX" --last 6
if [ -n "$cpu" ]; then
	echo "== csdump decode --stack --cpu $cpu: where the panicking CPU was"
	"$CSDUMP" decode "$out/vmcore" --vmlinux "$VMLINUX" --cpu "$cpu" --stack
fi
decode_t=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")
echo "== seconds: guest run to vmcore $run_t, decode $decode_t"
