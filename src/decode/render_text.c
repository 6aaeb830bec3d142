// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the text report.  Keeps, per trace ID, a ring of the last N
 * entries, merging consecutive ranges of one function into one entry, and
 * writes them, CPU by CPU, when the decode is over.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace_id.h"
#include "decode/render_int.h"

struct entry {
	enum csd_ev_kind kind;
	uint32_t n_instr;
	uint32_t n_ranges;
	uint32_t number;
	uint32_t vmid;
	uint16_t flags;
	uint8_t el, sec, isa;
	uint64_t start, end, ctxid;
	const struct csd_sym *sym;
};

struct text_stream {
	bool seen;
	int cpu;
	uint8_t last_el, last_sec;
	uint32_t last_vmid;
	uint64_t last_ctxid;
	uint64_t ranges, instrs;
	struct entry *ring;
	size_t cap, head, count;	/* ring: oldest at head */
};

struct text_render {
	struct csd_render base;
	size_t last;
	struct text_stream ids[CSD_TRACE_IDS];
};

static struct entry *ring_newest(struct text_stream *st)
{
	if (!st->count)
		return NULL;
	return &st->ring[(st->head + st->count - 1) % st->cap];
}

/* A slot for a new entry (the oldest is dropped when full); NULL on ENOMEM. */
static struct entry *ring_push(struct text_render *r, struct text_stream *st)
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

static int text_event(struct text_render *r, const struct csd_ev *ev)
{
	struct text_stream *st = &r->ids[ev->trace_id & (CSD_TRACE_IDS - 1)];
	const struct csd_sym *sym = NULL;
	struct entry *e;

	if (!st->seen) {
		st->seen = true;
		st->cpu = ev->cpu;
		st->last_el = 0xfe;
	}
	switch (ev->kind) {
	case CSD_EV_EOT:
	case CSD_EV_TIMESTAMP:
	case CSD_EV_CYCLES:
		return 0;
	case CSD_EV_CONTEXT:
		if (ev->el == st->last_el && ev->ctxid == st->last_ctxid &&
		    ev->sec == st->last_sec && ev->vmid == st->last_vmid)
			return 0;
		st->last_el = ev->el;
		st->last_sec = ev->sec;
		st->last_vmid = ev->vmid;
		st->last_ctxid = ev->ctxid;
		break;
	case CSD_EV_RANGE:
		st->ranges++;
		st->instrs += ev->n_instr;
		sym = csd_syms_lookup(r->base.syms, ev->start);
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
		r->base.nomem = true;
		return 1;
	}
	e->kind = ev->kind;
	e->start = ev->start;
	e->end = ev->end;
	e->n_instr = ev->n_instr;
	e->n_ranges = 1;
	e->number = ev->number;
	e->el = ev->el;
	e->sec = ev->sec;
	e->isa = ev->isa;
	e->flags = ev->flags;
	e->vmid = ev->vmid;
	e->ctxid = ev->ctxid;
	e->sym = sym;
	return 0;
}

/* " name+0xoff" into @buf, or "" when @addr has no symbol. */
static void text_sym(struct text_render *r, char *buf, size_t len, uint64_t addr)
{
	buf[0] = ' ';
	if (!csd_syms_format(r->base.syms, addr, buf + 1, len - 1))
		buf[0] = '\0';
}

/* "  -- trace stopped: ..." for @stop, the record of the stream's tracer. */
static void text_stop(struct text_render *r, const struct csd_etm *stop)
{
	char a[256];

	text_sym(r, a, sizeof(a), stop->stop_addr);
	fprintf(r->base.f, "  -- trace stopped: ");
	switch (stop->stop_reason) {
	case CSD_STOP_FAULT:
		fprintf(r->base.f, "an oops on this CPU, at %016" PRIx64 "%s\n", stop->stop_addr, a);
		break;
	case CSD_STOP_PANIC:
		fprintf(r->base.f, "panic() on this CPU\n");
		break;
	case CSD_STOP_IPI:
		fprintf(r->base.f, "the crash-stop IPI, which interrupted %016" PRIx64 "%s\n",
			stop->stop_addr, a);
		break;
	case CSD_STOP_NONE:
		fprintf(r->base.f, "not recorded (the CPU did not answer the crash-stop IPI)\n");
		break;
	default:
		fprintf(r->base.f, "reason %u, which this csdump does not know\n",
			stop->stop_reason);
		break;
	}
}

