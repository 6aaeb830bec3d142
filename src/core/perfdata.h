/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: a generic perf.data (PERFILE2) writer.
 *
 * It knows the file layout (header, attributes with their ids, the data
 * section, feature sections) and the records every AUX tracer shares; the
 * tracer-specific part (AUXTRACE_INFO) is built by its own module
 * (perf_cs_etm.c for CoreSight ETMv4).  Layout as tools/perf/util/header.c
 * reads it; all values little-endian (the host's order, checked at build).
 *
 * Use: csd_perf_open(), csd_perf_add_attr() for every event, then records
 * (the data section starts at the first one), features, csd_perf_commit().
 */
#ifndef CSD_PERFDATA_H
#define CSD_PERFDATA_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "core/csd_err.h"

/* Record types of the perf tool itself (tools/lib/perf/include/perf/event.h). */
#define CSD_PERF_RECORD_AUXTRACE_INFO	70
#define CSD_PERF_RECORD_AUXTRACE	71

/* Feature bits (tools/perf/util/header.h). */
enum csd_perf_feature {
	CSD_PERF_FEAT_OSRELEASE = 4,
	CSD_PERF_FEAT_ARCH = 6,
	CSD_PERF_FEAT_NRCPUS = 7,
	CSD_PERF_FEAT_AUXTRACE = 18,
	CSD_PERF_FEAT_MAX = 256,
};

/* Values for the sample_id_all trailer of non-sample records. */
struct csd_perf_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
};

struct csd_perf;

enum csd_err csd_perf_open(struct csd_perf **pp, const char *path);
/* Add an event; @ids (at least one) name it in sample_id trailers. */
enum csd_err csd_perf_add_attr(struct csd_perf *p, const struct perf_event_attr *attr,
			       const uint64_t *ids, size_t n_ids);

/*
 * Append a record: @rec starts with a struct perf_event_header whose type
 * and misc are set; the writer sets its size (padding to 8 bytes) and, when
 * @sid is non-NULL and the first attribute has sample_id_all, appends the
 * trailer its sample_type asks for.
 */
void csd_perf_record(struct csd_perf *p, void *rec, size_t len,
		     const struct csd_perf_sample_id *sid);

/*
 * PERF_RECORD_MMAP for the kernel: "[kernel.kallsyms]<ref_sym>", pid -1,
 * PERF_RECORD_MISC_KERNEL; perf relocates vmlinux so that its symbol
 * @ref_sym sits at @ref_addr (pgoff).
 */
void csd_perf_kernel_mmap(struct csd_perf *p, uint64_t start, uint64_t len,
			  const char *ref_sym, uint64_t ref_addr,
			  const struct csd_perf_sample_id *sid);

/* PERF_RECORD_AUX describing @size bytes at @offset of the AUX area. */
void csd_perf_aux(struct csd_perf *p, uint64_t offset, uint64_t size, uint64_t flags,
		  const struct csd_perf_sample_id *sid);

/*
 * PERF_RECORD_AUXTRACE and its payload (padded to 8 bytes), indexed for the
 * HEADER_AUXTRACE feature (written by commit if any was added).
 */
void csd_perf_auxtrace(struct csd_perf *p, const void *data, uint64_t len,
		       uint64_t offset, uint32_t idx, uint32_t tid, uint32_t cpu);

/* Feature sections. */
enum csd_err csd_perf_feat_string(struct csd_perf *p, enum csd_perf_feature feat,
				  const char *s);
enum csd_err csd_perf_feat_nrcpus(struct csd_perf *p, uint32_t avail, uint32_t online);

/* Write features and the final header, and rename into place. Frees @p. */
enum csd_err csd_perf_commit(struct csd_perf *p);
/* Give up: remove the temporary file. Frees @p. */
void csd_perf_abort(struct csd_perf *p);

#endif
