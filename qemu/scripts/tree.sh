#!/usr/bin/env bash
# tree.sh SRCDIR: make SRCDIR a git tree of Debian's qemu 7.2 source package
# (tag "base": the .dsc unpacked by dpkg-source, Debian's own patches
# applied) with qemu/patches applied as commits (scripts/series/tree.sh).
# The package is fetched once by scripts/install-deps.sh into
# $QEMU_SRC_DIR (default /usr/src/csdump-qemu).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
pkgdir=${QEMU_SRC_DIR:-/usr/src/csdump-qemu}
if [ "${1:-}" = --unpack ]; then
	dsc=$(ls "$pkgdir"/qemu_*.dsc 2>/dev/null | head -n 1)
	[ -n "$dsc" ] || { echo "tree.sh: no qemu .dsc in $pkgdir (run scripts/install-deps.sh)" >&2; exit 1; }
	# The unpacked tree comes from files we fetched ourselves: no
	# signature check against a keyring the machine may not have.
	# dpkg-source leaves copies of the tarballs beside the tree it
	# makes: unpack in a scratch directory and keep only the tree.
	scratch=$(mktemp -d "$(dirname "$2")/.qemu-unpack.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	(cd "$scratch" && dpkg-source --no-check -q -x "$dsc" tree >/dev/null)
	mv "$scratch/tree" "$2"
	exit
fi
exec "$here/../scripts/series/tree.sh" "$1" "$here/patches" "$0" --unpack
