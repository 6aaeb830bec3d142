/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the coresight-kdump registry in a crashed kernel's memory
 * (docs/record-abi.md), walked as hostile data through a memory source.
 */
#ifndef CSD_REGISTRY_H
#define CSD_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/dump.h"
#include "core/mem.h"

#define CSD_REC_MAGIC		0x444b5343u	/* "CSKD" */
#define CSD_REC_VERSION		3	/* the newest this csdump reads */
#define CSD_REC_VERSION_MIN	1	/* version 2 added the stop fields, 3 sink_status */
#define CSD_REC_SIZE		128
#define CSD_REC_KIND_TRACE	1
#define CSD_REC_KIND_ETM	2
/* A metadata record's data: perf's ETMv4 or ETE block (dump.h) */
#define CSD_REC_ETM_LEN		CSD_ETM4_BLOCK_LEN
#define CSD_REC_ETE_LEN		CSD_ETE_BLOCK_LEN
#define CSD_REGISTRY_MAX_NODES	1024		/* the kernel has at most 64 */
#define CSD_REC_MAX_CAPACITY	(1ull << 30)	/* larger is taken as corrupt */

enum csd_rec_state {
	CSD_REC_OK,		/* intact and saved: its data can be read */
	CSD_REC_UNSAVED,	/* intact, no SAVED flag: nothing to extract */
	CSD_REC_BAD,		/* failed a check; see problem */
};

/* One record as found in memory (fields as in the ABI), and its verdict. */
struct csd_record {
	uint64_t addr;			/* kernel virtual address of the record */
	uint32_t magic;
	uint16_t version, rec_size, kind, flags;
	int32_t cpu;
	char name[32];
	uint64_t buf_vaddr, buf_paddr, capacity, data_len, data_offset;
	uint32_t data_crc, trace_id;
	uint64_t stop_addr;		/* version 2 */
	uint16_t stop_reason;		/* version 2: enum csd_stop */
	uint64_t sink_status;		/* version 3: a TRBE's TRBSR_EL1 at its save, or 0 */
	enum csd_rec_state state;
	bool crc_checked, crc_ok;	/* set once the data was read */
	char problem[160];		/* why state is CSD_REC_BAD */
};

struct csd_registry {
	uint64_t head;			/* SYMBOL(coresight_kdump_list) */
	uint64_t version;		/* NUMBER(CORESIGHT_KDUMP_VERSION) */
	uint64_t flags_defined;		/* NUMBER(CORESIGHT_KDUMP_FLAGS), 0 when absent */
	struct csd_record *recs;	/* in list order */
	size_t n;
	size_t n_bad;
	bool cut;			/* the walk stopped early (loop, bound, bad link) */
	char cut_reason[160];
};

/*
 * Walk the registry of @m: read VMCOREINFO's keys and every record's 128
 * bytes (not their data).  CSD_ERR_NOREGISTRY if VMCOREINFO lacks the
 * registry; CSD_ERR_CORRUPT if its head cannot be read.  Bad records and a
 * cut list are reported (diag.h) and recorded in @reg, not errors.
 */
enum csd_err csd_registry_walk(const struct csd_mem *m, struct csd_registry *reg);
void csd_registry_free(struct csd_registry *reg);

/*
 * Read the data of @r (CSD_REC_OK, one of @reg's) in trace order and check
 * its CRC and, for metadata, its contents; on failure @r becomes CSD_REC_BAD
 * (reported, and counted in @reg->n_bad) and CSD_ERR_CORRUPT or
 * CSD_ERR_UNMAPPED is returned.  *@data is malloc'ed.
 */
enum csd_err csd_record_read(const struct csd_mem *m, struct csd_registry *reg,
			     struct csd_record *r, uint8_t **data, size_t *len);

/*
 * Walk and load everything into @d: each intact saved trace record becomes a
 * sink, each metadata record an ETM; VMCOREINFO's KERNELOFFSET, _stext,
 * _text and OSRELEASE fill the kernel fields.  @reg (zeroed by the caller,
 * freed with csd_registry_free()) keeps the verdicts.  CSD_ERR_NOTRACE if
 * no record holds saved trace and none is bad; CSD_ERR_CORRUPT if none is
 * usable and some are bad.
 */
enum csd_err csd_registry_load(const struct csd_mem *m, struct csd_registry *reg,
			       struct csd_dump *d);

/*
 * "saved,wrapped,formatted,in-place,failed,faulted,flush-timeout,stale" for @flags,
 * into @buf; bits the ABI does not define follow as one hex mask ("0x8100").
 */
#define CSD_REC_FLAGS_STR_MAX 80	/* every name and a mask fit */
const char *csd_rec_flags_str(uint16_t flags, char *buf, size_t size);

/*
 * What an intact trace record of @reg says about its save, in words: why
 * nothing was saved ("save failed: ...", "not saved: ..."), or the caveat of
 * saved data ("flush timed out: ..."; *@caveat set).  NULL when there is
 * nothing to say (a complete save, a metadata or a bad record).
 */
const char *csd_rec_verdict(const struct csd_registry *reg, const struct csd_record *r,
			    bool *caveat);

#endif
