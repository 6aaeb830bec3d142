// SPDX-License-Identifier: GPL-2.0
/* csdump: a generic perf.data writer (file layout, shared records, features). */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/fileio.h"
#include "core/perfdata.h"

#if __BYTE_ORDER != __LITTLE_ENDIAN
#error "perf.data is written in host order; csdump writes little-endian files only"
#endif

#define PERF_MAGIC2	0x32454c4946524550ull	/* "PERFILE2" */
#define NAME_ALIGN	64			/* feature strings (header.c) */
#define MAX_RECORD	0xfff8u			/* perf_event_header.size is a u16 */

struct file_section {
	uint64_t offset;
	uint64_t size;
};

struct file_header {
	uint64_t magic;
	uint64_t size;
	uint64_t attr_size;
	struct file_section attrs;
	struct file_section data;
	struct file_section event_types;
	uint64_t features[CSD_PERF_FEAT_MAX / 64];
};

struct file_attr {
	struct perf_event_attr attr;
	struct file_section ids;
};

struct perf_attr_entry {
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t n_ids;
};

struct index_entry {
	uint64_t file_offset;
	uint64_t size;
};

struct csd_perf {
	struct csd_atomic out;
	struct perf_attr_entry *attrs;
	size_t n_attrs;
	uint64_t data_offset;		/* 0 until the data section starts */
	struct index_entry *index;	/* AUXTRACE records */
	size_t n_index;
	void *feat[CSD_PERF_FEAT_MAX];
	size_t feat_len[CSD_PERF_FEAT_MAX];
	enum csd_err err;
};

enum csd_err csd_perf_open(struct csd_perf **pp, const char *path)
{
	struct file_header zero = { 0 };
	struct csd_perf *p = calloc(1, sizeof(*p));
	enum csd_err err;

	*pp = NULL;
	if (!p)
		return CSD_ERR_NOMEM;
	err = csd_atomic_open(&p->out, path);
	if (err) {
		free(p);
		return err;
	}
	csd_atomic_write(&p->out, &zero, sizeof(zero));	/* rewritten by commit */
	*pp = p;
	return CSD_OK;
}

enum csd_err csd_perf_add_attr(struct csd_perf *p, const struct perf_event_attr *attr,
			       const uint64_t *ids, size_t n_ids)
{
	struct perf_attr_entry *arr, *e;

	if (p->data_offset || !n_ids) {
		csd_error("%s: attributes must come first and have an id", p->out.path);
		return p->err = CSD_ERR_USAGE;
	}
	arr = realloc(p->attrs, (p->n_attrs + 1) * sizeof(*arr));
	if (!arr)
		return p->err = CSD_ERR_NOMEM;
	p->attrs = arr;
	e = &arr[p->n_attrs];
	e->attr = *attr;
	e->attr.size = sizeof(*attr);
	e->ids = malloc(n_ids * sizeof(*ids));
	if (!e->ids)
		return p->err = CSD_ERR_NOMEM;
	memcpy(e->ids, ids, n_ids * sizeof(*ids));
	e->n_ids = n_ids;
	p->n_attrs++;
	return CSD_OK;
}

/* Write the id arrays and the attribute section; the data section follows. */
static void begin_data(struct csd_perf *p)
{
	uint64_t ids_at = p->out.pos;

	if (p->data_offset)
		return;
	for (size_t i = 0; i < p->n_attrs; i++)
		csd_atomic_write(&p->out, p->attrs[i].ids, p->attrs[i].n_ids * sizeof(uint64_t));
	for (size_t i = 0; i < p->n_attrs; i++) {
		struct file_attr fa = {
			.attr = p->attrs[i].attr,
			.ids = { ids_at, p->attrs[i].n_ids * sizeof(uint64_t) },
		};

		ids_at += fa.ids.size;
		csd_atomic_write(&p->out, &fa, sizeof(fa));
	}
	p->data_offset = p->out.pos;
}

