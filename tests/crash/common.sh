# common.sh: sourced by the crash tests.

# need_dump VMLINUX VMCORE: skip (exit 77) unless both exist and VMCORE is a
# dump of VMLINUX's kernel (the build ID in its VMCOREINFO is VMLINUX's):
# crash refuses a vmlinux that does not match the dump.
need_dump() {
	local f want got
	for f in "$1" "$2"; do
		[ -e "$f" ] || { echo "no $f (needs the kernel and a vmcore of it)"; exit 77; }
	done
	want=$( (readelf -n "$1" 2>/dev/null || true) | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
	got=$( (grep -a -m 1 -o 'BUILD-ID=[0-9a-f]*' "$2" || true) | sed -n '1s/^BUILD-ID=//p')
	if [ -z "$want" ] || [ "$want" != "$got" ]; then
		echo "$2 (kernel build ID ${got:-unknown}) is not a dump of $1 (${want:-no build ID}): a stale vmcore"
		exit 77
	fi
}
