// SPDX-License-Identifier: GPL-2.0
/* csdump: write a csd_dump as an OpenCSD / DS-5 trace snapshot directory. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/fileio.h"
#include "core/trace_id.h"
#include "format/snapshot.h"

/* A text file being composed in memory, written atomically at the end. */
struct text {
	char *buf;
	size_t len;
	FILE *f;
};

static int text_open(struct text *t)
{
	memset(t, 0, sizeof(*t));
	t->f = open_memstream(&t->buf, &t->len);
	return t->f ? 0 : -1;
}

__attribute__((format(printf, 2, 3)))
static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(t->f, fmt, ap);
	va_end(ap);
}

static enum csd_err text_commit(struct text *t, const char *dir, const char *name)
{
	char *path = csd_path_join(dir, name);
	enum csd_err err = CSD_ERR_NOMEM;

	if (fclose(t->f) == 0 && path)
		err = csd_file_write(path, t->buf, t->len);
	free(t->buf);
	free(path);
	return err;
}

static enum csd_err write_bin(const char *dir, const char *name, const void *buf, size_t len)
{
	char *path = csd_path_join(dir, name);
	enum csd_err err;

	if (!path)
		return CSD_ERR_NOMEM;
	err = csd_file_write(path, buf, len);
	free(path);
	return err;
}

static enum csd_err write_etm(const struct csd_dump *d, const struct csd_etm *etm,
			      const char *dir)
{
	unsigned long long cpu = (unsigned long long)etm->cpu;
	bool ete = etm->kind == CSD_TRACER_ETE;
	struct text t;
	char name[64];
	enum csd_err err;

	if (text_open(&t))
		return CSD_ERR_NOMEM;
	/* The decoder's instruction set: OpenCSD's name for a v8.3+ AArch64 core. */
	text_add(&t, "[device]\nname=cpu_%llu\nclass=core\ntype=%s\n", cpu,
		 csd_etm_is_v83(etm) ? "ARM-AA64" : "ARMv8-A");
	for (size_t i = 0; i < d->n_segs; i++)
		text_add(&t, "\n[dump%zu]\nfile=mem%zu.bin\naddress=0x%llx\nlength=0x%zx\n",
			 i + 1, i, (unsigned long long)d->segs[i].vaddr, d->segs[i].len);
	snprintf(name, sizeof(name), "cpu_%llu.ini", cpu);
	err = text_commit(&t, dir, name);
	if (err)
		return err;

	if (text_open(&t))
		return CSD_ERR_NOMEM;
	text_add(&t, "[device]\nname=ETM_%llu\nclass=trace_source\ntype=%s\n\n[regs]\n", cpu,
		 ete ? "ETE" : "ETM4");
	text_add(&t, "TRCCONFIGR(0x004)=0x%08llx\n", (unsigned long long)etm->trcconfigr);
	text_add(&t, "TRCTRACEIDR(0x010)=0x%08llx\n", (unsigned long long)etm->trctraceidr);
	text_add(&t, "TRCAUTHSTATUS(0x3EE)=0x%08llx\n", (unsigned long long)etm->trcauthstatus);
	text_add(&t, "TRCIDR0(0x078)=0x%08llx\n", (unsigned long long)etm->trcidr0);
	text_add(&t, "TRCIDR1(0x079)=0x%08llx\n", (unsigned long long)etm->trcidr1);
	text_add(&t, "TRCIDR2(0x07A)=0x%08llx\n", (unsigned long long)etm->trcidr2);
	text_add(&t, "TRCIDR8(0x060)=0x%08llx\n", (unsigned long long)etm->trcidr8);
	if (ete)
		text_add(&t, "TRCDEVARCH(0x3EF)=0x%08llx\n", (unsigned long long)etm->trcdevarch);
	snprintf(name, sizeof(name), "etm_%llu.ini", cpu);
	return text_commit(&t, dir, name);
}

/*
 * The sink @etm's trace is in: one of its own (raw, or formatted and its
 * record names @etm its one source: an ETF per CPU that did not wrap), else
 * the first formatted one that names no one source (a shared sink), else
 * the first formatted one.
 */
