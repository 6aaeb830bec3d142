/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the functions of one trace ID's window, by instructions executed
 * (each range counted in the function of its first instruction) and by
 * calls (ranges entered by a taken BL/BLR), with the window's length in
 * instructions and, when the trace has them, timestamps and cycles.
 */
#ifndef CSD_FUNCS_H
#define CSD_FUNCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"
#include "decode/symbols.h"

/* Functions counted apart at most; past it, they count as code without a symbol. */
#define CSD_FUNCS_MAX	(1u << 20)

struct csd_func_stat {
	const struct csd_sym *sym;	/* NULL: code without a symbol */
	uint64_t instrs, ranges, calls;
};

struct csd_funcs {
	struct csd_func_stat *v;	/* open addressing on sym; cap a power of 2 */
	size_t cap, n;
	uint64_t instrs, ranges, calls;
	uint64_t nacc;			/* branches to code not in the image */
	uint64_t ts_first, ts_last;	/* valid with has_ts */
	uint64_t cycles;		/* sum of the cycle counts, with has_cc */
	bool has_ts, has_cc;
	bool after_call;		/* the last range ended in a taken call */
};

void csd_funcs_init(struct csd_funcs *f);
/* Count one event; false when out of memory (the counts stop there). */
bool csd_funcs_event(struct csd_funcs *f, struct csd_syms *syms, const struct csd_ev *ev);
/*
 * The functions, most instructions first (ties: most calls, then address);
 * NULL when out of memory or none.  The array is the caller's to free.
 */
struct csd_func_stat *csd_funcs_sorted(const struct csd_funcs *f, size_t *n);
void csd_funcs_free(struct csd_funcs *f);

#endif
