#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# unit-install: `make install PREFIX=/usr DESTDIR=...` puts the binary and the
# man page where they belong, and the installed binary runs.
set -eu
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
make --no-print-directory install PREFIX=/usr DESTDIR="$dest"
test -x "$dest/usr/bin/csdump"
test -s "$dest/usr/share/man/man1/csdump.1"
"$dest/usr/bin/csdump" --help | grep -q "exit status"
man -l "$dest/usr/share/man/man1/csdump.1" 2>/dev/null | grep -q "EXIT STATUS" ||
	{ command -v man >/dev/null && exit 1; }
echo "installed: $(cd "$dest" && find . -type f | sort | tr '\n' ' ')"
