#!/usr/bin/env bash
# tree.sh SRCDIR PATCHES UNPACK...: make SRCDIR a git tree of a pristine
# source (a "base" tag) with the series in PATCHES (PATCHES/series names the
# files in order) applied as commits on top.  Used for the kernel
# (kernel/scripts/tree.sh) and QEMU (qemu/scripts/tree.sh).
#
# The pristine tree is made once by running UNPACK... with a new, absent
# directory as its last argument, and committed.  The series is re-applied
# (reset to base + git am) only when PATCHES changed since the last
# application; otherwise the tree is left alone so that the build stays
# incremental.  Prints nothing on the no-op path.
set -euo pipefail

args=("$@")
src=$1
patches=$(cd "$2" && pwd)
shift 2
unpack=("$@")
name=$(basename "$(dirname "$patches")")	# kernel, qemu: for messages
stamp=$src/.git/csdump-series

gitk() {
	git -C "$src" -c user.name="csdump build" -c user.email=csdump@example.org \
		-c commit.gpgsign=false "$@"
}

# Changing the tree under a running build would corrupt it: anything but the
# no-op path runs under the kernel build lock (re-checked once held).
lock=${KBUILD_LOCK:-/tmp/csdump-kbuild.lock}
series_id() {
	(cd "$patches" && { cat series; grep -v '^\s*\(#\|$\)' series | xargs -r cat; } | sha256sum | cut -d' ' -f1)
}
# The stamp holds the series identity and the HEAD it produced.  Local
# edits on top (uncommitted, or commits not exported yet) are left alone
# while the series is unchanged.
up_to_date() {
	git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null 2>&1 &&
		[ -f "$stamp" ] && [ "$(cut -d' ' -f1 "$stamp")" = "$(series_id)" ]
}
if up_to_date; then
	exit 0
fi
if [ -z "${CSDUMP_TREE_LOCKED:-}" ]; then
	CSDUMP_TREE_LOCKED=1 exec flock "$lock" "$0" "${args[@]}"
fi
if up_to_date; then
	exit 0
fi

if ! git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	echo "tree.sh: unpacking the pristine $name source into $src"
	rm -rf "$src" "$src.tmp"
	"${unpack[@]}" "$src.tmp"
	mv "$src.tmp" "$src"
	gitk init -q
	# A scratch tree: no automatic repacking of its many objects in the
	# background, beside the build that needs both cores.
	gitk config gc.auto 0
	gitk add -A -f .
	gitk commit -q -m "$name: pristine Debian source"
	gitk tag base
fi

# Identity of the series: the series file and every patch it names, in order.
want=$(series_id)

# Never throw away work: a tree with changes the series does not have.
if [ -f "$stamp" ]; then
	if [ -n "$(gitk status --porcelain -uno)" ] ||
	   [ "$(gitk rev-parse HEAD)" != "$(cut -d' ' -f2 "$stamp")" ]; then
		echo "tree.sh: $src has local changes and $name/patches changed;" >&2
		echo "tree.sh: export them ($name/scripts/export.sh) or discard them first" >&2
		exit 1
	fi
fi

echo "tree.sh: applying $name/patches/series to $src"
gitk am --abort >/dev/null 2>&1 || true
gitk reset -q --hard base
gitk clean -q -fdx -e .git
grep -v '^\s*\(#\|$\)' "$patches/series" | while read -r p; do
	gitk am -q --keep-cr "$patches/$p" || {
		echo "tree.sh: $p does not apply" >&2
		gitk am --abort >/dev/null 2>&1 || true
		exit 1
	}
done
echo "$want $(gitk rev-parse HEAD)" >"$stamp"