static void text_entry(struct text_render *r, const struct entry *e, const struct csd_etm *stop)
{
	char a[256], b[256];
	const char *name;
	const char *file;
	int line;

	switch (e->kind) {
	case CSD_EV_RANGE:
		text_sym(r, a, sizeof(a), e->start);
		if (e->n_ranges == 1) {
			fprintf(r->base.f, "  %016" PRIx64 "-%016" PRIx64 " %6" PRIu32 " instr%s",
				e->start, e->end, e->n_instr, a);
		} else {
			/* One function, several ranges: where it began and where it ended. */
			snprintf(b, sizeof(b), "(%" PRIu32 " ranges)", e->n_ranges);
			fprintf(r->base.f, "  %016" PRIx64 " %-16s %6" PRIu32 " instr%s", e->start, b,
				e->n_instr, a);
			text_sym(r, b, sizeof(b), e->end - 4);
			if (b[0])
				fprintf(r->base.f, " ..%s", b);
		}
		if (r->base.lines && csd_syms_line(r->base.syms, e->start, &file, &line))
			fprintf(r->base.f, "  %s:%d", file, line);
		fputc('\n', r->base.f);
		break;
	case CSD_EV_NACC:
		text_sym(r, a, sizeof(a), e->start);
		if (e->n_ranges == 1) {
			fprintf(r->base.f, "  -- branch to code not in the image: %016" PRIx64 "%s\n",
				e->start, a);
			break;
		}
		text_sym(r, b, sizeof(b), e->end);
		fprintf(r->base.f, "  -- %" PRIu32 " branches to code not in the image: %016" PRIx64
			"%s .. %016" PRIx64 "%s\n", e->n_ranges, e->start, a, e->end, b);
		break;
	case CSD_EV_EXCEPTION: {
		struct csd_ev ev = { .number = e->number, .flags = e->flags };

		name = csd_exception_words(&ev);
		fprintf(r->base.f, "  -- exception %" PRIu32 " (%s)", e->number, name ? name : "?");
		if (e->el != 0xff)
			fprintf(r->base.f, " from EL%u %s %s", e->el, csd_sec_name(e->sec),
				csd_isa_name(e->isa));
		if (e->end) {
			text_sym(r, a, sizeof(a), e->end);
			fprintf(r->base.f, ", returns to %016" PRIx64 "%s", e->end, a);
		}
		if (csd_render_is_fault(stop, e->end))
			fprintf(r->base.f, "  <= the fault");
		fputc('\n', r->base.f);
		break;
	}
	case CSD_EV_EXC_RETURN:
		fprintf(r->base.f, "  -- exception return\n");
		break;
	case CSD_EV_TRACE_ON:
		fprintf(r->base.f, "  -- gap: trace on (%s)\n", csd_trace_on_reason(e->number));
		break;
	case CSD_EV_NO_SYNC:
		fprintf(r->base.f, "  -- gap: decoder not in sync (%s)\n", csd_unsync_reason(e->number));
		break;
	case CSD_EV_CONTEXT:
		if (e->el == 0xff)
			break;
		fprintf(r->base.f, "  -- context: EL%u %s %s", e->el, csd_sec_name(e->sec),
			csd_isa_name(e->isa));
		if (e->flags & CSD_EVF_CTXID)
			fprintf(r->base.f, ", context ID %" PRIu64, e->ctxid);
		if (e->flags & CSD_EVF_VMID)
			fprintf(r->base.f, ", VMID %" PRIu32, e->vmid);
		fputc('\n', r->base.f);
		break;
	case CSD_EV_RUNAWAY:
		text_sym(r, a, sizeof(a), e->start);
		fprintf(r->base.f, "  -- runaway decode, not what ran: %016" PRIx64 "-%016" PRIx64
			" %" PRIu32 " instr%s (%s)\n", e->start, e->end, e->n_instr, a,
			csd_runaway_reason(e->number));
		break;
	case CSD_EV_EOT:
	case CSD_EV_TIMESTAMP:
	case CSD_EV_CYCLES:
		break;
	}
}

static int stream_cmp(const void *a, const void *b)
{
	const struct text_stream *x = *(const struct text_stream * const *)a;
	const struct text_stream *y = *(const struct text_stream * const *)b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void text_report(struct text_render *r)
{
	struct text_stream *order[CSD_TRACE_IDS];
	size_t n = 0, i, k;

	for (i = 0; i < CSD_TRACE_IDS; i++)
		if (r->ids[i].seen)
			order[n++] = &r->ids[i];
	qsort(order, n, sizeof(order[0]), stream_cmp);
	for (i = 0; i < n; i++) {
		struct text_stream *st = order[i];
		const struct csd_etm *stop = csd_render_stop_of(&r->base, st->cpu);

		if (i)
			fputc('\n', r->base.f);
		if (st->cpu >= 0)
			fprintf(r->base.f, "CPU %d", st->cpu);
		else
			fprintf(r->base.f, "CPU ?");
		fprintf(r->base.f, " (trace ID 0x%02zx): %" PRIu64 " ranges, %" PRIu64 " instructions",
			(size_t)(st - r->ids), st->ranges, st->instrs);
		if (!st->count) {
			fprintf(r->base.f, "; no trace\n");
			if (stop)
				text_stop(r, stop);
			continue;
		}
		if (st->count == 1)
			fprintf(r->base.f, "; %s entry:\n", r->last ? "the last" : "the only");
		else
			fprintf(r->base.f, "; %s %zu entries, newest last:\n",
				r->last ? "the last" : "all", st->count);
		for (k = 0; k < st->count; k++)
			text_entry(r, &st->ring[(st->head + k) % st->cap], stop);
		if (stop)
			text_stop(r, stop);
	}
	if (!n)
		fprintf(r->base.f, "no trace decoded\n");
}


static int text_render_event(struct csd_render *base, const struct csd_ev *ev)
{
	return text_event((struct text_render *)base, ev);
}

static void text_render_finish(struct csd_render *base)
{
	text_report((struct text_render *)base);
}

static void text_render_free(struct csd_render *base)
{
	struct text_render *r = (struct text_render *)base;
	size_t i;

	for (i = 0; i < CSD_TRACE_IDS; i++)
		free(r->ids[i].ring);
	free(r);
}

static const struct csd_render_ops text_ops = {
	.event = text_render_event,
	.finish = text_render_finish,
	.free = text_render_free,
};

struct csd_render *csd_render_text_new(FILE *f, struct csd_syms *syms, size_t last, bool lines)
{
	struct text_render *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->base = (struct csd_render){ .ops = &text_ops, .f = f, .syms = syms, .lines = lines };
	r->last = last;
	return &r->base;
}
