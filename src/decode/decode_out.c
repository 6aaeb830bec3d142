// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: rendering decoded events.
 *
 * JSON lines are formatted by hand into a large buffer: the decoder produces
 * a range every few hundred nanoseconds and printf() would cost more than the
 * decode.  Ranges are most of them, and the same few thousand come back
 * again and again: their text is kept and copied (see struct line_slot).
 * Text keeps, per trace ID, a ring of the last N entries, merging
 * consecutive ranges of one function into one entry.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode_out.h"
#include "core/diag.h"

#define OUT_BUF		(64u * 1024u)
#define LINE_WHOLE	4096u	/* room a line is started with */

struct entry {
	enum csd_ev_kind kind;
	uint32_t n_instr;
	uint32_t n_ranges;
	uint32_t number;
	uint8_t el;
	uint64_t start, end;
	const struct csd_sym *sym;
};

/* {"type":"no_image","cpu":N,"trace_id":N,"addr":" fits (json: 40 at most). */
#define HEAD_MAX	80

/* The events written in place, from a head made once per trace ID. */
enum { FAST_RANGE, FAST_NACC, N_FAST };

struct stream {
	bool seen;
	uint8_t json_len;
	char json[40];		/* ,"cpu":N,"trace_id":N */
	uint8_t fast_len[N_FAST];
	char fast[N_FAST][HEAD_MAX];	/* {"type":"range",...,"start":" */
	int cpu;
	uint8_t last_el;
	uint64_t last_ctxid;
	uint64_t ranges, instrs;
	struct entry *ring;
	size_t cap, head, count;	/* ring: oldest at head */
};

/*
 * The text of a range or a branch out of the image after its stream's head
 * ("0xstart","end":...,"sym":"name+0xoff"}\n), kept by what it is made of:
 * a trace runs the same few thousand ranges millions of times, and copying
 * the line costs less than looking up the symbol and formatting the numbers.
 * A slot is three cache lines; a text is read 32 bytes at a time, so that
 * only the lines it fills are touched.
 */
#define LINE_KEEP	160	/* longest text kept, a multiple of 32 */
#define LINE_BITS	12
#define LINE_EMPTY	0xff	/* a slot's kind: nothing kept */

struct line_slot {
	uint64_t start, end;
	uint32_t n_instr;
	uint8_t kind;		/* FAST_RANGE, FAST_NACC or LINE_EMPTY */
	uint8_t len;
	uint8_t hot;		/* used since a miss last looked at it */
	char text[LINE_KEEP + 8];	/* 192 bytes in all */
};

struct csd_render {
	FILE *f;
	enum csd_out_format fmt;
	struct csd_syms *syms;
	size_t last;
	bool lines;
	bool write_err;
	bool nomem;
	struct line_slot *lines_kept;	/* JSON lines: 1 << LINE_BITS */
	bool pending;			/* held: a range or branch not yet written */
	struct csd_ev held;
	struct stream ids[CSD_TRACE_IDS];
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
	if (fmt == CSD_OUT_JSONL) {
		size_t i, n = (size_t)1 << LINE_BITS;

		r->lines_kept = malloc(n * sizeof(*r->lines_kept));
		if (!r->lines_kept) {
			free(r);
			return NULL;
		}
		for (i = 0; i < n; i++)
			r->lines_kept[i].kind = LINE_EMPTY;
	}
	return r;
}

void csd_render_free(struct csd_render *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < CSD_TRACE_IDS; i++)
		free(r->ids[i].ring);
	free(r->lines_kept);
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

