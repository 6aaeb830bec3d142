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
	linux-perf
	# kernel series and QEMU end-to-end
	linux-source-6.1 gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	bc bison flex libssl-dev cpio xz-utils kmod rsync
	qemu-system-arm qemu-user-static sparse device-tree-compiler python3-ply python3-git
	# crash extension
	crash
)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

if [ "${#missing[@]}" -eq 0 ]; then
	echo "install-deps: all ${#PKGS[@]} packages present"
	exit 0
fi
if [ "${1:-}" = "--check" ]; then
	echo "install-deps: missing: ${missing[*]}" >&2
	exit 1
fi

echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
