# common.sh: sourced by the crash tests.

# need_dump VMLINUX VMCORE: skip (exit 77) unless both exist and VMCORE was
# made after VMLINUX (crash refuses a vmlinux that does not match the dump).
need_dump() {
	local f
	for f in "$1" "$2"; do
		[ -e "$f" ] || { echo "no $f (needs the kernel and a vmcore of it)"; exit 77; }
	done
	if [ "$1" -nt "$2" ]; then
		echo "$2 is older than $1: a stale vmcore"
		exit 77
	fi
}
