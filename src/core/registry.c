// SPDX-License-Identifier: GPL-2.0
/* csdump: walk the coresight-kdump registry as hostile data. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/diag.h"
#include "core/registry.h"
#include "core/vmcoreinfo.h"

#define LIST_OFF_MAX	4096

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

__attribute__((format(printf, 3, 4)))
/* @r failed a check: the one place a bad record is recorded, reported and counted. */
static void mark_bad(struct csd_registry *reg, struct csd_record *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->problem, sizeof(r->problem), fmt, ap);
	va_end(ap);
	if (r->state != CSD_REC_BAD)
		reg->n_bad++;
	r->state = CSD_REC_BAD;
	csd_warn("record at 0x%llx (%s): %s; skipped", (unsigned long long)r->addr,
		 r->name[0] ? r->name : "?", r->problem);
}

/*
 * Decode and check the 128 bytes of a record; it cannot extend past its
 * node's list_head at @list_off.
 */
static void parse_record(struct csd_registry *reg, struct csd_record *r, const uint8_t *b,
			 uint64_t list_off)
{
	r->magic = le32(b);
	r->version = le16(b + 4);
	r->rec_size = le16(b + 6);
	r->kind = le16(b + 8);
	r->flags = le16(b + 10);
	r->cpu = (int32_t)le32(b + 12);
	memcpy(r->name, b + 16, sizeof(r->name));
	r->buf_vaddr = le64(b + 48);
	r->buf_paddr = le64(b + 56);
	r->capacity = le64(b + 64);
	r->data_len = le64(b + 72);
	r->data_offset = le64(b + 80);
	r->data_crc = le32(b + 88);
	r->trace_id = le32(b + 92);
	/* Reserved, zero, in version 1: the same bytes read "not recorded". */
	r->stop_addr = le64(b + 96);
	r->stop_reason = le16(b + 104);
	r->sink_status = le64(b + 112);
	r->state = CSD_REC_OK;

	if (!memchr(r->name, '\0', sizeof(r->name))) {
		r->name[sizeof(r->name) - 1] = '\0';
		mark_bad(reg, r, "name is not NUL-terminated");
	} else if (r->magic != CSD_REC_MAGIC) {
		mark_bad(reg, r, "magic 0x%08x, expected 0x%08x", r->magic, CSD_REC_MAGIC);
	} else if (r->version < CSD_REC_VERSION_MIN || r->version > CSD_REC_VERSION) {
		mark_bad(reg, r, "record version %u, this csdump reads %u to %u", r->version,
			 CSD_REC_VERSION_MIN, CSD_REC_VERSION);
	} else if (r->rec_size < CSD_REC_SIZE || r->rec_size > list_off) {
		mark_bad(reg, r, "rec_size %u, expected %u..%llu (the node's list offset)",
			 r->rec_size, CSD_REC_SIZE, (unsigned long long)list_off);
	} else if (r->kind != CSD_REC_KIND_TRACE && r->kind != CSD_REC_KIND_ETM) {
		mark_bad(reg, r, "kind %u, expected 1 (trace) or 2 (metadata)", r->kind);
	} else if ((r->flags & CSD_F_SAVED) && (r->flags & CSD_F_FAILED)) {
		mark_bad(reg, r, "flags 0x%x: saved and failed together", r->flags);
	} else if ((r->flags & CSD_F_FAULTED) && !(r->flags & CSD_F_FAILED)) {
		mark_bad(reg, r, "flags 0x%x: faulted without failed", r->flags);
	} else if ((r->flags & CSD_F_FLUSH_TIMEOUT) &&
		   !(r->flags & (CSD_F_SAVED | CSD_F_FAILED))) {
		mark_bad(reg, r, "flags 0x%x: flush-timeout without saved or failed", r->flags);
	} else if ((r->flags & CSD_F_STALE) && !(r->flags & CSD_F_SAVED)) {
		mark_bad(reg, r, "flags 0x%x: stale without saved", r->flags);
	} else if (!(r->flags & CSD_F_SAVED)) {
		r->state = CSD_REC_UNSAVED;
	} else if (!r->capacity || r->capacity > CSD_REC_MAX_CAPACITY) {
		mark_bad(reg, r, "capacity %llu, expected 1..%llu",
			 (unsigned long long)r->capacity, CSD_REC_MAX_CAPACITY);
	} else if (r->data_len > r->capacity) {
		mark_bad(reg, r, "data_len %llu exceeds capacity %llu",
			 (unsigned long long)r->data_len, (unsigned long long)r->capacity);
	} else if (r->data_offset >= r->capacity) {
		mark_bad(reg, r, "data_offset %llu not below capacity %llu",
			 (unsigned long long)r->data_offset, (unsigned long long)r->capacity);
	} else if (r->kind == CSD_REC_KIND_ETM && r->data_len != CSD_REC_ETM_LEN &&
		   r->data_len != CSD_REC_ETE_LEN) {
		mark_bad(reg, r, "metadata of %llu bytes, expected %u (ETMv4) or %u (ETE)",
			 (unsigned long long)r->data_len, CSD_REC_ETM_LEN, CSD_REC_ETE_LEN);
	}
}

