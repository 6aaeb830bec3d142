// SPDX-License-Identifier: GPL-2.0
/* csdump: write and read back the directory of `csdump extract`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/diag.h"
#include "core/extract.h"
#include "core/fileio.h"
#include "core/perf_cs_etm.h"

#define EXTRACT_MAX_FILE (1ull << 31)

static enum csd_err write_in(const char *dir, const char *name, const void *buf, size_t len)
{
	char *path = csd_path_join(dir, name);
	enum csd_err err = path ? csd_file_write(path, buf, len) : CSD_ERR_NOMEM;

	free(path);
	return err;
}

static enum csd_err write_metadata(const struct csd_dump *d, const char *dir)
{
	uint64_t *m = calloc(d->n_etms ? d->n_etms : 1, CSD_TRACER_BLOCK_MAX_U64 * 8);
	size_t n = 0;
	enum csd_err err;

	if (!m)
		return CSD_ERR_NOMEM;
	for (size_t i = 0; i < d->n_etms; i++)
		n += csd_tracer_pack(&d->etms[i], m + n);
	err = write_in(dir, "metadata.bin", m, n * 8);
	free(m);
	return err;
}

#define KTEXT_FILE "kernel-text.bin"

/* The kernel text as it ran, one segment after the other, into KTEXT_FILE. */
static enum csd_err write_ktext(const struct csd_dump *d, const char *dir)
{
	size_t total = 0, off = 0;
	uint8_t *all;
	enum csd_err err;

	if (!d->n_ktext)
		return CSD_OK;
	for (size_t i = 0; i < d->n_ktext; i++)
		total += d->ktext[i].len;
	all = malloc(total ? total : 1);
	if (!all)
		return CSD_ERR_NOMEM;
	for (size_t i = 0; i < d->n_ktext; i++) {
		memcpy(all + off, d->ktext[i].data, d->ktext[i].len);
		off += d->ktext[i].len;
	}
	err = write_in(dir, KTEXT_FILE, all, total);
	free(all);
	return err;
}

static void summary_records(FILE *f, const struct csd_registry *reg)
{
	static const char *const state[] = { "ok", "unsaved", "bad" };
	char flags[CSD_REC_FLAGS_STR_MAX];

	for (size_t i = 0; i < reg->n; i++) {
		const struct csd_record *r = &reg->recs[i];
		bool caveat;
		const char *verdict = csd_rec_verdict(reg, r, &caveat);

		fprintf(f, "record addr=0x%llx kind=%s name=%s cpu=%d capacity=%llu "
			"data_len=%llu flags=%s state=%s%s%s%s%s\n", (unsigned long long)r->addr,
			r->kind == 1 ? "trace" : r->kind == 2 ? "metadata" : "?",
			r->name[0] ? r->name : "?", r->cpu, (unsigned long long)r->capacity,
			(unsigned long long)r->data_len,
			csd_rec_flags_str(r->flags, flags, sizeof(flags)), state[r->state],
			r->state == CSD_REC_BAD ? " problem=" : "", r->problem,
			verdict ? " note=" : "", verdict ? verdict : "");
	}
	if (reg->cut)
		fprintf(f, "list cut: %s\n", reg->cut_reason);
}

static enum csd_err write_summary(const struct csd_dump *d, const struct csd_registry *reg,
				  const char *source, const char *dir,
				  char (*names)[CSD_SINK_FILE_MAX])
{
	char *text = NULL, flags[CSD_REC_FLAGS_STR_MAX], file[CSD_SINK_FILE_MAX + 4];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	enum csd_err err;

	if (!f)
		return CSD_ERR_NOMEM;
	fprintf(f, "# csdump extract of %s\nsource=%s\n", source, source);
	fprintf(f, "osrelease=%s\nkaslr_offset=0x%llx\nkernel_text=0x%llx\nkernel_stext=0x%llx\n",
		d->osrelease, (unsigned long long)d->kaslr_offset,
		(unsigned long long)d->kernel_text, (unsigned long long)d->kernel_stext);
	for (size_t i = 0; i < d->n_sinks; i++) {
		if (i == 0 || d->n_sinks == 1)
			snprintf(file, sizeof(file), "cstrace.bin");
		else
			snprintf(file, sizeof(file), "%s.bin", names[i]);
		fprintf(f, "sink file=%s flags=0x%x bytes=%zu name=%s (%s)", file,
			d->sinks[i].flags, d->sinks[i].len, d->sinks[i].name,
			csd_rec_flags_str((uint16_t)d->sinks[i].flags, flags, sizeof(flags)));
		if (d->sinks[i].one_source)
			fprintf(f, " one_source=0x%02x", d->sinks[i].one_source);
		if (!(d->sinks[i].flags & CSD_F_FORMATTED) && d->sinks[i].source_known)
			fprintf(f, " source=0x%02x", d->sinks[i].source_id);
		fputc('\n', f);
	}
	for (size_t i = 0; i < d->n_etms; i++) {
		fprintf(f, "etm cpu=%llu trace_id=0x%02x", (unsigned long long)d->etms[i].cpu,
			csd_etm_trace_id(&d->etms[i]));
		if (d->etms[i].stop_known)
			fprintf(f, " stop=%u stop_addr=0x%llx", d->etms[i].stop_reason,
				(unsigned long long)d->etms[i].stop_addr);
		fputc('\n', f);
	}
	for (size_t i = 0, off = 0; i < d->n_ktext; off += d->ktext[i++].len)
		fprintf(f, "ktext file=" KTEXT_FILE " offset=%zu bytes=%zu vaddr=0x%llx\n", off,
			d->ktext[i].len, (unsigned long long)d->ktext[i].vaddr);
	if (reg)
		summary_records(f, reg);
	if (fclose(f)) {
		free(text);
		return CSD_ERR_NOMEM;
	}
	err = write_in(dir, "summary.txt", text, len);
	free(text);
	return err;
}

