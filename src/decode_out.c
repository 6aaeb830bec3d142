// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: rendering decoded events.
 *
 * JSON lines are formatted by hand into a large buffer: the decoder produces
 * a range every few hundred nanoseconds and printf() would cost more than the
 * decode.  Text keeps, per trace ID, a ring of the last N entries, merging
 * consecutive ranges of one function into one entry.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode_out.h"
#include "diag.h"

#define OUT_BUF		(64u * 1024u)
#define N_IDS		128

struct entry {
	enum csd_ev_kind kind;
	uint32_t n_instr;
	uint32_t n_ranges;
	uint32_t number;
	uint8_t el;
	uint64_t start, end;
	const struct csd_sym *sym;
};

struct stream {
	bool seen;
	uint8_t json_len;
	char json[40];		/* ,"cpu":N,"trace_id":N */
	int cpu;
	uint8_t last_el;
	uint64_t last_ctxid;
	uint64_t ranges, instrs;
	struct entry *ring;
	size_t cap, head, count;	/* ring: oldest at head */
};

struct csd_render {
	FILE *f;
	enum csd_out_format fmt;
	struct csd_syms *syms;
	size_t last;
	bool lines;
	bool write_err;
	bool nomem;
	struct stream ids[N_IDS];
	size_t pos;
	char buf[OUT_BUF];
};

struct csd_render *csd_render_new(FILE *f, enum csd_out_format fmt, struct csd_syms *syms,
				  size_t last, bool lines)
{
	struct csd_render *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->f = f;
	r->fmt = fmt;
	r->syms = syms;
	r->last = last;
	r->lines = lines;
	return r;
}

void csd_render_free(struct csd_render *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < N_IDS; i++)
		free(r->ids[i].ring);
	free(r);
}

/* ---- the output buffer ------------------------------------------------ */

static void out_flush(struct csd_render *r)
{
	if (r->pos && fwrite(r->buf, 1, r->pos, r->f) != r->pos)
		r->write_err = true;
	r->pos = 0;
}

/* Room for @n more bytes (n <= OUT_BUF). */
static char *out_room(struct csd_render *r, size_t n)
{
	if (r->pos + n > OUT_BUF)
		out_flush(r);
	return r->buf + r->pos;
}

static void put_mem_slow(struct csd_render *r, const char *s, size_t n)
{
	while (n) {
		size_t k = n < OUT_BUF / 2 ? n : OUT_BUF / 2;

		memcpy(out_room(r, k), s, k);
		r->pos += k;
		s += k;
		n -= k;
	}
}

static inline void put_mem(struct csd_render *r, const char *s, size_t n)
{
	if (n <= OUT_BUF - r->pos) {
		memcpy(r->buf + r->pos, s, n);
		r->pos += n;
		return;
	}
	put_mem_slow(r, s, n);
}

static void put_str(struct csd_render *r, const char *s)
{
	put_mem(r, s, strlen(s));
}

static void put_hex(struct csd_render *r, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1;
	char *p = out_room(r, 2 + (size_t)n);

	p[0] = '0';
	p[1] = 'x';
	r->pos += 2 + (size_t)n;
	for (p += 1 + n; n; n--, v >>= 4)
		*p-- = digits[v & 0xf];
}

static void put_dec(struct csd_render *r, int64_t sv)
{
	char tmp[24];
	uint64_t v = sv < 0 ? 0 - (uint64_t)sv : (uint64_t)sv;
	int n = 0;
	char *p;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	p = out_room(r, 1 + (size_t)n);
	if (sv < 0)
		*p++ = '-';
	while (n)
		*p++ = tmp[--n];
	r->pos = (size_t)(p - r->buf);
}

/* A JSON string; names come from untrusted ELF files, so escape them. */
static void put_json_str(struct csd_render *r, const char *s)
{
	static const char digits[] = "0123456789abcdef";

	put_mem(r, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char *p;

		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7f) {
			*out_room(r, 1) = (char)c;
			r->pos++;
			continue;
		}
		p = out_room(r, 6);
		memcpy(p, "\\u00", 4);
		p[4] = digits[c >> 4];
		p[5] = digits[c & 0xf];
		r->pos += 6;
	}
	put_mem(r, "\"", 1);
}

