#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh: the software stand-in's demo (check-e2e-demo): csdump's main job
# on a machine without trace hardware.  `make demo` is tests/e2e-hw/demo.sh,
# on the emulated hardware's real-execution trace.
#
# A QEMU arm64 guest runs the kernel with the coresight-kdump series.  Its
# test CoreSight sink receives an ETMv4 trace that etm4enc synthesizes from
# the guest's own vmlinux: CPU 0 along the real sysrq panic path, up to the
# registry's panic notifier, CPU 1 at random.  The guest crashes with
# sysrq-c on CPU 0, kdump's capture kernel saves the vmcore, and csdump shows
# what each CPU executed last, with the guest's symbols.  Needs nothing from
# ../shared.
#
# demo.sh --check also checks the result (the e2e-demo test, which runs
# without ../shared): the trace and the metadata csdump extracts are the ones
# synthesized, byte for byte, and csdump decode of CPU 0 runs through every
# function of the panic path, in order, up to the registry's notifier.
#
# Environment: run-qemu.sh's, plus E2E_OUT, CSDUMP, ETM4ENC (the encoder)
# and VMLINUX (the guest's vmlinux).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
: "${E2E_OUT:?}" "${CSDUMP:?}" "${ETM4ENC:?}" "${VMLINUX:?}"
. "$here/lib.sh"

out=$E2E_OUT/demo
in=$E2E_OUT/demo.in
rm -rf "$in"
mkdir -p "$in/payload"
in=$(cd "$in" && pwd)

# The panicking CPU's path, as crash(8) shows it for sysrq-c, continued into
# the panic notifier that saves the trace.
chain=el0t_64_sync,el0t_64_sync_handler,el0_svc,do_el0_svc,invoke_syscall
chain=$chain,__arm64_sys_write,ksys_write,vfs_write,proc_reg_write
chain=$chain,write_sysrq_trigger,__handle_sysrq,sysrq_handle_crash,panic
chain=$chain,atomic_notifier_call_chain,coresight_kdump_panic

t0=$(date +%s.%N)
echo "== synthesizing an ETMv4 trace of $VMLINUX (CPU 0: sysrq-c -> panic; CPU 1: elsewhere)"
"$ETM4ENC" --elf "$VMLINUX" --path-symbols "$chain" --cpus 2 -o "$in/synth"
python3 "$here/snapshot_regs.py" "$in/synth/snapshot" "$in/payload"
ln -s "$in/synth/cstrace.bin" "$in/payload/cstrace.bin"
size=$(stat -c %s "$in/synth/cstrace.bin")
# A RAM larger than the trace: it does not wrap, the trace comes back whole.
ram=1024
while [ "$ram" -le "$size" ]; do ram=$((ram * 2)); done
crash="write /proc/sysrq-trigger c" pin=0
{
	echo "# make demo: $size bytes of synthesized trace into a $ram-byte sink"
	e2e_script "$in/payload"
} >"$in/script"
synth_t=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")

echo "== crashing the guest (console: $out/console.log)"
# The administrator's opt-in and the panic policy the save needs.
"$here/run-qemu.sh" "$out" "$in/script" "$in/payload" \
	"crash_kexec_post_notifiers coresight_kdump.enable=1" >/dev/null
echo "synthesize $synth_t" >>"$out/times"

t0=$(date +%s.%N)
echo "== csdump info $out/vmcore"
"$CSDUMP" info "$out/vmcore"
echo "== csdump extract $out/vmcore -o $out/extract"
"$CSDUMP" extract "$out/vmcore" -o "$out/extract"
ls -l "$out/extract"
e2e_elapsed "$t0" extract "$out/times"

t0=$(date +%s.%N)
echo "== csdump decode: the last moments of each CPU"
"$CSDUMP" decode "$out/vmcore" --vmlinux "$VMLINUX" --last 12
e2e_elapsed "$t0" decode "$out/times"

echo "== seconds per stage"
cat "$out/times"

[ "${1:-}" = --check ] || exit 0
echo "== checks"
"$CSDUMP" decode "$out/vmcore" --vmlinux "$VMLINUX" --cpu 0 --last 0 \
	--format jsonl >"$out/decode-cpu0.jsonl"
python3 - "$in/synth" "$out/extract" "$out/decode-cpu0.jsonl" "$chain" \
	"$out/console.log" <<'PY'
import json, re, sys
synth, extract, decode, chain, console = sys.argv[1:]
bad = 0
def check(ok, what):
    global bad
    print(("ok    " if ok else "FAIL  ") + what)
    bad += not ok
# The real panic ran on the CPU whose synthesized trace runs the panic path.
text = open(console, "rb").read().decode("utf-8", "replace")
m = re.search(r"sysrq: Trigger a crash.*?\n.*?CPU: (\d+) PID: \d+ Comm: init", text,
              re.S)
check(m is not None and m.group(1) == "0",
      f"the guest panicked on CPU {m.group(1) if m else '?'} (want 0)")
def read(path):
    with open(path, "rb") as f:
        return f.read()
check(read(f"{extract}/cstrace.bin") == read(f"{synth}/cstrace.bin"),
      "cstrace.bin from the vmcore is the synthesized trace")
blocks = lambda b: sorted(b[i:i + 80] for i in range(0, len(b), 80))
check(blocks(read(f"{extract}/metadata.bin")) ==
      blocks(read(f"{synth}/metadata.bin")),
      "metadata.bin from the vmcore holds the synthesized ETMv4 blocks")
syms = [json.loads(l).get("sym", "") for l in open(decode)]
pos = 0
for fn in chain.split(","):
    hit = next((i for i in range(pos, len(syms))
                if syms[i].split("+")[0].split(".")[0] == fn), None)
    check(hit is not None, f"CPU 0 runs {fn}" +
          ("" if hit is None else f" (range {hit} of {len(syms)})"))
    pos = hit if hit is not None else pos
sys.exit(1 if bad else 0)
PY
