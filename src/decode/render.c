// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: rendering decoded events, text (render_text.c) or JSON lines
 * (render_json.c): the interface, and how either reports a failure.
 */
#include "core/diag.h"
#include "decode/render_int.h"

struct csd_render *csd_render_new(FILE *f, enum csd_render_format fmt, struct csd_syms *syms,
				  size_t last, bool lines)
{
	if (fmt == CSD_RENDER_JSONL)
		return csd_render_json_new(f, syms, lines);
	return csd_render_text_new(f, syms, last, lines);
}

void csd_render_stops(struct csd_render *r, const struct csd_etm *etms, size_t n)
{
	r->etms = etms;
	r->n_etms = n;
}

const struct csd_etm *csd_render_stop_of(const struct csd_render *r, int cpu)
{
	for (size_t i = 0; cpu >= 0 && i < r->n_etms; i++)
		if (r->etms[i].cpu == (uint64_t)cpu && r->etms[i].stop_known)
			return &r->etms[i];
	return NULL;
}

bool csd_render_is_fault(const struct csd_etm *stop, uint64_t ret)
{
	return stop && stop->stop_reason == CSD_STOP_FAULT && stop->stop_addr &&
	       ret == stop->stop_addr;
}

void csd_render_free(struct csd_render *r)
{
	if (r)
		r->ops->free(r);
}

/*
 * A range that ends more than CSD_RUNAWAY_SLACK bytes past the end of the
 * sized function it starts in ran on through code a branch would have left:
 * not what executed.
 */
const struct csd_ev *csd_render_runaway(struct csd_syms *syms, const struct csd_ev *ev,
					struct csd_ev *tmp)
{
	const struct csd_sym *s;

	if (!syms || ev->kind != CSD_EV_RANGE || ev->end - ev->start <= CSD_RUNAWAY_SLACK)
		return ev;
	s = csd_syms_lookup(syms, ev->start);
	if (!s || !s->size || ev->end <= s->addr + s->size ||
	    ev->end - (s->addr + s->size) <= CSD_RUNAWAY_SLACK)
		return ev;
	*tmp = *ev;
	tmp->kind = CSD_EV_RUNAWAY;
	tmp->number = CSD_RUNAWAY_PAST_FUNCTION;
	return tmp;
}

int csd_render_event(void *p, const struct csd_ev *ev)
{
	struct csd_render *r = p;

	return r->ops->event(r, ev);
}

bool csd_render_finish(struct csd_render *r)
{
	r->ops->finish(r);
	if (fflush(r->f) || ferror(r->f))
		r->write_err = true;
	if (r->nomem)
		csd_error("out of memory: the report stops where the decode was stopped");
	else if (r->write_err)
		csd_error("writing the output failed");
	return !r->write_err && !r->nomem;
}
