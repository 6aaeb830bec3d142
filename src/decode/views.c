// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the call stack, functions and timeline views of a decode, and
 * how they are written as text and as JSON lines (see views.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/trace_id.h"
#include "decode/jsonf.h"
#include "decode/views.h"

struct csd_views {
	unsigned int which;
	struct csd_syms *syms;
	bool nomem;
	struct csd_view_stream *ids[CSD_TRACE_IDS];
	struct csd_view_stream *order[CSD_TRACE_IDS];	/* by CPU, made when asked */
	size_t n_order;
	bool ordered;
};

struct csd_views *csd_views_new(unsigned int which, struct csd_syms *syms)
{
	struct csd_views *v = calloc(1, sizeof(*v));

	if (v) {
		v->which = which;
		v->syms = syms;
	}
	return v;
}

void csd_views_free(struct csd_views *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < CSD_TRACE_IDS; i++) {
		if (!v->ids[i])
			continue;
		csd_funcs_free(&v->ids[i]->funcs);
		free(v->ids[i]->slices);
		free(v->ids[i]);
	}
	free(v);
}

static struct csd_view_stream *stream_new(struct csd_views *v, const struct csd_ev *ev)
{
	struct csd_view_stream *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->cpu = ev->cpu;
	st->trace_id = ev->trace_id;
	csd_stack_init(&st->stack);
	csd_funcs_init(&st->funcs);
	if (v->which & CSD_VIEW_TIMELINE) {
		st->slices = calloc(CSD_TIMELINE_MAX, sizeof(*st->slices));
		if (!st->slices) {
			free(st);
			return NULL;
		}
	}
	return st;
}

const struct csd_slice *csd_view_slice(const struct csd_view_stream *st, size_t i)
{
	return &st->slices[(st->head + i) % CSD_TIMELINE_MAX];
}

/* A range into the timeline, at the depth the stack gives it before it runs. */
static void timeline_range(struct csd_views *v, struct csd_view_stream *st,
			   const struct csd_ev *ev)
{
	const struct csd_sym *sym = csd_syms_lookup(v->syms, ev->start);
	uint16_t depth = (uint16_t)(st->stack.n - 1);
	struct csd_slice *s = NULL;

	if (st->n_slices) {
		s = &st->slices[(st->head + st->n_slices - 1) % CSD_TIMELINE_MAX];
		if (s->depth != depth || s->sym != sym || (!sym && s->hi != ev->start))
			s = NULL;
	}
	if (!s) {
		if (st->n_slices == CSD_TIMELINE_MAX) {
			st->head = (st->head + 1) % CSD_TIMELINE_MAX;
			st->n_slices--;
		}
		s = &st->slices[(st->head + st->n_slices++) % CSD_TIMELINE_MAX];
		memset(s, 0, sizeof(*s));
		s->t = st->instrs;
		s->lo = ev->start;
		s->sym = sym;
		s->depth = depth;
		s->in_exception = st->stack.f[st->stack.n - 1].in_exception;
	}
	if (ev->start < s->lo)
		s->lo = ev->start;
	if (ev->end > s->hi)
		s->hi = ev->end;
	s->n_instr += ev->n_instr;
}

int csd_views_event(void *p, const struct csd_ev *ev)
{
	struct csd_views *v = p;
	struct csd_view_stream *st = v->ids[ev->trace_id & (CSD_TRACE_IDS - 1)];

	if (!st) {
		st = stream_new(v, ev);
		if (!st) {
			v->nomem = true;
			return 1;
		}
		v->ids[ev->trace_id & (CSD_TRACE_IDS - 1)] = st;
	}
	if (ev->kind == CSD_EV_RANGE && st->slices)
		timeline_range(v, st, ev);
	if (ev->kind == CSD_EV_RANGE)
		st->instrs += ev->n_instr;
	else if (ev->kind != CSD_EV_NACC && ev->kind != CSD_EV_CYCLES &&
		 ev->kind != CSD_EV_TIMESTAMP && ev->kind != CSD_EV_EOT) {
		st->last = *ev;
		st->has_last = true;
	}
	csd_stack_event(&st->stack, ev);
	if ((v->which & (CSD_VIEW_FUNCS | CSD_VIEW_TIMELINE)) &&
	    !csd_funcs_event(&st->funcs, v->syms, ev)) {
		v->nomem = true;
		return 1;
	}
	return 0;
}