/* Append the sample_id_all trailer of the first attribute to @buf; its length. */
static size_t sample_id(const struct csd_perf *p, const struct csd_perf_sample_id *sid,
			uint8_t *buf)
{
	uint64_t type, v[8];
	size_t n = 0;

	if (!sid || !p->n_attrs || !p->attrs[0].attr.sample_id_all)
		return 0;
	type = p->attrs[0].attr.sample_type;
	if (type & PERF_SAMPLE_TID)
		v[n++] = (uint64_t)sid->tid << 32 | sid->pid;
	if (type & PERF_SAMPLE_TIME)
		v[n++] = sid->time;
	if (type & PERF_SAMPLE_ID)
		v[n++] = sid->id;
	if (type & PERF_SAMPLE_STREAM_ID)
		v[n++] = sid->stream_id;
	if (type & PERF_SAMPLE_CPU)
		v[n++] = sid->cpu;
	if (type & PERF_SAMPLE_IDENTIFIER)
		v[n++] = sid->id;
	memcpy(buf, v, n * sizeof(v[0]));
	return n * sizeof(v[0]);
}

void csd_perf_record(struct csd_perf *p, void *rec, size_t len,
		     const struct csd_perf_sample_id *sid)
{
	uint8_t buf[MAX_RECORD + 64] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)buf;
	size_t size = (len + 7) & ~(size_t)7;

	if (p->err)
		return;
	if (size > MAX_RECORD) {
		csd_error("%s: a %zu-byte record does not fit perf's 16-bit size", p->out.path,
			  len);
		p->err = CSD_ERR_USAGE;
		return;
	}
	begin_data(p);
	memcpy(buf, rec, len);
	size += sample_id(p, sid, buf + size);
	h->size = (uint16_t)size;
	csd_atomic_write(&p->out, buf, size);
}

void csd_perf_kernel_mmap(struct csd_perf *p, uint64_t start, uint64_t len,
			  const char *ref_sym, uint64_t ref_addr,
			  const struct csd_perf_sample_id *sid)
{
	struct {
		struct perf_event_header header;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		char filename[256];
	} rec = {
		.header = { .type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL },
		.pid = UINT32_MAX,
		.tid = 0,
		.start = start,
		.len = len,
		.pgoff = ref_addr,
	};
	int n = snprintf(rec.filename, sizeof(rec.filename), "[kernel.kallsyms]%s", ref_sym);

	csd_perf_record(p, &rec, offsetof(__typeof__(rec), filename) + (size_t)n + 1, sid);
}

void csd_perf_aux(struct csd_perf *p, uint64_t offset, uint64_t size, uint64_t flags,
		  const struct csd_perf_sample_id *sid)
{
	struct {
		struct perf_event_header header;
		uint64_t aux_offset, aux_size, flags;
	} rec = {
		.header = { .type = PERF_RECORD_AUX },
		.aux_offset = offset,
		.aux_size = size,
		.flags = flags,
	};

	csd_perf_record(p, &rec, sizeof(rec), sid);
}

void csd_perf_auxtrace(struct csd_perf *p, const void *data, uint64_t len,
		       uint64_t offset, uint32_t idx, uint32_t tid, uint32_t cpu)
{
	static const uint8_t pad[8];
	uint64_t padded = (len + 7) & ~7ull;
	struct {
		struct perf_event_header header;
		uint64_t size, offset, reference;
		uint32_t idx, tid, cpu, reserved;
	} rec = {
		.header = { .type = CSD_PERF_RECORD_AUXTRACE, .size = sizeof(rec) },
		.size = padded,
		.offset = offset,
		.reference = p->n_index,
		.idx = idx,
		.tid = tid,
		.cpu = cpu,
	};
	struct index_entry *ix;

	if (p->err)
		return;
	begin_data(p);
	ix = realloc(p->index, (p->n_index + 1) * sizeof(*ix));
	if (!ix) {
		p->err = CSD_ERR_NOMEM;
		return;
	}
	p->index = ix;
	/* perf's index holds the record's offset and its header size. */
	ix[p->n_index++] = (struct index_entry){ p->out.pos, sizeof(rec) };
	csd_atomic_write(&p->out, &rec, sizeof(rec));
	csd_atomic_write(&p->out, data, len);
	csd_atomic_write(&p->out, pad, padded - len);
}

