#!/usr/bin/env bash
# Build a root of Debian arm64 packages, unpacked, to run an arm64 program of
# Debian's on this (x86-64) host under qemu-user:
#     qemu-aarch64-static -L ROOT ROOT/usr/bin/PROGRAM ...
# Used by scripts/crash-arm64-env.sh (crash) and
# scripts/makedumpfile-arm64-env.sh (makedumpfile); each passes its program
# and the packages of every shared library it links (readelf -d of the
# arm64 binary).
#
# Packages come from the machine's own Debian sources, through an apt
# configuration for the arm64 architecture that lives entirely under
# OUT/apt (its own lists, cache and status): the host's dpkg database and
# apt state are never touched, and no root is needed.  Nothing is installed:
# each .deb is unpacked with dpkg -x (no maintainer scripts run).
#
# Usage: scripts/arm64-root.sh OUT PROGRAM PACKAGE...
#   OUT      the environment's directory; the root is OUT/root
#   PROGRAM  a path inside the root that must exist afterwards (usr/bin/crash)
# Prints the root's path on success.  Idempotent: a finished root (its stamp
# OUT/.root-ok newer than this script and naming the same packages) is
# reused, and its stamp touched, so that a make rule depending on the
# caller's script is satisfied; downloaded .debs are cached in OUT/apt/debs.
set -euo pipefail

me=${ARM64_ROOT_NAME:-arm64-root}
if [ $# -lt 3 ]; then
	echo "usage: $0 OUT PROGRAM PACKAGE..." >&2
	exit 2
fi
out=$1 prog=${2#/}
shift 2
PKGS=("$@")

mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$out/root
apt=$out/apt
stamp=$out/.root-ok
script=$(readlink -f "$0")
want=$(printf '%s\n' "${PKGS[@]}")

if [ -e "$stamp" ] && [ "$stamp" -nt "$script" ] && [ -e "$root/$prog" ] &&
   [ "$(cat "$stamp")" = "$want" ]; then
	touch "$stamp"
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
	echo "$me: no Debian apt sources found under /etc/apt" >&2
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
	echo "$me: apt-get update (arm64)" >&2
	apt-get "${aptopts[@]}" update -qq >&2
fi

# --- download what is not cached ------------------------------------------
need=()
for p in "${PKGS[@]}"; do
	compgen -G "$apt/debs/${p}_*_arm64.deb" >/dev/null ||
		compgen -G "$apt/debs/${p}_*_all.deb" >/dev/null || need+=("$p")
done
if [ "${#need[@]}" -gt 0 ]; then
	echo "$me: apt-get download ${need[*]}" >&2
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
[ -e "$root.tmp/$prog" ] || { echo "$me: no $prog in the root" >&2; exit 1; }

# Every shared library the program links, and theirs, must be in the root
# (readelf -d: NEEDED), or the package list is short of one.
libdirs=(lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu lib usr/lib)
seen=" " todo=("$root.tmp/$prog") missing=()
while [ "${#todo[@]}" -gt 0 ]; do
	f=${todo[0]} todo=("${todo[@]:1}")
	for lib in $(readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		case $seen in *" $lib "*) continue ;; esac
		seen="$seen$lib "
		found=
		for d in "${libdirs[@]}"; do
			if [ -e "$root.tmp/$d/$lib" ] || [ -L "$root.tmp/$d/$lib" ]; then found=$root.tmp/$d/$lib; break; fi
		done
		if [ -n "$found" ]; then todo+=("$(readlink -f "$found")"); else missing+=("$lib"); fi
	done
done
if [ "${#missing[@]}" -gt 0 ]; then
	echo "$me: $prog needs ${missing[*]}: not in the packages ${PKGS[*]}" >&2
	exit 1
fi
rm -rf "$root"
mv "$root.tmp" "$root"
printf '%s\n' "$want" >"$stamp"
echo "$root"
