#!/usr/bin/env bash
# build.sh SRC OUT [MAKE-TARGETS...]
# Configure (allnoconfig + kernel/configs/*.config, or the fragments named in
# $KCONFIG_FRAGMENTS) and build an arm64 kernel from SRC into OUT.
# Reconfigures only when the fragments change; kbuild does the rest
# incrementally.  Fails if the final .config lost any fragment option.
# Kernel builds on this machine are serialised by /tmp/csdump-kbuild.lock.
set -euo pipefail

src=$(cd "$1" && pwd)
out=$2
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(Image modules)
here=$(cd "$(dirname "$0")/.." && pwd)
fragments=${KCONFIG_FRAGMENTS:-$(ls "$here"/configs/*.config)}
jobs=${KBUILD_JOBS:-2}
lock=${KBUILD_LOCK:-/tmp/csdump-kbuild.lock}

mkdir -p "$out"
out=$(cd "$out" && pwd)
kmake() {
	flock "$lock" make -s -C "$src" O="$out" ARCH=arm64 \
		CROSS_COMPILE=aarch64-linux-gnu- -j"$jobs" "$@"
}

# shellcheck disable=SC2086
cat $fragments >"$out/csdump.fragment.new"
if ! cmp -s "$out/csdump.fragment.new" "$out/csdump.fragment" || [ ! -f "$out/.config" ]; then
	echo "build.sh: configuring $out (allnoconfig + $(echo $fragments | xargs -n1 basename | xargs))"
	KCONFIG_ALLCONFIG="$out/csdump.fragment.new" kmake allnoconfig
	mv "$out/csdump.fragment.new" "$out/csdump.fragment"
else
	rm -f "$out/csdump.fragment.new"
fi

# Every fragment option must have survived dependency resolution.  A later
# fragment's line for an option overrides an earlier one's, as in Kconfig
# (kernel/configs/variants/nolockdep.config unsets debug.config's lockdep).
bad=0
declare -A want=()
order=()
while read -r line; do
	case $line in
	CONFIG_*=*) opt=${line%%=*} ;;
	"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *} ;;
	*) continue ;;
	esac
	[ -n "${want[$opt]+set}" ] || order+=("$opt")
	want[$opt]=$line
done <"$out/csdump.fragment"
for opt in "${order[@]}"; do
	line=${want[$opt]}
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" "$out/.config" || { echo "build.sh: $line missing from $out/.config" >&2; bad=1; } ;;
	*)
		! grep -q "^$opt=" "$out/.config" || { echo "build.sh: $opt should be unset" >&2; bad=1; } ;;
	esac
done
if [ $bad -ne 0 ]; then
	rm -f "$out/csdump.fragment"	# reconfigure next time
	exit 1
fi

kmake "${targets[@]}"
