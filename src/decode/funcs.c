// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: per-function counts of a window (see funcs.h).
 */
#include <stdlib.h>
#include <string.h>

#include "decode/funcs.h"

void csd_funcs_init(struct csd_funcs *f)
{
	memset(f, 0, sizeof(*f));
}

void csd_funcs_free(struct csd_funcs *f)
{
	free(f->v);
	f->v = NULL;
	f->cap = f->n = 0;
}

/* Slots are free while their counts are 0: a function is there once it ran. */
static size_t slot_of(const struct csd_func_stat *v, size_t cap, const struct csd_sym *sym)
{
	size_t h = (size_t)(((uintptr_t)sym >> 3) * 0x9e3779b97f4a7c15ull) & (cap - 1);

	while (v[h].ranges && v[h].sym != sym)
		h = (h + 1) & (cap - 1);
	return h;
}

static bool grow(struct csd_funcs *f)
{
	size_t cap = f->cap ? f->cap * 2 : 256, i;
	struct csd_func_stat *v = calloc(cap, sizeof(*v));

	if (!v)
		return false;
	for (i = 0; i < f->cap; i++)
		if (f->v[i].ranges)
			v[slot_of(v, cap, f->v[i].sym)] = f->v[i];
	free(f->v);
	f->v = v;
	f->cap = cap;
	return true;
}

static bool count_range(struct csd_funcs *f, struct csd_syms *syms, const struct csd_ev *ev)
{
	const struct csd_sym *sym = csd_syms_lookup(syms, ev->start);
	struct csd_func_stat *st;

	/* Bounded, whatever the symbol table: the rest go with the unnamed. */
	if (sym && f->n >= CSD_FUNCS_MAX && !f->v[slot_of(f->v, f->cap, sym)].ranges)
		sym = NULL;

	if ((f->n + 1) * 4 > f->cap * 3 && !grow(f))
		return false;
	st = &f->v[slot_of(f->v, f->cap, sym)];
	if (!st->ranges) {
		st->sym = sym;
		f->n++;
	}
	st->ranges++;
	st->instrs += ev->n_instr;
	if (f->after_call) {
		st->calls++;
		f->calls++;
	}
	f->after_call = (ev->flags & (CSD_EVF_CALL | CSD_EVF_TAKEN)) ==
			(CSD_EVF_CALL | CSD_EVF_TAKEN);
	f->ranges++;
	f->instrs += ev->n_instr;
	return true;
}

bool csd_funcs_event(struct csd_funcs *f, struct csd_syms *syms, const struct csd_ev *ev)
{
	if (ev->flags & CSD_EVF_CC && (ev->kind == CSD_EV_RANGE || ev->kind == CSD_EV_CYCLES ||
				       ev->kind == CSD_EV_TIMESTAMP)) {
		f->cycles += ev->cc;
		f->has_cc = true;
	}
	switch (ev->kind) {
	case CSD_EV_RANGE:
		return count_range(f, syms, ev);
	case CSD_EV_NACC:
		f->nacc++;
		f->after_call = false;
		break;
	case CSD_EV_TIMESTAMP:
		if (!f->has_ts)
			f->ts_first = ev->start;
		f->ts_last = ev->start;
		f->has_ts = true;
		break;
	case CSD_EV_EXCEPTION:
	case CSD_EV_TRACE_ON:
	case CSD_EV_NO_SYNC:
	case CSD_EV_RUNAWAY:
		f->after_call = false;
		break;
	default:
		break;
	}
	return true;
}

static int stat_cmp(const void *a, const void *b)
{
	const struct csd_func_stat *x = a, *y = b;
	uint64_t xa = x->sym ? x->sym->addr : 0, ya = y->sym ? y->sym->addr : 0;

	if (x->instrs != y->instrs)
		return x->instrs > y->instrs ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return xa < ya ? -1 : xa > ya;
}

struct csd_func_stat *csd_funcs_sorted(const struct csd_funcs *f, size_t *n)
{
	struct csd_func_stat *v;
	size_t i, k = 0;

	*n = 0;
	if (!f->n)
		return NULL;
	v = malloc(f->n * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < f->cap; i++)
		if (f->v[i].ranges)
			v[k++] = f->v[i];
	qsort(v, k, sizeof(*v), stat_cmp);
	*n = k;
	return v;
}
