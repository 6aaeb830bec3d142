#!/usr/bin/env bash
# profile.sh CSDUMP SNAPSHOT_DIR WORK: a trace unit of an M-profile core is
# refused (named, skipped), one of a core of unknown type decoded with a
# warning, never silently with the A-profile decoder (issue 17, defect 6).
# On a copy of juno_r1_1 (under WORK) whose cpu_3 is made a Cortex-M33 and
# cpu_4 a "Frobnicator-9"; the other CPUs decode as in the original.
set -u
csdump=$1 snap=$2 work=$3
[ -d "$snap" ] || { echo "skip: $snap is absent"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
cp -r "$snap" "$work/snap"
sed -i 's/^type=.*/type=Cortex-M33/' "$work/snap/cpu_3.ini"
sed -i 's/^type=.*/type=Frobnicator-9/' "$work/snap/cpu_4.ini"
fail=0
"$csdump" decode "$work/snap" --format jsonl --last 0 >"$work/out" 2>"$work/err"; rc=$?
"$csdump" decode "$snap" --format jsonl --last 0 >"$work/orig" 2>/dev/null
echo "exit $rc"; grep -v ignored "$work/err"
[ "$rc" = 0 ] || { echo "FAIL: exit $rc, want 0 (a skipped trace source, as the others)"; fail=1; }
grep -q 'ETM_3 traces core cpu_3 of type Cortex-M33, an M-profile core: .*skipped' "$work/err" ||
	{ echo "FAIL: the M-profile core's trace unit is not refused by name"; fail=1; }
grep -q "ETM_4 traces core cpu_4 of unknown type 'Frobnicator-9': decoded as an A-profile" \
	"$work/err" || { echo "FAIL: no warning for the core of unknown type"; fail=1; }
if grep -q '"cpu":3,' "$work/out"; then
	echo "FAIL: CPU 3 (M-profile) decoded with the A-profile decoder"; fail=1
fi
# Every other CPU as decoded from the original snapshot.
for cpu in 0 1 2 4 5; do
	if ! cmp -s <(grep "\"cpu\":$cpu," "$work/out") <(grep "\"cpu\":$cpu," "$work/orig"); then
		echo "FAIL: CPU $cpu decodes differently"; fail=1
	fi
done
# The core names OpenCSD knows as A-profile stay silent.
for t in Cortex-A53 ARMv8-A ARMv8.2-A ARM-AA64 Neoverse-N1; do
	sed -i "s/^type=.*/type=$t/" "$work/snap/cpu_3.ini" "$work/snap/cpu_4.ini"
	"$csdump" decode "$work/snap" --format jsonl >/dev/null 2>"$work/err.$t"
	if grep -q -- '-profile core\|unknown type' "$work/err.$t"; then
		echo "FAIL: type $t: $(grep -m1 -- '-profile core\|unknown type' "$work/err.$t")"; fail=1
	fi
done
[ $fail = 0 ] && echo "ok: M-profile refused, unknown type warned, A-profile names silent"
exit $fail
