#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scenario.sh NAME: one crash of a guest on the emulated CoreSight hardware.
#
# NAME is [exec-]SINK[-SESSION]-CRASH.  The guest (the stock drivers only: make
# kernel-hw) runs on build/qemu's -M virt,coresight=on: an ETMv4 per CPU ->
# funnel -> TMC-ETF -> replicator -> {TMC-ETR, ETB10}.  A session on SINK
# traces every CPU's ETM, the guest crashes the CRASH way, kdump's
# capture kernel saves the vmcore; check_hw.py holds it against what the
# emulated sink held when it stopped (the models' log), the streams the ETMs
# were given, and the emulated registers; csdump extract and decode run on
# it, and decode is checked against trc_pkt_lister on `csdump snapshot`.
#
#   SINK   etf         tmc_etf0, circular buffer
#          etfNk       tmc_etf0 with N KiB of RAM (the model's ram-size)
#          etr-flat    tmc_etr0, a 64 KiB flat buffer in guest memory
#          etr-flat-badrwp  the flat ETR with RWP reading 1 MiB past its
#                      buffer at the stop (the model's bad-rwp): the save
#                      must refuse it, FAILED, and the vmcore still come
#          etr-sg      tmc_etr0, a 1 MiB scatter-gather buffer
#          etr-catu    tmc_etr0 behind a CATU (the machine's coresight-catu=on;
#                      the ETR has no scatter-gather of its own): a 1 MiB
#                      buffer that the CATU translates into scattered pages
#          etb10       etb0
#          etb10-unaligned  etb0, its write pointer off a frame boundary at
#                      the stop (the model's stop-skew fault injection)
#          letf        the local ETF topology (the machine's
#                      coresight-local-etf=on): ETM n -> tmc_etf<n>, each
#                      CPU's trace in a 64 KiB ETF of its own, every one a
#                      sink of the session
#          letfNk      the same with N KiB ETFs
#          ...-cti     any sink of the shared topology, on the machine with
#                      CTIs (coresight-cti=on): each ETM's events reach its
#                      CPU's CTI, the system CTI's outputs the ETF's and the
#                      ETR's FLUSHIN (etf16k-cti, etr-sg-cti, ...)
#   SESSION (none)     sysfs: enable_sink, then enable_source on each ETM
#          rsbb        sysfs, each ETM's mode first set to branch broadcast,
#                      context ID and return stack (ETM_MODE_BB | CTXID |
#                      RETURNSTACK: TRCCONFIGR.BB, CID, RS), with
#                      VIEWINST_STARTSTOP (or the driver clears
#                      TRCVICTLR.SSSTATUS: no start point, no trace), and
#                      an include range, the kernel's [_text, _etext]
#                      (addr_range: TRCVIIECTLR, TRCACVR0/1): no user
#                      space may be in the trace
#          sync256     sysfs, each ETM's syncfreq set to 8 first: an A-Sync
#                      every 256 bytes of its trace (TRCSYNCPR.PERIOD, IHI
#                      0064H 7.3.25; the 6.1 driver's default is 12, 4 KiB),
#                      so that a few hundred bytes of one CPU in a small
#                      sink decode
#          perfcpus    perf, CPU-wide: a cs_etm event on every CPU, the sink
#                      chosen by its hash as perf does, AUX buffers mapped
#          wrap        no session: on CPU 1 the test-only coresight-trbe-wraptest
#                      (kernel patch 0093) runs its ETE into its TRBE in wrap
#                      mode (sink trbe only); check_trbe_wrap.py
#          perfthread  perf, per-thread: the crashing task's own event, and
#                      100 ms of context switches (sched_yield) before it
#   -warm  (after the options above, as in exec-etf4k-cti-sync256-warm-oops)
#          just before the crash, a read into address 0 that the kernel's
#          uaccess fixup ends (init's efault): the fault path's code is
#          translated by QEMU before the crash's fault takes it.  TCG
#          translates code the first time it runs, on the host's clock,
#          which is also the guest timer's; silicon does not, and the few
#          hundred instructions from a kernel fault to its stop, which run
#          with interrupts on, otherwise take a timer interrupt in about
#          half the runs (tests/e2e-hw/README.md)
#   CRASH  sysrq       sysrq-c, process context
#          softlockup  a soft lockup (LKDTM SOFTLOCKUP) with softlockup_panic=1:
#                      the watchdog's hrtimer panics, in hard-IRQ context
#          oops        NULL dereference with kernel.panic_on_oops=1 (LKDTM)
#          modoops     NULL dereference in a module, kernel.panic_on_oops=1:
#                      the test device's module (E2E_MODULES, loaded first;
#                      no test device probes without its device tree nodes),
#                      debugfs coresight_kdump_testdev/crash "oops"
#          modirq      panic() in a hard-IRQ hrtimer callback of the test
#                      device's module (E2E_MODULES), debugfs
#                      coresight_kdump_testdev/crash "irq"
#          bug         BUG() with kernel.panic_on_oops=1 (LKDTM)
#          warnsysrq   a WARN() (LKDTM WARNING), then sysrq-c
#          locked      panic while another CPU holds the kdump registry's lock,
#                      interrupts off (coresight-kdump-locktest, patch 0092)
#          disabled    the session ends before sysrq-c: nothing is saved
#
#   exec-  the ETMs trace what the guest executes (the model's default);
#          without it they emit etm4enc's streams (a walk of the guest's
#          vmlinux, six CPUs, split per trace ID) when enabled.  An exec-
#          run also records what each vCPU executed (the exec_ring plugin,
#          oracle/) and holds the decode against it (oracle/check_exec.py).
#
# Outputs under $E2E_OUT/NAME/: console.log, vmcore, models/ (the QEMU
# models' log; models/etmN.bin every byte ETM N emitted; models/cpuN.ring
# what vCPU N executed, exec- only), extract/, snapshot/, decode.jsonl,
# decode.txt, times; the comparisons' own files too when a check failed,
# or with E2E_KEEP=1.
#
# Environment: run-qemu.sh's (E2E_QEMU: build/qemu's binary), plus E2E_OUT,
# CSDUMP, ETM4ENC, EXEC_RING (the plugin) and VMLINUX (the guest's);
# E2E_HW_EXEC_LOCK: a lock file that real-execution runs hold while QEMU
# runs (mk/e2e-hw.mk's); E2E_HW_LAYOUT: VMCOREINFO's layout keys the run
# must show (mk/variants.mk);
# E2E_HW_NO_DECODE=1 skips the decode check (make e2e-hw-cost: minutes per
# MiB in trc_pkt_lister); E2E_HW_QUICK=1 makes only the vmcore (make demo:
# no record of execution, no check).
set -euo pipefail

