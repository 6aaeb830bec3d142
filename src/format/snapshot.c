// SPDX-License-Identifier: GPL-2.0
/* csdump: read an OpenCSD / DS-5 trace snapshot directory into a csd_dump. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/fileio.h"
#include "format/ini.h"
#include "format/snapshot.h"

#define SNAP_MAX_DEVICES	256
#define SNAP_MAX_FILE		(1ull << 30)	/* one trace buffer or dump file */
#define SNAP_MAX_LIST		64		/* files of one buffer, buffers */

struct snap_dev {
	struct csd_ini ini;
	const char *name;
	const char *class;
	const char *type;
};

struct snap {
	const char *dir;
	struct csd_ini top;		/* snapshot.ini */
	struct csd_ini trace;		/* trace.ini */
	struct snap_dev *devs;
	size_t n_devs;
	struct csd_dump *d;
};

bool csd_snapshot_is_dir(const char *path)
{
	char *ini = csd_path_join(path, "snapshot.ini");
	struct stat st;
	bool ok = ini && stat(ini, &st) == 0 && S_ISREG(st.st_mode);

	free(ini);
	return ok;
}

static enum csd_err load_ini(const struct snap *s, const char *rel, struct csd_ini *ini)
{
	char *path = csd_path_join(s->dir, rel);
	enum csd_err err;

	if (!path)
		return CSD_ERR_NOMEM;
	err = csd_ini_load(path, ini);
	free(path);
	return err;
}

static enum csd_err load_devices(struct snap *s)
{
	const struct csd_ini *top = &s->top;

	s->devs = calloc(SNAP_MAX_DEVICES, sizeof(*s->devs));
	if (!s->devs)
		return CSD_ERR_NOMEM;
	for (size_t i = 0; i < top->n; i++) {
		const struct csd_ini_entry *e = &top->entries[i];
		struct snap_dev *dev = &s->devs[s->n_devs];

		if (strcasecmp(e->section, "device_list"))
			continue;
		if (s->n_devs == SNAP_MAX_DEVICES) {
			csd_warn("%s: more than %d devices, the rest ignored", top->path,
				 SNAP_MAX_DEVICES);
			break;
		}
		if (load_ini(s, e->value, &dev->ini)) {
			csd_warn("%s:%u: device file %s unusable, skipped", top->path,
				 e->line, e->value);
			continue;
		}
		dev->name = csd_ini_get(&dev->ini, "device", "name");
		dev->class = csd_ini_get(&dev->ini, "device", "class");
		dev->type = csd_ini_get(&dev->ini, "device", "type");
		if (!dev->name) {
			csd_warn("%s: no [device] name, skipped", dev->ini.path);
			csd_ini_free(&dev->ini);
			continue;
		}
		if (!dev->class)
			dev->class = "";
		if (!dev->type)
			dev->type = "";
		s->n_devs++;
	}
	return CSD_OK;
}

static const struct snap_dev *find_dev(const struct snap *s, const char *name)
{
	for (size_t i = 0; i < s->n_devs; i++)
		if (!strcasecmp(s->devs[i].name, name))
			return &s->devs[i];
	return NULL;
}

/* The core whose [core_trace_sources] entry names @src (by name or @location). */
static const char *core_of_source(const struct snap *s, const struct snap_dev *src)
{
	const char *loc = csd_ini_get(&src->ini, "device", "location");

	for (size_t i = 0; i < s->trace.n; i++) {
		const struct csd_ini_entry *e = &s->trace.entries[i];

		if (strcasecmp(e->section, "core_trace_sources"))
			continue;
		if (!strcasecmp(e->value, src->name) ||
		    (loc && e->value[0] == '@' && !strcasecmp(e->value + 1, loc)))
			return e->key;
	}
	return NULL;
}

/* The number at the end of @name ("cpu_3" -> 3), or -1. */
static long trailing_number(const char *name)
{
	size_t n = strlen(name), i = n;

	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	if (i == n || n - i > 6)
		return -1;
	return strtol(name + i, NULL, 10);
}

static bool is_ete(const struct snap_dev *dev)
{
	return !strcasecmp(dev->class, "trace_source") && !strcasecmp(dev->type, "ETE");
}

/* A trace unit csdump decodes: ETMv4 ("ETM4", "ETMv4.x") or ETE ("ETE"). */
static bool is_tracer(const struct snap_dev *dev)
{
	return is_ete(dev) ||
	       (!strcasecmp(dev->class, "trace_source") &&
		(!strncasecmp(dev->type, "ETM4", 4) || !strncasecmp(dev->type, "ETMv4", 5)));
}