/* @s (a VMCOREINFO value, untrusted) for a message: printable, bounded. */
static const char *printable(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	for (; *s && n + 1 < size; s++)
		buf[n++] = *s >= 0x20 && *s < 0x7f ? *s : '?';
	buf[n] = '\0';
	return buf;
}

/*
 * @key of VMCOREINFO as a number in @base; 0, or a message naming the key
 * and its value and CSD_ERR_CORRUPT.
 */
static enum csd_err key_u64(const struct csd_mem *m, const char *info, const char *key,
			    int base, uint64_t *v)
{
	char val[4096], shown[48];

	if (csd_vmcoreinfo_str(info, key, val, sizeof(val))) {
		csd_error("%s: VMCOREINFO has SYMBOL(coresight_kdump_list) but lacks %s",
			  m->name, key);
		return CSD_ERR_CORRUPT;
	}
	if (csd_vmcoreinfo_u64(info, key, base, v)) {
		csd_error("%s: VMCOREINFO's %s=%s is not a%s number", m->name, key,
			  printable(val, shown, sizeof(shown)),
			  base == 16 ? " hexadecimal" : base == 10 ? " decimal" : "");
		return CSD_ERR_CORRUPT;
	}
	return CSD_OK;
}

/*
 * The registry's keys.  Without SYMBOL(coresight_kdump_list) the kernel lacks
 * the series (CSD_ERR_NOREGISTRY); with it, a missing or garbled key is
 * corruption (CSD_ERR_CORRUPT), each reported by name and value.
 */
static enum csd_err read_keys(const struct csd_mem *m, const char *info,
			      struct csd_registry *reg, uint64_t *list_off)
{
	char val[4096];
	uint64_t size;
	enum csd_err err;

	if (!info) {
		csd_error("%s: no VMCOREINFO in the dump: the coresight_kdump registry cannot be "
			  "found", m->name);
		return CSD_ERR_FORMAT;
	}
	if (csd_vmcoreinfo_str(info, "SYMBOL(coresight_kdump_list)", val, sizeof(val))) {
		csd_error("%s: VMCOREINFO has no coresight_kdump registry "
			  "(SYMBOL(coresight_kdump_list) and its keys): a kernel without "
			  "the coresight-kdump series", m->name);
		return CSD_ERR_NOREGISTRY;
	}
	err = key_u64(m, info, "SYMBOL(coresight_kdump_list)", 16, &reg->head);
	if (!err)
		err = key_u64(m, info, "NUMBER(CORESIGHT_KDUMP_VERSION)", 0, &reg->version);
	/* Optional: absent from the kernels that predate FAILED (record-abi.md). */
	if (!err && !csd_vmcoreinfo_str(info, "NUMBER(CORESIGHT_KDUMP_FLAGS)", val, sizeof(val)))
		err = key_u64(m, info, "NUMBER(CORESIGHT_KDUMP_FLAGS)", 10, &reg->flags_defined);
	if (!err)
		err = key_u64(m, info, "SIZE(coresight_kdump_record)", 10, &size);
	if (!err)
		err = key_u64(m, info, "OFFSET(coresight_kdump_node.list)", 10, list_off);
	if (err)
		return err;
	if (size < CSD_REC_SIZE || size > LIST_OFF_MAX) {
		csd_error("%s: VMCOREINFO's SIZE(coresight_kdump_record)=%llu, expected %d..%d",
			  m->name, (unsigned long long)size, CSD_REC_SIZE, LIST_OFF_MAX);
		return CSD_ERR_CORRUPT;
	}
	if (*list_off < size || *list_off > LIST_OFF_MAX || *list_off % 8) {
		csd_error("%s: VMCOREINFO's OFFSET(coresight_kdump_node.list)=%llu, expected a "
			  "multiple of 8 from the record size %llu to %d", m->name,
			  (unsigned long long)*list_off, (unsigned long long)size, LIST_OFF_MAX);
		return CSD_ERR_CORRUPT;
	}
	return CSD_OK;
}

