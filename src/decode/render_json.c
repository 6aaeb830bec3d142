// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: JSON lines, one object per event, in trace order.
 *
 * JSON lines are formatted by hand into a large buffer: the decoder produces
 * a range every few hundred nanoseconds and printf() would cost more than the
 * decode.  Ranges are most of them, and the same few thousand come back
 * again and again: their text is kept and copied (see struct line_slot).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace_id.h"
#include "decode/render_int.h"

#define OUT_BUF		(64u * 1024u)
#define LINE_WHOLE	4096u	/* room a line is started with */

/* {"type":"no_image","cpu":N,"trace_id":N,"addr":" fits (json: 40 at most). */
#define HEAD_MAX	80

/* The events written in place, from a head made once per trace ID. */
enum { FAST_RANGE, FAST_NACC, N_FAST };
struct json_stream {
	uint8_t json_len;
	char json[40];		/* ,"cpu":N,"trace_id":N */
	uint8_t fast_len[N_FAST];
	char fast[N_FAST][HEAD_MAX];	/* {"type":"range",...,"start":" */
	int cpu;
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
struct json_render {
	struct csd_render base;
	struct line_slot *lines_kept;	/* 1 << LINE_BITS */
	bool pending;			/* held: a range or branch not yet written */
	struct csd_ev held;
	struct json_stream ids[CSD_TRACE_IDS];
	size_t pos;
	char buf[OUT_BUF];
};

/* ---- the output buffer ------------------------------------------------ */

static void out_flush(struct json_render *r)
{
	if (r->pos && fwrite(r->buf, 1, r->pos, r->base.f) != r->pos)
		r->base.write_err = true;
	r->pos = 0;
}

/* Room for @n more bytes (n <= OUT_BUF). */
static char *out_room(struct json_render *r, size_t n)
{
	if (r->pos + n > OUT_BUF)
		out_flush(r);
	return r->buf + r->pos;
}

static void put_mem_slow(struct json_render *r, const char *s, size_t n)
{
	while (n) {
		size_t k = n < OUT_BUF / 2 ? n : OUT_BUF / 2;

		memcpy(out_room(r, k), s, k);
		r->pos += k;
		s += k;
		n -= k;
	}
}

static inline void put_mem(struct json_render *r, const char *s, size_t n)
{
	if (n <= OUT_BUF - r->pos) {
		memcpy(r->buf + r->pos, s, n);
		r->pos += n;
		return;
	}
	put_mem_slow(r, s, n);
}

static void put_str(struct json_render *r, const char *s)
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

static void put_hex(struct json_render *r, uint64_t v)
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

static void put_dec(struct json_render *r, int64_t sv)
{
	char *p = out_room(r, 21);

	if (sv < 0)
		*p++ = '-';
	p = dec_at(p, sv < 0 ? 0 - (uint64_t)sv : (uint64_t)sv);
	r->pos = (size_t)(p - r->buf);
}

/* A JSON string; names come from untrusted ELF files, so escape them. */
static void put_json_str(struct json_render *r, const char *s)
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

static void put_sym(struct json_render *r, const struct csd_sym *sym, uint64_t addr)
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

static void json_addr_field(struct json_render *r, const char *key, uint64_t addr)
{
	put_str(r, key);
	put_mem(r, "\"", 1);
	put_hex(r, addr);
	put_mem(r, "\"", 1);
}

static void json_sym_fields(struct json_render *r, uint64_t addr)
{
	const struct csd_sym *sym = csd_syms_lookup(r->base.syms, addr);
	const char *file;
	int line;

	if (sym) {
		PUT_LIT(r, ",\"sym\":");
		put_sym(r, sym, addr);
	}
	if (r->base.lines && csd_syms_line(r->base.syms, addr, &file, &line)) {
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
static void json_stream_make(struct json_stream *st, const struct csd_ev *ev)
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
static inline struct json_stream *json_stream(struct json_render *r, const struct csd_ev *ev)
{
	struct json_stream *st = &r->ids[ev->trace_id & (CSD_TRACE_IDS - 1)];

	if (!st->json_len || st->cpu != ev->cpu)
		json_stream_make(st, ev);
	return st;
}

/* ,"cpu":N,"trace_id":N -- the same for every event of a trace ID. */
static void json_stream_fields(struct json_render *r, const struct csd_ev *ev)
{
	struct json_stream *st = json_stream(r, ev);

	put_mem(r, st->json, st->json_len);
}

static void json_event_general(struct json_render *r, const struct csd_ev *ev);

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
static inline void line_slots(struct json_render *r, const struct csd_ev *ev, int k,
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
static void json_fast(struct json_render *r, const struct csd_ev *ev, int k)
{
	uint64_t end = k == FAST_RANGE ? ev->end : 0;
	uint32_t n = k == FAST_RANGE ? ev->n_instr : 0;
	struct json_stream *st = json_stream(r, ev);
	struct line_slot *c, *c2;
	const struct csd_sym *sym;
	char *p, *q;
	size_t i;

	/* A cycle count makes each line its own: nothing to keep. */
	if (ev->flags & CSD_EVF_CC) {
		json_event_general(r, ev);
		return;
	}
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
	sym = csd_syms_lookup(r->base.syms, ev->start);
	if (r->base.lines || (sym && (!sym->plain || sym->name_len > OUT_BUF / 4))) {
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

static void json_type_field(struct json_render *r, enum csd_ev_kind kind)
{
	if ((size_t)kind >= sizeof(json_types) / sizeof(json_types[0]) || !json_types[kind].s)
		kind = CSD_EV_EOT;
	put_mem(r, json_types[kind].s, json_types[kind].n);
}

/* ,"sec":"...","isa":"...": the state of a context, or one an exception was taken in. */
static void json_ctx_fields(struct json_render *r, const struct csd_ev *ev)
{
	PUT_LIT(r, ",\"sec\":");
	put_json_str(r, csd_sec_name(ev->sec));
	PUT_LIT(r, ",\"isa\":");
	put_json_str(r, csd_isa_name(ev->isa));
}

static void json_cc_field(struct json_render *r, const struct csd_ev *ev)
{
	if (!(ev->flags & CSD_EVF_CC))
		return;
	PUT_LIT(r, ",\"cc\":");
	put_dec(r, ev->cc);
}

/* Any event, field by field. */
static void json_event_general(struct json_render *r, const struct csd_ev *ev)
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
		json_cc_field(r, ev);
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
		name = csd_exception_words(ev);
		if (name) {
			PUT_LIT(r, ",\"what\":");
			put_json_str(r, name);
		}
		if (ev->el != 0xff) {
			PUT_LIT(r, ",\"el\":");
			put_dec(r, ev->el);
			json_ctx_fields(r, ev);
		}
		if (ev->end) {
			json_addr_field(r, ",\"ret\":", ev->end);
			json_sym_fields(r, ev->end);
		}
		if (csd_render_is_fault(csd_render_stop_of(&r->base, ev->cpu), ev->end))
			PUT_LIT(r, ",\"fault\":true");
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
		json_ctx_fields(r, ev);
		if (ev->flags & CSD_EVF_VMID) {
			PUT_LIT(r, ",\"vmid\":");
			put_dec(r, ev->vmid);
		}
		break;
	case CSD_EV_TIMESTAMP:
		PUT_LIT(r, ",\"ts\":");
		put_dec(r, (int64_t)ev->start);
		json_cc_field(r, ev);
		break;
	case CSD_EV_CYCLES:
		json_cc_field(r, ev);
		break;
	case CSD_EV_RUNAWAY:
		json_addr_field(r, ",\"start\":", ev->start);
		json_addr_field(r, ",\"end\":", ev->end);
		PUT_LIT(r, ",\"n_instr\":");
		put_dec(r, ev->n_instr);
		PUT_LIT(r, ",\"reason\":");
		put_json_str(r, csd_runaway_reason(ev->number));
		json_sym_fields(r, ev->start);
		break;
	case CSD_EV_EXC_RETURN:
	case CSD_EV_EOT:
		break;
	}
	PUT_LIT(r, "}\n");
}

/* Write the range or branch held back by json_render_event(), if any. */
static void json_pending(struct json_render *r)
{
	if (!r->pending)
		return;
	r->pending = false;
	if (r->held.kind == CSD_EV_RANGE)
		json_fast(r, &r->held, FAST_RANGE);
	else
		json_fast(r, &r->held, FAST_NACC);
}

static int json_render_event(struct csd_render *base, const struct csd_ev *ev)
{
	struct json_render *r = (struct json_render *)base;
	struct line_slot *c, *c2;

	json_pending(r);
	if (ev->kind != CSD_EV_RANGE && ev->kind != CSD_EV_NACC) {
		json_event_general(r, ev);
		return r->base.write_err;
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
	return r->base.write_err;
}

static void json_render_finish(struct csd_render *base)
{
	struct json_render *r = (struct json_render *)base;

	json_pending(r);
	out_flush(r);
}

static void json_render_free(struct csd_render *base)
{
	struct json_render *r = (struct json_render *)base;

	free(r->lines_kept);
	free(r);
}

static const struct csd_render_ops json_ops = {
	.event = json_render_event,
	.finish = json_render_finish,
	.free = json_render_free,
};

struct csd_render *csd_render_json_new(FILE *f, struct csd_syms *syms, bool lines)
{
	struct json_render *r = calloc(1, sizeof(*r));
	size_t i, n = (size_t)1 << LINE_BITS;

	if (!r)
		return NULL;
	r->base = (struct csd_render){ .ops = &json_ops, .f = f, .syms = syms, .lines = lines };
	r->lines_kept = malloc(n * sizeof(*r->lines_kept));
	if (!r->lines_kept) {
		free(r);
		return NULL;
	}
	for (i = 0; i < n; i++)
		r->lines_kept[i].kind = LINE_EMPTY;
	return &r->base;
}