static int get_reg(const struct snap_dev *dev, const char *name, bool required, uint64_t *v)
{
	const char *val = csd_ini_get_reg(&dev->ini, "regs", name);

	*v = 0;
	if (!val) {
		if (required)
			csd_warn("%s: trace source %s has no %s", dev->ini.path, dev->name, name);
		return required ? -1 : 0;
	}
	if (csd_parse_u64(val, v)) {
		csd_warn("%s: %s=%s is not a number", dev->ini.path, name, val);
		return -1;
	}
	return 0;
}

static enum csd_err add_etm(struct snap *s, const struct snap_dev *dev, long cpu)
{
	struct csd_etm etm = { .cpu = (uint64_t)cpu };
	int bad = 0;

	bad |= get_reg(dev, "TRCCONFIGR", true, &etm.trcconfigr);
	bad |= get_reg(dev, "TRCTRACEIDR", true, &etm.trctraceidr);
	bad |= get_reg(dev, "TRCIDR0", true, &etm.trcidr0);
	bad |= get_reg(dev, "TRCIDR1", true, &etm.trcidr1);
	bad |= get_reg(dev, "TRCIDR2", true, &etm.trcidr2);
	bad |= get_reg(dev, "TRCIDR8", false, &etm.trcidr8);
	bad |= get_reg(dev, "TRCAUTHSTATUS", false, &etm.trcauthstatus);
	if (is_ete(dev)) {
		/* OpenCSD's ETE decoder takes the ETE version from TRCDEVARCH. */
		etm.kind = CSD_TRACER_ETE;
		bad |= get_reg(dev, "TRCDEVARCH", true, &etm.trcdevarch);
	}
	if (bad) {
		csd_warn("%s: trace source %s skipped", dev->ini.path, dev->name);
		return CSD_OK;
	}
	if (csd_dump_etm_by_trace_id(s->d, csd_etm_trace_id(&etm))) {
		csd_warn("%s: trace ID 0x%02x of %s already used by another source, skipped",
			 dev->ini.path, csd_etm_trace_id(&etm), dev->name);
		return CSD_OK;
	}
	return csd_dump_add_etm(s->d, &etm) ? CSD_OK : CSD_ERR_NOMEM;
}

enum core_profile { PROFILE_A, PROFILE_R, PROFILE_M, PROFILE_UNKNOWN };

/*
 * The architecture profile of a core device's type, by the names OpenCSD's
 * snapshot reader knows: "Cortex-A53", "Neoverse-N1", "ARM-AA64",
 * "ARMv8-A", "ARMv8.2-A", "ARMv8-M", "Cortex-M33", "Cortex-R52"...
 */
static enum core_profile profile_of(const char *type)
{
	const char *p = type;
	char c;

	if (!strncasecmp(type, "Cortex-", 7)) {
		c = (char)toupper((unsigned char)type[7]);
		return c == 'A' ? PROFILE_A : c == 'R' ? PROFILE_R : c == 'M' ? PROFILE_M :
		       PROFILE_UNKNOWN;
	}
	if (!strncasecmp(type, "Neoverse", 8) || !strcasecmp(type, "ARM-AA64"))
		return PROFILE_A;
	if (strncasecmp(type, "ARMv", 4))
		return PROFILE_UNKNOWN;
	p += 4;
	if (!isdigit((unsigned char)*p))
		return PROFILE_UNKNOWN;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	if (*p++ != '-' || !*p || p[1])
		return PROFILE_UNKNOWN;
	c = (char)toupper((unsigned char)*p);
	return c == 'A' ? PROFILE_A : c == 'R' ? PROFILE_R : c == 'M' ? PROFILE_M :
	       PROFILE_UNKNOWN;
}

/*
 * Whether the trace of @dev, which traces core @core, can be decoded as an
 * A-profile core's (the only decoder csdump configures): an M- or R-profile
 * core's is refused, an unknown core's decoded with a warning.
 */
