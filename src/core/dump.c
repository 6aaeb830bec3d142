// SPDX-License-Identifier: GPL-2.0
/* csdump: building and freeing the in-memory model of a capture. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/dump.h"

void csd_dump_free(struct csd_dump *d)
{
	for (size_t i = 0; i < d->n_sinks; i++)
		free(d->sinks[i].data);
	for (size_t i = 0; i < d->n_segs; i++)
		free(d->segs[i].data);
	for (size_t i = 0; i < d->n_ktext; i++)
		free(d->ktext[i].data);
	free(d->sinks);
	free(d->etms);
	free(d->segs);
	free(d->ktext);
	memset(d, 0, sizeof(*d));
}

/* @arr (of @n elements of @size bytes) with room for one more; NULL on ENOMEM. */
static void *grow(void *arr, size_t n, size_t size)
{
	return realloc(arr, (n + 1) * size);
}

struct csd_sink *csd_dump_add_sink(struct csd_dump *d, const char *name,
				   uint8_t *data, size_t len, uint32_t flags)
{
	struct csd_sink *arr = grow(d->sinks, d->n_sinks, sizeof(*arr)), *s;

	if (!arr) {
		csd_error("out of memory for the trace of sink %s (%zu bytes)", name, len);
		free(data);
		return NULL;
	}
	d->sinks = arr;
	s = &arr[d->n_sinks];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->data = data;
	s->len = len;
	s->flags = flags;
	d->n_sinks++;
	return s;
}

struct csd_etm *csd_dump_add_etm(struct csd_dump *d, const struct csd_etm *etm)
{
	struct csd_etm *arr = grow(d->etms, d->n_etms, sizeof(*arr));

	if (!arr) {
		csd_error("out of memory for the metadata of CPU %llu",
			  (unsigned long long)etm->cpu);
		return NULL;
	}
	d->etms = arr;
	arr[d->n_etms] = *etm;
	return &arr[d->n_etms++];
}

/* Append a segment to the array *@segs of *@n. */
static struct csd_seg *add_seg(struct csd_seg **segs, size_t *n, const char *name,
			       uint64_t vaddr, uint8_t *data, size_t len)
{
	struct csd_seg *arr = grow(*segs, *n, sizeof(*arr)), *s;

	if (!arr) {
		csd_error("out of memory for memory dump %s (%zu bytes)", name, len);
		free(data);
		return NULL;
	}
	*segs = arr;
	s = &arr[*n];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->vaddr = vaddr;
	s->data = data;
	s->len = len;
	++*n;
	return s;
}

struct csd_seg *csd_dump_add_seg(struct csd_dump *d, const char *name,
				 uint64_t vaddr, uint8_t *data, size_t len)
{
	return add_seg(&d->segs, &d->n_segs, name, vaddr, data, len);
}

struct csd_seg *csd_dump_add_ktext(struct csd_dump *d, const char *name,
				   uint64_t vaddr, uint8_t *data, size_t len)
{
	return add_seg(&d->ktext, &d->n_ktext, name, vaddr, data, len);
}

bool csd_dump_segs_overlap(const struct csd_dump *d, size_t n_segs, uint64_t vaddr,
			   uint64_t len)
{
	for (size_t i = 0; i < n_segs && i < d->n_segs; i++)
		if (vaddr < d->segs[i].vaddr + d->segs[i].len && d->segs[i].vaddr < vaddr + len)
			return true;
	return false;
}

const struct csd_etm *csd_dump_etm_by_trace_id(const struct csd_dump *d, uint8_t id)
{
	for (size_t i = 0; i < d->n_etms; i++)
		if (csd_etm_trace_id(&d->etms[i]) == id)
			return &d->etms[i];
	return NULL;
}

static bool name_taken(char (*names)[CSD_SINK_FILE_MAX], size_t n, const char *name)
{
	for (size_t j = 0; j < n; j++)
		if (!strcmp(names[j], name))
			return true;
	return false;
}

