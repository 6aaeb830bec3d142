/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the in-memory model of one trace capture.
 *
 * Every input (a vmcore's registry, an OpenCSD snapshot directory, a directory
 * written by `csdump extract`) is turned into a struct csd_dump; every output
 * (raw files, perf.data, snapshot, the decoder) is made from one.
 */
#ifndef CSD_DUMP_H
#define CSD_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/trace_id.h"

#define CSD_NAME_MAX 32
/* Pieces of kernel text: vmlinux's resident text sections, module code runs. */
#define CSD_KTEXT_MAX 80

/* Record flags: the values of the kernel ABI (docs/record-abi.md). */
#define CSD_F_SAVED	(1u << 0)
#define CSD_F_WRAPPED	(1u << 1)
#define CSD_F_FORMATTED	(1u << 2)
#define CSD_F_IN_PLACE	(1u << 3)
#define CSD_F_FAILED	(1u << 4)	/* the panic save started and did not complete */
#define CSD_F_FAULTED	(1u << 5)	/* with FAILED: it faulted */
#define CSD_F_FLUSH_TIMEOUT (1u << 6)	/* with SAVED: the last bytes may be missing;
					 * with FAILED: the sink never confirmed its stop */
#define CSD_F_STALE	(1u << 7)	/* with SAVED: a TRBE whose CPU never stopped:
					 * where its trace ends is not known */

/* The trace unit's architecture: ETMv4, or the Armv9 ETE (a superset of it). */
enum csd_tracer {
	CSD_TRACER_ETM4 = 0,	/* the default of a zeroed struct csd_etm */
	CSD_TRACER_ETE,
};

/*
 * ETMv4 decode metadata, in the order of perf's per-CPU block; an ETE has
 * TRCDEVARCH besides (perf's ETE block, below).
 */
struct csd_etm {
	uint64_t cpu;
	uint64_t trcconfigr;
	uint64_t trctraceidr;
	uint64_t trcidr0;
	uint64_t trcidr1;
	uint64_t trcidr2;
	uint64_t trcidr8;
	uint64_t trcauthstatus;
	uint64_t trcdevarch;	/* ETE only */
	enum csd_tracer kind;
	/* What ended this CPU's trace: a registry record of version 2 says. */
	bool stop_known;
	uint16_t stop_reason;	/* enum csd_stop */
	uint64_t stop_addr;	/* the faulting or interrupted instruction, or 0 */
};

/* Values of a record's stop_reason (docs/record-abi.md). */
enum csd_stop {
	CSD_STOP_NONE = 0,	/* not recorded */
	CSD_STOP_FAULT = 1,	/* an oops that panicked began on the CPU */
	CSD_STOP_PANIC = 2,	/* panic() on the CPU, no oops before */
	CSD_STOP_IPI = 3,	/* the crash-stop IPI reached the CPU */
};

/* "fault", "panic", "ipi", "none"; NULL for a value the ABI does not define. */
const char *csd_stop_name(uint16_t reason);

/*
 * perf's ETMv4 metadata block (tools/perf/util/cs-etm.h, CS_ETMV4_*): magic,
 * CPU, parameter count, then struct csd_etm's seven registers.  A metadata
 * record of the registry, an extract directory's metadata.bin and perf.data's
 * AUXTRACE_INFO each hold one per tracer; these are its only pack and unpack.
 */
#define CSD_ETM4_MAGIC		0x4040404040404040ull
#define CSD_ETM4_NR_PARAMS	7
#define CSD_ETM4_BLOCK_U64	(3 + CSD_ETM4_NR_PARAMS)
#define CSD_ETM4_BLOCK_LEN	(CSD_ETM4_BLOCK_U64 * 8)

void csd_etm4_pack(const struct csd_etm *etm, uint64_t out[CSD_ETM4_BLOCK_U64]);

/*
 * perf's ETE block (tools/perf/util/cs-etm.h, CS_ETE_*): the ETMv4 one with
 * its own magic and TRCDEVARCH after TRCAUTHSTATUS.
 */
#define CSD_ETE_MAGIC		0x5050505050505050ull
#define CSD_ETE_NR_PARAMS	(CSD_ETM4_NR_PARAMS + 1)
#define CSD_ETE_BLOCK_U64	(3 + CSD_ETE_NR_PARAMS)
#define CSD_ETE_BLOCK_LEN	(CSD_ETE_BLOCK_U64 * 8)
#define CSD_TRACER_BLOCK_MAX_U64 CSD_ETE_BLOCK_U64

/* @etm's perf block, ETMv4 or ETE by its kind, into @out; its length in u64s. */
size_t csd_tracer_pack(const struct csd_etm *etm, uint64_t out[CSD_TRACER_BLOCK_MAX_U64]);

