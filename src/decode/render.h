/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: rendering decoded events for people (text: the last N entries of
 * each CPU) and for programs (JSON lines, one object per event, in trace
 * order).
 */
#ifndef CSD_RENDER_H
#define CSD_RENDER_H

#include <stdbool.h>
#include <stdio.h>
#include "decode/decode.h"
#include "decode/symbols.h"

enum csd_render_format {
	CSD_RENDER_TEXT,
	CSD_RENDER_JSONL,
};

struct csd_render;

/*
 * @syms may be NULL.  @last: text entries kept per CPU (0 = all).  With
 * @lines, ranges carry the source line of their first instruction.
 */
struct csd_render *csd_render_new(FILE *f, enum csd_render_format fmt, struct csd_syms *syms,
				  size_t last, bool lines);
/*
 * Say in the report what stopped each CPU's trace, from the tracers' records
 * (@etms, kept by the caller until csd_render_free()), and mark the faulting
 * instruction of the CPU whose oops stopped it.
 */
void csd_render_stops(struct csd_render *r, const struct csd_etm *etms, size_t n);
/* The tracer of CPU @cpu among those given to csd_render_stops(), or NULL. */
const struct csd_etm *csd_render_stop_of(const struct csd_render *r, int cpu);
/* An exception returning to @ret is the fault that @stop (may be NULL) names. */
bool csd_render_is_fault(const struct csd_etm *stop, uint64_t ret);
/* A csd_ev_fn: pass the render as its context. */
int csd_render_event(void *render, const struct csd_ev *ev);
/*
 * @ev, or, when it is a range that ends more than CSD_RUNAWAY_SLACK bytes
 * past the end of the sized function of @syms it starts in, a copy of it in
 * *@tmp made a CSD_EV_RUNAWAY: what the render and the views are given.
 */
const struct csd_ev *csd_render_runaway(struct csd_syms *syms, const struct csd_ev *ev,
					struct csd_ev *tmp);
/* Write what is pending (the text report); false (reported) on an error. */
bool csd_render_finish(struct csd_render *r);
void csd_render_free(struct csd_render *r);

#endif
