# Sourced by the tests of tests/decode: what they share.
here=$(dirname "${BASH_SOURCE[0]}")

# need_snapshot DIR: skip (77) the test when DIR or trc_pkt_lister is absent.
need_snapshot() {
	[ -d "$1" ] || { echo "skip: $1 is absent"; exit 77; }
	command -v trc_pkt_lister >/dev/null || { echo "skip: trc_pkt_lister not installed"; exit 77; }
}

# juno_syms WORK: WORK/syms.elf, bench/mksyms.py's symbol table for the Juno
# kernel, and WORK/syms.nm, nm's reading of it (nmsyms.py reads that); skip
# (77) without nm.  The Python oracles import nmsyms and trace_seq from here.
juno_syms() {
	command -v nm >/dev/null || { echo "skip: nm not installed"; exit 77; }
	"$here/../../bench/mksyms.py" "$1/syms.elf" 0xffffffc000080000 0xffffffc000600000 >/dev/null
	nm -S --defined-only "$1/syms.elf" >"$1/syms.nm"
}
export PYTHONPATH="$(cd "$here" && pwd)${PYTHONPATH:+:$PYTHONPATH}"

# fresh_work SNAPSHOT_DIR WORK: need_snapshot, then WORK empty.
fresh_work() {
	need_snapshot "$1"
	rm -rf "$2"
	mkdir -p "$2"
}

# encoded ENC PROG WORK ARGS...: skip (77) without the project's encoder or
# PROG; then WORK empty but for WORK/enc, the encoder's trace of PROG
# (etm4enc's options ARGS).
encoded() {
	local enc=$1 prog=$2 work=$3
	shift 3
	[ -x "$enc" ] && [ -f "$prog" ] || { echo "skip: no encoder or $prog"; exit 77; }
	rm -rf "$work"
	mkdir -p "$work"
	"$enc" --elf "$prog" -o "$work/enc" "$@" >/dev/null
}

# lister_seq SNAPSHOT_DIR OUT: trc_pkt_lister's decode, normalised by
# trace_seq.py, into OUT (its raw listing in OUT.ppl).
lister_seq() {
	local snap out
	snap=$(cd "$1" && pwd)
	out=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
	rm -f "$out.ppl"	# trc_pkt_lister appends to its log file
	# It lists one buffer (the first, or -src_name's): a snapshot of raw
	# buffers only, one per trace unit (a sink per CPU), or whose trace
	# units each have a buffer of their own ([source_buffers]; an ETF per
	# CPU keeps its frames when it did not wrap), is listed buffer by
	# buffer into the one log.
	local names
	names=$(awk -F= '/^\[/ { b = 0; s = 0 } /^\[buffer/ { b = 1 }
		/^\[source_buffers\]/ { s = 1 }
		b && $1 == "name" { n = n " " $2 }
		b && $1 == "format" && $2 != "source_data" { raw = -1 }
		s && NF == 2 { if (own[$2]++) shared = 1; o = o " " $2; c++ }
		END { if (raw == 0 && split(n, x, " ") > 1) print n
		      else if (c > 1 && !shared) print o }' "$snap/trace.ini")
	if [ -n "$names" ]; then
		for n in $names; do
			(cd "$(dirname "$out")" && trc_pkt_lister -ss_dir "$snap" -decode \
				-src_name "$n" -logfilename "$(basename "$out").ppl" >/dev/null)
		done
	else
		(cd "$(dirname "$out")" && trc_pkt_lister -ss_dir "$snap" -decode \
			-logfilename "$(basename "$out").ppl" >/dev/null)
	fi
	"$here/trace_seq.py" ppl "$out.ppl" >"$out"
}
