#!/usr/bin/env bash
# Install every Debian package csdump needs to build, test, fuzz and run its
# end-to-end QEMU tests.  Idempotent: packages already present are skipped, so
# a second run costs a dpkg query and nothing more.
#
# Usage: scripts/install-deps.sh [--check]
#   --check   only report missing packages (exit 1 if any), install nothing.
set -euo pipefail

PKGS=(
	# host build
	build-essential pkg-config
	libkdumpfile-dev libelf-dev libdw-dev zlib1g-dev
	libopencsd-dev libopencsd-bin libopencsd-doc libcapstone-dev
	# tests, sanitizers, fuzzing
	clang libclang-rt-14-dev valgrind python3
	chromium	# csdump report, in a real browser (tests/decode/report.sh)
	linux-perf
	# kernel series and QEMU end-to-end
	linux-source-6.1 gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	bc bison flex libssl-dev cpio xz-utils kmod rsync
	qemu-system-arm qemu-user-static sparse device-tree-compiler python3-ply python3-git
	python3-drgn
	python3-numpy	# QEMU's record of execution, read by tests/e2e-hw/oracle/
	# crash extension
	crash
	# QEMU from Debian's source package with the qemu/ series (make qemu)
	dpkg-dev ninja-build meson libglib2.0-dev libpixman-1-dev libfdt-dev
)

# Debian's qemu source package, for `make qemu` (qemu/README.md): fetched once
# into $QEMU_SRC_DIR through a deb-src entry that mirrors the deb entries of
# debian.sources.  apt-get source --download-only leaves the .dsc and its
# tarballs; qemu/scripts/tree.sh unpacks them with dpkg-source.
QEMU_SRC_DIR=${QEMU_SRC_DIR:-/usr/src/csdump-qemu}
fetch_qemu_source() {
	ls "$QEMU_SRC_DIR"/qemu_*.dsc >/dev/null 2>&1 && return 0
	if [ "${1:-}" = "--check" ]; then
		echo "install-deps: missing: qemu source package in $QEMU_SRC_DIR" >&2
		return 1
	fi
	local list=/etc/apt/sources.list.d/csdump-deb-src.sources
	if [ ! -f "$list" ]; then
		[ -f /etc/apt/sources.list.d/debian.sources ] || {
			echo "install-deps: no /etc/apt/sources.list.d/debian.sources to derive a deb-src entry from" >&2
			return 1
		}
		sed -n 's/^Types:.*/Types: deb-src/; /^\(Types\|URIs\|Suites\|Components\|Signed-By\):/p; /^$/p' \
			/etc/apt/sources.list.d/debian.sources | $SUDO tee "$list" >/dev/null
		$SUDO apt-get update -qq
	fi
	$SUDO mkdir -p "$QEMU_SRC_DIR.tmp"
	(cd "$QEMU_SRC_DIR.tmp" && $SUDO apt-get source -qq --download-only qemu >/dev/null)
	$SUDO rm -rf "$QEMU_SRC_DIR"
	$SUDO mv "$QEMU_SRC_DIR.tmp" "$QEMU_SRC_DIR"
	echo "install-deps: qemu source package in $QEMU_SRC_DIR"
}
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

if [ "${#missing[@]}" -eq 0 ]; then
	echo "install-deps: all ${#PKGS[@]} packages present"
	fetch_qemu_source "${1:-}"
	exit
fi
if [ "${1:-}" = "--check" ]; then
	echo "install-deps: missing: ${missing[*]}" >&2
	exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fetch_qemu_source
echo "install-deps: done"
