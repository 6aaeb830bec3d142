#!/usr/bin/env bash
# tree.sh SRCDIR: make SRCDIR a git tree of Debian's linux-source-6.1 (tag
# "base") with kernel/patches applied as commits (scripts/series/tree.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -r "$tarball" ] || { echo "tree.sh: $tarball missing (apt install linux-source-6.1)" >&2; exit 1; }
unpack_linux() {
	mkdir -p "$1"
	tar -xJf "$tarball" -C "$1" --strip-components=1
}
# tree.sh runs UNPACK as a command: re-enter this script for it.
if [ "${1:-}" = --unpack ]; then
	unpack_linux "$2"
	exit
fi
exec "$here/../scripts/series/tree.sh" "$1" "$here/patches" "$0" --unpack
