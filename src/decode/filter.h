/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: a window of each CPU's trace, --from and --to.  Per trace ID, the
 * events from the first range that runs the --from place (through the end
 * when there is no --to) up to and with the first range after that which
 * runs the --to place; none before, none after.  A place is an address (a
 * range runs it when it lies in [start, end)) or a function (a range runs
 * it when it starts in it).  In front of the render and the views, which it
 * hands the events it keeps.
 */
#ifndef CSD_FILTER_H
#define CSD_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/trace_id.h"
#include "decode/decode.h"
#include "decode/symbols.h"

struct csd_place {
	bool set;
	const struct csd_sym *sym;	/* a function; else @addr */
	uint64_t addr;
};

struct csd_filter {
	struct csd_place from, to;
	struct csd_syms *syms;
	csd_ev_fn fn;
	void *ctx;
	uint8_t state[CSD_TRACE_IDS];	/* 0 before the window, 1 in it, 2 past it */
};

/* A filter handing the events in the window to @fn (@syms for functions). */
void csd_filter_init(struct csd_filter *f, const struct csd_place *from,
		     const struct csd_place *to, struct csd_syms *syms, csd_ev_fn fn, void *ctx);
/* A csd_ev_fn: pass the filter as its context. */
int csd_filter_event(void *filter, const struct csd_ev *ev);

#endif