enum csd_err csd_extract_write(const struct csd_dump *d, const struct csd_registry *reg,
			       const char *source, const char *dir)
{
	char (*names)[CSD_SINK_FILE_MAX] = csd_sink_names(d);
	char file[CSD_SINK_FILE_MAX + 4];
	enum csd_err err;
	char *perf;

	if (!names)
		return CSD_ERR_NOMEM;
	err = csd_mkdir(dir);
	for (size_t i = 0; i < d->n_sinks && !err; i++) {
		if (i == 0)
			err = write_in(dir, "cstrace.bin", d->sinks[i].data, d->sinks[i].len);
		if (!err && d->n_sinks > 1) {
			snprintf(file, sizeof(file), "%s.bin", names[i]);
			err = write_in(dir, file, d->sinks[i].data, d->sinks[i].len);
		}
	}
	if (!err)
		err = write_metadata(d, dir);
	if (!err)
		err = write_ktext(d, dir);
	if (!err && d->n_etms) {
		perf = csd_path_join(dir, "perf.data");
		err = perf ? csd_perf_write_cs_etm(d, perf) : CSD_ERR_NOMEM;
		free(perf);
		/* No trace for a known tracer: the raw files are still the result. */
		if (err == CSD_ERR_NOTRACE) {
			csd_warn("%s: no perf.data written", dir);
			err = CSD_OK;
		}
	}
	if (!err)
		err = write_summary(d, reg, source, dir, names);
	free(names);
	return err;
}

bool csd_extract_is_dir(const char *path)
{
	char *a = csd_path_join(path, "summary.txt"), *b = csd_path_join(path, "metadata.bin");
	struct stat st;
	bool ok = a && b && !stat(a, &st) && S_ISREG(st.st_mode) && !stat(b, &st) &&
		  S_ISREG(st.st_mode);

	free(a);
	free(b);
	return ok;
}

static enum csd_err read_in(const char *dir, const char *name, uint8_t **data, size_t *len)
{
	char *path = csd_path_join(dir, name);
	enum csd_err err = path ? csd_file_read(path, EXTRACT_MAX_FILE, data, len) : CSD_ERR_NOMEM;

	free(path);
	return err;
}

static enum csd_err read_metadata(const char *dir, struct csd_dump *d)
{
	uint8_t *m;
	size_t len;
	enum csd_err err = read_in(dir, "metadata.bin", &m, &len);

	if (err)
		return err;
	if (len % 8) {
		csd_error("%s/metadata.bin: %zu bytes, not a multiple of 8", dir, len);
		free(m);
		return CSD_ERR_FORMAT;
	}
	for (size_t off = 0, k; off < len && !err; off += k * 8) {
		uint64_t v[CSD_TRACER_BLOCK_MAX_U64] = { 0 };
		size_t n = (len - off) / 8;
		struct csd_etm e;

		memcpy(v, m + off, (n < CSD_TRACER_BLOCK_MAX_U64 ? n : CSD_TRACER_BLOCK_MAX_U64) * 8);
		k = csd_tracer_unpack(v, n, &e);
		if (!k) {
			csd_error("%s/metadata.bin: block at %zu is neither an ETMv4 nor an ETE block",
				  dir, off);
			err = CSD_ERR_FORMAT;
			break;
		}
		if (!csd_dump_add_etm(d, &e))
			err = CSD_ERR_NOMEM;
	}
	free(m);
	return err;
}

/* One "sink file=F flags=0xN bytes=N name=NAME ..." line. */
static enum csd_err read_sink(const char *dir, const char *line, struct csd_dump *d)
{
	char file[64], name[CSD_NAME_MAX];
	unsigned int flags, id;
	struct csd_sink *s;
	size_t bytes, len;
	const char *one;
	uint8_t *data;
	enum csd_err err;