name=$1
here=$(cd "$(dirname "$0")" && pwd)
: "${E2E_OUT:?}" "${CSDUMP:?}" "${ETM4ENC:?}" "${VMLINUX:?}" "${E2E_QEMU:?}"
source=synth rest=$name
case $name in exec-*) source=exec rest=${name#exec-} ;; esac
crash_kind=${rest##*-} sink=${rest%-*} session=sysfs
cti= src=etm
case $sink in *-cti|*-cti-*) cti=",coresight-cti=on" sink=${sink/-cti/} ;; esac
# -ete: Armv9 trace units, an ETE per CPU (the machine's coresight-ete=on,
# on QEMU's "max" CPU) in place of the ETMv4s, with the same ATB wiring;
# Linux names them ete<n>.
case $sink in *-ete|*-ete-*)
	cti="$cti,coresight-ete=on" sink=${sink/-ete/} src=ete
	export E2E_CPU=${E2E_CPU:-max} ;;
esac
warm=
case $sink in *-warm) warm=1 sink=${sink%-warm} ;; esac
case $sink in
*-perfcpus)   session=cpus sink=${sink%-perfcpus} ;;
*-perfthread) session=thread sink=${sink%-perfthread} ;;
*-wrap)       session=wrap sink=${sink%-wrap} ;;
*-sync256)    syncfreq=8 sink=${sink%-sync256} ;;
*-rsbb)       etm_mode=0x8001050 sink=${sink%-rsbb}
	ktext=$(nm "$VMLINUX" | awk '$3 == "_text" { a = $1 } $3 == "_etext" { b = $1 }
		END { print a, b }') ;;
esac
devs=/sys/bus/coresight/devices
lkdtm=/sys/kernel/debug/provoke-crash
cpus=6

in=$E2E_OUT/$name.in
out=$E2E_OUT/$name
rm -rf "$in"
mkdir -p "$in/payload" "$in/trace"
in=$(cd "$in" && pwd)

# The sink and its capacity in bytes (the models' defaults for the ETF's
# RAM and the ETB10's depth; the ETR's buffer is the size set through sysfs).
# $sinks: every sink of the session (one, but for the local ETFs).
buf_size= qemu_args= fault= machine= sinks= aux_read=
case $sink in
letf|letf*k)
	kib=${sink#letf} kib=${kib%k} kib=${kib:-64}
	dev=tmc_etf0 capacity=$((kib << 10)) machine=",coresight-local-etf=on"
	sinks=$(printf 'tmc_etf%d ' $(seq 0 $((cpus - 1))))
	qemu_args="-global coresight-tmc.ram-size=$capacity" ;;
etf)      dev=tmc_etf0 capacity=65536 ;;
etf*k)    kib=${sink#etf} kib=${kib%k}
	dev=tmc_etf0 capacity=$((kib << 10))
	qemu_args="-global coresight-tmc.ram-size=$capacity" ;;
trbe)     # Armv9: an ETE and a TRBE per CPU; a perf session whose sink is
	# the driver's choice, each CPU's TRBE, into a 1 MiB AUX buffer.
	# The AUX buffers must be read to the end, as perf record reads them
	# (aux_read): a TRBE that fills with nothing read stops its event.
	dev=default capacity=1048576 src=ete aux_read=yes
	machine=",coresight-ete=on,coresight-trbe=on"
	sinks=$(printf 'trbe%d ' $(seq 0 $((cpus - 1))))
	export E2E_CPU=${E2E_CPU:-max} ;;
