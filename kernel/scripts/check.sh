#!/usr/bin/env bash
# check.sh CHECK SRC WORK: the kernel series' checks.  SRC is the tree that
# tree.sh maintains (tag "base" = pristine linux-source-6.1), WORK a scratch
# directory.  Kernel builds go through build.sh, which takes the build lock.
#
#   apply       the series applies with `git am` to a fresh checkout of base,
#               and so does its upstream part alone (the patches above the
#               series file's "Test-only" line), which adds no test-only code
#   checkpatch  scripts/checkpatch.pl --strict: 0 errors, 0 warnings, 0 checks
#   sparse      W=1 C=1 build of every .c file the series touches: no warning
#               on any line the series wrote in those files
#   modular     CONFIG_CORESIGHT=m: the registry is in drivers/built-in.a,
#               the modules' references to it resolve there, nothing else of
#               CoreSight is built in
#   panicpath   what a sink's panic save calls takes no lock, sleeps not and
#               allocates nothing (panic_path.py, on the tree's source)
#   nokdump     CONFIG_CORESIGHT_KDUMP=n: the drivers build with the stubs,
#               and the node in their driver data has size 0 (DWARF)
set -euo pipefail

check=$1
src=$(cd "$2" && pwd)
mkdir -p "$3"
work=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
patches=$here/patches
configs=$here/configs

series() { grep -v '^\s*\(#\|$\)' "$patches/series"; }
# The series for the maintainers: everything above the "# Test-only" line.
upstream() { sed '/^# Test-only/,$d' "$patches/series" | grep -v '^\s*\(#\|$\)'; }

# Files the series touches, from the patches themselves.
touched() {
	series | while read -r p; do
		sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$patches/$p"
	done | sort -u
}

case $check in
apply)
	dir=$work/apply
	rm -rf "$dir"
	git clone -q --shared --no-checkout "$src" "$dir"
	# Only the files the series touches are checked out (a patch applies
	# to its own files; the other 75,000 of the tree cost a minute).
	touched | sed "s|^|/|" | git -C "$dir" sparse-checkout set --no-cone --stdin
	# am_all WHAT PATCH...: apply to a fresh checkout of base; sets n.
	am_all() {
		local what=$1 p
		shift
		git -C "$dir" checkout -q -f base
		n=0
		for p in "$@"; do
			git -C "$dir" -c user.name=check -c user.email=check@example.org \
				am -q "$patches/$p" || { echo "FAIL: $what: $p does not apply"; exit 1; }
			n=$((n + 1))
		done
	}
	am_all series $(series)
	echo "$n patches apply to linux-source-6.1 (base $(git -C "$dir" rev-parse --short base))"
	# The upstream part on its own, with none of the test-only code.
	am_all "upstream part" $(upstream)
	[ "$n" -gt 0 ] && [ "$n" -lt "$(series | wc -l)" ] ||
		{ echo "FAIL: no test-only line splits the series ($n patches above it)"; exit 1; }
	mapfile -t files < <(git -C "$dir" diff --name-only base HEAD)
	if git -C "$dir" grep -n -i 'testdev\|locktest\|TEST_HOOKS\|coresight_kdump_test_\(un\)\{0,1\}lock\|coresight-test-' -- "${files[@]}"; then
		echo "FAIL: the upstream part has test-only code (above)"
		exit 1
	fi
	echo "the upstream part, $n patches, applies alone and has no test-only code"
	rm -rf "$dir"
	;;

checkpatch)
	bad=0
	for p in $(series); do
		# /usr/bin first: spdxcheck.py needs Debian's python3-ply.
		out=$(cd "$src" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict \
			"$patches/$p" 2>&1 || true)
		total=$(printf '%s\n' "$out" | grep '^total:' || echo "total: (none)")
		echo "$p: $total"
		if ! printf '%s\n' "$total" | grep -q '^total: 0 errors, 0 warnings, 0 checks'; then
			printf '%s\n' "$out" | sed 's/^/    /'
			bad=1
		fi
		grep -q '^Signed-off-by: ' "$patches/$p" || { echo "    no Signed-off-by"; bad=1; }
	done
	exit $bad
	;;

