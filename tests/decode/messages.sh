#!/usr/bin/env bash
# messages.sh CSDUMP PROBE SNAPSHOT_DIR WORK: the messages of issue 17,
# defect 7, each one clear line naming what and where.
set -u
csdump=$1 probe=$2 snap=$3 work=$4
here=$(dirname "$0")
[ -d "$snap" ] || { echo "skip: $snap is absent"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
fail=0
# check NAME WANT_RC REGEX FILE: the command's exit code and a line of FILE.
check() {
	local name=$1 want=$2 re=$3 file=$4
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $name: exit $rc, want $want"; fail=1
	fi
	if ! grep -Eq -- "$re" "$file"; then
		echo "FAIL: $name: no line matching /$re/ in:"; sed 's/^/    /' "$file" | head -5
		fail=1
	else
		echo "ok: $name: $(grep -E -m1 -- "$re" "$file")"
	fi
}
# refuse NAME REGEX FILE: no line of FILE matches.
refuse() {
	if grep -Eq -- "$2" "$3"; then
		echo "FAIL: $1: $(grep -E -m1 -- "$2" "$3")"; fail=1
	fi
}

# --cpu 7 where there is none: a usage error listing the CPUs there are.
"$csdump" decode "$snap" --cpu 7 >/dev/null 2>"$work/cpu"; rc=$?
check "--cpu 7" 1 'CPU 7.*CPUs 0, 1, 2, 3, 4, 5$' "$work/cpu"

# A bad value names its option and what it takes.
for o in cpu last threads format; do
	"$csdump" decode "$snap" --$o -1 >/dev/null 2>"$work/bad.$o"; rc=$?
	check "--$o -1" 1 "bad value '-1' for --$o \(want .+\)" "$work/bad.$o"
done

# A text file as --vmlinux: says it is not ELF, not "(no error)".
echo "just text" >"$work/text.txt"
"$csdump" decode "$snap" --vmlinux "$work/text.txt" >/dev/null 2>"$work/notelf"; rc=$?
check "text file as --vmlinux" 2 "text.txt: not an ELF file \(.*ELF magic" "$work/notelf"
refuse "text file as --vmlinux" 'no error' "$work/notelf"

# Not a vmcore: no libkdumpfile wording ("Cannot set file.set.0.fd").
"$csdump" info "$work/text.txt" >/dev/null 2>"$work/notcore"; rc=$?
check "text file as a vmcore" 2 "text.txt: not a vmcore: neither an ELF core" "$work/notcore"
refuse "text file as a vmcore" 'file\.set|Cannot set' "$work/notcore"

# csdump help decode: decode's help, not the top-level one.
"$csdump" help decode >"$work/help" 2>&1; rc=$?
check "csdump help decode" 0 '^usage: csdump decode INPUT' "$work/help"
"$csdump" help nosuch >/dev/null 2>"$work/help.bad"; rc=$?
check "csdump help nosuch" 1 "unknown command 'nosuch'" "$work/help.bad"

# --threads and --version in the usage texts and the man page, and the man
# page lists decode's options.
"$csdump" decode --help >"$work/dhelp"; rc=$?
check "decode --help lists --threads" 0 '^ +--threads N ' "$work/dhelp"
"$csdump" --help >"$work/tophelp"; rc=$?
check "--help lists --version" 0 'csdump --version' "$work/tophelp"
man=$here/../../man/csdump.1
for o in vmlinux lines cpu last format threads version; do
	grep -q -- "^\.B.* \\\\-\\\\-$o\b" "$man" ||
		{ echo "FAIL: man/csdump.1 does not list --$o"; fail=1; }
done

# The text report: "the last entry" (not "the last 1 entries"), no
# trailing spaces without symbols.
"$csdump" decode "$snap" --last 1 >"$work/last1" 2>/dev/null; rc=$?
check "--last 1" 0 '; the last entry:$' "$work/last1"
refuse "--last 1" 'the last 1 entries' "$work/last1"
"$csdump" decode "$snap" --last 0 >"$work/last0" 2>/dev/null
refuse "text report without symbols: trailing space" ' $' "$work/last0"

# A far address is not named after a section-end marker.
"$here/mkmarker.py" "$work/marker.elf"
got=$("$probe" syms "$work/marker.elf" 0 0xffff800008010080 0xffff800008010300 \
	0xffff800008011000 0xffff8000081abf58 | cut -d' ' -f2 | tr '\n' ' ')
want='f+0x80 g+0x100 ? ? '
if [ "$got" = "$want" ]; then
	echo "ok: section-end marker: $got"
else
	echo "FAIL: section-end marker: got '$got', want '$want'"; fail=1
fi
exit $fail