etr-flat) dev=tmc_etr0 buf_size=0x10000 capacity=65536 ;;
etr-flat-badrwp)
	# The model's bad-rwp fault injection: RWP reads 1 MiB past the buffer.
	dev=tmc_etr0 buf_size=0x10000 capacity=65536 fault=failed
	qemu_args="-global coresight-tmc.bad-rwp=on" ;;
etr-sg)   dev=tmc_etr0 buf_size=0x100000 capacity=1048576 ;;
etr-catu) dev=tmc_etr0 buf_size=0x100000 capacity=1048576 machine=",coresight-catu=on" ;;
etr-sg*m|etr-sg*k)
	# An N MiB buffer, wrapped: the panic save's cost (make e2e-hw-cost).
	# An N KiB one: mk/variants.mk's layout runs (the decode and its
	# oracles cost time in proportion to the trace, not the layout).
	n=${sink#etr-sg} bits=10
	[ "${n%m}" = "$n" ] || bits=20
	n=${n%[km]}
	dev=tmc_etr0 capacity=$((n << bits)) buf_size=$(printf '0x%x' $((n << bits))) ;;
etb10)    dev=etb0 capacity=16384 ;;
etb10-unaligned)
	dev=etb0 capacity=16384 qemu_args="-global coresight-etb10.stop-skew=2" ;;
etb10-*k) # An ETB10 of N KiB (the model's ram-depth is in 32-bit words).
	kib=${sink#etb10-} kib=${kib%k}
	dev=etb0 capacity=$((kib << 10))
	qemu_args="-global coresight-etb10.ram-depth=$((kib << 8))" ;;
*) echo "scenario.sh: unknown sink '$sink'" >&2; exit 2 ;;
esac
machine=$machine$cti
sinks=${sinks:-$dev}
# About 40 KiB of trace for sysrq, 100 KiB for softlockup and oops: the ETF
# and the flat ETR wrap in those.
# The administrator's opt-in (coresight_kdump.enable) and panic policy
# (crash_kexec_post_notifiers: the save runs before the crash kernel).
expect=exact setup= end_session= console_expect=() steps=5000 allow=()
cmdline="crash_kexec_post_notifiers coresight_kdump.enable=1"
case $crash_kind in
sysrq)
	crash="write /proc/sysrq-trigger c"
	console_expect=("sysrq: Trigger a crash") ;;
