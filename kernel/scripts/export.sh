#!/usr/bin/env bash
# export.sh SRC: write the commits base..HEAD of the kernel tree SRC back to
# kernel/patches as `git format-patch` files and rewrite kernel/patches/series
# in commit order.  A patch whose text did not change keeps its file (and
# file name) untouched, so patches added by others are not rewritten; series
# entries that are not commits of SRC are kept after the exported ones.
set -euo pipefail

src=$1
here=$(cd "$(dirname "$0")/.." && pwd)
patches=$here/patches
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git -C "$src" format-patch -q -N --no-signature -o "$tmp" base..HEAD

subject_of() { sed -n 's/^Subject: //p' "$1" | head -n 1; }
body_of() { tail -n +2 "$1"; }

: >"$tmp/series"
for new in "$tmp"/*.patch; do
	[ -e "$new" ] || continue
	name=$(basename "$new")
	subj=$(subject_of "$new")
	# Reuse the file of the same patch (same subject) when there is one.
	while read -r old; do
		case $old in ''|'#'*) continue ;; esac
		if [ -f "$patches/$old" ] && [ "$(subject_of "$patches/$old")" = "$subj" ]; then
			name=$old
			break
		fi
	done <"$patches/series"
	if [ -f "$patches/$name" ] && cmp -s <(body_of "$new") <(body_of "$patches/$name"); then
		:
	else
		cp "$new" "$patches/$name"
		echo "export.sh: wrote $name"
	fi
	echo "$name" >>"$tmp/series"
done

# Patches of the series that are not commits of this tree (added by someone
# else and not applied here yet) stay, after the exported ones, in order.
# Nothing is deleted: drop a patch by editing series.
while read -r old; do
	case $old in ''|'#'*) continue ;; esac
	grep -qxF "$old" "$tmp/series" || echo "$old" >>"$tmp/series"
done <"$patches/series"
cp "$tmp/series" "$patches/series"

# The tree already has these commits: record it so tree.sh leaves it alone.
want=$(cd "$patches" && { cat series; grep -v '^\s*\(#\|$\)' series | xargs -r cat; } | sha256sum | cut -d' ' -f1)
echo "$want $(git -C "$src" rev-parse HEAD)" >"$src/.git/csdump-series"
