#!/usr/bin/env bash
# build.sh SRC OUT: configure (once, or when this script changes) and build
# qemu-system-aarch64 from SRC into OUT, with TCG plugins and nothing the
# tests do not use.  ninja keeps it incremental.  Builds on this machine are
# serialised with the kernel's by /tmp/csdump-kbuild.lock (two cores).
set -euo pipefail
src=$(cd "$1" && pwd)
out=$2
jobs=${KBUILD_JOBS:-2}
lock=${KBUILD_LOCK:-/tmp/csdump-kbuild.lock}
mkdir -p "$out"
out=$(cd "$out" && pwd)
opts=(--target-list=aarch64-softmmu --enable-plugins --enable-fdt=system
      --disable-docs --disable-tools --disable-guest-agent --disable-werror
      --without-default-features)
want="$(sha256sum "$0" | cut -d' ' -f1) ${opts[*]}"
if [ ! -f "$out/build.ninja" ] || [ "$(cat "$out/.csdump-configured" 2>/dev/null)" != "$want" ]; then
	echo "build.sh: configuring $out"
	(cd "$out" && flock "$lock" "$src/configure" "${opts[@]}" >configure.log 2>&1) || {
		tail -n 30 "$out/configure.log" >&2
		exit 1
	}
	echo "$want" >"$out/.csdump-configured"
fi
flock "$lock" ninja -C "$out" -j"$jobs" qemu-system-aarch64