softlockup)
	steps=12000
	crash="write $lkdtm/DIRECT SOFTLOCKUP"
	cmdline="$cmdline softlockup_panic=1 watchdog_thresh=1"
	allow=("watchdog: BUG: soft lockup")
	# The panic's call trace: from the watchdog's hrtimer, in hard-IRQ
	# context.  Not watchdog_timer_fn itself: panic() is its last call,
	# and where nothing follows it the return address is the next
	# function's first instruction (watchdog_nmi_enable+0x0 on pages16k48).
	console_expect=("watchdog: BUG: soft lockup"
			"Kernel panic - not syncing: softlockup: hung tasks"
			"__hrtimer_run_queues") ;;
oops)
	steps=12000
	setup="write /proc/sys/kernel/panic_on_oops 1"
	crash="write $lkdtm/DIRECT EXCEPTION"
	console_expect=("Unable to handle kernel NULL pointer dereference"
			"Kernel panic - not syncing: Oops: Fatal exception") ;;
modoops)
	steps=12000
	case ${E2E_MODULES:-} in *coresight-kdump-testdev.ko*) ;;
	*) echo "scenario.sh: modoops needs E2E_MODULES=.../coresight-kdump-testdev.ko" >&2
	   exit 2 ;;
	esac
	setup="write /proc/sys/kernel/panic_on_oops 1"
	crash="write /sys/kernel/debug/coresight_kdump_testdev/crash oops"
	console_expect=("Unable to handle kernel NULL pointer dereference"
			"[coresight_kdump_testdev]"
			"Kernel panic - not syncing: Oops: Fatal exception") ;;
modirq)
	# panic() in the test device module's hrtimer callback (a hard-IRQ
	# timer, 1 ms after the write): a hard-IRQ panic with nothing
	# printed before it, where softlockup prints its report first.
	case ${E2E_MODULES:-} in *coresight-kdump-testdev.ko*) ;;
	*) echo "scenario.sh: modirq needs E2E_MODULES=.../coresight-kdump-testdev.ko" >&2
	   exit 2 ;;
	esac
	crash="write /sys/kernel/debug/coresight_kdump_testdev/crash irq"
	console_expect=("coresight-kdump-testdev: panic in hard-IRQ context") ;;
warnsysrq)
	# A WARN() first (the kernel goes on), then sysrq-c: the trace must
	# go on after the WARN too.
	setup="write $lkdtm/DIRECT WARNING"
	crash="write /proc/sysrq-trigger c"
	allow=("WARNING: CPU")
	console_expect=("WARNING: CPU" "sysrq: Trigger a crash") ;;
bug)
	steps=12000
	setup="write /proc/sys/kernel/panic_on_oops 1"
	crash="write $lkdtm/DIRECT BUG"
	allow=("Internal error: Oops - BUG" "Oops - BUG: Fatal exception")
	console_expect=("kernel BUG at"
			"Kernel panic - not syncing: Oops - BUG: Fatal exception") ;;
locked)
	crash="write /sys/kernel/debug/coresight_kdump_locktest/crash locked"
	# The holder spins with interrupts off, so it cannot take the stop
	# IPI and arm64 kdump warns, rightly, that a CPU may be stale.
	allow=("at arch/arm64/kernel/machine_kexec.c")
	console_expect=("holds the kdump registry lock" "while CPU"
			"registry lock busy: walked without it") ;;
disabled)
	expect=none end_session=yes
	crash="write /proc/sysrq-trigger c"
	console_expect=("sysrq: Trigger a crash") ;;
*) echo "scenario.sh: unknown crash '$crash_kind'" >&2; exit 2 ;;
esac

# A buffer of the cost runs wraps: about 8.5 bytes of trace per step.
case $sink in etr-sg*m) steps=$((capacity / 6)) ;; esac

