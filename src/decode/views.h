/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the views of a decode beside its ranges, per trace ID: the call
 * stack at the end of the trace (stack.h), the functions of the window
 * (funcs.h) and, for the report, the last moments as slices of call depth.
 * Fed every event of the decode (a csd_ev_fn), written once at the end, as
 * text or as JSON lines.
 */
#ifndef CSD_VIEWS_H
#define CSD_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "decode/decode.h"
#include "decode/funcs.h"
#include "decode/stack.h"
#include "decode/symbols.h"

#define CSD_VIEW_STACK		0x1
#define CSD_VIEW_FUNCS		0x2
#define CSD_VIEW_TIMELINE	0x4

/* Slices of the timeline kept per trace ID: the newest. */
#define CSD_TIMELINE_MAX	4096

/* Consecutive ranges at one call depth in one function. */
struct csd_slice {
	uint64_t t;		/* instructions of the trace ID before it */
	uint64_t lo, hi;	/* addresses run: [lo, hi) */
	const struct csd_sym *sym;
	uint32_t n_instr;
	uint16_t depth;		/* frames below it since the last gap */
	uint8_t in_exception;	/* an exception frame is below it */
};

struct csd_view_stream {
	int cpu;
	uint8_t trace_id;
	struct csd_stack stack;
	struct csd_funcs funcs;
	uint64_t instrs;		/* the trace ID's, for the slices' time */
	struct csd_slice *slices;	/* ring, CSD_TIMELINE_MAX, oldest at head */
	size_t head, n_slices;
	struct csd_ev last;		/* the last event but ranges, branches and counts */
	bool has_last;
};

struct csd_views;

/* @which: CSD_VIEW_*; @syms may be NULL. */
struct csd_views *csd_views_new(unsigned int which, struct csd_syms *syms);
void csd_views_free(struct csd_views *v);
/* A csd_ev_fn: pass the views as its context.  Non-zero: out of memory. */
int csd_views_event(void *views, const struct csd_ev *ev);

/* The trace IDs seen, by CPU: @i from 0 to csd_views_count() - 1. */
size_t csd_views_count(const struct csd_views *v);
const struct csd_view_stream *csd_views_stream(const struct csd_views *v, size_t i);
/* The @i-th newest... oldest slice: 0 is the oldest kept. */
const struct csd_slice *csd_view_slice(const struct csd_view_stream *st, size_t i);

/*
 * Write the views asked for: text (functions: the first @top, 0 = all) or
 * JSON lines ("type":"stack", "type":"functions", "type":"timeline").  False if out of memory
 * earlier (reported).
 */
bool csd_views_write_text(struct csd_views *v, FILE *f, size_t top);
bool csd_views_write_json(struct csd_views *v, FILE *f);

#endif
