#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# crashtime0.sh VMCORE VMLINUX OUTDIR: capture.sh must fail on a vmcore of a
# guest without a clock.
#
# A guest without an RTC that panics in its first second writes CRASHTIME=0
# into VMCOREINFO, and makedumpfile refuses the vmcore ("Invalid data ...
# CRASHTIME=0"): the e2e guests once did (issue 19).  This copies VMCORE
# (sparse) with the digits of its CRASHTIME value replaced by zeros, the note
# otherwise untouched, and runs capture.sh on the copy with the kdump-tools
# default format only: it must exit 1, its CRASHTIME check must fail and
# makedumpfile must refuse the copy.  So the matrix on the real vmcores can
# fail on a clockless guest.  Environment: capture.sh's.
set -euo pipefail

vmcore=$1 vmlinux=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -e "$vmcore" ]; then
	echo "skipped: no $vmcore"
	exit 77
fi
rm -rf "$out"
mkdir -p "$out"
copy=$out/vmcore
cp --sparse=always "$vmcore" "$copy"
python3 - "$copy" <<'PY'
import re, struct, sys
path = sys.argv[1]
with open(path, "r+b") as f:
    hdr = f.read(64)
    phoff, = struct.unpack_from("<Q", hdr, 32)
    phentsize, phnum = struct.unpack_from("<HH", hdr, 54)
    for i in range(phnum):
        f.seek(phoff + i * phentsize)
        p_type, _, off, _, _, filesz = struct.unpack("<IIQQQQ", f.read(40))
        if p_type != 4:
            continue
        f.seek(off)
        notes = f.read(filesz)
        m = re.search(rb"(?:^|\n)CRASHTIME=(\d+)\n", notes)
        if m:
            f.seek(off + m.start(1))
            f.write(b"0" * len(m.group(1)))
            print(f"CRASHTIME={m.group(1).decode()} -> {'0' * len(m.group(1))}")
            sys.exit(0)
print(f"{path}: no CRASHTIME in VMCOREINFO")
sys.exit(1)
PY

rc=0
CAPTURE_FORMATS=c31 "$here/capture.sh" "$copy" "$vmlinux" "$out/capture" >"$out/capture.log" 2>&1 || rc=$?
sed 's/^/    /' "$out/capture.log"
status=0
check() {
	if eval "$2"; then echo "ok    $1"; else echo "FAIL  $1"; status=1; fi
}
check "capture.sh exits 1 (exit $rc)" '[ "$rc" = 1 ]'
check "its CRASHTIME check fails" 'grep -q "^FAIL  VMCOREINFO of .*CRASHTIME=0" "$out/capture.log"'
check "makedumpfile -c -d 31 refuses the vmcore: $(grep -m1 -o 'Invalid data.*' "$out/capture/c31.log" || true)" \
	'grep -q "CRASHTIME" "$out/capture/c31.log" && ! [ -s "$out/capture/c31.dump" ]'
rm -f "$copy"
exit $status
