/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: what the renderers share (render.c dispatches to them): the
 * output, the symbols, and how a render failed.  Each renderer embeds a
 * struct csd_render first and reaches the rest of its state from it.
 */
#ifndef CSD_RENDER_INT_H
#define CSD_RENDER_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "decode/render.h"

struct csd_render_ops {
	/* A csd_ev_fn; non-zero: stop. */
	int (*event)(struct csd_render *r, const struct csd_ev *ev);
	/* Write what is pending; errors go into write_err / nomem. */
	void (*finish)(struct csd_render *r);
	void (*free)(struct csd_render *r);
};

struct csd_render {
	const struct csd_render_ops *ops;
	FILE *f;
	struct csd_syms *syms;	/* may be NULL */
	bool lines;		/* source lines of ranges */
	const struct csd_etm *etms;	/* what stopped each CPU's trace; may be NULL */
	size_t n_etms;
	bool write_err;
	bool nomem;
};

/* The text report: the last @last entries of each CPU (0 = all). */
struct csd_render *csd_render_text_new(FILE *f, struct csd_syms *syms, size_t last, bool lines);
/* JSON lines: one object per event, in trace order. */
struct csd_render *csd_render_json_new(FILE *f, struct csd_syms *syms, bool lines);

#endif
