#!/usr/bin/env bash
# Build a root holding Debian's arm64 `crash` and the libraries it links, to be
# run on this (x86-64) host as
#     qemu-aarch64-static -L ROOT ROOT/usr/bin/crash -s vmlinux vmcore
# Debian's amd64 crash cannot open arm64 vmcores; its arm64 build can.
#
# Packages come from the machine's own Debian sources, through an apt
# configuration for the arm64 architecture that lives entirely under
# OUT/apt (its own lists, cache and status): the host's dpkg database and
# apt state are never touched, and no root is needed.
#
# Usage: scripts/crash-arm64-env.sh [OUT]      (default: build/crash-arm64)
# Prints the root's path on success.  Idempotent: a finished root (its stamp
# newer than this script) is reused; downloaded .debs are cached.
set -euo pipefail

out=${1:-build/crash-arm64}
mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$out/root
apt=$out/apt
stamp=$out/.root-ok
script=$(readlink -f "$0")

# crash and every shared library it needs (ldd of the arm64 binary); crash
# also ships defs.h for its extensions.  zlib1g-dev: the arm64 zlib headers
# and link library for the csdump extension (which uses zlib's crc32).
PKGS=(crash gcc-12-base libc6 libgcc-s1 libjansson4 liblzo2-2 libncursesw6
      libsnappy1v5 libstdc++6 libtinfo6 libzstd1 zlib1g zlib1g-dev)

if [ -e "$stamp" ] && [ "$stamp" -nt "$script" ] && [ -x "$root/usr/bin/crash" ]; then
	echo "$root"
	exit 0
fi

# --- an apt configuration for arm64 under $apt ---------------------------
mkdir -p "$apt/etc/sources.list.d" "$apt/etc/preferences.d" \
	 "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
: >"$apt/status"

# Same mirrors as the machine's own Debian sources, restricted to arm64.
srcs=$apt/etc/sources.list.d/arm64.sources
: >"$srcs"
for f in /etc/apt/sources.list.d/*.sources; do
	[ -e "$f" ] || continue
	# Each deb822 stanza gets (or has replaced) an Architectures field.
	awk 'BEGIN { RS = ""; ORS = "\n\n" }
	     /(^|\n)Types:[^\n]*deb([ \t\n]|$)/ {
		gsub(/(^|\n)Architectures:[^\n]*/, "")
		print $0 "\nArchitectures: arm64"
	     }' "$f" >>"$srcs"
done
list=$apt/etc/sources.list
: >"$list"
if [ -e /etc/apt/sources.list ]; then
	sed -n -E 's/^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?/deb [arch=arm64] /p' \
		/etc/apt/sources.list >>"$list"
fi
if [ ! -s "$srcs" ] && [ ! -s "$list" ]; then
	echo "crash-arm64-env: no Debian apt sources found under /etc/apt" >&2
	exit 1
fi

aptopts=(
	-o "APT::Architecture=arm64" -o "APT::Architectures::=arm64"
	-o "Dir::Etc::SourceList=$list"
	-o "Dir::Etc::SourceParts=$apt/etc/sources.list.d"
	-o "Dir::Etc::Preferences=$apt/etc/preferences"
	-o "Dir::Etc::PreferencesParts=$apt/etc/preferences.d"
	-o "Dir::State::Lists=$apt/lists"
	-o "Dir::State::status=$apt/status"
	-o "Dir::Cache=$apt/cache"
	-o "Debug::NoLocking=1"
	-o "APT::Sandbox::User=root"
)

# Refresh the lists only when missing (or older than a week).
if [ -z "$(find "$apt/lists" -maxdepth 1 -name '*Packages*' -mtime -7 -print -quit)" ]; then
	echo "crash-arm64-env: apt-get update (arm64)" >&2
	apt-get "${aptopts[@]}" update -qq >&2
fi

# --- download what is not cached ------------------------------------------
need=()
for p in "${PKGS[@]}"; do
	compgen -G "$apt/debs/${p}_*_arm64.deb" >/dev/null ||
		compgen -G "$apt/debs/${p}_*_all.deb" >/dev/null || need+=("$p")
done
if [ "${#need[@]}" -gt 0 ]; then
	echo "crash-arm64-env: apt-get download ${need[*]}" >&2
	(cd "$apt/debs" && apt-get "${aptopts[@]}" download "${need[@]}" >&2)
fi

# --- unpack into one root ---------------------------------------------------
rm -rf "$root.tmp"
mkdir -p "$root.tmp"
for p in "${PKGS[@]}"; do
	for deb in "$apt/debs/${p}"_*.deb; do
		dpkg -x "$deb" "$root.tmp"
	done
done
[ -x "$root.tmp/usr/bin/crash" ] || { echo "crash-arm64-env: no usr/bin/crash in the root" >&2; exit 1; }
rm -rf "$root"
mv "$root.tmp" "$root"
touch "$stamp"
echo "$root"