t0=$(date +%s.%N)
if [ "$source" = synth ]; then
	# The sysfs default configuration of the 6.1 driver traces neither context
	# IDs nor the return stack: the streams are encoded to match it.
	"$ETM4ENC" --elf "$VMLINUX" --cpus "$cpus" --no-ctxid --no-retstack \
		--steps "$steps" --no-snapshot -o "$in/synth" >/dev/null
	map=$(for c in $(seq 0 $((cpus - 1))); do printf '%x=etm%d,' $((0x10 + c)) "$c"; done)
	python3 "$here/deformat.py" "$in/synth/cstrace.bin" "$in/trace" --map "$map" >/dev/null
	# More trace than the sink holds: it wraps (the ETMs emit their streams at
	# enable; the formatter's frames take what etm4enc's did, give or take the
	# last frame of each ID change).
	if [ "$expect" = exact ] && [ "$sinks" = "$dev" ] &&
	   [ "$(stat -c %s "$in/synth/cstrace.bin")" -gt "$capacity" ]; then
		expect=wrapped
	fi
	trace_opt=",coresight-trace=$in/trace" streams=$in/trace
else
	# The panicking CPU stops recording at machine_kexec, after the save,
	# before the capture kernel; the others stop executing at the crash-stop
	# IPI (PSCI CPU_OFF).  With KASLR, machine_kexec runs at its link
	# address plus a multiple of 2 MiB (arm64's MIN_KIMG_ALIGN), known only
	# after the boot: the plugin takes the block there whose first four
	# instructions are vmlinux's.
	freeze=$(nm "$VMLINUX" | awk '$3 == "machine_kexec" { print "0x" $1 }')
	[ -n "$freeze" ] || { echo "scenario.sh: no machine_kexec in $VMLINUX" >&2; exit 2; }
	code=$(aarch64-linux-gnu-objdump -d --start-address="$freeze" \
		--stop-address="$(printf '0x%x' $((freeze + 16)))" "$VMLINUX" |
		awk -F '\t' '/^ *[0-9a-f]+:\t/ { sub(/ +$/, "", $2); printf ",code=%s", $2 }')
	[ "$(echo "$code" | grep -o code= | wc -l)" = 4 ] ||
		{ echo "scenario.sh: machine_kexec's code not found in $VMLINUX" >&2; exit 2; }
	[ -n "${E2E_HW_QUICK:-}" ] ||
		qemu_args="$qemu_args -plugin ${EXEC_RING:?},out=$out/models,freeze=$freeze$code,slide=0x200000"
	trace_opt= streams=$out/models
fi
# A sink whose save must fail: its record FAILED, the vmcore there anyway.
[ -z "$fault" ] || expect=$fault
# The wrap-mode run is no session: nothing is saved.
[ "$session" != wrap ] || expect=none sinks=$dev aux_read=

{
	echo "# e2e-hw $name: a $session session on $dev, $cpus ETMs, crash: $crash"
	# Modules first, before the session traces (run-qemu.sh puts them in
	# /modules).
	for m in ${E2E_MODULES:-}; do
		echo "insmod /modules/$(basename "$m")"
	done
	echo "ls $devs"
	# The AUX buffers are read only in the yield turns: the capture
	# kernel's loading (much trace) comes before the session.
	[ -z "$aux_read" ] || echo "kexec"
	[ -z "$buf_size" ] || echo "write $devs/$dev/buffer_size $buf_size"
	if [ "$session" = wrap ]; then
		# No session: CPU 1's ETE into its TRBE in wrap mode, by the
		# test-only coresight-trbe-wraptest (kernel patch 0093).
		echo "pin 1"
		echo "write /sys/kernel/debug/coresight_trbe_wraptest/run wrap"
	elif [ "$session" = sysfs ]; then
		for s in $sinks; do
			echo "write $devs/$s/enable_sink 1"
		done
		for c in $(seq 0 $((cpus - 1))); do
			if [ -n "${etm_mode:-}" ]; then
				echo "write $devs/$src$c/mode ${etm_mode#0x}"
				echo "write $devs/$src$c/addr_idx 0"
				echo "write $devs/$src$c/addr_range $ktext"
			fi
			[ -z "${syncfreq:-}" ] || echo "write $devs/$src$c/syncfreq $syncfreq"
			echo "write $devs/$src$c/enable_source 1"
		done
	else
		echo "perf $dev $session"
		[ "$session" != thread ] || echo "yield 100"
		# The yield turns mark the AUX buffers read, until the crash.
		[ -z "$aux_read" ] || echo "yield 200"
	fi
	[ -n "$aux_read" ] || echo "sleep 200"
	if [ -n "$end_session" ]; then
		for c in $(seq 0 $((cpus - 1))); do
			echo "write $devs/$src$c/enable_source 0"
		done
		for s in $sinks; do
			echo "write $devs/$s/enable_sink 0"
		done
	fi
	[ -n "$aux_read" ] || echo "kexec"
	[ -z "$setup" ] || echo "$setup"
	[ -z "$warm" ] || echo "efault /proc/version"
	echo "log crashing: $crash"
	echo "$crash"
	echo "sleep 5000"
} >"$in/script"
e2e_prep=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")

