#!/usr/bin/env bash
# Build a root holding Debian's arm64 makedumpfile and the libraries it
# links, to be run on this (x86-64) host as kdump-tools runs it in a capture
# kernel, e.g.
#     qemu-aarch64-static -L ROOT ROOT/usr/bin/makedumpfile -c -d 31 vmcore dumpfile
# (tests/e2e/capture.sh).  The root is built by scripts/arm64-root.sh (an
# arm64 apt configuration of its own under OUT/apt, dpkg -x of each package,
# a stamp).
#
# Usage: scripts/makedumpfile-arm64-env.sh [OUT]   (default: build/makedumpfile-arm64)
# Prints the root's path on success.  Idempotent (see arm64-root.sh).
set -euo pipefail

# makedumpfile 1.7.2 and the packages of every shared library it needs,
# from readelf -d of the arm64 binary and of each library in turn:
# makedumpfile -> liblzo2.so.2 libdw.so.1 libelf.so.1 libz.so.1 libc.so.6;
# libdw.so.1 -> liblzma.so.5 libbz2.so.1.0.  (Debian builds it without zstd
# and snappy: -z and -p write an uncompressed dump.)
PKGS=(makedumpfile libc6 liblzo2-2 libdw1 libelf1 zlib1g liblzma5 libbz2-1.0)

ARM64_ROOT_NAME=makedumpfile-arm64-env exec "$(dirname "$0")/arm64-root.sh" \
	"${1:-build/makedumpfile-arm64}" usr/bin/makedumpfile "${PKGS[@]}"