static int stream_cmp(const void *a, const void *b)
{
	const struct csd_view_stream *x = *(const struct csd_view_stream * const *)a;
	const struct csd_view_stream *y = *(const struct csd_view_stream * const *)b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->trace_id < y->trace_id ? -1 : x->trace_id > y->trace_id;
}

static void views_order(struct csd_views *v)
{
	size_t i;

	if (v->ordered)
		return;
	v->n_order = 0;
	for (i = 0; i < CSD_TRACE_IDS; i++)
		if (v->ids[i])
			v->order[v->n_order++] = v->ids[i];
	qsort(v->order, v->n_order, sizeof(v->order[0]), stream_cmp);
	v->ordered = true;
}

size_t csd_views_count(const struct csd_views *v)
{
	views_order((struct csd_views *)v);
	return v->n_order;
}

const struct csd_view_stream *csd_views_stream(const struct csd_views *v, size_t i)
{
	views_order((struct csd_views *)v);
	return i < v->n_order ? v->order[i] : NULL;
}

/* ---- text ---------------------------------------------------------------- */

static void text_head(FILE *f, const struct csd_view_stream *st)
{
	if (st->cpu >= 0)
		fprintf(f, "CPU %d", st->cpu);
	else
		fprintf(f, "CPU ?");
	fprintf(f, " (trace ID 0x%02x)", st->trace_id);
}

static void text_sym(struct csd_views *v, FILE *f, uint64_t addr)
{
	char buf[512];

	if (csd_syms_format(v->syms, addr, buf, sizeof(buf)))
		fprintf(f, " %s", buf);
}

static void text_exception(FILE *f, const struct csd_ev *e)
{
	const char *w = csd_exception_words(e);

	fprintf(f, "exception %" PRIu32 " (%s)", e->number, w ? w : "?");
	if (e->el != 0xff)
		fprintf(f, " from EL%u %s %s", e->el, csd_sec_name(e->sec), csd_isa_name(e->isa));
}

static void text_stack(struct csd_views *v, FILE *f, const struct csd_view_stream *st)
{
	const struct csd_stack *s = &st->stack;
	size_t i, k = 0;

	text_head(f, st);
	if (s->n == 1 && !s->f[0].entry) {
		fprintf(f, ": no call stack (nothing in the image ran since the last gap or "
			"exception return%s)\n", s->out_of_image ? "; the trace left the image" : "");
		return;
	}
	fprintf(f, ": call stack at the end of the trace, innermost first%s:\n",
		s->gaps ? " (since the last gap in the trace)" : "");
	for (i = s->n; i-- > 0; k++) {
		const struct csd_frame *fr = &s->f[i];

		fprintf(f, "  #%-3zu", k);
		if (fr->pc) {
			fprintf(f, " %016" PRIx64, fr->pc);
			text_sym(v, f, fr->pc);
		} else if (fr->kind == CSD_FRAME_CALL) {
			fprintf(f, " %-16s (called; the trace ends before its first instruction)", "?");
		} else {
			fprintf(f, " %-16s", "?");
		}
		if (k == 0 && s->out_of_image)
			fprintf(f, "  (then left the image)");
		fputc('\n', f);
		if (fr->kind == CSD_FRAME_EXCEPTION) {
			fprintf(f, "       -- ");
			text_exception(f, &fr->exc);
			if (fr->ret)
				fprintf(f, ", returns to %016" PRIx64, fr->ret);
			fputc('\n', f);
		} else if (fr->kind == CSD_FRAME_FIRST) {
			fprintf(f, "       -- entered before the window%s: its callers are not in it\n",
				s->gaps ? " (the trace's last gap)" : "");
		}
	}
	if (s->dropped)
		fprintf(f, "  (%" PRIu64 " outer frames dropped: deeper than %d)\n", s->dropped,
			CSD_STACK_MAX);
	if (s->mismatches)
		fprintf(f, "  (%" PRIu64 " returns went elsewhere than their call's return address)\n",
			s->mismatches);
}