/* Fill @etm from @in; false if @in is not an ETMv4 block (magic, count). */
bool csd_etm4_unpack(const uint64_t in[CSD_ETM4_BLOCK_U64], struct csd_etm *etm);

/*
 * Fill @etm from the ETMv4 or ETE block at @in, of which @n u64s are there;
 * the block's length in u64s, or 0 if @in holds neither (magic, count, @n).
 */
size_t csd_tracer_unpack(const uint64_t *in, size_t n, struct csd_etm *etm);

/* One sink's trace, in trace order (circular buffers already unrolled). */
struct csd_sink {
	char name[CSD_NAME_MAX];
	uint8_t *data;
	size_t len;
	uint32_t flags;		/* CSD_F_* */
	bool source_known;	/* raw (not CSD_F_FORMATTED): source_id is its one source's */
	uint8_t source_id;	/* trace ID, which may be 0 (a raw stream carries no IDs) */
	uint8_t one_source;	/* formatted: the one source the record names, or 0 */
};

/* One piece of the traced program's memory (a snapshot dump, an ELF segment). */
struct csd_seg {
	uint64_t vaddr;
	uint8_t *data;
	size_t len;
	char name[64];		/* where it came from, for messages */
	bool module;		/* module code, outside the kernel image (modtext.h) */
};

struct csd_dump {
	struct csd_sink *sinks;
	size_t n_sinks;
	struct csd_etm *etms;
	size_t n_etms;
	struct csd_seg *segs;	/* program image; may be empty */
	size_t n_segs;
	/*
	 * The kernel text as it ran (patched by the kernel), which an extract
	 * directory carries for the decode to lay over vmlinux's; may be empty.
	 */
	struct csd_seg *ktext;	/* at most CSD_KTEXT_MAX */
	size_t n_ktext;
	uint64_t kernel_text;	/* runtime address of _text, 0 if unknown */
	uint64_t kaslr_offset;	/* KERNELOFFSET from VMCOREINFO, 0 if none */
	uint64_t kernel_stext;	/* runtime address of _stext, 0 if unknown */
	char osrelease[65];	/* OSRELEASE from VMCOREINFO, "" if unknown */
};

void csd_dump_free(struct csd_dump *d);

/*
 * Builders.  Each appends a copy of the descriptor; ownership of @data passes
 * to the dump (also on failure, where it is freed).  NULL means out of
 * memory, already reported (csd_err.h).
 */
struct csd_sink *csd_dump_add_sink(struct csd_dump *d, const char *name,
				   uint8_t *data, size_t len, uint32_t flags);
struct csd_etm *csd_dump_add_etm(struct csd_dump *d, const struct csd_etm *etm);
struct csd_seg *csd_dump_add_seg(struct csd_dump *d, const char *name,
				 uint64_t vaddr, uint8_t *data, size_t len);
struct csd_seg *csd_dump_add_ktext(struct csd_dump *d, const char *name,
				   uint64_t vaddr, uint8_t *data, size_t len);

/* Does [@vaddr, @vaddr + @len) overlap one of @d's first @n_segs segments? */
bool csd_dump_segs_overlap(const struct csd_dump *d, size_t n_segs, uint64_t vaddr,
			   uint64_t len);

/* The trace ID of an ETMv4 or ETE (TRCTRACEIDR.TRACEID, bits [6:0]). */
static inline uint8_t csd_etm_trace_id(const struct csd_etm *etm)
{
	return (uint8_t)(etm->trctraceidr & CSD_TRACE_ID_MASK);
}

/*
 * Does @etm trace an Armv8.3-or-later AArch64 PE, whose instruction set
 * (PAC branches, for one) the decoder must know?  Every ETE does (it is
 * Armv9's); an ETMv4 when TRCIDR1.TRCARCHMIN (bits [7:4]) >= 4, ETMv4.4+.
 */
static inline bool csd_etm_is_v83(const struct csd_etm *etm)
{
	return etm->kind == CSD_TRACER_ETE || ((etm->trcidr1 >> 4) & 0xf) >= 4;
}

/*
 * The file names (without ".bin") of @d's sinks, one per sink in order: the
 * device name with anything but [A-Za-z0-9_-] made '_' ("sinkN" when that
 * leaves nothing), and "-N" (N the sink's index) added while it equals the
 * name of an earlier sink.  An extract directory and a snapshot name their
 * files so.  The array is malloc'ed; NULL when out of memory (reported).
 */
#define CSD_SINK_FILE_MAX 56
char (*csd_sink_names(const struct csd_dump *d))[CSD_SINK_FILE_MAX];

/* The ETM with trace ID @id, or NULL. */
const struct csd_etm *csd_dump_etm_by_trace_id(const struct csd_dump *d, uint8_t id);

#endif