# QEMU's own log of the ETMs' register accesses: the oracle of the records;
# and of the guest's accesses the models refused (-d guest_errors).
# Real execution: one such guest at a time where E2E_HW_EXEC_LOCK names a
# lock file (make check's), the QEMU run only.  Two at once on the two
# cores of a CI machine, each with six vCPUs traced and recorded, hung
# side by side twice on 2026-12-07: vCPUs spinning on a lock whose holder
# was always in an interrupt handler (tests/e2e-hw/README.md).
[ "$source" != exec ] || export E2E_QEMU_LOCK=${E2E_HW_EXEC_LOCK:-}
E2E_MACHINE=",coresight=on$machine$trace_opt,coresight-log=$out/models" \
E2E_QEMU_ARGS="-trace coresight_etm4_read -trace coresight_etm4_write -trace coresight_trbe_enable -trace coresight_trbe_event -trace coresight_catu_write -d guest_errors -D $out/models/qemu.log $qemu_args" \
E2E_LOG_DIR=$out/models \
	"$here/../e2e/run-qemu.sh" "$out" "$in/script" "$in/payload" "$cmdline"
echo "prepare $e2e_prep" >>"$out/times"
[ -z "${E2E_HW_QUICK:-}" ] || exit 0

. "$here/../e2e/lib.sh"
status=0
fail() { echo "FAIL  $*"; status=1; }

t0=$(date +%s.%N)
rc=0
"$CSDUMP" extract "$out/vmcore" -o "$out/extract" || rc=$?
if [ "$expect" = none ] || [ "$expect" = failed ]; then
	[ "$rc" = 4 ] || fail "csdump extract exit $rc, expected 4 (no trace)"
else
	[ "$rc" = 0 ] || fail "csdump extract exit $rc"
fi
e2e_elapsed "$t0" extract "$out/times"

shared_etf=tmc_etf0
[ "$sinks" = "$dev" ] || shared_etf="$sinks"
args=(--console "$out/console.log" --vmcore "$out/vmcore" --vmlinux "$VMLINUX"
      --streams "$streams"
      --devices "$(printf "${src}%d " $(seq 0 $((cpus - 1)))) funnel0 replicator0 $shared_etf tmc_etr0 etb0")
[ "$sinks" = "$dev" ] || args+=(--own-sinks)
[ "$src" = etm ] || args+=(--tracer ETE)
case $machine in *coresight-catu=on*) args+=(--catu) ;; esac
for s in $sinks; do
	# A TRBE writes into the perf AUX buffer: no capture log, its record is
	# held to what its ETE emitted (check_hw.py check_trbe).
	case $s in trbe*) args+=(--sink "$s" --expect trbe); continue ;; esac
	held=$("$here/models.py" held "$out/models" "$s" 2>/dev/null || true)
	# Real execution, or a sink per CPU: how much trace each sink took is
	# known only now.
	e=$expect
	if { [ "$source" = exec ] || [ "$sinks" != "$dev" ]; } && [ "$e" = exact ] &&
	   [ -n "$held" ] && [ "$("$here/models.py" full "$out/models" "$s")" = 1 ]; then
		e=wrapped
	fi
	if [ "$e" != none ] && [ -z "$held" ]; then
		fail "the emulated $s never stopped capture (models/$s.log)"
		held=/dev/null
	fi
	args+=(--sink "$s" --expect "$e")
	[ -z "$held" ] || args+=(--held "$held"
		--held-rwp "$("$here/models.py" rwp "$out/models" "$s")")