static bool seen(const uint64_t *addrs, size_t n, uint64_t a)
{
	for (size_t i = 0; i < n; i++)
		if (addrs[i] == a)
			return true;
	return false;
}

__attribute__((format(printf, 2, 3)))
static void cut(struct csd_registry *reg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reg->cut_reason, sizeof(reg->cut_reason), fmt, ap);
	va_end(ap);
	reg->cut = true;
	csd_warn("registry list cut: %s; %zu record(s) before it kept", reg->cut_reason, reg->n);
}

static enum csd_err walk(const struct csd_mem *m, struct csd_registry *reg, uint64_t list_off,
			 uint64_t *visited)
{
	uint64_t p;
	size_t n_visited = 0;

	if (csd_mem_read(m, CSD_KVADDR, reg->head, &p, 8)) {
		csd_error("%s: cannot read the registry head at 0x%llx "
			  "(SYMBOL(coresight_kdump_list))", m->name, (unsigned long long)reg->head);
		return CSD_ERR_CORRUPT;
	}
	p = le64((const uint8_t *)&p);
	visited[n_visited++] = reg->head;
	while (p != reg->head) {
		uint8_t b[CSD_REC_SIZE];
		struct csd_record *r;
		uint64_t next;

		if (n_visited > CSD_REGISTRY_MAX_NODES) {
			cut(reg, "more than %d nodes", CSD_REGISTRY_MAX_NODES);
			break;
		}
		if (seen(visited, n_visited, p)) {
			cut(reg, "loop: node 0x%llx reached twice", (unsigned long long)p);
			break;
		}
		if (p % 8 || p < list_off) {
			cut(reg, "bad link 0x%llx", (unsigned long long)p);
			break;
		}
		visited[n_visited++] = p;
		r = &reg->recs[reg->n++];
		memset(r, 0, sizeof(*r));
		r->addr = p - list_off;
		if (csd_mem_read(m, CSD_KVADDR, r->addr, b, sizeof(b)))
			mark_bad(reg, r, "%u bytes at 0x%llx not in the dump", CSD_REC_SIZE,
				 (unsigned long long)r->addr);
		else
			parse_record(reg, r, b, list_off);
		if (csd_mem_read(m, CSD_KVADDR, p, &next, 8)) {
			cut(reg, "next pointer at 0x%llx not in the dump", (unsigned long long)p);
			break;
		}
		p = le64((const uint8_t *)&next);
	}
	return CSD_OK;
}

enum csd_err csd_registry_walk(const struct csd_mem *m, struct csd_registry *reg)
{
	const char *info = m->ops->vmcoreinfo ? m->ops->vmcoreinfo(m->priv) : NULL;
	uint64_t list_off, *visited;
	enum csd_err err;

