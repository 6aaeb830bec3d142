#!/usr/bin/env bash
# tree.sh SRCDIR: make SRCDIR a git tree of Debian's linux-source-6.1 with the
# series in kernel/patches applied as commits on top of a "base" tag.
#
# The pristine tree is unpacked and committed once.  The series is re-applied
# (reset to base + git am) only when kernel/patches changed since the last
# application; otherwise the tree is left alone so that kbuild stays
# incremental.  Prints nothing on the no-op path.
set -euo pipefail

src=$1
here=$(cd "$(dirname "$0")/.." && pwd)
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
patches=$here/patches
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
	CSDUMP_TREE_LOCKED=1 exec flock "$lock" "$0" "$@"
fi
if up_to_date; then
	exit 0
fi

if ! git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	[ -r "$tarball" ] || { echo "tree.sh: $tarball missing (apt install linux-source-6.1)" >&2; exit 1; }
	echo "tree.sh: unpacking $tarball into $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
	gitk init -q
	# A scratch tree: no automatic repacking of its 75,000 objects in the
	# background, beside the kernel build that needs both cores.
	gitk config gc.auto 0
	gitk add -A -f .
	gitk commit -q -m "linux-source-6.1 (Debian, pristine)"
	gitk tag base
fi

# Identity of the series: the series file and every patch it names, in order.
want=$(series_id)

# Never throw away work: a tree with changes the series does not have.
if [ -f "$stamp" ]; then
	if [ -n "$(gitk status --porcelain -uno)" ] ||
	   [ "$(gitk rev-parse HEAD)" != "$(cut -d' ' -f2 "$stamp")" ]; then
		echo "tree.sh: $src has local changes and kernel/patches changed;" >&2
		echo "tree.sh: export them (kernel/scripts/export.sh) or discard them first" >&2
		exit 1
	fi
fi

echo "tree.sh: applying kernel/patches/series to $src"
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