static bool core_decodable(const struct snap *s, const struct snap_dev *dev, const char *core)
{
	const struct snap_dev *c = core ? find_dev(s, core) : NULL;
	const char *type = c ? c->type : "";

	if (!core)
		return true;	/* no core named: nothing says it is not A-profile */
	switch (profile_of(type)) {
	case PROFILE_A:
		return true;
	case PROFILE_M:
	case PROFILE_R:
		csd_warn("%s: trace source %s traces core %s of type %s, an %s-profile core: "
			 "csdump decodes A-profile trace only, skipped", dev->ini.path, dev->name,
			 core, type, profile_of(type) == PROFILE_M ? "M" : "R");
		return false;
	default:
		csd_warn("%s: trace source %s traces core %s of %s%s%s: decoded as an A-profile "
			 "core's", dev->ini.path, dev->name, core, *type ? "unknown type '" :
			 "no known type", type, *type ? "'" : "");
		return true;
	}
}

static enum csd_err read_etms(struct snap *s)
{
	size_t first = s->d->n_etms;
	bool renumber = false;
	enum csd_err err;

	for (size_t i = 0; i < s->n_devs; i++) {
		const struct snap_dev *dev = &s->devs[i];
		const char *core;
		long cpu;

		if (!strcasecmp(dev->class, "trace_source") && !is_tracer(dev)) {
			csd_info("%s: trace source %s of type %s is neither ETMv4 nor ETE, ignored",
				 dev->ini.path, dev->name, dev->type);
			continue;
		}
		if (!is_tracer(dev))
			continue;
		core = core_of_source(s, dev);
		if (!core_decodable(s, dev, core))
			continue;
		cpu = core ? trailing_number(core) : -1;
		if (cpu < 0)
			renumber = true;
		err = add_etm(s, dev, cpu);
		if (err)
			return err;
	}
	for (size_t i = first; i < s->d->n_etms && !renumber; i++)
		for (size_t j = first; j < i; j++)
			if (s->d->etms[i].cpu == s->d->etms[j].cpu)
				renumber = true;
	if (renumber) {
		csd_warn("%s: cores not numbered uniquely, CPUs numbered in device order",
			 s->trace.path);
		for (size_t i = first; i < s->d->n_etms; i++)
			s->d->etms[i].cpu = i - first;
	}
	return CSD_OK;
}

/* Does the comma-separated @list hold @item? */
static bool list_has(const char *list, const char *item)
{
	size_t n = strlen(item);

	while (*list) {
		const char *end = strchr(list, ',');
		size_t len = end ? (size_t)(end - list) : strlen(list);
		const char *p = list;

		while (len && isspace((unsigned char)*p)) {
			p++;
			len--;
		}
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (len == n && !strncasecmp(p, item, n))
			return true;
		if (!end)
			break;
		list = end + 1;
	}
	return false;
}

/* The device a [source_buffers] key names ("ETM_0", "ETM_0(...)"), or NULL. */
static const struct snap_dev *source_dev(const struct snap *s, const char *key)
{
	char name[64];

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(key, "("), key);
	return find_dev(s, name);
}

static bool source_is_tracer(const struct snap *s, const char *key)
{
	const struct snap_dev *dev = source_dev(s, key);

	return dev && is_tracer(dev);
}

/* Is buffer @name fed by an ETMv4 or ETE source? */
static bool buffer_fed_by_etm(const struct snap *s, const char *name, size_t n_buffers)
{
	bool have_map = false;

	for (size_t i = 0; i < s->trace.n; i++) {
		const struct csd_ini_entry *e = &s->trace.entries[i];

		if (strcasecmp(e->section, "source_buffers"))
			continue;
		have_map = true;
		if (list_has(e->value, name) && source_is_tracer(s, e->key))
			return true;
	}
	/* Without [source_buffers] a lone buffer holds every source's trace. */
	return !have_map && n_buffers == 1;
}

/*
 * The trace ID of the one ETMv4 or ETE source [source_buffers] sends to buffer
 * @name, into *@id: what a raw (source_data) buffer holds.  Any value,
 * 0 too: a raw stream carries no trace IDs.  false when there is no such
 * source, or several.
 */
static bool buffer_source_id(const struct snap *s, const char *name, uint8_t *id)
{
	bool found = false;

	for (size_t i = 0; i < s->trace.n; i++) {
		const struct csd_ini_entry *e = &s->trace.entries[i];
		const struct snap_dev *dev;
		uint64_t v = UINT64_MAX;	/* stays so when the register is absent */

		if (strcasecmp(e->section, "source_buffers") || !list_has(e->value, name))
			continue;
		dev = source_dev(s, e->key);
		if (!dev || !is_tracer(dev) || get_reg(dev, "TRCTRACEIDR", false, &v) ||
		    v == UINT64_MAX)
			continue;
		if (found && *id != (v & CSD_TRACE_ID_MASK))
			return false;
		*id = (uint8_t)(v & CSD_TRACE_ID_MASK);
		found = true;
	}
	return found;
}

