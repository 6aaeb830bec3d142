#!/usr/bin/env bash
# build.sh SRC OUT: configure (once, or when this script changes) and build
# qemu-system-aarch64 from SRC into OUT, with TCG plugins and nothing the
# tests do not use: no optional feature, and of the devices only
# qemu/devices.mak's.  ninja keeps it incremental.  Builds on this machine are
# serialised with the kernel's by /tmp/csdump-kbuild.lock (two cores).
set -euo pipefail
src=$(cd "$1" && pwd)
out=$2
jobs=${KBUILD_JOBS:-2}
lock=${KBUILD_LOCK:-/tmp/csdump-kbuild.lock}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# The devices the tests use (qemu/devices.mak), as a device configuration
# of the tree; rewritten only when it differs (configure's input: a new
# one reconfigures), and again after tree.sh's clean.
devices=$(dirname "$0")/../devices.mak
mak=$src/configs/devices/aarch64-softmmu/csdump.mak
cmp -s "$devices" "$mak" || cp "$devices" "$mak"
opts=(--target-list=aarch64-softmmu --enable-plugins --enable-fdt=system
      --disable-docs --disable-tools --disable-guest-agent --disable-werror
      --without-default-features --without-default-devices
      --with-devices-aarch64=csdump)
want="$(cat "$0" "$devices" | sha256sum | cut -d' ' -f1) ${opts[*]}"
if [ ! -f "$out/build.ninja" ] || [ "$(cat "$out/.csdump-configured" 2>/dev/null)" != "$want" ]; then
	echo "build.sh: configuring $out"
	(cd "$out" && flock "$lock" "$src/configure" "${opts[@]}" >configure.log 2>&1) || {
		tail -n 30 "$out/configure.log" >&2
		exit 1
	}
	echo "$want" >"$out/.csdump-configured"
fi
flock "$lock" ninja -C "$out" -j"$jobs" qemu-system-aarch64
