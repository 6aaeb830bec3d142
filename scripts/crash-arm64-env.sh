#!/usr/bin/env bash
# Build a root holding Debian's arm64 `crash` and the libraries it links, to be
# run on this (x86-64) host as
#     qemu-aarch64-static -L ROOT ROOT/usr/bin/crash -s vmlinux vmcore
# Debian's amd64 crash cannot open arm64 vmcores; its arm64 build can.
# The root is built by scripts/arm64-root.sh (an arm64 apt configuration of
# its own under OUT/apt, dpkg -x of each package, a stamp).
#
# Usage: scripts/crash-arm64-env.sh [OUT]      (default: build/crash-arm64)
# Prints the root's path on success.  Idempotent (see arm64-root.sh).
set -euo pipefail

# crash and every shared library it needs (readelf -d of the arm64 binary);
# crash also ships defs.h for its extensions.  zlib1g-dev: the arm64 zlib
# headers and link library for the csdump extension (which uses zlib's crc32).
PKGS=(crash gcc-12-base libc6 libgcc-s1 libjansson4 liblzo2-2 libncursesw6
      libsnappy1v5 libstdc++6 libtinfo6 libzstd1 zlib1g zlib1g-dev)

ARM64_ROOT_NAME=crash-arm64-env exec "$(dirname "$0")/arm64-root.sh" \
	"${1:-build/crash-arm64}" usr/bin/crash "${PKGS[@]}"