	if (sscanf(line, "sink file=%63s flags=0x%x bytes=%zu name=%31s", file, &flags, &bytes,
		   name) != 4 || strchr(file, '/')) {
		csd_error("%s/summary.txt: bad sink line: %s", dir, line);
		return CSD_ERR_FORMAT;
	}
	err = read_in(dir, file, &data, &len);
	if (err)
		return err;
	if (len != bytes)
		csd_warn("%s/%s: %zu bytes, the summary says %zu", dir, file, len, bytes);
	s = csd_dump_add_sink(d, name, data, len, flags);
	if (!s)
		return CSD_ERR_NOMEM;
	one = strstr(line, " one_source=0x");
	if (one && sscanf(one, " one_source=0x%x", &id) == 1 && csd_trace_id_valid(id))
		s->one_source = (uint8_t)id;
	/* A raw sink's one source (a TRBE's: its CPU's tracer) */
	one = strstr(line, " source=0x");
	if (one && !(flags & CSD_F_FORMATTED) && sscanf(one, " source=0x%x", &id) == 1 &&
	    id <= UINT8_MAX) {
		s->source_known = true;
		s->source_id = (uint8_t)id;
	}
	return CSD_OK;
}

/* What an "etm cpu=N trace_id=0xN stop=R stop_addr=0xA" line says stopped CPU N. */
static void read_etm_stop(const char *line, struct csd_dump *d)
{
	unsigned long long cpu, addr;
	unsigned int id, reason;

	if (sscanf(line, "etm cpu=%llu trace_id=0x%x stop=%u stop_addr=0x%llx", &cpu, &id,
		   &reason, &addr) != 4 || reason > UINT16_MAX)
		return;
	for (size_t i = 0; i < d->n_etms; i++) {
		if (d->etms[i].cpu == cpu) {
			d->etms[i].stop_known = true;
			d->etms[i].stop_reason = (uint16_t)reason;
			d->etms[i].stop_addr = addr;
		}
	}
}

/* One "ktext file=F offset=N bytes=N vaddr=0xA" line: a piece of *@text (read once). */
static enum csd_err read_ktext(const char *dir, const char *line, struct csd_dump *d,
			       uint8_t **text, size_t *text_len)
{
	unsigned long long vaddr;
	size_t off, bytes, total;
	uint8_t *piece;
	enum csd_err err;

	if (sscanf(line, "ktext file=" KTEXT_FILE " offset=%zu bytes=%zu vaddr=0x%llx", &off,
		   &bytes, &vaddr) != 3) {
		csd_error("%s/summary.txt: bad ktext line: %s", dir, line);
		return CSD_ERR_FORMAT;
	}
	if (!*text) {
		err = read_in(dir, KTEXT_FILE, text, text_len);
		if (err)
			return err;
	}
	if (off > *text_len || bytes > *text_len - off || vaddr > UINT64_MAX - bytes) {
		csd_error("%s/" KTEXT_FILE ": %zu bytes, the summary puts %zu at %zu", dir,
			  *text_len, bytes, off);
		return CSD_ERR_FORMAT;
	}
	/* The pieces are the file cut up: no more of them, nor bytes, than it has. */
	total = bytes;
	for (size_t i = 0; i < d->n_ktext; i++)
		total += d->ktext[i].len;
	if (d->n_ktext >= CSD_KTEXT_MAX || total > *text_len) {
		csd_error("%s/summary.txt: more kernel text than %s holds (%zu pieces, at most %d)",
			  dir, KTEXT_FILE, d->n_ktext + 1, CSD_KTEXT_MAX);
		return CSD_ERR_FORMAT;
	}
	piece = malloc(bytes ? bytes : 1);
	if (!piece)
		return CSD_ERR_NOMEM;
	memcpy(piece, *text + off, bytes);
	return csd_dump_add_ktext(d, KTEXT_FILE, vaddr, piece, bytes) ? CSD_OK : CSD_ERR_NOMEM;
}

enum csd_err csd_extract_read(const char *dir, struct csd_dump *d)
{
	uint8_t *ktext = NULL;
	size_t ktext_len = 0;
	uint8_t *text;
	size_t len;
	enum csd_err err = read_in(dir, "summary.txt", &text, &len);
	char *save = NULL, *s;

	if (err)
		return err;
	s = realloc(text, len + 1);
	if (!s) {
		free(text);
		return CSD_ERR_NOMEM;
	}
	s[len] = '\0';
	for (char *line = strtok_r(s, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long v;

		if (!strncmp(line, "sink ", 5))
			err = read_sink(dir, line, d);
		else if (!strncmp(line, "ktext ", 6))
			err = read_ktext(dir, line, d, &ktext, &ktext_len);
		else if (sscanf(line, "kaslr_offset=%llx", &v) == 1)
			d->kaslr_offset = v;
		else if (sscanf(line, "kernel_text=%llx", &v) == 1)
			d->kernel_text = v;
		else if (sscanf(line, "kernel_stext=%llx", &v) == 1)
			d->kernel_stext = v;
		else if (!strncmp(line, "osrelease=", 10))
			snprintf(d->osrelease, sizeof(d->osrelease), "%s", line + 10);
	}
	free(ktext);
	if (!err)
		err = read_metadata(dir, d);
	/* The lines are cut at their ends now: each is a string. */
	for (char *line = s; !err && line < s + len; line += strlen(line) + 1)
		if (!strncmp(line, "etm ", 4))
			read_etm_stop(line, d);
	free(s);
	if (!err && !d->n_sinks) {
		csd_error("%s: the summary lists no trace", dir);
		err = CSD_ERR_NOTRACE;
	}
	return err;
}
