#!/usr/bin/env bash
# export.sh SRC: write the commits base..HEAD of the QEMU tree SRC back to
# qemu/patches and its series (scripts/series/export.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
exec "$here/../scripts/series/export.sh" "$1" "$here/patches"
