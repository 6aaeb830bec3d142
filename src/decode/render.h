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
/* A csd_ev_fn: pass the render as its context. */
int csd_render_event(void *render, const struct csd_ev *ev);
/* Write what is pending (the text report); false (reported) on an error. */
bool csd_render_finish(struct csd_render *r);
void csd_render_free(struct csd_render *r);

#endif