done
"$here/models.py" etm-regs "$out/models/qemu.log" >"$out/etm-regs.txt" 2>/dev/null &&
	args+=(--etm-regs "$out/etm-regs.txt" --qemu-log "$out/models/qemu.log")
[ "$expect" = none ] || [ "$expect" = failed ] || args+=(--extract "$out/extract")
[ "$session" != thread ] ||
	args+=(--etm-cpus saved --quiet-between "thread session enabled" "yield:")
for e in "${console_expect[@]}"; do
	args+=(--console-expect "$e")
done
for e in "${allow[@]}"; do
	args+=(--allow "$e")
done
# Debian's python3, for its drgn (not a python3 earlier on PATH).
/usr/bin/python3 "$here/check_hw.py" "${args[@]}" || status=1
# Wrap mode: what the TRBE said and held, against what the ETE emitted.
[ "$session" != wrap ] || "$here/check_trbe_wrap.py" "$out/console.log" "$out/models" ||
	status=1

# The decode: csdump's own, with the guest's symbols, against OpenCSD's
# trc_pkt_lister on the snapshot csdump writes of the same vmcore.
if [ "$expect" != none ] && [ "$expect" != failed ] && [ -z "${E2E_HW_NO_DECODE:-}" ]; then
	t0=$(date +%s.%N)
	"$here/decode_check.sh" "$CSDUMP" "$out/vmcore" "$VMLINUX" "$out" || status=1
	e2e_elapsed "$t0" decode "$out/times"
	# The module code an extract keeps (with --vmlinux) decodes as the
	# vmcore's does.
	if [ -n "${E2E_MODULES:-}" ]; then
		rm -rf "$out/extract-k"
		if "$CSDUMP" extract "$out/vmcore" -o "$out/extract-k" --vmlinux "$VMLINUX" \
			>/dev/null 2>&1 &&
		   "$CSDUMP" decode "$out/extract-k" --vmlinux "$VMLINUX" --format jsonl \
			--last 0 >"$out/decode-extract.jsonl" 2>/dev/null &&
		   cmp -s "$out/decode-extract.jsonl" "$out/decode.jsonl"; then
			echo "ok    decode: the extract (--vmlinux) decodes as the vmcore, module code included"
		else
			fail "decode: the extract (--vmlinux) does not decode as the vmcore"
		fi
	fi
fi
# KASLR: where the image ran, in the kernel's own words at panic
# ("Kernel Offset: 0x... from ..."; no such line without KASLR, or with an
# offset of 0), which VMCOREINFO's KERNELOFFSET (the ELF note's text, read
# here without csdump) must say too.
kaslr=$(grep -a -o -m 1 'Kernel Offset: 0x[0-9a-f]*' "$out/console.log" | sed 's/.* //' || true)
note=$(grep -a -o -m 1 'KERNELOFFSET=[0-9a-f]*' "$out/vmcore" | sed 's/.*=/0x/' || true)
if [ -n "$kaslr" ] || [ "${E2E_KASLR:-}" = 1 ]; then
	if [ -z "$kaslr" ] || [ "$((kaslr))" = 0 ] || [ "$((note))" != "$((kaslr))" ]; then
		fail "KASLR: console offset '${kaslr:-none}', VMCOREINFO KERNELOFFSET '${note:-none}'"
	else
		echo "ok    KASLR: the kernel ran $kaslr above its link address (console and VMCOREINFO)"
	fi
	echo "$kaslr" >"$out/kaslr-offset"
fi
kaslr=${kaslr:-0}
# The kernel's layout as it ran (E2E_HW_LAYOUT, e.g. "PAGESIZE=65536
# VA_BITS=52 TCR_EL1_T1SZ=0xc": 64K pages, a 52-bit kernel on a CPU with
# FEAT_LVA), each a line of VMCOREINFO (NUMBER(KEY)=VALUE but for PAGESIZE),
# read here without csdump.
for kv in ${E2E_HW_LAYOUT:-}; do
	k=${kv%%=*}
	[ "$k" = PAGESIZE ] || kv="NUMBER($k)=${kv#*=}"
	if grep -a -q -x -F -e "$kv" "$out/vmcore"; then
		echo "ok    layout: VMCOREINFO says $kv"
	else
		fail "layout: VMCOREINFO lacks $kv (has: $(grep -a -o -m 1 "^${kv%%=*}=[0-9a-fx]*" "$out/vmcore" || echo nothing))"
	fi