	memset(reg, 0, sizeof(*reg));
	err = read_keys(m, info, reg, &list_off);
	if (err)
		return err;
	if (reg->version < CSD_REC_VERSION_MIN || reg->version > CSD_REC_VERSION)
		csd_warn("%s: registry version %llu, this csdump reads %d to %d; records are "
			 "checked one by one", m->name, (unsigned long long)reg->version,
			 CSD_REC_VERSION_MIN, CSD_REC_VERSION);
	reg->recs = calloc(CSD_REGISTRY_MAX_NODES, sizeof(*reg->recs));
	visited = calloc(CSD_REGISTRY_MAX_NODES + 1, sizeof(*visited));
	if (!reg->recs || !visited) {
		free(visited);
		return CSD_ERR_NOMEM;
	}
	err = walk(m, reg, list_off, visited);
	free(visited);
	return err;
}

void csd_registry_free(struct csd_registry *reg)
{
	free(reg->recs);
	memset(reg, 0, sizeof(*reg));
}

static uint32_t crc32_all(const uint8_t *data, size_t len)
{
	uLong crc = crc32(0, Z_NULL, 0);

	while (len) {
		uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;

		crc = crc32(crc, data, n);
		data += n;
		len -= n;
	}
	return (uint32_t)crc;
}

/* Read @len bytes at @off of @r's buffer: by physical address when known. */
static enum csd_err read_buf(const struct csd_mem *m, const struct csd_record *r,
			     uint64_t off, uint8_t *out, size_t len)
{
	if (!len)
		return CSD_OK;
	if (r->buf_paddr &&
	    !csd_mem_read(m, CSD_KPHYSADDR, r->buf_paddr + off, out, len))
		return CSD_OK;
	return csd_mem_read(m, CSD_KVADDR, r->buf_vaddr + off, out, len);
}

/* Are the first and the last of @len bytes at @off of @r's buffer in the dump? */
static bool buf_present(const struct csd_mem *m, const struct csd_record *r, uint64_t off,
			size_t len)
{
	uint8_t b;

	return !len || (!read_buf(m, r, off, &b, 1) && !read_buf(m, r, off + len - 1, &b, 1));
}

/*
 * The ETMv4 or ETE block of a metadata record's data (little-endian u64s;
 * its length is checked): true if it is one.
 */
static bool etm_block(const struct csd_record *r, const uint8_t *data, struct csd_etm *etm,
		      uint64_t v[CSD_TRACER_BLOCK_MAX_U64])
{
	size_t n = (size_t)r->data_len / 8;

	for (size_t i = 0; i < n && i < CSD_TRACER_BLOCK_MAX_U64; i++)
		v[i] = le64(data + 8 * i);
	return csd_tracer_unpack(v, n, etm) == n;
}

static void check_etm(struct csd_registry *reg, struct csd_record *r, const uint8_t *data)
{
	uint64_t v[CSD_TRACER_BLOCK_MAX_U64] = { 0 };
	bool ete = r->data_len == CSD_REC_ETE_LEN;
	uint64_t magic = ete ? CSD_ETE_MAGIC : CSD_ETM4_MAGIC;
	int nr = ete ? CSD_ETE_NR_PARAMS : CSD_ETM4_NR_PARAMS;
	struct csd_etm e;
	bool ok = etm_block(r, data, &e, v);

	if (v[0] != magic)
		mark_bad(reg, r, "metadata magic 0x%llx, expected 0x%llx (%s, %llu bytes)",
			 (unsigned long long)v[0], (unsigned long long)magic,
			 ete ? "ETE" : "ETMv4", (unsigned long long)r->data_len);
	else if (e.cpu != (uint64_t)(int64_t)r->cpu || r->cpu < 0)
		mark_bad(reg, r, "metadata for CPU %lld in the record of CPU %d",
			 (long long)e.cpu, r->cpu);
	else if (v[2] != (uint64_t)nr || !ok)
		mark_bad(reg, r, "metadata has %llu parameters, expected %d",
			 (unsigned long long)v[2], nr);
	else if (csd_etm_trace_id(&e) != r->trace_id || !csd_trace_id_valid(r->trace_id))
		mark_bad(reg, r, "trace ID 0x%x, TRCTRACEIDR 0x%llx", r->trace_id,
			 (unsigned long long)e.trctraceidr);
}

enum csd_err csd_record_read(const struct csd_mem *m, struct csd_registry *reg,
			     struct csd_record *r, uint8_t **data, size_t *len)
{
	size_t n = (size_t)r->data_len, first;
	uint8_t *buf;