static void text_funcs(struct csd_views *v, FILE *f, const struct csd_view_stream *st,
		       size_t top)
{
	const struct csd_funcs *fs = &st->funcs;
	struct csd_func_stat *sorted;
	size_t n, i;

	text_head(f, st);
	fprintf(f, ": %" PRIu64 " instructions in %" PRIu64 " ranges, %" PRIu64 " calls",
		fs->instrs, fs->ranges, fs->calls);
	if (fs->has_ts)
		fprintf(f, ", timestamps %" PRIu64 " .. %" PRIu64 " (%" PRIu64 " ticks)",
			fs->ts_first, fs->ts_last, fs->ts_last - fs->ts_first);
	if (fs->has_cc)
		fprintf(f, ", %" PRIu64 " cycles counted", fs->cycles);
	sorted = csd_funcs_sorted(fs, &n);
	if (!n) {
		fprintf(f, "; no functions\n");
		return;
	}
	fprintf(f, "; functions by instructions:\n");
	fprintf(f, "  %12s %6s %8s  %s\n", "instructions", "%", "calls", "function");
	for (i = 0; i < n && (!top || i < top); i++) {
		const struct csd_func_stat *s = &sorted[i];

		fprintf(f, "  %12" PRIu64 " %5.1f%% %8" PRIu64 "  %s\n", s->instrs,
			fs->instrs ? 100.0 * (double)s->instrs / (double)fs->instrs : 0.0,
			s->calls, s->sym ? s->sym->name : "(no symbol)");
	}
	if (i < n)
		fprintf(f, "  (%zu more)\n", n - i);
	free(sorted);
	(void)v;
}