char (*csd_sink_names(const struct csd_dump *d))[CSD_SINK_FILE_MAX]
{
	char (*names)[CSD_SINK_FILE_MAX] = calloc(d->n_sinks ? d->n_sinks : 1, sizeof(*names));
	char base[CSD_SINK_FILE_MAX];

	if (!names) {
		csd_error("out of memory for the file names of %zu sinks", d->n_sinks);
		return NULL;
	}
	for (size_t i = 0; i < d->n_sinks; i++) {
		const char *c = d->sinks[i].name;
		size_t n = 0;

		for (; *c && n + 1 < CSD_NAME_MAX; c++)
			base[n++] = isalnum((unsigned char)*c) || *c == '_' || *c == '-' ? *c : '_';
		base[n] = '\0';
		if (!n)
			snprintf(base, sizeof(base), "sink%zu", i);
		snprintf(names[i], sizeof(names[i]), "%s", base);
		/* Each earlier name rules out one candidate at most. */
		for (size_t k = 0; k <= i && name_taken(names, i, names[i]); k++)
			if (k)
				snprintf(names[i], sizeof(names[i]), "%.31s-%u-%u", base,
					 (unsigned int)i, (unsigned int)k);
			else
				snprintf(names[i], sizeof(names[i]), "%.31s-%u", base, (unsigned int)i);
	}
	return names;
}

void csd_etm4_pack(const struct csd_etm *etm, uint64_t out[CSD_ETM4_BLOCK_U64])
{
	const uint64_t block[CSD_ETM4_BLOCK_U64] = {
		CSD_ETM4_MAGIC, etm->cpu, CSD_ETM4_NR_PARAMS,
		etm->trcconfigr, etm->trctraceidr, etm->trcidr0, etm->trcidr1,
		etm->trcidr2, etm->trcidr8, etm->trcauthstatus,
	};

	memcpy(out, block, sizeof(block));
}

size_t csd_tracer_pack(const struct csd_etm *etm, uint64_t out[CSD_TRACER_BLOCK_MAX_U64])
{
	csd_etm4_pack(etm, out);
	if (etm->kind != CSD_TRACER_ETE)
		return CSD_ETM4_BLOCK_U64;
	out[0] = CSD_ETE_MAGIC;
	out[2] = CSD_ETE_NR_PARAMS;
	out[CSD_ETM4_BLOCK_U64] = etm->trcdevarch;
	return CSD_ETE_BLOCK_U64;
}

bool csd_etm4_unpack(const uint64_t in[CSD_ETM4_BLOCK_U64], struct csd_etm *etm)
{
	*etm = (struct csd_etm){
		.cpu = in[1], .trcconfigr = in[3], .trctraceidr = in[4], .trcidr0 = in[5],
		.trcidr1 = in[6], .trcidr2 = in[7], .trcidr8 = in[8], .trcauthstatus = in[9],
	};
	return in[0] == CSD_ETM4_MAGIC && in[2] == CSD_ETM4_NR_PARAMS;
}

size_t csd_tracer_unpack(const uint64_t *in, size_t n, struct csd_etm *etm)
{
	uint64_t v[CSD_ETM4_BLOCK_U64];

	if (n < CSD_ETM4_BLOCK_U64)
		return 0;
	memcpy(v, in, sizeof(v));
	if (in[0] != CSD_ETE_MAGIC)
		return csd_etm4_unpack(v, etm) ? CSD_ETM4_BLOCK_U64 : 0;
	v[0] = CSD_ETM4_MAGIC;
	v[2] = CSD_ETM4_NR_PARAMS;
	csd_etm4_unpack(v, etm);
	if (n < CSD_ETE_BLOCK_U64 || in[2] != CSD_ETE_NR_PARAMS)
		return 0;
	etm->kind = CSD_TRACER_ETE;
	etm->trcdevarch = in[CSD_ETM4_BLOCK_U64];
	return CSD_ETE_BLOCK_U64;
}

const char *csd_stop_name(uint16_t reason)
{
	static const char *const names[] = {
		[CSD_STOP_NONE] = "none",
		[CSD_STOP_FAULT] = "fault",
		[CSD_STOP_PANIC] = "panic",
		[CSD_STOP_IPI] = "ipi",
	};

	return reason < sizeof(names) / sizeof(names[0]) ? names[reason] : NULL;
}