	*data = NULL;
	*len = 0;
	if (r->state != CSD_REC_OK)
		return CSD_ERR_CORRUPT;
	/* Circular: [data_offset, capacity) first, then from 0. */
	first = r->capacity - r->data_offset < n ? (size_t)(r->capacity - r->data_offset) : n;
	/* Allocate nothing for a buffer the dump does not hold at all. */
	if (!buf_present(m, r, r->data_offset, first) || !buf_present(m, r, 0, n - first))
		goto unmapped;
	buf = malloc(n ? n : 1);
	if (!buf)
		return CSD_ERR_NOMEM;
	if (read_buf(m, r, r->data_offset, buf, first) ||
	    read_buf(m, r, 0, buf + first, n - first)) {
		free(buf);
		goto unmapped;
	}
	r->crc_checked = true;
	r->crc_ok = crc32_all(buf, n) == r->data_crc;
	if (!r->crc_ok)
		mark_bad(reg, r, "CRC 0x%08x of the %zu data bytes, recorded 0x%08x",
			 crc32_all(buf, n), n, r->data_crc);
	else if (r->kind == CSD_REC_KIND_ETM)
		check_etm(reg, r, buf);
	if (r->state == CSD_REC_BAD) {
		free(buf);
		return CSD_ERR_CORRUPT;
	}
	*data = buf;
	*len = n;
	return CSD_OK;
unmapped:
	mark_bad(reg, r, "buffer at 0x%llx (phys 0x%llx) not in the dump",
		 (unsigned long long)r->buf_vaddr, (unsigned long long)r->buf_paddr);
	return CSD_ERR_UNMAPPED;
}

static enum csd_err add_etm(struct csd_dump *d, struct csd_registry *reg,
			    struct csd_record *r, const uint8_t *b)
{
	uint64_t v[CSD_TRACER_BLOCK_MAX_U64];
	struct csd_etm etm;

	etm_block(r, b, &etm, v);
	etm.stop_known = r->version >= 2;
	etm.stop_reason = r->stop_reason;
	etm.stop_addr = r->stop_addr;

	/* Two records for one CPU or one trace ID: the first is kept. */
	for (size_t i = 0; i < d->n_etms; i++) {
		if (d->etms[i].cpu == etm.cpu) {
			mark_bad(reg, r, "CPU %d already has metadata (trace ID 0x%x); the first "
				 "is kept", r->cpu, csd_etm_trace_id(&d->etms[i]));
			return CSD_OK;
		}
		if (csd_etm_trace_id(&d->etms[i]) == csd_etm_trace_id(&etm)) {
			mark_bad(reg, r, "trace ID 0x%x already belongs to CPU %llu; the first "
				 "is kept", r->trace_id, (unsigned long long)d->etms[i].cpu);
			return CSD_OK;
		}
	}
	return csd_dump_add_etm(d, &etm) ? CSD_OK : CSD_ERR_NOMEM;
}

static enum csd_err load_record(const struct csd_mem *m, struct csd_registry *reg,
				struct csd_record *r, struct csd_dump *d)
{
	struct csd_sink *s;
	uint8_t *data;
	size_t len;
	enum csd_err err;

	if (r->state != CSD_REC_OK)
		return CSD_OK;
	err = csd_record_read(m, reg, r, &data, &len);
	if (err == CSD_ERR_NOMEM)
		return err;
	if (err)
		return CSD_OK;	/* @r is bad, reported and counted */
	if (r->kind == CSD_REC_KIND_ETM) {
		err = add_etm(d, reg, r, data);
		free(data);
		return err;
	}
	s = csd_dump_add_sink(d, r->name, data, len, r->flags);
	if (!s)
		return CSD_ERR_NOMEM;
	/*
	 * Version 2: a sink's trace_id is its one source's, when it had one;
	 * a raw sink's (a TRBE) bytes are then that source's stream.
	 */
	if (r->version >= 2 && csd_trace_id_valid(r->trace_id)) {
		if (r->flags & CSD_F_FORMATTED) {
			s->one_source = (uint8_t)r->trace_id;
		} else {
			s->source_known = true;
			s->source_id = (uint8_t)r->trace_id;
		}
	}
	return CSD_OK;
}

