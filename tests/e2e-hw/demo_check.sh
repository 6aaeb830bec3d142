#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# demo_check.sh: `make demo` on a kernel layout variant (mk/variants.mk),
# a second boot beside the variant's checked exec-etr-sg-sysrq run.
#
#   demo_check.sh FIRST_RUN_DIR
#
# Environment: demo.sh's (E2E_OUT is the demo's own directory).
# The demo must run to its end; its decode of the panicking CPU's stack
# must name the functions the kernel's own oops report names (the
# console's "Call trace:", the kernel's word, not csdump's); and with
# KASLR (E2E_KASLR=1) this boot's offset, printed by the kernel at
# panic, must be non-zero and differ from FIRST_RUN_DIR's: the image really
# moves between boots.  Exit 1 on any failure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
first=$1
: "${E2E_OUT:?}"
mkdir -p "$E2E_OUT"
status=0
fail() { echo "FAIL  $*"; status=1; }

if ! "$here/demo.sh" >"$E2E_OUT/demo.out" 2>&1; then
	tail -n 20 "$E2E_OUT/demo.out"
	fail "make demo failed (see $E2E_OUT/demo.out)"
	exit 1
fi
echo "ok    demo: ran to its end ($(grep '^== seconds' "$E2E_OUT/demo.out"))"

console=$E2E_OUT/exec-etr-sg-sysrq/console.log
# sysrq-c's panic prints the panicking task's call trace: each of its
# functions from panic() down to the system call must be in the demo's
# --stack output (the frames above panic() print the trace, after the
# trace stopped at bust_spinlocks()); a compiler's clone suffix
# (.constprop.0) left off.
# A frame at a function's first instruction (F+0x0) is the return address
# of a call that ended the function before F, a call of a noreturn function
# (sysrq_handle_crash()'s of panic() where nothing follows it: the frame
# reads sysrq_reset_seq_param_set+0x0 on pages16k48): the caller is the
# function before F in vmlinux's symbol table.
before() {
	nm -n "$VMLINUX" | awk -v f="$1" '$2 ~ /^[tT]$/ {
		if ($1 != at) { below = last; at = $1 } last = $3
		if ($3 == f) { print below; exit } }'
}
want=$(sed -n '/Call trace:/,/SMP: stopping/p' "$console" |
	sed -n 's/^\[ *[0-9.]*\]  *\([A-Za-z_0-9.]*\)+\(0x[0-9a-f]*\)\/.*/\1 \2/p' |
	while read -r f off; do
		if [ "$off" = 0x0 ]; then before "$f"; else echo "$f"; fi
	done | sed -n '/^panic$/,$p' | sed 's/\..*//')
[ -n "$want" ] || fail "no call trace in $console"
stack=$(sed -n '/^== csdump decode --stack/,$p' "$E2E_OUT/demo.out")
missing=0
for f in $want; do
	grep -qw -- "$f" <<<"$stack" || { missing=1; echo "      not in the decoded stack: $f"; }
done
if [ "$missing" = 0 ] && [ -n "$want" ]; then
	echo "ok    demo: the decoded stack names the oops report's $(wc -w <<<"$want") functions ($(paste -sd '<' <<<"$want"))"
else
	fail "demo: the decoded stack lacks functions of the kernel's call trace"
fi

if [ "${E2E_KASLR:-}" = 1 ]; then
	a=$(cat "$first/kaslr-offset" 2>/dev/null || true)
	b=$(grep -a -o -m 1 'Kernel Offset: 0x[0-9a-f]*' "$console" | sed 's/.* //' || true)
	if [ -z "$a" ] || [ -z "$b" ] || [ "$((b))" = 0 ] || [ "$((a))" = "$((b))" ]; then
		fail "KASLR: offsets of two boots '${a:-none}' and '${b:-none}': not two different ones"
	else
		echo "ok    KASLR: two boots ran at different offsets ($a, $b)"
	fi
fi
exit $status