static void put_sym(struct csd_render *r, const struct csd_sym *sym, uint64_t addr)
{
	if (sym->plain && sym->name_len < OUT_BUF / 4) {
		char *p = out_room(r, sym->name_len + 2);

		p[0] = '"';
		memcpy(p + 1, sym->name, sym->name_len);
		p[sym->name_len + 1] = '"';
		r->pos += sym->name_len + 2;
	} else {
		put_json_str(r, sym->name);
	}
	if (addr != sym->addr) {
		r->pos--;	/* reopen the string */
		put_mem(r, "+", 1);
		put_hex(r, addr - sym->addr);
		put_mem(r, "\"", 1);
	}
}

/* ---- JSON lines ----------------------------------------------------------- */

#define PUT_LIT(r, s) put_mem(r, s, sizeof(s) - 1)

static void json_addr_field(struct csd_render *r, const char *key, uint64_t addr)
{
	put_str(r, key);
	put_mem(r, "\"", 1);
	put_hex(r, addr);
	put_mem(r, "\"", 1);
}

static void json_sym_fields(struct csd_render *r, uint64_t addr)
{
	const struct csd_sym *sym = csd_syms_lookup(r->syms, addr);
	const char *file;
	int line;

	if (sym) {
		PUT_LIT(r, ",\"sym\":");
		put_sym(r, sym, addr);
	}
	if (r->lines && csd_syms_line(r->syms, addr, &file, &line)) {
		PUT_LIT(r, ",\"line\":");
		put_json_str(r, file);
		r->pos--;
		put_mem(r, ":", 1);
		put_dec(r, line);
		put_mem(r, "\"", 1);
	}
}

/* ,"cpu":N,"trace_id":N -- the same for every event of a trace ID. */
static void json_stream_fields(struct csd_render *r, const struct csd_ev *ev)
{
	struct stream *st = &r->ids[ev->trace_id & (N_IDS - 1)];

	if (!st->json_len || st->cpu != ev->cpu) {
		int n;

		st->cpu = ev->cpu;
		if (ev->cpu >= 0)
			n = snprintf(st->json, sizeof(st->json), ",\"cpu\":%d,\"trace_id\":%u",
				     ev->cpu, ev->trace_id);
		else
			n = snprintf(st->json, sizeof(st->json), ",\"cpu\":null,\"trace_id\":%u",
				     ev->trace_id);
		st->json_len = (uint8_t)n;
	}
	put_mem(r, st->json, st->json_len);
}

/* {"type":"KIND", built from the one list of kinds and names. */
#define JSON_TYPE(k, name) [k] = { "{\"type\":\"" name "\"", sizeof("{\"type\":\"" name "\"") - 1 },
static const struct {
	const char *s;
	size_t n;
} json_types[] = {
	CSD_EV_KINDS(JSON_TYPE)
};
#undef JSON_TYPE

static void json_type_field(struct csd_render *r, enum csd_ev_kind kind)
{
	if ((size_t)kind >= sizeof(json_types) / sizeof(json_types[0]) || !json_types[kind].s)
		kind = CSD_EV_EOT;
	put_mem(r, json_types[kind].s, json_types[kind].n);
}

static void json_event(struct csd_render *r, const struct csd_ev *ev)
{
	const char *name;

	json_type_field(r, ev->kind);
	json_stream_fields(r, ev);
	switch (ev->kind) {
	case CSD_EV_RANGE:
		json_addr_field(r, ",\"start\":", ev->start);
		json_addr_field(r, ",\"end\":", ev->end);
		PUT_LIT(r, ",\"n_instr\":");
		put_dec(r, ev->n_instr);
		json_sym_fields(r, ev->start);
		break;
	case CSD_EV_NACC:
		json_addr_field(r, ",\"addr\":", ev->start);
		json_sym_fields(r, ev->start);
		break;
	case CSD_EV_EXCEPTION:
		PUT_LIT(r, ",\"number\":");
		put_dec(r, ev->number);
		name = csd_exception_name(ev->number);
		if (name) {
			PUT_LIT(r, ",\"name\":");
			put_json_str(r, name);
		}
		if (ev->end) {
			json_addr_field(r, ",\"ret\":", ev->end);
			json_sym_fields(r, ev->end);
		}
		break;
	case CSD_EV_TRACE_ON:
		PUT_LIT(r, ",\"reason\":");
		put_json_str(r, csd_trace_on_reason(ev->number));
		break;
	case CSD_EV_NO_SYNC:
		PUT_LIT(r, ",\"reason\":");
		put_json_str(r, csd_unsync_reason(ev->number));
		break;
	case CSD_EV_CONTEXT:
		if (ev->el != 0xff) {
			PUT_LIT(r, ",\"el\":");
			put_dec(r, ev->el);
		}
		PUT_LIT(r, ",\"ctxid\":");
		put_dec(r, (int64_t)ev->ctxid);
		break;
	case CSD_EV_EXC_RETURN:
	case CSD_EV_EOT:
		break;
	}
	PUT_LIT(r, "}\n");
}