bool csd_views_write_text(struct csd_views *v, FILE *f, size_t top)
{
	size_t i, n = csd_views_count(v);

	for (i = 0; i < n; i++) {
		if (v->which & CSD_VIEW_STACK) {
			fputc('\n', f);
			text_stack(v, f, v->order[i]);
		}
		if (v->which & CSD_VIEW_FUNCS) {
			fputc('\n', f);
			text_funcs(v, f, v->order[i], top);
		}
	}
	if (v->nomem)
		csd_error("out of memory: the views stop where the decode was stopped");
	return !v->nomem;
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_head(FILE *f, const char *type, const struct csd_view_stream *st)
{
	fprintf(f, "{\"type\":\"%s\",\"cpu\":", type);
	if (st->cpu >= 0)
		fprintf(f, "%d", st->cpu);
	else
		fputs("null", f);
	fprintf(f, ",\"trace_id\":%u", st->trace_id);
}

static void json_addr(FILE *f, const char *key, uint64_t addr)
{
	fprintf(f, ",\"%s\":", key);
	csd_jsonf_addr(f, addr);
}

static const char *const frame_kinds[] = {
	[CSD_FRAME_FIRST] = "before_window",
	[CSD_FRAME_CALL] = "call",
	[CSD_FRAME_EXCEPTION] = "exception",
};

static void json_frame(struct csd_views *v, FILE *f, const struct csd_frame *fr)
{
	const char *w;

	fprintf(f, "{\"entered_by\":\"%s\"", frame_kinds[fr->kind]);
	if (fr->pc) {
		json_addr(f, "pc", fr->pc);
		fputs(",\"sym\":", f);
		csd_jsonf_sym(f, v->syms, fr->pc);
	} else {
		fputs(",\"pc\":null,\"sym\":null", f);
	}
	if (fr->entry)
		json_addr(f, "entry", fr->entry);
	if (fr->ret)
		json_addr(f, "ret", fr->ret);
	if (fr->kind == CSD_FRAME_EXCEPTION) {
		fprintf(f, ",\"exception\":{\"number\":%" PRIu32, fr->exc.number);
		w = csd_exception_words(&fr->exc);
		if (w) {
			fputs(",\"what\":", f);
			csd_jsonf_str(f, w);
		}
		if (fr->exc.el != 0xff)
			fprintf(f, ",\"el\":%u,\"sec\":\"%s\",\"isa\":\"%s\"", fr->exc.el,
				csd_sec_name(fr->exc.sec), csd_isa_name(fr->exc.isa));
		fputc('}', f);
	}
	fputc('}', f);
}

static void json_stack(struct csd_views *v, FILE *f, const struct csd_view_stream *st)
{
	const struct csd_stack *s = &st->stack;
	size_t i;

	json_head(f, "stack", st);
	fputs(",\"frames\":[", f);
	for (i = s->n; i-- > 0;) {
		if (i == 0 && s->n == 1 && !s->f[0].entry)
			break;		/* nothing ran since the last gap */
		json_frame(v, f, &s->f[i]);
		if (i)
			fputc(',', f);
	}
	fputc(']', f);
	if (st->has_last) {
		const char *w = st->last.kind == CSD_EV_EXCEPTION ? csd_exception_words(&st->last)
								  : NULL;

		fprintf(f, ",\"last_event\":{\"type\":\"%s\"", csd_ev_kind_name(st->last.kind));
		if (w) {
			fputs(",\"what\":", f);
			csd_jsonf_str(f, w);
		}
		if (st->last.kind == CSD_EV_TRACE_ON)
			fprintf(f, ",\"reason\":\"%s\"", csd_trace_on_reason(st->last.number));
		if (st->last.kind == CSD_EV_NO_SYNC)
			fprintf(f, ",\"reason\":\"%s\"", csd_unsync_reason(st->last.number));
		if (st->last.kind == CSD_EV_RUNAWAY)
			fprintf(f, ",\"reason\":\"%s\"", csd_runaway_reason(st->last.number));
		fputc('}', f);
	}
	fprintf(f, ",\"left_image\":%s,\"gaps\":%" PRIu64 ",\"dropped\":%" PRIu64
		",\"underflows\":%" PRIu64 ",\"mismatches\":%" PRIu64 "}\n",
		s->out_of_image ? "true" : "false", s->gaps, s->dropped, s->underflows,
		s->mismatches);
}

static void json_funcs(FILE *f, const struct csd_view_stream *st)
{
	const struct csd_funcs *fs = &st->funcs;
	struct csd_func_stat *sorted;
	size_t n, i;

	json_head(f, "functions", st);
	fprintf(f, ",\"instructions\":%" PRIu64 ",\"ranges\":%" PRIu64 ",\"calls\":%" PRIu64
		",\"no_image\":%" PRIu64, fs->instrs, fs->ranges, fs->calls, fs->nacc);
	if (fs->has_ts)
		fprintf(f, ",\"ts_first\":%" PRIu64 ",\"ts_last\":%" PRIu64, fs->ts_first,
			fs->ts_last);
	if (fs->has_cc)
		fprintf(f, ",\"cycles\":%" PRIu64, fs->cycles);
	fputs(",\"functions\":[", f);
	sorted = csd_funcs_sorted(fs, &n);
	for (i = 0; i < n; i++) {
		const struct csd_func_stat *s = &sorted[i];

		fputs(i ? ",{\"sym\":" : "{\"sym\":", f);
		if (s->sym) {
			csd_jsonf_str(f, s->sym->name);
			json_addr(f, "addr", s->sym->addr);
		} else {
			fputs("null", f);
		}
		fprintf(f, ",\"instructions\":%" PRIu64 ",\"ranges\":%" PRIu64 ",\"calls\":%" PRIu64
			"}", s->instrs, s->ranges, s->calls);
	}
	free(sorted);
	fputs("]}\n", f);
}

/* The newest slices: [t, n_instr, depth, in_exception, sym, lo, hi], oldest first. */
static void json_timeline(FILE *f, const struct csd_view_stream *st)
{
	size_t i;

	json_head(f, "timeline", st);
	fprintf(f, ",\"instructions\":%" PRIu64 ",\"slices\":[", st->instrs);
	for (i = 0; i < st->n_slices; i++) {
		const struct csd_slice *s = csd_view_slice(st, i);

		fprintf(f, "%s[%" PRIu64 ",%" PRIu32 ",%u,%u,", i ? "," : "", s->t, s->n_instr,
			s->depth, s->in_exception);
		if (s->sym)
			csd_jsonf_str(f, s->sym->name);
		else
			fputs("null", f);
		fputc(',', f);
		csd_jsonf_addr(f, s->lo);
		fputc(',', f);
		csd_jsonf_addr(f, s->hi);
		fputc(']', f);
	}
	fputs("]}\n", f);
}

bool csd_views_write_json(struct csd_views *v, FILE *f)
{
	size_t i, n = csd_views_count(v);

	for (i = 0; i < n; i++) {
		if (v->which & CSD_VIEW_STACK)
			json_stack(v, f, v->order[i]);
		if (v->which & CSD_VIEW_FUNCS)
			json_funcs(f, v->order[i]);
		if (v->which & CSD_VIEW_TIMELINE)
			json_timeline(f, v->order[i]);
	}
	if (v->nomem)
		csd_error("out of memory: the views stop where the decode was stopped");
	return !v->nomem;
}