sparse)
	out=$work/sparse
	# A .c file another one #includes (the KUnit suite) is built in it.
	mapfile -t files < <(touched | grep '\.c$' | while read -r f; do
		git -C "$src" grep -q "#include \"$(basename "$f")\"" -- '*.c' || echo "$f"
	done)
	objs=()
	for f in "${files[@]}"; do
		objs+=("${f%.c}.o")
		rm -f "$out/${f%.c}.o"	# recompile: W=1 and C=1 only see what is built
	done
	KCONFIG_FRAGMENTS="$configs/qemu-virt.config $configs/kdump.config $configs/coresight.config $configs/check/sparse.config" \
		"$here/scripts/build.sh" "$src" "$out" W=1 C=1 "${objs[@]}" 2>&1 | tee "$work/sparse.log"
	for o in "${objs[@]}"; do
		[ -f "$out/$o" ] || { echo "FAIL: $o was not built"; exit 1; }
	done
	pat=$(touched | sed 's/[.]/\\./g' | paste -sd'|')
	# Only the lines the series wrote count: a file it patches (e.g.
	# arch/arm64/kernel/traps.c) keeps the W=1 warnings base already had.
	added() {
		git -C "$src" diff -U0 base HEAD -- "$1" |
			sed -n 's/^@@ -[0-9,]* +\([0-9]*\)\(,\([0-9]*\)\)\{0,1\} @@.*/\1 \3/p' |
			while read -r start n; do seq "$start" $((start + ${n:-1} - 1)); done
	}
	bad=0
	while IFS= read -r w; do
		f=${w%%:*} rest=${w#*:}
		if added "${f#"$src"/}" | grep -qx "${rest%%:*}"; then
			echo "$w"
			bad=1
		fi
	done < <(grep -E "($pat)(:[0-9]+)+: (warning|error)" "$work/sparse.log")
	if [ "$bad" != 0 ]; then
		echo "FAIL: warnings on lines the series wrote"
		exit 1
	fi
	echo "W=1 C=1: no warning in ${#files[@]} files: ${files[*]}"
	;;

modular)
	out=$work/modular
	KCONFIG_FRAGMENTS="$configs/qemu-virt.config $configs/kdump.config $configs/check/modular.config" \
		"$here/scripts/build.sh" "$src" "$out" drivers/
	cs=$out/drivers/hwtracing/coresight
	# Thin archives: members are paths to the objects.
	members=$(ar t "$cs/built-in.a" | xargs -r -n1 basename)
	echo "built in from drivers/hwtracing/coresight: $members"
	[ "$members" = "coresight-kdump.o" ] ||
		{ echo "FAIL: expected only coresight-kdump.o built in"; exit 1; }
	ar t "$out/drivers/built-in.a" | grep -q 'hwtracing/coresight/coresight-kdump\.o$' ||
		{ echo "FAIL: coresight-kdump.o is not linked into drivers/built-in.a"; exit 1; }
	echo "drivers/built-in.a links hwtracing/coresight/coresight-kdump.o"
	defined=$(aarch64-linux-gnu-nm --defined-only "$cs/coresight-kdump.o" | awk '{print $3}' | sort)
	for m in coresight coresight-tmc coresight-etm4x; do
		[ -f "$cs/$m.o" ] || { echo "FAIL: module object $m.o not built"; exit 1; }
		used=$(aarch64-linux-gnu-nm --undefined-only "$cs/$m.o" | awk '/coresight_kdump_/ {print $2}' | sort -u | xargs)
		for s in $used; do
			grep -qx "$s" <<<"$defined" || { echo "FAIL: $m.o needs $s, not in the built-in registry"; exit 1; }
		done
		echo "$m.o (module) uses from the built-in registry: ${used:-nothing}"
	done
	grep -q '^CONFIG_CORESIGHT=m$' "$out/.config"
	;;

panicpath)
	python3 "$here/scripts/panic_path.py" "$src"
	;;

nokdump)
	out=$work/nokdump
	KCONFIG_FRAGMENTS="$configs/qemu-virt.config $configs/kdump.config $configs/check/nokdump.config" \
		"$here/scripts/build.sh" "$src" "$out" drivers/hwtracing/coresight/
	cs=$out/drivers/hwtracing/coresight
	[ ! -e "$cs/coresight-kdump.o" ] || { echo "FAIL: coresight-kdump.o built without CONFIG_CORESIGHT_KDUMP"; exit 1; }
	if aarch64-linux-gnu-nm "$cs/built-in.a" 2>/dev/null | grep -q 'coresight_kdump_'; then
		echo "FAIL: a coresight_kdump_ symbol without CONFIG_CORESIGHT_KDUMP"
		exit 1
	fi
	echo "CONFIG_CORESIGHT_KDUMP=n: drivers/hwtracing/coresight builds, no coresight_kdump_ symbol"
	# No registry node in the drivers' data: the type has size 0.
	for o in coresight-tmc-core.o coresight-etb10.o coresight-etm4x-core.o; do
		size=$(aarch64-linux-gnu-readelf --debug-dump=info "$cs/$o" 2>/dev/null | awk '
			/DW_TAG_/ { st = /DW_TAG_structure_type/; named = 0; next }
			st && /DW_AT_name/ && $NF == "coresight_kdump_node" { named = 1; next }
			named && /DW_AT_byte_size/ && !done { print $NF; done = 1 }')
		[ -n "$size" ] || { echo "FAIL: $o: no struct coresight_kdump_node in its DWARF"; exit 1; }
		[ "$size" = 0 ] || { echo "FAIL: $o: struct coresight_kdump_node is $size bytes"; exit 1; }
		echo "$o: struct coresight_kdump_node is 0 bytes"
	done
	;;

*)
	echo "usage: $0 apply|checkpatch|sparse|modular|panicpath|nokdump SRC WORK" >&2
	exit 1
	;;
esac
