#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# capture.sh VMCORE VMLINUX OUTDIR [REF_EXTRACT_DIR]: the capture step as
# users run it, on one ELF vmcore.
#
# Debian's kdump-tools does not keep /proc/vmcore as it is: in the capture
# kernel it runs `makedumpfile $MAKEDUMP_ARGS /proc/vmcore DUMP` (default
# "-c -d 31").  This script runs Debian's arm64 makedumpfile (1.7.2, under
# qemu-user, from scripts/makedumpfile-arm64-env.sh) on VMCORE the same way,
# once per format, and checks that csdump gets the same out of each dump as
# out of VMCORE itself:
#   - `csdump extract`: the same exit code and byte-identical files (the two
#     lines of summary.txt that name the input file left out);
#   - `csdump decode --vmlinux VMLINUX --last 0`, as JSON lines and as text:
#     the same exit code and identical output.
# Before that, VMCORE's VMCOREINFO must carry a non-zero CRASHTIME (a guest
# without a clock that panics in its first second writes 0, and makedumpfile
# refuses such a vmcore).  With REF_EXTRACT_DIR (a `csdump extract` of VMCORE
# already checked elsewhere, e.g. by scenario.sh), VMCORE's own extract must
# equal it too.
#
# Formats (CAPTURE_FORMATS, default all four; NAME=makedumpfile options):
#   c31  -c -d 31   kdump-tools' default: zlib-compressed kdump, free, cache,
#                   user and zero pages excluded
#   l31  -l -d 31   the same, LZO
#   E31  -E -d 31   ELF, the same pages excluded
#   l0   -l -d 0    every page (the dump level that excludes nothing)
#
# Reusable by any e2e run (tests/e2e-hw/ too): it needs nothing but its
# arguments and
#   CSDUMP             the csdump binary (required)
#   MAKEDUMPFILE_ROOT  the arm64 root holding usr/bin/makedumpfile (default:
#                      built or reused by scripts/makedumpfile-arm64-env.sh
#                      in build/makedumpfile-arm64 of this tree)
#   QEMU_USER          default qemu-aarch64-static
#   CAPTURE_FORMATS    e.g. "c31 E31"
#   CAPTURE_JOBS       makedumpfile runs at once (default 2)
# Writes OUTDIR/{NAME.dump,NAME.log} per format, OUTDIR/{vmcore,NAME}/
# {extract/,extract.rc,decode.jsonl,decode.txt,decode.rc,decode.err} and
# OUTDIR/times (seconds per makedumpfile run and per csdump pass).
# Exit 0 when every check passed, 1 otherwise, 77 (skipped) when VMCORE
# does not exist.
set -euo pipefail

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	echo "usage: $0 VMCORE VMLINUX OUTDIR [REF_EXTRACT_DIR]" >&2
	exit 2
fi
vmcore=$1 vmlinux=$2 out=$3 ref=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
: "${CSDUMP:?CSDUMP: the csdump binary}"
qemu=${QEMU_USER:-qemu-aarch64-static}
formats=${CAPTURE_FORMATS:-c31 l31 E31 l0}
jobs=${CAPTURE_JOBS:-2}
if [ ! -e "$vmcore" ]; then
	# The run that writes it was skipped (scenario.sh without the capture).
	echo "skipped: no $vmcore"
	exit 77
fi
for f in "$vmcore" "$vmlinux" "$CSDUMP"; do
	[ -f "$f" ] || { echo "capture.sh: $f: no such file" >&2; exit 2; }
done
root=${MAKEDUMPFILE_ROOT:-$("$repo/scripts/makedumpfile-arm64-env.sh" "$repo/build/makedumpfile-arm64")}
[ -x "$root/usr/bin/makedumpfile" ] || {
	echo "capture.sh: no usr/bin/makedumpfile in $root" >&2; exit 2; }

rm -rf "$out"
mkdir -p "$out"
times=$out/times
: >"$times"
status=0
ok() { echo "ok    $*"; }
fail() { echo "FAIL  $*"; status=1; }
# elapsed START NAME [FILE]: append "NAME SECONDS-SINCE-START" to FILE (times).
elapsed() { printf '%s %.1f\n' "$2" "$(echo "$(date +%s.%N) - $1" | bc)" >>"${3:-$times}"; }

opts_of() {
	case $1 in
	c31) echo "-c -d 31" ;;
	l31) echo "-l -d 31" ;;
	E31) echo "-E -d 31" ;;
	l0)  echo "-l -d 0" ;;
	*) echo "capture.sh: unknown format '$1' (c31 l31 E31 l0)" >&2; return 1 ;;
	esac
}
for f in $formats; do opts_of "$f" >/dev/null || exit 2; done

# --- VMCOREINFO: the crash time makedumpfile insists on ----------------------
if crashtime=$(python3 - "$here" "$vmcore" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from vmcore_registry import Vmcore, VmcoreError
try:
    info = Vmcore(sys.argv[2]).vmcoreinfo()
except VmcoreError as e:
    print(e)
    sys.exit(1)
t = info.get("CRASHTIME")
print("no CRASHTIME key" if t is None else t)
sys.exit(0 if t is not None and t.isdigit() and int(t) > 0 else 1)
PY
); then
	ok "VMCOREINFO: CRASHTIME=$crashtime ($(date -u -d "@$crashtime" '+%F %T UTC'))"
else
	fail "VMCOREINFO of $vmcore: CRASHTIME=$crashtime (the guest has no clock: makedumpfile refuses it)"
fi

