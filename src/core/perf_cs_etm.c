// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the CoreSight part of perf.data: PERF_RECORD_AUXTRACE_INFO with the
 * per-CPU tracer metadata, and the AUX/AUXTRACE records of each sink.
 *
 * perf 6.1 reads header version 1 only; each tracer block is magic, cpu, the
 * number of parameters that follow, then the parameters: an ETMv4 block or
 * an ETE one (csd_tracer_pack()).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/cs_frame.h"
#include "core/diag.h"
#include "core/perf_cs_etm.h"
#include "core/perfdata.h"

#define CS_ETM_AUXTRACE_TYPE	3			/* PERF_AUXTRACE_CS_ETM */
#define CS_HEADER_VERSION	1
#define CS_EVENT_ID		1
#define PERF_MAX_U64S		((0xfff8u - 16u) / 8u)	/* a record's u64s */

static enum csd_err write_auxtrace_info(struct csd_perf *p, const struct csd_dump *d)
{
	size_t n = 3 + d->n_etms * CSD_TRACER_BLOCK_MAX_U64;
	struct {
		struct perf_event_header header;
		uint32_t type, reserved;
		uint64_t priv[PERF_MAX_U64S];
	} *rec;

	if (n > PERF_MAX_U64S) {
		csd_error("perf.data: AUXTRACE_INFO for %zu tracers does not fit one record",
			  d->n_etms);
		return CSD_ERR_FORMAT;
	}
	rec = calloc(1, sizeof(*rec));
	if (!rec)
		return CSD_ERR_NOMEM;
	rec->header.type = CSD_PERF_RECORD_AUXTRACE_INFO;
	rec->type = CS_ETM_AUXTRACE_TYPE;
	rec->priv[0] = CS_HEADER_VERSION;
	rec->priv[1] = (uint64_t)CSD_PERF_CS_ETM_PMU_TYPE << 32 | (uint32_t)d->n_etms;
	rec->priv[2] = 0;	/* not snapshot mode */
	n = 3;
	for (size_t i = 0; i < d->n_etms; i++)
		n += csd_tracer_pack(&d->etms[i], &rec->priv[n]);
	csd_perf_record(p, rec, offsetof(__typeof__(*rec), priv) + n * 8, NULL);
	free(rec);
	return CSD_OK;
}

/*
 * The kernel map, from the start of the kernel image on: by the lowest
 * address of the program image when there is one (the ELF image written
 * with it has `_text` there, see elfimage.h), else by _text, else by
 * _stext (which leaves .head.text out: VMCOREINFO names no _text).
 */
static void write_kernel_mmap(struct csd_perf *p, const struct csd_dump *d,
			      const struct csd_perf_sample_id *sid)
{
	const char *sym = "_text";
	uint64_t addr = 0;

	for (size_t i = 0; i < d->n_segs; i++)
		if (!d->segs[i].module && (!addr || d->segs[i].vaddr < addr))
			addr = d->segs[i].vaddr;
	if (!addr)
		addr = d->kernel_text;
	if (!addr && d->kernel_stext) {
		sym = "_stext";
		addr = d->kernel_stext;
	}
	if (!addr)
		csd_warn("perf.data: kernel address unknown; perf will not find the kernel's code");
	csd_perf_kernel_mmap(p, addr, UINT64_MAX - addr, sym, addr, sid);
}

static uint32_t nr_cpus(const struct csd_dump *d)
{
	uint64_t max = 0;

	for (size_t i = 0; i < d->n_etms; i++)
		if (d->etms[i].cpu + 1 > max)
			max = d->etms[i].cpu + 1;
	return max > UINT32_MAX ? UINT32_MAX : (uint32_t)max;
}

static void write_features(struct csd_perf *p, const struct csd_dump *d)
{
	csd_perf_feat_string(p, CSD_PERF_FEAT_ARCH, "aarch64");
	csd_perf_feat_nrcpus(p, nr_cpus(d), (uint32_t)d->n_etms);
	if (d->osrelease[0])
		csd_perf_feat_string(p, CSD_PERF_FEAT_OSRELEASE, d->osrelease);
}

