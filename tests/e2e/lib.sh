# SPDX-License-Identifier: GPL-2.0
# lib.sh: the guest side of an e2e run, shared by scenario.sh and demo.sh.
# Sourced, not run.

E2E_DBG=/sys/kernel/debug/coresight_kdump_testdev
E2E_DEVS=/sys/bus/coresight/devices
E2E_SINK=cstest_sink0

# e2e_script PAYLOAD_DIR: print the first kernel's /e2e/script (init.c's
# commands) that loads PAYLOAD_DIR into the test CoreSight devices and
# crashes, after loading the modules of $E2E_MODULES (run-qemu.sh puts them
# in /modules: the test device).  PAYLOAD_DIR holds cstrace.bin (the trace the sink receives),
# etm<CPU>.regs (one per source to enable) and, if $filler, filler.bin
# (written before the trace, so that the RAM wraps).  Variables:
#   ram          the sink's RAM size in bytes
#   crash        the command that crashes the guest
#   setup        a command run after the capture kernel is loaded (optional)
#   end_session  "yes": disable the sources and the sink before the crash
#   pin          run the crash on this CPU (optional)
e2e_script() {
	local payload=$1 c cpus m
	cpus=$(ls "$payload" | sed -n 's/^etm\([0-9]*\)\.regs$/\1/p' | sort -n)
	for m in ${E2E_MODULES:-}; do
		echo "insmod /modules/$(basename "$m")"
	done
	echo "write $E2E_DBG/$E2E_SINK/ram_size $ram"
	for c in $cpus; do
		echo "copy /payload/etm$c.regs $E2E_DBG/cstest_etm$c/regs"
	done
	echo "write $E2E_DEVS/$E2E_SINK/enable_sink 1"
	for c in $cpus; do
		echo "write $E2E_DEVS/cstest_etm$c/enable_source 1"
	done
	[ ! -f "$payload/filler.bin" ] || echo "copy /payload/filler.bin $E2E_DBG/$E2E_SINK/ram"
	echo "copy /payload/cstrace.bin $E2E_DBG/$E2E_SINK/ram"
	if [ "${end_session:-}" = yes ]; then
		for c in $cpus; do
			echo "write $E2E_DEVS/cstest_etm$c/enable_source 0"
		done
		echo "write $E2E_DEVS/$E2E_SINK/enable_sink 0"
	fi
	echo "kexec"
	[ -z "${setup:-}" ] || echo "$setup"
	[ -z "${pin:-}" ] || echo "pin $pin"
	echo "log crashing: $crash"
	echo "$crash"
	echo "sleep 5000"
}

# e2e_elapsed START NAME FILE: append "NAME SECONDS-SINCE-START" to FILE.
e2e_elapsed() {
	printf '%s %.1f\n' "$2" "$(echo "$(date +%s.%N) - $1" | bc)" >>"$3"
}