static enum csd_err set_feature(struct csd_perf *p, enum csd_perf_feature feat,
				const void *blob, size_t len)
{
	void *copy = malloc(len ? len : 1);

	if (!copy)
		return p->err = CSD_ERR_NOMEM;
	memcpy(copy, blob, len);
	free(p->feat[feat]);
	p->feat[feat] = copy;
	p->feat_len[feat] = len;
	return CSD_OK;
}

enum csd_err csd_perf_feat_string(struct csd_perf *p, enum csd_perf_feature feat,
				  const char *s)
{
	size_t olen = strlen(s) + 1, len = (olen + NAME_ALIGN - 1) & ~(size_t)(NAME_ALIGN - 1);
	uint8_t *blob = calloc(1, 4 + len);
	uint32_t len32 = (uint32_t)len;
	enum csd_err err;

	if (!blob)
		return p->err = CSD_ERR_NOMEM;
	memcpy(blob, &len32, 4);
	memcpy(blob + 4, s, olen);
	err = set_feature(p, feat, blob, 4 + len);
	free(blob);
	return err;
}

enum csd_err csd_perf_feat_nrcpus(struct csd_perf *p, uint32_t avail, uint32_t online)
{
	uint32_t v[2] = { avail, online };

	return set_feature(p, CSD_PERF_FEAT_NRCPUS, v, sizeof(v));
}

static enum csd_err set_auxtrace_index(struct csd_perf *p)
{
	size_t len = 8 + p->n_index * sizeof(struct index_entry);
	uint8_t *blob = malloc(len);
	uint64_t nr = p->n_index;
	enum csd_err err;

	if (!blob)
		return p->err = CSD_ERR_NOMEM;
	memcpy(blob, &nr, 8);
	memcpy(blob + 8, p->index, len - 8);
	err = set_feature(p, CSD_PERF_FEAT_AUXTRACE, blob, len);
	free(blob);
	return err;
}

static void write_features(struct csd_perf *p, struct file_header *h)
{
	uint64_t at;
	size_t n = 0;

	for (int f = 0; f < CSD_PERF_FEAT_MAX; f++)
		if (p->feat[f]) {
			h->features[f / 64] |= 1ull << (f % 64);
			n++;
		}
	/* The section table, in feature-bit order, then the contents. */
	at = p->out.pos + n * sizeof(struct file_section);
	for (int f = 0; f < CSD_PERF_FEAT_MAX; f++) {
		struct file_section s = { at, p->feat_len[f] };

		if (!p->feat[f])
			continue;
		csd_atomic_write(&p->out, &s, sizeof(s));
		at += s.size;
	}
	for (int f = 0; f < CSD_PERF_FEAT_MAX; f++)
		if (p->feat[f])
			csd_atomic_write(&p->out, p->feat[f], p->feat_len[f]);
}

static void perf_free(struct csd_perf *p)
{
	for (size_t i = 0; i < p->n_attrs; i++)
		free(p->attrs[i].ids);
	for (int f = 0; f < CSD_PERF_FEAT_MAX; f++)
		free(p->feat[f]);
	free(p->attrs);
	free(p->index);
	free(p);
}

enum csd_err csd_perf_commit(struct csd_perf *p)
{
	struct file_header h = {
		.magic = PERF_MAGIC2,
		.size = sizeof(h),
		.attr_size = sizeof(struct file_attr),
	};
	enum csd_err err;

	begin_data(p);
	if (p->n_index && !p->err)
		set_auxtrace_index(p);
	h.attrs.offset = p->data_offset - p->n_attrs * sizeof(struct file_attr);
	h.attrs.size = p->n_attrs * sizeof(struct file_attr);
	h.data.offset = p->data_offset;
	h.data.size = p->out.pos - p->data_offset;
	write_features(p, &h);
	csd_atomic_pwrite(&p->out, 0, &h, sizeof(h));
	if (p->err) {
		err = p->err;
		csd_perf_abort(p);
		return err;
	}
	err = csd_atomic_commit(&p->out);
	perf_free(p);
	return err;
}

void csd_perf_abort(struct csd_perf *p)
{
	if (!p)
		return;
	csd_atomic_abort(&p->out);
	perf_free(p);
}
