# SPDX-License-Identifier: GPL-2.0
# good_snapshot DIR TRACE MEM (sourced): a good OpenCSD snapshot in DIR,
# written from the snapshot format, not by csdump: one ETMv4 (trace ID 0x10,
# cpu_0) feeding one ETB whose buffer is the file TRACE, and a 256-byte
# memory dump (the first 256 bytes of MEM) at 0xffff800008010000.
# Used by the corrupt-input suite and the fuzzers' seed corpus.
good_snapshot() {	# DIR TRACE MEM
	local d=$1
	mkdir -p "$d"
	cp "$2" "$d/cstrace.bin"
	head -c 256 "$3" >"$d/mem.bin"
	cat >"$d/snapshot.ini" <<'EOF'
[snapshot]
version=1.0

[device_list]
device0=cpu_0.ini
device1=etm_0.ini

[trace]
metadata=trace.ini
EOF
	cat >"$d/cpu_0.ini" <<'EOF'
[device]
name=cpu_0
class=core
type=Cortex-A57

[dump1]
file=mem.bin
address=0xffff800008010000
length=0x100
EOF
	cat >"$d/etm_0.ini" <<'EOF'
[device]
name=ETM_0
class=trace_source
type=ETM4

[regs]
TRCCONFIGR(0x004)=0x000000C1
TRCTRACEIDR(0x040)=0x00000010
TRCIDR0(0x1E0)=0x28000EA1
TRCIDR1(0x1E4)=0x4100F403
TRCIDR2(0x1E8)=0x00000488
TRCIDR8(0x180)=0x00000000
TRCAUTHSTATUS(0xFB8)=0x000000CC
EOF
	cat >"$d/trace.ini" <<'EOF'
[trace_buffers]
buffers=buffer0

[buffer0]
name=ETB_0
file=cstrace.bin
format=coresight

[source_buffers]
ETM_0=ETB_0

[core_trace_sources]
cpu_0=ETM_0
EOF
}
