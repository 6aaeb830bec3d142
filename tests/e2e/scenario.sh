#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scenario.sh NAME: one end-to-end crash scenario with the Juno capture.
#
# Loads ../shared/traces/juno_r1_1 (cstrace.bin and the six trace units'
# registers) into the test CoreSight sink and sources of a QEMU guest,
# crashes it the scenario's way, brings the vmcore back through kdump and
# checks it (check_scenario.py) and, when csdump is built, what csdump
# extract makes of it.  Skips (77) when the capture is absent.
#
# Scenarios:
#   sysrq     sysrq-c from process context; the sink did not wrap
#   irq       panic in a hard-IRQ hrtimer callback; the sink wrapped
#   oops      NULL dereference with kernel.panic_on_oops=1; the sink wrapped
#             at offset 0
#   locked    panic while another CPU holds the registry's lock
#   disabled  the session is enabled, fed and ended before sysrq-c
#   optout    booted without coresight_kdump.enable: nothing joins the
#             registry, sysrq-c leaves it empty
#   nopost    booted without crash_kexec_post_notifiers: the session, armed
#             again once the crash kernel is loaded, says that its trace
#             cannot be saved; kdump runs first, the sink is not saved
#   fault-CRASH-FAULT
#             the sink's panic save fails (the test sink's debugfs "fault"):
#             CRASH is sysrq, oops (kernel.panic_on_oops=1), panic (panic()
#             from process context) or irq; FAULT is unmapped (a plain load
#             from an unmapped page), sea (a load where no device answers: a
#             synchronous external abort), nofault (an unmapped page read
#             with the *_nofault accessors) or notready (the sink never
#             reports ready).  The vmcore must come back every time, the
#             sink's record marked FAILED, the tracers' metadata intact.
#
# Environment: run-qemu.sh's, plus E2E_OUT (output root), E2E_SNAPSHOT
# (default ../shared/traces/juno_r1_1) and CSDUMP (the csdump binary;
# its checks are skipped while it does not exist).
set -euo pipefail

name=$1
here=$(cd "$(dirname "$0")" && pwd)
snap=${E2E_SNAPSHOT:-../shared/traces/juno_r1_1}
: "${E2E_OUT:?}"
if [ ! -f "$snap/cstrace.bin" ]; then
	echo "skipped: $snap (the Juno capture) is absent"
	exit 77
fi
snap=$(cd "$snap" && pwd)

in=$E2E_OUT/$name.in
out=$E2E_OUT/$name
rm -rf "$in"
mkdir -p "$in/payload"

. "$here/lib.sh"
dbg=$E2E_DBG
python3 "$here/snapshot_regs.py" "$snap" "$in/payload"
ln -s "$snap/cstrace.bin" "$in/payload/cstrace.bin"
trace_size=$(stat -c %s "$snap/cstrace.bin")

# Scenario parameters: RAM size, filler written before the trace (so that
# the RAM wraps at a write pointer that is not 0), expected outcome, extra
# setup command, the crash, what the console must show.
ram=$((trace_size * 2)) filler=0 expect=exact setup= allow_warn= end_session=
faulted=
# The administrator's opt-in and the panic policy the save needs.
cmdline="crash_kexec_post_notifiers coresight_kdump.enable=1"
console_expect=()
case $name in
sysrq)
	crash="write /proc/sysrq-trigger c"
	console_expect=("sysrq: Trigger a crash") ;;
irq)
	ram=$trace_size filler=4096 expect=wrapped
	crash="write $dbg/crash irq"
	console_expect=("panic in hard-IRQ context") ;;
oops)
	ram=$trace_size expect=wrapped
	crash="write $dbg/crash oops"
	setup="write /proc/sys/kernel/panic_on_oops 1"
	console_expect=("Unable to handle kernel NULL pointer dereference"
			"Kernel panic - not syncing: Oops: Fatal exception") ;;
locked)
	crash="write /sys/kernel/debug/coresight_kdump_locktest/crash locked"
	console_expect=("holds the kdump registry lock"
			"while CPU"
			"registry lock busy: walked without it")
	# The holder spins with interrupts off, so it cannot take the stop
	# IPI and arm64 kdump warns, rightly, that a CPU may be stale.
	allow_warn="at arch/arm64/kernel/machine_kexec.c" ;;
disabled)
	expect=none end_session=yes
	crash="write /proc/sysrq-trigger c"
	console_expect=("sysrq: Trigger a crash") ;;
optout)
	expect=none cmdline=crash_kexec_post_notifiers
	crash="write /proc/sysrq-trigger c"
	console_expect=("sysrq: Trigger a crash") ;;
nopost)
	expect=unsaved cmdline=coresight_kdump.enable=1
	# Re-arm the session now that the crash kernel is loaded.
	for c in $(ls "$in/payload" | sed -n 's/^etm\([0-9]*\)\.regs$/\1/p'); do
		setup+="write $E2E_DEVS/cstest_etm$c/enable_source 0"$'\n'
	done
	setup+="write $E2E_DEVS/$E2E_SINK/enable_sink 0"$'\n'
	setup+="write $E2E_DEVS/$E2E_SINK/enable_sink 1"
	for c in $(ls "$in/payload" | sed -n 's/^etm\([0-9]*\)\.regs$/\1/p'); do
		setup+=$'\n'"write $E2E_DEVS/cstest_etm$c/enable_source 1"
	done
	crash="write /proc/sysrq-trigger c"
	console_expect=("sysrq: Trigger a crash"
			"crash_kexec_post_notifiers is not set: kdump starts before the trace is saved") ;;
