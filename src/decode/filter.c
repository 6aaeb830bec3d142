// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the --from/--to window of each trace ID (see filter.h).
 */
#include <string.h>

#include "decode/filter.h"

enum { BEFORE, IN, PAST };

void csd_filter_init(struct csd_filter *f, const struct csd_place *from,
		     const struct csd_place *to, struct csd_syms *syms, csd_ev_fn fn, void *ctx)
{
	memset(f, 0, sizeof(*f));
	f->from = *from;
	f->to = *to;
	f->syms = syms;
	f->fn = fn;
	f->ctx = ctx;
	memset(f->state, from->set ? BEFORE : IN, sizeof(f->state));
}

static bool runs(struct csd_filter *f, const struct csd_place *p, const struct csd_ev *ev)
{
	if (ev->kind != CSD_EV_RANGE)
		return false;
	if (p->sym)
		return csd_syms_lookup(f->syms, ev->start) == p->sym;
	return ev->start <= p->addr && p->addr < ev->end;
}

int csd_filter_event(void *p, const struct csd_ev *ev)
{
	struct csd_filter *f = p;
	uint8_t *st = &f->state[ev->trace_id & (CSD_TRACE_IDS - 1)];

	if (*st == BEFORE && runs(f, &f->from, ev)) {
		*st = IN;
		return f->fn(f->ctx, ev);	/* a --to in it is not "after" */
	}
	if (*st != IN)
		return ev->kind == CSD_EV_EOT ? f->fn(f->ctx, ev) : 0;
	if (f->to.set && runs(f, &f->to, ev))
		*st = PAST;
	return f->fn(f->ctx, ev);
}
