#!/usr/bin/env bash
# symbols.sh ROOT EXT: every symbol the crash extension EXT leaves undefined
# must be defined by the arm64 crash in ROOT or by a library that crash or
# EXT loads (crash resolves them only at `extend` time, where a missing one
# fails the load), and EXT must export no symbol that crash also defines
# (crash's would silently replace it for EXT's own calls).  Needs no vmcore.
set -euo pipefail
root=$1 ext=$2
nm=aarch64-linux-gnu-nm
command -v "$nm" >/dev/null || { echo "no $nm"; exit 77; }
crash=$root/usr/bin/crash

# Find a NEEDED library in the root.
lib() {
	local d
	for d in lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu lib usr/lib; do
		[ -e "$root/$d/$1" ] && { echo "$root/$d/$1"; return; }
	done
	echo "symbols: $1 (needed) is not in $root" >&2
	return 1
}
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

providers=("$crash")
for so in $( (needed "$crash"; needed "$ext") | sort -u); do
	providers+=("$(lib "$so")")
done

defined=$(for f in "${providers[@]}"; do
	$nm -D --defined-only "$f" | awk '{ print $3 }'
done | sed 's/@.*//' | sort -u)
undefined=$($nm -D --undefined-only "$ext" | awk '$1 == "U" { print $2 }' | sed 's/@.*//' | sort -u)

[ -n "$undefined" ] || { echo "symbols: $ext has no undefined symbols?"; exit 1; }
missing=$(comm -23 <(echo "$undefined") <(echo "$defined"))
if [ -n "$missing" ]; then
	echo "symbols: undefined in $ext and defined nowhere crash looks:"
	echo "$missing" | sed 's/^/  /'
	exit 1
fi
exported=$($nm -D --defined-only "$ext" | awk '{ print $3 }' | sed 's/@.*//' | sort -u)
clash=$(comm -12 <(echo "$exported") <($nm -D --defined-only "$crash" | awk '{ print $3 }' | sed 's/@.*//' | sort -u))
if [ -n "$clash" ]; then
	echo "symbols: $ext exports symbols that crash also defines:"
	echo "$clash" | sed 's/^/  /'
	exit 1
fi
echo "symbols: all $(echo "$undefined" | wc -l) undefined symbols of $ext resolve in crash or its libraries"
