#!/usr/bin/env bash
# export.sh SRC PATCHES: write the commits base..HEAD of the tree SRC (made by
# tree.sh) back to PATCHES as `git format-patch` files and rewrite
# PATCHES/series in commit order.  A patch whose text did not change keeps its file (and
# file name) untouched, so patches added by others are not rewritten; series
# entries that are not commits of SRC are kept after the exported ones.
set -euo pipefail

src=$1
patches=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git -C "$src" format-patch -q -N --no-signature -o "$tmp" base..HEAD

# The subject without its "[PATCH n/m]" prefix, unfolded.
subject_of() {
	awk '/^Subject: /{s=substr($0,10); f=1; next} f && /^[ \t]/{s=s $0; next} f{exit} END{print s}' "$1" |
		sed 's/^\[PATCH[^]]*\] *//; s/[ \t]\+/ /g'
}
# What a patch says: its message (without the commit hash and the subject
# line(s)) and the patch-id of its diff, which ignores line numbers, index
# lines and the signature.  A refreshed patch of the same change is the same.
message_of() {
	awk 'NR==1{next} /^---$/{exit} /^Subject: /{f=1; next} f && /^[ \t]/{next} {f=0; print}' "$1"
}
same_patch() {
	cmp -s <(message_of "$1") <(message_of "$2") &&
		[ "$(git patch-id --stable <"$1" | cut -d' ' -f1)" = \
		  "$(git patch-id --stable <"$2" | cut -d' ' -f1)" ]
}

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
	if [ -f "$patches/$name" ] && same_patch "$new" "$patches/$name"; then
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
# Comment lines (a section's heading, such as the kernel's "Test-only"
# line) stay before the patch that followed them.
awk 'NR == FNR { if ($0 ~ /^#/) { c = c $0 "\n" } else if ($0 != "") { note[$0] = c; c = "" }; next }
     { printf "%s%s\n", note[$0], $0 }' "$patches/series" "$tmp/series" >"$tmp/series.out"
cp "$tmp/series.out" "$patches/series"

# The tree already has these commits: record it so tree.sh leaves it alone.
want=$(cd "$patches" && { cat series; grep -v '^\s*\(#\|$\)' series | xargs -r cat; } | sha256sum | cut -d' ' -f1)
echo "$want $(git -C "$src" rev-parse HEAD)" >"$(git -C "$src" rev-parse --absolute-git-dir)/csdump-series"