done

# Real execution: the decode against QEMU's record of what each vCPU ran.
if [ "$source" = exec ] && [ "$expect" != none ] && [ "$expect" != failed ] &&
   [ -z "${E2E_HW_NO_DECODE:-}" ]; then
	# With modules loaded csdump decodes their code from the vmcore too.
	"$here/oracle/check_exec.py" "$out/decode.jsonl" "$out/models" \
		${E2E_MODULES:+--modules} \
		--vmlinux "$VMLINUX" --kaslr-offset "$kaslr" || status=1
	# Each synchronization resumes a decoder after the last P0 element.
	"$here/oracle/check_sync.py" "$out/snapshot" "$out/models" \
		--vmlinux "$VMLINUX" --kaslr-offset "$kaslr" || status=1
	# Stock perf on csdump's perf.data, with the kernel text as it ran:
	# its branches are the record's.
	if "$CSDUMP" perf "$out/vmcore" -o "$out/perf-img.data" --vmlinux "$VMLINUX" \
		>/dev/null 2>&1 &&
	   perf script -i "$out/perf-img.data" -k "$out/perf-img.data.elf" -F cpu,ip,addr \
		>"$out/perf-script.txt" 2>"$out/perf-script.err"; then
		"$here/oracle/check_perf.py" "$out/perf-script.txt" "$out/models" \
			${E2E_MODULES:+--modules} \
			--vmlinux "$VMLINUX" --kaslr-offset "$kaslr" || status=1
	else
		fail "csdump perf or perf script on $out/perf-img.data (see perf-script.err)"
	fi
	# An include range of the kernel's text: nothing outside it is traced.
	# Where the trace left the range it shows a trace-on gap; a buffer can
	# hold none (a 64 KiB ETF per CPU: two runs of four), and then
	# check_exec.py above held the whole decode to the record, which had
	# no user space in that stretch either.
	if [ -n "${etm_mode:-}" ]; then
		user=$(grep -c '"type":"no_image"' "$out/decode.jsonl" || true)
		gaps=$(grep -c '"type":"trace_on"' "$out/decode.jsonl" || true)
		if [ "$user" != 0 ]; then
			fail "decode: include range $ktext: $user address(es) outside it, $gaps trace-on gap(s)"
		else
			echo "ok    decode: include range $ktext: nothing outside it, $gaps trace-on gap(s) (user space filtered out)"
		fi
	fi
	# What ran is code of the image: no range may run past the end of its
	# function into padding, or to the end of the image.
	runaway=$(grep -c '"type":"runaway"' "$out/decode.jsonl" || true)
	if [ "$runaway" != 0 ]; then
		fail "decode: $runaway range(s) run past their function or to the end of the image"
		grep -m 3 '"type":"runaway"' "$out/decode.jsonl"
	else
		echo "ok    decode: no range runs past its function or to the end of the image"
	fi
fi
# What no later check reads goes once every check here passed (E2E_KEEP=1
# keeps it): the initramfs, the listings and normal forms the decode was
# compared with, perf's files; about 350 MB of a 1 MiB real-execution run
# (a CI machine ran out of disk space with them, 2026-12-07).  The vmcore,
# the models' log and record, the snapshot and the decode stay for the
# checks that read this run (mk/e2e-hw.mk, mk/variants.mk).
if [ "$status" = 0 ] && [ -z "${E2E_KEEP:-}" ]; then
	rm -rf "$out/stage" "$out/extract-k" "$out/decode.oracle" "$out/decode.oracle.ppl" \
		"$out/decode.ours" "$out/decode.diff" "$out/decode-extract.jsonl" \
		"$out/perf-img.data" "$out/perf-img.data.elf" "$out/perf-script.txt"
fi
cat "$out/times"
exit $status
