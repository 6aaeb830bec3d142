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

if ! git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	[ -r "$tarball" ] || { echo "tree.sh: $tarball missing (apt install linux-source-6.1)" >&2; exit 1; }
	echo "tree.sh: unpacking $tarball into $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
	gitk init -q
	gitk add -A -f .
	gitk commit -q -m "linux-source-6.1 (Debian, pristine)"
	gitk tag base
fi

# Identity of the series: the series file and every patch it names, in order.
want=$(cd "$patches" && { cat series; grep -v '^\s*\(#\|$\)' series | xargs -r cat; } | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -z "$(gitk status --porcelain -uno)" ]; then
	exit 0
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
echo "$want" >"$stamp"