/* Concatenate the comma-separated @files of a trace buffer. */
static enum csd_err read_buffer_files(const struct snap *s, const char *files,
				      uint8_t **data, size_t *len)
{
	char *list = strdup(files), *save = NULL;
	enum csd_err err = CSD_OK;

	*data = NULL;
	*len = 0;
	if (!list)
		return CSD_ERR_NOMEM;
	for (char *f = strtok_r(list, ",", &save); f && !err; f = strtok_r(NULL, ",", &save)) {
		char *path;
		uint8_t *part, *all;
		size_t plen;

		while (isspace((unsigned char)*f))
			f++;
		path = csd_path_join(s->dir, f);
		if (!path) {
			err = CSD_ERR_NOMEM;
			break;
		}
		err = csd_file_read(path, SNAP_MAX_FILE, &part, &plen);
		free(path);
		if (err)
			break;
		all = realloc(*data, *len + plen + 1);
		if (!all || *len + plen > SNAP_MAX_FILE) {
			free(all ? all : *data);
			*data = NULL;
			free(part);
			err = all ? CSD_ERR_FORMAT : CSD_ERR_NOMEM;
			break;
		}
		memcpy(all + *len, part, plen);
		free(part);
		*data = all;
		*len += plen;
	}
	free(list);
	if (err) {
		free(*data);
		*data = NULL;
		*len = 0;
	}
	return err;
}

static enum csd_err read_buffer(struct snap *s, const char *id, size_t n_buffers)
{
	const char *name = csd_ini_get(&s->trace, id, "name");
	const char *file = csd_ini_get(&s->trace, id, "file");
	const char *format = csd_ini_get(&s->trace, id, "format");
	uint32_t flags = CSD_F_SAVED;
	struct csd_sink *sink;
	uint8_t *data;
	size_t len;

	if (!name || !file || !format) {
		csd_warn("%s: buffer [%s] needs name, file and format; skipped",
			 s->trace.path, id);
		return CSD_OK;
	}
	if (!buffer_fed_by_etm(s, name, n_buffers)) {
		csd_info("%s: buffer %s holds no ETMv4 or ETE trace, ignored", s->trace.path, name);
		return CSD_OK;
	}
	if (!strcasecmp(format, "coresight")) {
		flags |= CSD_F_FORMATTED;
	} else if (strcasecmp(format, "source_data")) {
		csd_warn("%s: buffer %s has format \"%s\", expected coresight or source_data; skipped",
			 s->trace.path, name, format);
		return CSD_OK;
	}
	if (read_buffer_files(s, file, &data, &len)) {
		csd_warn("%s: buffer %s unreadable, skipped", s->trace.path, name);
		return CSD_OK;
	}
	sink = csd_dump_add_sink(s->d, name, data, len, flags);
	if (!sink)
		return CSD_ERR_NOMEM;
	if (!(flags & CSD_F_FORMATTED))
		sink->source_known = buffer_source_id(s, name, &sink->source_id);
	return CSD_OK;
}

static enum csd_err read_buffers(struct snap *s)
{
	const char *buffers = csd_ini_get(&s->trace, "trace_buffers", "buffers");
	char *list, *save = NULL;
	const char *ids[SNAP_MAX_LIST];
	size_t n = 0;
	enum csd_err err = CSD_OK;

	if (!buffers) {
		csd_error("%s: no [trace_buffers] buffers=", s->trace.path);
		return CSD_ERR_FORMAT;
	}
	list = strdup(buffers);
	if (!list)
		return CSD_ERR_NOMEM;
	for (char *id = strtok_r(list, ", \t", &save); id && n < SNAP_MAX_LIST;
	     id = strtok_r(NULL, ", \t", &save))
		ids[n++] = id;
	for (size_t i = 0; i < n && !err; i++)
		err = read_buffer(s, ids[i], n);
	free(list);
	return err;
}

/* Read one [dump*] section of @dev into a segment. */
static enum csd_err read_dump(struct snap *s, const struct snap_dev *dev, const char *sec)
{
	const char *file = csd_ini_get(&dev->ini, sec, "file");
	const char *addr_s = csd_ini_get(&dev->ini, sec, "address");
	const char *len_s = csd_ini_get(&dev->ini, sec, "length");
	const char *off_s = csd_ini_get(&dev->ini, sec, "offset");
	uint64_t addr, len, off = 0;
	uint8_t *data;
	size_t size;
	char *path;
	enum csd_err err;