static size_t etm_sink(const struct csd_dump *d, const struct csd_etm *etm)
{
	size_t i, shared = d->n_sinks, formatted = d->n_sinks;
	uint8_t id = csd_etm_trace_id(etm);

	for (i = 0; i < d->n_sinks; i++) {
		const struct csd_sink *s = &d->sinks[i];

		if (!(s->flags & CSD_F_FORMATTED)) {
			if (s->source_known && s->source_id == id)
				return i;
			continue;
		}
		if (csd_trace_id_valid(id) && s->one_source == id)
			return i;
		if (!s->one_source && shared == d->n_sinks)
			shared = i;
		if (formatted == d->n_sinks)
			formatted = i;
	}
	if (shared < d->n_sinks)
		return shared;
	return formatted < d->n_sinks ? formatted : 0;
}

static enum csd_err write_trace_ini(const struct csd_dump *d, const char *dir,
				    char (*names)[CSD_SINK_FILE_MAX])
{
	struct text t;

	if (text_open(&t))
		return CSD_ERR_NOMEM;
	text_add(&t, "[trace_buffers]\nbuffers=");
	for (size_t i = 0; i < d->n_sinks; i++)
		text_add(&t, "%sbuffer%zu", i ? "," : "", i);
	text_add(&t, "\n");
	for (size_t i = 0; i < d->n_sinks; i++)
		text_add(&t, "\n[buffer%zu]\nname=%s\nfile=%s.bin\nformat=%s\n", i, names[i],
			 names[i],
			 d->sinks[i].flags & CSD_F_FORMATTED ? "coresight" : "source_data");
	text_add(&t, "\n[core_trace_sources]\n");
	for (size_t i = 0; i < d->n_etms; i++)
		text_add(&t, "cpu_%llu=ETM_%llu\n", (unsigned long long)d->etms[i].cpu,
			 (unsigned long long)d->etms[i].cpu);
	text_add(&t, "\n[source_buffers]\n");
	for (size_t i = 0; i < d->n_etms; i++)
		text_add(&t, "ETM_%llu=%s\n", (unsigned long long)d->etms[i].cpu,
			 names[etm_sink(d, &d->etms[i])]);
	return text_commit(&t, dir, "trace.ini");
}

static enum csd_err write_snapshot_ini(const struct csd_dump *d, const char *dir)
{
	struct text t;
	size_t n = 0;

	if (text_open(&t))
		return CSD_ERR_NOMEM;
	text_add(&t, "[snapshot]\nversion=1.0\ndescription=written by csdump\n\n[device_list]\n");
	for (size_t i = 0; i < d->n_etms; i++) {
		unsigned long long cpu = (unsigned long long)d->etms[i].cpu;

		text_add(&t, "device%zu=cpu_%llu.ini\n", n++, cpu);
		text_add(&t, "device%zu=etm_%llu.ini\n", n++, cpu);
	}
	text_add(&t, "\n[trace]\nmetadata=trace.ini\n");
	return text_commit(&t, dir, "snapshot.ini");
}

enum csd_err csd_snapshot_write(const struct csd_dump *d, const char *dir)
{
	char (*names)[CSD_SINK_FILE_MAX];
	enum csd_err err;

	if (!d->n_sinks || !d->n_etms) {
		csd_error("%s: a snapshot needs trace and ETM metadata (have %zu sinks, %zu ETMs)",
			  dir, d->n_sinks, d->n_etms);
		return CSD_ERR_NOTRACE;
	}
	for (size_t i = 0; i < d->n_etms; i++)
		for (size_t j = 0; j < i; j++)
			if (d->etms[i].cpu == d->etms[j].cpu) {
				csd_error("%s: two ETMs claim CPU %llu", dir,
					  (unsigned long long)d->etms[i].cpu);
				return CSD_ERR_CORRUPT;
			}
	err = csd_mkdir(dir);
	if (err)
		return err;
	names = csd_sink_names(d);
	if (!names)
		return CSD_ERR_NOMEM;
	for (size_t i = 0; i < d->n_sinks && !err; i++) {
		char file[CSD_SINK_FILE_MAX + 4];

		snprintf(file, sizeof(file), "%s.bin", names[i]);
		err = write_bin(dir, file, d->sinks[i].data, d->sinks[i].len);
	}
	for (size_t i = 0; i < d->n_segs && !err; i++) {
		char file[32];

		snprintf(file, sizeof(file), "mem%zu.bin", i);
		err = write_bin(dir, file, d->segs[i].data, d->segs[i].len);
	}
	for (size_t i = 0; i < d->n_etms && !err; i++)
		err = write_etm(d, &d->etms[i], dir);
	if (!err)
		err = write_trace_ini(d, dir, names);
	/* snapshot.ini last: a reader never sees a snapshot with parts missing. */
	if (!err)
		err = write_snapshot_ini(d, dir);
	free(names);
	return err;
}