/* One AUX + AUXTRACE queue: @len bytes of trace ID @id, framed. */
static enum csd_err write_queue(struct csd_perf *p, uint8_t id, const uint8_t *data, size_t len,
				uint64_t *aux_offset, uint32_t *idx)
{
	/* Per-thread mode: no pid, tid or cpu, as on the AUXTRACE records. */
	const struct csd_perf_sample_id sid = {
		.pid = UINT32_MAX, .tid = UINT32_MAX, .cpu = UINT32_MAX, .id = CS_EVENT_ID,
	};
	uint8_t *frames;
	size_t n;

	if (csd_frames_format(id, data, len, &frames, &n))
		return CSD_ERR_NOMEM;
	csd_perf_aux(p, *aux_offset, n, 0, &sid);
	csd_perf_auxtrace(p, frames, n, *aux_offset, (*idx)++, UINT32_MAX, UINT32_MAX);
	*aux_offset += n;
	free(frames);
	return CSD_OK;
}

/*
 * One sink: its trace split by trace ID and re-framed, one AUX + AUXTRACE
 * queue per ETM.  perf 6.1 decodes a per-thread queue with a single packet
 * history, so a queue mixing several CPUs' trace would pair one CPU's range
 * with the next CPU's packet; one ID per queue keeps each CPU's branches its own.
 * A raw sink (a TRBE's, a source_data buffer) is one trace unit's stream: framed
 * with that unit's trace ID, it is one such queue.
 */
static enum csd_err write_sink(struct csd_perf *p, const struct csd_dump *d,
			       const struct csd_sink *s, const char *path,
			       uint64_t *aux_offset, uint32_t *idx)
{
	struct csd_streams st = { 0 };
	enum csd_err err = CSD_OK;

	if (!(s->flags & CSD_F_FORMATTED)) {
		if (!s->source_known || !csd_trace_id_valid(s->source_id) ||
		    !csd_dump_etm_by_trace_id(d, s->source_id)) {
			csd_warn("%s: sink %s holds raw trace of no trace unit with a valid "
				 "trace ID, left out of perf.data", path, s->name);
			return CSD_OK;
		}
		return s->len ? write_queue(p, s->source_id, s->data, s->len, aux_offset, idx) :
		       CSD_OK;
	}
	if (csd_frames_demux(s->data, s->len, &st))
		return CSD_ERR_NOMEM;
	for (size_t i = 0; i < d->n_etms && !err; i++) {
		uint8_t id = csd_etm_trace_id(&d->etms[i]);

		if (id < CSD_TRACE_ID_MAX && st.len[id])
			err = write_queue(p, id, st.data[id], st.len[id], aux_offset, idx);
	}
	csd_streams_free(&st);
	return err;
}

enum csd_err csd_perf_write_cs_etm(const struct csd_dump *d, const char *path)
{
	const struct perf_event_attr attr = {
		.type = CSD_PERF_CS_ETM_PMU_TYPE,
		.size = sizeof(attr),
		/* What perf record asks for; script checks fields against it. */
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_IDENTIFIER,
		.sample_id_all = 1,
		.disabled = 1,
		/* config has no ETM_OPT_TS: perf decodes in timeless mode. */
	};
	const uint64_t id = CS_EVENT_ID;
	const struct csd_perf_sample_id sid = {
		.pid = UINT32_MAX, .tid = UINT32_MAX, .cpu = UINT32_MAX, .id = CS_EVENT_ID,
	};
	struct csd_perf *p;
	uint64_t aux_offset = 0;
	uint32_t idx = 0;
	enum csd_err err;

	if (!d->n_etms) {
		csd_error("%s: no ETM metadata: perf cannot decode without it", path);
		return CSD_ERR_NOTRACE;
	}
	err = csd_perf_open(&p, path);
	if (err)
		return err;
	err = csd_perf_add_attr(p, &attr, &id, 1);
	if (!err)
		err = write_auxtrace_info(p, d);
	if (err) {
		csd_perf_abort(p);
		return err;
	}
	write_kernel_mmap(p, d, &sid);
	for (size_t i = 0; i < d->n_sinks && !err; i++)
		err = write_sink(p, d, &d->sinks[i], path, &aux_offset, &idx);
	if (err) {
		csd_perf_abort(p);
		return err;
	}
	if (!idx) {
		csd_error("%s: no trace of a known trace ID to write", path);
		csd_perf_abort(p);
		return CSD_ERR_NOTRACE;
	}
	write_features(p, d);
	return csd_perf_commit(p);
}