static void kernel_fields(const char *info, struct csd_dump *d)
{
	if (!info)
		return;
	csd_vmcoreinfo_u64(info, "KERNELOFFSET", 16, &d->kaslr_offset);
	csd_vmcoreinfo_symbol(info, "_stext", &d->kernel_stext);
	csd_vmcoreinfo_symbol(info, "_text", &d->kernel_text);
	csd_vmcoreinfo_str(info, "OSRELEASE", d->osrelease, sizeof(d->osrelease));
}

enum csd_err csd_registry_load(const struct csd_mem *m, struct csd_registry *reg,
			       struct csd_dump *d)
{
	enum csd_err err = csd_registry_walk(m, reg);

	if (err)
		return err;
	kernel_fields(m->ops->vmcoreinfo ? m->ops->vmcoreinfo(m->priv) : NULL, d);
	for (size_t i = 0; i < reg->n; i++) {
		const struct csd_record *r = &reg->recs[i];
		const char *verdict;
		bool caveat;

		err = load_record(m, reg, &reg->recs[i], d);
		if (err)
			return err;
		verdict = csd_rec_verdict(reg, r, &caveat);
		if (verdict)
			csd_warn("%s: %s (record at 0x%llx): %s", m->name, r->name,
				 (unsigned long long)r->addr, verdict);
	}
	if (d->n_sinks)
		return CSD_OK;
	if (reg->n_bad || reg->cut) {
		csd_error("%s: no intact record holds saved trace", m->name);
		return CSD_ERR_CORRUPT;
	}
	csd_error("%s: the registry is intact (%zu record(s)) but holds no saved trace",
		  m->name, reg->n);
	return CSD_ERR_NOTRACE;
}

const char *csd_rec_verdict(const struct csd_registry *reg, const struct csd_record *r,
			    bool *caveat)
{
	*caveat = false;
	if (r->state == CSD_REC_BAD || r->kind != CSD_REC_KIND_TRACE)
		return NULL;
	if (r->flags & CSD_F_FAILED) {
		if (r->flags & CSD_F_FAULTED)
			return "save failed: the sink faulted at panic, its trace is not in the dump";
		if (r->flags & CSD_F_FLUSH_TIMEOUT)
			return "save failed: the sink did not confirm it stopped, its trace is not "
			       "in the dump";
		return "save failed: the sink's panic save gave up or returned an error, its "
		       "trace is not in the dump";
	}
	if (!(r->flags & CSD_F_SAVED))
		return reg->flags_defined & CSD_F_FAILED ?
			"not saved: the panic save did not run (crash_kexec_post_notifiers not "
			"set? the kernel needs it on its command line)" :
			"not saved (this kernel does not record why)";
	if (r->flags & CSD_F_FLUSH_TIMEOUT) {
		*caveat = true;
		return "flush timed out: the last bytes may be missing";
	}
	if (r->flags & CSD_F_STALE) {
		*caveat = true;
		return "stale: its CPU never answered the crash-stop IPI, where its trace "
		       "ends is not known";
	}
	return NULL;
}

const char *csd_rec_flags_str(uint16_t flags, char *buf, size_t size)
{
	static const char *const names[] = {
		"saved", "wrapped", "formatted", "in-place", "failed", "faulted", "flush-timeout",
		"stale",
	};
	const unsigned int n_names = sizeof(names) / sizeof(names[0]);
	unsigned int unknown = flags & ~((1u << n_names) - 1);
	size_t n = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	for (unsigned int i = 0; i < n_names && n < size; i++) {
		int w;

		if (!(flags & (1u << i)))
			continue;
		w = snprintf(buf + n, size - n, "%s%s", n ? "," : "", names[i]);
		n += w > 0 ? (size_t)w : 0;
	}
	if (unknown && n < size)
		snprintf(buf + n, size - n, "%s0x%x", n ? "," : "", unknown);
	if (!buf[0])
		snprintf(buf, size, "-");
	return buf;
}