/* ---- text --------------------------------------------------------------- */

static struct entry *ring_newest(struct stream *st)
{
	if (!st->count)
		return NULL;
	return &st->ring[(st->head + st->count - 1) % st->cap];
}

/* A slot for a new entry (the oldest is dropped when full); NULL on ENOMEM. */
static struct entry *ring_push(struct csd_render *r, struct stream *st)
{
	if (st->count == st->cap) {
		if (r->last && st->cap == r->last) {
			st->head = (st->head + 1) % st->cap;
			st->count--;
		} else {
			size_t cap = r->last ? r->last : (st->cap ? st->cap * 2 : 256);
			struct entry *v = realloc(st->ring, cap * sizeof(*v));

			if (!v)
				return NULL;
			/* Only ever grows before wrapping: head is still 0. */
			st->ring = v;
			st->cap = cap;
		}
	}
	st->count++;
	return memset(ring_newest(st), 0, sizeof(struct entry));
}

static int text_event(struct csd_render *r, const struct csd_ev *ev)
{
	struct stream *st = &r->ids[ev->trace_id & (N_IDS - 1)];
	const struct csd_sym *sym = NULL;
	struct entry *e;

	if (!st->seen) {
		st->seen = true;
		st->cpu = ev->cpu;
		st->last_el = 0xfe;
	}
	switch (ev->kind) {
	case CSD_EV_EOT:
		return 0;
	case CSD_EV_CONTEXT:
		if (ev->el == st->last_el && ev->ctxid == st->last_ctxid)
			return 0;
		st->last_el = ev->el;
		st->last_ctxid = ev->ctxid;
		break;
	case CSD_EV_RANGE:
		st->ranges++;
		st->instrs += ev->n_instr;
		sym = csd_syms_lookup(r->syms, ev->start);
		e = ring_newest(st);
		if (sym && e && e->kind == CSD_EV_RANGE && e->sym == sym) {
			e->end = ev->end;
			e->n_instr += ev->n_instr;
			e->n_ranges++;
			return 0;
		}
		break;
	case CSD_EV_NACC:
		/* Runs of targets outside the image (user space...) make one entry. */
		e = ring_newest(st);
		if (e && e->kind == CSD_EV_NACC) {
			e->end = ev->start;
			e->n_ranges++;
			return 0;
		}
		break;
	default:
		break;
	}
	e = ring_push(r, st);
	if (!e) {
		r->nomem = true;
		return 1;
	}
	e->kind = ev->kind;
	e->start = ev->start;
	e->end = ev->end;
	e->n_instr = ev->n_instr;
	e->n_ranges = 1;
	e->number = ev->number;
	e->el = ev->el;
	e->sym = sym;
	return 0;
}

/* " name+0xoff" into @buf, or "" when @addr has no symbol. */
static void text_sym(struct csd_render *r, char *buf, size_t len, uint64_t addr)
{
	buf[0] = ' ';
	if (!csd_syms_format(r->syms, addr, buf + 1, len - 1))
		buf[0] = '\0';
}

