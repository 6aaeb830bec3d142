# SPDX-License-Identifier: GPL-2.0
# Shared by the corrupt-input scripts (sourced).  Each case runs one csdump
# command under `timeout` (and under $CORRUPT_WRAP, e.g. valgrind, when set)
# (CORRUPT_ONE set: one command per case, for the slow valgrind pass)
# and checks: the exit status, no sanitizer or valgrind report, exactly one
# "error:" line naming the problem when it fails (a warning naming it when
# records were skipped), and no temporary or half-written file left.
set -u
: "${CORRUPT_TIMEOUT:=60}"
read -r -a wrap <<<"${CORRUPT_WRAP:-}"
fails=0 cases=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run NAME CMD...: run csdump's command, stdout/stderr to $work/NAME.{out,err}.
run() {
	local name=$1; shift
	rc=0
	timeout -k 5 "$CORRUPT_TIMEOUT" ${wrap[@]+"${wrap[@]}"} "$@" \
		>"$work/$name.out" 2>"$work/$name.err" || rc=$?
}

# verdict NAME WANT_RC REGEX [info]: with "info" and a listing (exit 0, 4
# or 5), the listing on stdout (not stderr) must name the bad record or the
# cut; a failing info is checked as any other command.
verdict() {
	local name=$1 want=$2 re=$3 err=$work/$1.err
	cases=$((cases + 1))
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		fail "$name: no answer within ${CORRUPT_TIMEOUT}s"; return
	fi
	if grep -Eq 'Sanitizer|runtime error:|^==[0-9]+== [A-Z]' "$err"; then
		fail "$name: sanitizer/valgrind report"; sed 's/^/    /' "$err" | head -40; return
	fi
	if [ "$rc" -ne "$want" ]; then
		fail "$name: exit $rc, expected $want"; sed 's/^/    /' "$err" | head -10; return
	fi
	if [ "${4:-}" = info ] && { [ "$want" -eq 0 ] || [ "$want" -ge 4 ]; }; then
		[ "$want" -ne 5 ] || grep -Eq 'BAD: |^list cut: ' "$work/$name.out" ||
			fail "$name: the listing names no bad record"
		[ "$want" -ne 0 ] || ! grep -q 'BAD: ' "$work/$name.out" ||
			fail "$name: a record listed as bad"
		echo "ok $name (exit $rc)"
		return
	fi
	messages "$@"
}

# messages NAME WANT_RC REGEX: check the last run; REGEX ("-": none) must
# match one of its error or warning lines.
messages() {
	local name=$1 want=$2 re=$3 err=$work/$1.err
	if [ "$want" -ne 0 ] && [ "$want" -ne 5 ]; then
		local n
		n=$(grep -c '^csdump: error: ' "$err")
		[ "$n" -ge 1 ] && [ "$n" -le "${max_errors:-1}" ] ||
			{ fail "$name: $n error lines, expected 1"; sed 's/^/    /' "$err"; }
	fi
	if [ "$re" != - ]; then
		grep -E '^csdump: (warning|error): ' "$err" | grep -Eq -- "$re" ||
			{ fail "$name: no message matching /$re/"; sed 's/^/    /' "$err"; }
	fi
	[ -n "$(awk 'length > 400' "$err")" ] && fail "$name: a message longer than 400 bytes"
	echo "ok $name (exit $rc): $(grep -E '^csdump: (error|warning)' "$err" | tail -n 1)"
}

# no_leftovers DIR...: no temporary files anywhere below DIR.
no_leftovers() {
	local left
	left=$(find "$@" -name '*.tmp*' 2>/dev/null)
	[ -z "$left" ] || fail "temporary files left: $left"
}