	if (!file || csd_parse_u64(addr_s, &addr) || (off_s && csd_parse_u64(off_s, &off)) ||
	    (len_s && csd_parse_u64(len_s, &len))) {
		csd_warn("%s: [%s] needs file=, address= and numeric length=/offset=; skipped",
			 dev->ini.path, sec);
		return CSD_OK;
	}
	path = csd_path_join(s->dir, file);
	if (!path)
		return CSD_ERR_NOMEM;
	if (access(path, R_OK)) {
		csd_warn("%s: [%s] memory dump %s: %s; skipped", dev->ini.path, sec, file,
			 strerror(errno));
		free(path);
		return CSD_OK;
	}
	err = csd_file_read(path, SNAP_MAX_FILE, &data, &size);
	free(path);
	if (err == CSD_ERR_NOMEM)
		return err;
	if (err) {
		csd_warn("%s: [%s] memory dump %s unreadable, skipped", dev->ini.path, sec, file);
		return CSD_OK;
	}
	if (!len_s)
		len = size > off ? size - off : 0;
	if (off > size || len > size - off || len == 0 || addr + len - 1 < addr) {
		csd_warn("%s: [%s] %s is %zu bytes, cannot hold %llu bytes at offset %llu; skipped",
			 dev->ini.path, sec, file, size, (unsigned long long)len,
			 (unsigned long long)off);
		free(data);
		return CSD_OK;
	}
	for (size_t i = 0; i < s->d->n_segs; i++) {
		const struct csd_seg *g = &s->d->segs[i];

		if (g->vaddr == addr && g->len == len && !memcmp(g->data, data + off, len)) {
			free(data);	/* the same dump listed by another core */
			return CSD_OK;
		}
	}
	memmove(data, data + off, len);
	return csd_dump_add_seg(s->d, file, addr, data, len) ? CSD_OK : CSD_ERR_NOMEM;
}

static enum csd_err read_dumps(struct snap *s)
{
	for (size_t i = 0; i < s->n_devs; i++) {
		const struct snap_dev *dev = &s->devs[i];

		if (strcasecmp(dev->class, "core") && strcasecmp(dev->class, "memory_space"))
			continue;
		for (size_t j = 0; j < dev->ini.n; j++) {
			const char *sec = dev->ini.entries[j].section;
			bool seen = false;
			enum csd_err err;

			if (strncasecmp(sec, "dump", 4))
				continue;
			for (size_t k = 0; k < j && !seen; k++)
				seen = !strcasecmp(dev->ini.entries[k].section, sec);
			if (seen)
				continue;
			err = read_dump(s, dev, sec);
			if (err)
				return err;
		}
	}
	return CSD_OK;
}

static enum csd_err snap_read(struct snap *s)
{
	const char *version, *meta;
	enum csd_err err;

	err = load_ini(s, "snapshot.ini", &s->top);
	if (err)
		return err;
	version = csd_ini_get(&s->top, "snapshot", "version");
	if (!version || strcmp(version, "1.0")) {
		csd_error("%s: [snapshot] version is %s, expected 1.0", s->top.path,
			  version ? version : "missing");
		return CSD_ERR_FORMAT;
	}
	meta = csd_ini_get(&s->top, "trace", "metadata");
	if (!meta) {
		csd_error("%s: no [trace] metadata=: the snapshot holds no trace",
			  s->top.path);
		return CSD_ERR_FORMAT;
	}
	err = load_ini(s, meta, &s->trace);
	if (!err)
		err = load_devices(s);
	if (!err)
		err = read_etms(s);
	if (!err)
		err = read_buffers(s);
	if (!err)
		err = read_dumps(s);
	if (err)
		return err;
	if (!s->d->n_etms || !s->d->n_sinks) {
		csd_error("%s: no usable %s", s->dir,
			  s->d->n_etms ? "trace buffer of an ETMv4 or ETE source" :
			  "ETMv4 or ETE trace source");
		return CSD_ERR_FORMAT;
	}
	return CSD_OK;
}

enum csd_err csd_snapshot_read(const char *dir, struct csd_dump *d)
{
	struct snap s = { .dir = dir, .d = d };
	enum csd_err err = snap_read(&s);

	for (size_t i = 0; i < s.n_devs; i++)
		csd_ini_free(&s.devs[i].ini);
	free(s.devs);
	csd_ini_free(&s.top);
	csd_ini_free(&s.trace);
	return err;
}