static void text_entry(struct csd_render *r, const struct entry *e)
{
	char a[256], b[256];
	const char *name;
	const char *file;
	int line;

	switch (e->kind) {
	case CSD_EV_RANGE:
		text_sym(r, a, sizeof(a), e->start);
		if (e->n_ranges == 1) {
			fprintf(r->f, "  %016" PRIx64 "-%016" PRIx64 " %6" PRIu32 " instr %s",
				e->start, e->end, e->n_instr, a);
		} else {
			/* One function, several ranges: where it began and where it ended. */
			snprintf(b, sizeof(b), "(%" PRIu32 " ranges)", e->n_ranges);
			fprintf(r->f, "  %016" PRIx64 " %-16s %6" PRIu32 " instr %s", e->start, b,
				e->n_instr, a);
			text_sym(r, b, sizeof(b), e->end - 4);
			fprintf(r->f, " ..%s", b);
		}
		if (r->lines && csd_syms_line(r->syms, e->start, &file, &line))
			fprintf(r->f, "  %s:%d", file, line);
		fputc('\n', r->f);
		break;
	case CSD_EV_NACC:
		text_sym(r, a, sizeof(a), e->start);
		if (e->n_ranges == 1) {
			fprintf(r->f, "  -- branch to code not in the image: %016" PRIx64 "%s\n",
				e->start, a);
			break;
		}
		text_sym(r, b, sizeof(b), e->end);
		fprintf(r->f, "  -- %" PRIu32 " branches to code not in the image: %016" PRIx64
			"%s .. %016" PRIx64 "%s\n", e->n_ranges, e->start, a, e->end, b);
		break;
	case CSD_EV_EXCEPTION:
		name = csd_exception_name(e->number);
		fprintf(r->f, "  -- exception %" PRIu32 " (%s)", e->number, name ? name : "?");
		if (e->end) {
			text_sym(r, a, sizeof(a), e->end);
			fprintf(r->f, ", returns to %016" PRIx64 "%s", e->end, a);
		}
		fputc('\n', r->f);
		break;
	case CSD_EV_EXC_RETURN:
		fprintf(r->f, "  -- exception return\n");
		break;
	case CSD_EV_TRACE_ON:
		fprintf(r->f, "  -- gap: trace on (%s)\n", csd_trace_on_reason(e->number));
		break;
	case CSD_EV_NO_SYNC:
		fprintf(r->f, "  -- gap: decoder not in sync (%s)\n", csd_unsync_reason(e->number));
		break;
	case CSD_EV_CONTEXT:
		if (e->el != 0xff)
			fprintf(r->f, "  -- context: EL%u\n", e->el);
		break;
	case CSD_EV_EOT:
		break;
	}
}

static int stream_cmp(const void *a, const void *b)
{
	const struct stream *x = *(const struct stream * const *)a;
	const struct stream *y = *(const struct stream * const *)b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void text_report(struct csd_render *r)
{
	struct stream *order[N_IDS];
	size_t n = 0, i, k;

	for (i = 0; i < N_IDS; i++)
		if (r->ids[i].seen)
			order[n++] = &r->ids[i];
	qsort(order, n, sizeof(order[0]), stream_cmp);
	for (i = 0; i < n; i++) {
		struct stream *st = order[i];

		if (i)
			fputc('\n', r->f);
		if (st->cpu >= 0)
			fprintf(r->f, "CPU %d", st->cpu);
		else
			fprintf(r->f, "CPU ?");
		fprintf(r->f, " (trace ID 0x%02zx): %" PRIu64 " ranges, %" PRIu64 " instructions",
			(size_t)(st - r->ids), st->ranges, st->instrs);
		if (!st->count) {
			fprintf(r->f, "; no trace\n");
			continue;
		}
		fprintf(r->f, "; %s %zu entries, newest last:\n", r->last ? "the last" : "all",
			st->count);
		for (k = 0; k < st->count; k++)
			text_entry(r, &st->ring[(st->head + k) % st->cap]);
	}
	if (!n)
		fprintf(r->f, "no trace decoded\n");
}

/* ---- interface ------------------------------------------------------------ */

int csd_render_event(void *p, const struct csd_ev *ev)
{
	struct csd_render *r = p;

	if (r->fmt == CSD_OUT_JSONL) {
		json_event(r, ev);
		return r->write_err;
	}
	return text_event(r, ev);
}

bool csd_render_finish(struct csd_render *r)
{
	if (r->fmt == CSD_OUT_JSONL)
		out_flush(r);
	else
		text_report(r);
	if (fflush(r->f) || ferror(r->f))
		r->write_err = true;
	if (r->nomem)
		csd_error("out of memory: the report stops where the decode was stopped");
	else if (r->write_err)
		csd_error("writing the output failed");
	return !r->write_err && !r->nomem;
}