fault-*-*)
	expect=failed
	fault_crash=${name#fault-} fault_crash=${fault_crash%-*}
	case ${name##*-} in
	unmapped) fault=unmapped faulted=FAULTED
		console_expect=("Unable to handle kernel paging request"
				"$E2E_SINK faulted in its panic save") ;;
	sea) fault="sea 0x0b000000" faulted=FAULTED
		console_expect=("synchronous external abort"
				"$E2E_SINK faulted in its panic save") ;;
	nofault) fault=nofault
		console_expect=("a save failed: its record says so") ;;
	notready) fault=not-ready faulted=FLUSH_TIMEOUT
		console_expect=("a save failed: its record says so") ;;
	*) echo "scenario.sh: unknown fault in '$name'" >&2; exit 2 ;;
	esac
	setup="write $dbg/$E2E_SINK/fault $fault"
	case $fault_crash in
	sysrq) crash="write /proc/sysrq-trigger c"
		console_expect+=("sysrq: Trigger a crash") ;;
	oops) crash="write $dbg/crash oops"
		setup+=$'\n'"write /proc/sys/kernel/panic_on_oops 1"
		console_expect+=("Kernel panic - not syncing: Oops: Fatal exception") ;;
	panic) crash="write $dbg/crash panic"
		console_expect+=("panic in process context") ;;
	irq) crash="write $dbg/crash irq"
		console_expect+=("panic in hard-IRQ context") ;;
	*) echo "scenario.sh: unknown crash in '$name'" >&2; exit 2 ;;
	esac ;;
*)
	echo "scenario.sh: unknown scenario '$name'" >&2
	exit 2 ;;
esac
if [ "$filler" -gt 0 ]; then
	head -c "$filler" /dev/zero | tr '\0' '\125' >"$in/payload/filler.bin"
fi

{
	echo "# scenario $name: the Juno r1 capture, $trace_size bytes, into a $ram-byte sink"
	e2e_script "$in/payload"
} >"$in/script"

"$here/run-qemu.sh" "$out" "$in/script" "$in/payload" "$cmdline"

t0=$(date +%s.%N)
args=(--console "$out/console.log" --vmcore "$out/vmcore" --snapshot "$snap"
      --expect "$expect")
for e in "${console_expect[@]}"; do
	args+=(--console-expect "$e")
done
[ -z "$allow_warn" ] || args+=(--allow-warn "$allow_warn")
[ -z "$faulted" ] || args+=(--failed-flag "$faulted")

status=0
fail() { echo "FAIL  $*"; status=1; }
if [ -n "${CSDUMP:-}" ]; then
	rc=0
	"$CSDUMP" extract "$out/vmcore" -o "$out/extract" || rc=$?
	if [ "$expect" != exact ] && [ "$expect" != wrapped ]; then
		# csdump(1): exit 4, the registry is intact but holds no trace.
		[ "$rc" = 4 ] || fail "csdump extract exit $rc, expected 4 (no trace)"
	else
		[ "$rc" = 0 ] || fail "csdump extract exit $rc"
		args+=(--extract "$out/extract")
	fi
	e2e_elapsed "$t0" extract "$out/times"
fi
python3 "$here/check_scenario.py" "${args[@]}" || status=1

# Stock perf decodes the extracted perf.data, with the snapshot's memory
# image, into the same branches as the snapshot itself (through csdump
# perf, whose snapshot side the host tests check against trc_pkt_lister).
# A wrapped sink's reference is the snapshot with the barrier in front.
if [ -n "${CSDUMP:-}" ] && { [ "$expect" = exact ] || [ "$expect" = wrapped ]; }; then
	t0=$(date +%s.%N)
	ref=$snap
	if [ "$expect" = wrapped ]; then
		ref=$in/refsnap
		mkdir -p "$ref"
		ln -sf "$snap"/* "$ref/"
		rm "$ref/cstrace.bin"
		python3 "$here/check_scenario.py" --snapshot "$snap" --expect wrapped \
			--write-trace "$ref/cstrace.bin"
	fi
	elf=$("$CSDUMP" perf "$ref" -o "$out/ref.data" 2>/dev/null |
	      sed -n 's/^memory image: \([^ ]*\).*/\1/p')
	for side in ref got; do
		data=$out/ref.data
		[ $side = ref ] || data=$out/extract/perf.data
		perf script -i "$data" -k "$elf" -F cpu,ip,addr >"$out/perf-$side.txt" \
			2>"$out/perf-$side.err" || fail "perf script -i $data"
	done
	n=$(wc -l <"$out/perf-ref.txt")
	cpus=$(cut -c1-5 "$out/perf-ref.txt" | sort -u | xargs)
	if [ "$n" -gt 1000 ] && cmp -s "$out/perf-ref.txt" "$out/perf-got.txt"; then
		echo "ok    perf script: the extracted perf.data decodes the same $n branches as the snapshot (CPUs $cpus)"
	else
		fail "perf script: $n reference branches (CPUs $cpus); extracted: $(wc -l <"$out/perf-got.txt"), first difference:"
		diff "$out/perf-ref.txt" "$out/perf-got.txt" | head -n 5
	fi
	e2e_elapsed "$t0" perf "$out/times"
fi

cat "$out/times"
exit $status