# --- makedumpfile, as kdump-tools runs it ----------------------------------
# CAPTURE_JOBS runs at a time; each writes NAME.dump, NAME.log, NAME.rc and
# its time.
run_makedumpfile() {
	local name=$1 t0 rc=0
	t0=$(date +%s.%N)
	# shellcheck disable=SC2046
	timeout 600 "$qemu" -L "$root" "$root/usr/bin/makedumpfile" $(opts_of "$name") \
		"$vmcore" "$out/$name.dump" >"$out/$name.log" 2>&1 || rc=$?
	echo "$rc" >"$out/$name.rc"
	elapsed "$t0" "makedumpfile-$name" "$out/$name.time"
}
t0=$(date +%s.%N)
running=0
for name in $formats; do
	run_makedumpfile "$name" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
for name in $formats; do cat "$out/$name.time" >>"$times"; rm -f "$out/$name.time"; done
elapsed "$t0" "makedumpfile-all(jobs=$jobs)"

# --- csdump on VMCORE and on each dump -------------------------------------
# summary.txt names its input ("# csdump extract of X", "source=X"): those
# two lines are the only difference allowed, so they are left out.
csdump_pass() {
	local input=$1 dir=$2 rc
	mkdir -p "$dir"
	rc=0; "$CSDUMP" extract "$input" -o "$dir/extract" >"$dir/extract.out" 2>&1 || rc=$?
	echo "$rc" >"$dir/extract.rc"
	if [ -f "$dir/extract/summary.txt" ]; then
		sed -i -e '/^# csdump extract of /d' -e '/^source=/d' "$dir/extract/summary.txt"
	fi
	rc=0; "$CSDUMP" decode "$input" --vmlinux "$vmlinux" --format jsonl --last 0 \
		>"$dir/decode.jsonl" 2>"$dir/decode.err" || rc=$?
	echo "$rc" >"$dir/decode.rc"
	rc=0; "$CSDUMP" decode "$input" --vmlinux "$vmlinux" --last 0 \
		>"$dir/decode.txt" 2>>"$dir/decode.err" || rc=$?
	echo "$rc" >>"$dir/decode.rc"
}

# Ranges and instructions per CPU of a decode.jsonl, for the messages.
counts() {
	python3 - "$1" <<'PY'
import json, sys
per = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("type") == "range":
        c = per.setdefault(o.get("cpu"), [0, 0])
        c[0] += 1
        c[1] += o.get("n_instr", 0)
print("; ".join(f"CPU {k}: {v[0]} ranges, {v[1]} instructions"
                for k, v in sorted(per.items(), key=lambda kv: str(kv[0]))) or "no ranges")
PY
}

t0=$(date +%s.%N)
csdump_pass "$vmcore" "$out/vmcore"
elapsed "$t0" csdump-vmcore
refrc=$(cat "$out/vmcore/extract.rc")
if [ -n "$ref" ]; then
	tmp=$out/ref-extract
	cp -r "$ref" "$tmp"
	[ ! -f "$tmp/summary.txt" ] ||
		sed -i -e '/^# csdump extract of /d' -e '/^source=/d' "$tmp/summary.txt"
	if diff -r "$tmp" "$out/vmcore/extract" >/dev/null; then
		ok "csdump extract of the vmcore equals $ref"
	else
		fail "csdump extract of the vmcore differs from $ref:"
		diff -r "$tmp" "$out/vmcore/extract" | head -n 5 || true
	fi
fi
if [ "$refrc" = 0 ] && [ -s "$out/vmcore/decode.jsonl" ]; then
	refcounts=$(counts "$out/vmcore/decode.jsonl")
	echo "      vmcore: extract $(ls "$out/vmcore/extract" | xargs); decode $refcounts"
else
	refcounts=
	echo "      vmcore: extract exit $refrc, decode exit $(xargs <"$out/vmcore/decode.rc")"
fi

for name in $formats; do
	opts=$(opts_of "$name")
	rc=$(cat "$out/$name.rc")
	if [ "$rc" != 0 ] || [ ! -s "$out/$name.dump" ]; then
		fail "makedumpfile $opts: exit $rc:"
		tail -n 3 "$out/$name.log"
		continue
	fi
	size=$(du -k --apparent-size "$out/$name.dump" | cut -f1)
	t0=$(date +%s.%N)
	csdump_pass "$out/$name.dump" "$out/$name"
	elapsed "$t0" "csdump-$name"
	what="makedumpfile $opts (${size} KiB)"
	if [ "$(cat "$out/$name/extract.rc")" != "$refrc" ]; then
		fail "$what: csdump extract exit $(cat "$out/$name/extract.rc"), on the vmcore $refrc"
	elif ! diff -r "$out/vmcore/extract" "$out/$name/extract" >/dev/null; then
		fail "$what: csdump extract differs from the vmcore's:"
		diff -r "$out/vmcore/extract" "$out/$name/extract" | head -n 5 || true
	else
		ok "$what: csdump extract byte-identical to the vmcore's"
	fi
	if ! cmp -s "$out/vmcore/decode.rc" "$out/$name/decode.rc"; then
		fail "$what: csdump decode exits $(xargs <"$out/$name/decode.rc"), on the vmcore $(xargs <"$out/vmcore/decode.rc")"
	elif cmp -s "$out/vmcore/decode.jsonl" "$out/$name/decode.jsonl" &&
	     cmp -s "$out/vmcore/decode.txt" "$out/$name/decode.txt"; then
		ok "$what: csdump decode identical to the vmcore's (jsonl and text)"
	else
		fail "$what: csdump decode differs from the vmcore's"
		if [ -n "$refcounts" ]; then
			echo "      vmcore: $refcounts"
			echo "      $name: $(counts "$out/$name/decode.jsonl")"
		fi
		diff "$out/vmcore/decode.jsonl" "$out/$name/decode.jsonl" | head -n 4 || true
	fi
done

echo "== seconds"
cat "$times"
exit $status