/* The 8 hex digits of @x as ASCII, the most significant in the low byte. */
static inline uint64_t hex8(uint32_t x)
{
	uint64_t v = x, big;

	/* One nibble a byte, the most significant nibble in the top byte... */
	v = (v | v << 16) & 0x0000ffff0000ffffull;
	v = (v | v << 8) & 0x00ff00ff00ff00ffull;
	v = (v | v << 4) & 0x0f0f0f0f0f0f0f0full;
	/* ...then '0' + d, and 'a' - 10 + d where d > 9 (0x27 = 'a' - '0' - 10). */
	big = ((v + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
	v += 0x3030303030303030ull + big * 0x27;
	return __builtin_bswap64(v);	/* memory order: most significant first */
}

/*
 * "0x" and the hex digits of @v, no leading zeros, at @p, which has room for
 * 2 + 16 bytes whatever @v is.  Returns the end.  The digits stay in
 * registers: a copy through a stack buffer stalls on store forwarding.
 */
static inline char *hex_at(char *p, uint64_t v)
{
	uint64_t a = hex8((uint32_t)(v >> 32)), b = hex8((uint32_t)v);	/* a: first 8 */
	unsigned int n = v ? (67u - (unsigned int)__builtin_clzll(v)) / 4 : 1;
	unsigned int drop = 8 * (16 - n);	/* bits of leading zeros, as text */

	/* a:b little-endian is the 16-character text: shift the zeros out. */
	if (drop >= 64) {
		a = b >> (drop - 64);
		b = 0;
	} else if (drop) {
		a = a >> drop | b << (64 - drop);
		b >>= drop;
	}
	p[0] = '0';
	p[1] = 'x';
	memcpy(p + 2, &a, 8);	/* whole words; the tail is written over */
	memcpy(p + 10, &b, 8);
	return p + 2 + n;
}

static void put_hex(struct csd_render *r, uint64_t v)
{
	char *p = out_room(r, 2 + 16);

	r->pos = (size_t)(hex_at(p, v) - r->buf);
}

/* Decimal @v at @p (room for 20 bytes); returns the end. */
static inline char *dec_at(char *p, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	do {
		tmp[sizeof(tmp) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(p, tmp + sizeof(tmp) - n, n);
	return p + n;
}

static void put_dec(struct csd_render *r, int64_t sv)
{
	char *p = out_room(r, 21);

	if (sv < 0)
		*p++ = '-';
	p = dec_at(p, sv < 0 ? 0 - (uint64_t)sv : (uint64_t)sv);
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

/* The heads of the FAST_ kinds: the type, the stream fields, the first key. */
static const struct {
	const char *type, *key;
} fast_heads[N_FAST] = {
	[FAST_RANGE] = { "{\"type\":\"range\"", ",\"start\":\"" },
	[FAST_NACC] = { "{\"type\":\"no_image\"", ",\"addr\":\"" },
};

/* Make the JSON of stream @st for @ev's CPU. */
static void json_stream_make(struct stream *st, const struct csd_ev *ev)
{
	size_t k;
	int n;

	st->cpu = ev->cpu;
	if (ev->cpu >= 0)
		n = snprintf(st->json, sizeof(st->json), ",\"cpu\":%d,\"trace_id\":%u", ev->cpu,
			     ev->trace_id);
	else
		n = snprintf(st->json, sizeof(st->json), ",\"cpu\":null,\"trace_id\":%u",
			     ev->trace_id);
	st->json_len = (uint8_t)n;
	for (k = 0; k < N_FAST; k++) {
		size_t t = strlen(fast_heads[k].type), key = strlen(fast_heads[k].key);
		char *h = st->fast[k];

		memset(h, 0, HEAD_MAX);
		memcpy(h, fast_heads[k].type, t);
		memcpy(h + t, st->json, st->json_len);
		memcpy(h + t + st->json_len, fast_heads[k].key, key);
		st->fast_len[k] = (uint8_t)(t + st->json_len + key);
	}
}

/* The stream of @ev's trace ID, its JSON made for @ev's CPU. */
static inline struct stream *json_stream(struct csd_render *r, const struct csd_ev *ev)
{
	struct stream *st = &r->ids[ev->trace_id & (CSD_TRACE_IDS - 1)];

	if (!st->json_len || st->cpu != ev->cpu)
		json_stream_make(st, ev);
	return st;
}

/* ,"cpu":N,"trace_id":N -- the same for every event of a trace ID. */
static void json_stream_fields(struct csd_render *r, const struct csd_ev *ev)
{
	struct stream *st = json_stream(r, ev);

	put_mem(r, st->json, st->json_len);
}

static void json_event_general(struct csd_render *r, const struct csd_ev *ev);

/* Copy the literal @s to @p; returns the end. */
#define LIT_AT(p, s) (memcpy(p, s, sizeof(s) - 1), (p) + sizeof(s) - 1)

#define LINE_MASK	((1u << LINE_BITS) - 1)
#define SLOT_IS(c, k, s, e, n)	\
	((c)->kind == (k) && (c)->start == (s) && (c)->end == (e) && (c)->n_instr == (n))

/* The most line_text() writes but the name. */
#define LINE_MAX_BUT_NAME	(18 + 9 + 18 + 12 + 10 + 8 + 19 + 3)

/* The text of @ev (kind @k) after the head at @p, @sym its symbol (or NULL). */
static char *line_text(char *p, const struct csd_ev *ev, int k, const struct csd_sym *sym)
{
	p = hex_at(p, ev->start);
	if (k == FAST_RANGE) {
		p = LIT_AT(p, "\",\"end\":\"");
		p = hex_at(p, ev->end);
		p = LIT_AT(p, "\",\"n_instr\":");
		p = dec_at(p, ev->n_instr);
	} else {
		*p++ = '"';
	}
	if (sym) {
		p = LIT_AT(p, ",\"sym\":\"");
		memcpy(p, sym->name, sym->name_len);
		p += sym->name_len;
		if (ev->start != sym->addr) {
			*p++ = '+';
			p = hex_at(p, ev->start - sym->addr);
		}
		*p++ = '"';
	}
	return LIT_AT(p, "}\n");
}

/* The two slots where the text of @ev (kind @k) may be kept. */
static inline void line_slots(struct csd_render *r, const struct csd_ev *ev, int k,
			      struct line_slot **c, struct line_slot **c2)
{
	uint64_t end = k == FAST_RANGE ? ev->end : 0;
	uint64_t h = (ev->start * 0x9e3779b97f4a7c15ull) ^ (end * 0xc2b2ae3d27d4eb4full);

	*c = &r->lines_kept[h >> (64 - LINE_BITS)];
	*c2 = &r->lines_kept[(h >> (64 - 2 * LINE_BITS)) & LINE_MASK];
}

/*
 * Ranges and branches out of the image, nearly every object csdump writes:
 * the stream's head, then the rest of the line as kept from its last time.
 * The same bytes as the general path, json_event_general(), would give.
 */
static void json_fast(struct csd_render *r, const struct csd_ev *ev, int k)
{
	uint64_t end = k == FAST_RANGE ? ev->end : 0;
	uint32_t n = k == FAST_RANGE ? ev->n_instr : 0;
	struct stream *st = json_stream(r, ev);
	struct line_slot *c, *c2;
	const struct csd_sym *sym;
	char *p, *q;
	size_t i;

	/* Two places a text may be kept: far fewer texts evict each other. */
	line_slots(r, ev, k, &c, &c2);
	if (!SLOT_IS(c, k, ev->start, end, n) && SLOT_IS(c2, k, ev->start, end, n))
		c = c2;
	if (SLOT_IS(c, k, ev->start, end, n)) {
		if (!c->hot)
			c->hot = 1;
		p = out_room(r, HEAD_MAX + LINE_KEEP);
		memcpy(p, st->fast[k], HEAD_MAX);	/* whole; the tail is written over */
		p += st->fast_len[k];
		for (i = 0; i < c->len; i += 32)
			memcpy(p + i, c->text + i, 32);
		r->pos = (size_t)(p + c->len - r->buf);
		return;
	}
	sym = csd_syms_lookup(r->syms, ev->start);
	if (r->lines || (sym && (!sym->plain || sym->name_len > OUT_BUF / 4))) {
		json_event_general(r, ev);
		return;
	}
	p = out_room(r, HEAD_MAX + LINE_MAX_BUT_NAME + (sym ? sym->name_len : 0));
	memcpy(p, st->fast[k], HEAD_MAX);
	p += st->fast_len[k];
	q = line_text(p, ev, k, sym);
	r->pos = (size_t)(q - r->buf);
	if ((size_t)(q - p) <= LINE_KEEP) {
		/* An empty place, else one not used since the last miss here. */
		if (c2->kind == LINE_EMPTY || (c->kind != LINE_EMPTY && c->hot && !c2->hot)) {
			struct line_slot *t = c;

			c = c2;
			c2 = t;
		}
		c2->hot = 0;
		c->hot = 0;
		c->kind = (uint8_t)k;
		c->start = ev->start;
		c->end = end;
		c->n_instr = n;
		c->len = (uint8_t)(q - p);
		memcpy(c->text, p, c->len);
	}
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

/* Any event, field by field. */
static void json_event_general(struct csd_render *r, const struct csd_ev *ev)
{
	const char *name;

	/* Lines are flushed whole (should the process die), bar names of KiBs. */
	if (OUT_BUF - r->pos < LINE_WHOLE)
		out_flush(r);

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
	struct stream *st = &r->ids[ev->trace_id & (CSD_TRACE_IDS - 1)];
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
	struct stream *order[CSD_TRACE_IDS];
	size_t n = 0, i, k;

	for (i = 0; i < CSD_TRACE_IDS; i++)
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

/* Write the range or branch held back by csd_render_event(), if any. */
static void json_pending(struct csd_render *r)
{
	if (!r->pending)
		return;
	r->pending = false;
	if (r->held.kind == CSD_EV_RANGE)
		json_fast(r, &r->held, FAST_RANGE);
	else
		json_fast(r, &r->held, FAST_NACC);
}

int csd_render_event(void *p, const struct csd_ev *ev)
{
	struct csd_render *r = p;
	struct line_slot *c, *c2;

	if (r->fmt != CSD_OUT_JSONL)
		return text_event(r, ev);
	json_pending(r);
	if (ev->kind != CSD_EV_RANGE && ev->kind != CSD_EV_NACC) {
		json_event_general(r, ev);
		return r->write_err;
	}
	/*
	 * Hold a range back until the next event, its slots on their way into
	 * the cache meanwhile: the decoder's work in between hides the fetch,
	 * which would otherwise be most of a line's cost.
	 */
	line_slots(r, ev, ev->kind == CSD_EV_RANGE ? FAST_RANGE : FAST_NACC, &c, &c2);
	__builtin_prefetch(c);
	__builtin_prefetch((const char *)c + 64);
	__builtin_prefetch(c2);
	r->held = *ev;
	r->pending = true;
	return r->write_err;
}

bool csd_render_finish(struct csd_render *r)
{
	if (r->fmt == CSD_OUT_JSONL) {
		json_pending(r);
		out_flush(r);
	}
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
