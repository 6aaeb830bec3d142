// SPDX-License-Identifier: GPL-2.0
/*
 * etm4enc: random walks and call-chain paths over a program image.
 */
#include "walk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a64.h"
#include "rng.h"

#define MAX_RUN 4096		/* sequential instructions before we interrupt */

void walk_init(struct walker *w, const struct image *img, uint64_t seed)
{
	memset(w, 0, sizeof(*w));
	w->img = img;
	w->rng = seed * 0x2545f4914f6cdd1dull + 1;
	/* A quarter of the walks start in user space: exceptions change EL. */
	w->el = rng_below(&w->rng, 4) ? 1 : 0;
	w->ctxid = (uint32_t)rng_below(&w->rng, 4096);
	w->exc_one_in = 300;
	w->pc = 0;
}

static bool in_image(const struct image *img, uint64_t addr)
{
	uint32_t insn;

	return image_read32(img, addr, &insn);
}

/* A random place to start or to go to: a function, or any instruction. */
static uint64_t random_target(struct walker *w)
{
	const struct image *img = w->img;
	const struct img_seg *s;

	if (img->n_syms && rng_below(&w->rng, 8))
		return img->syms[rng_below(&w->rng, img->n_syms)].addr;
	s = &img->segs[rng_below(&w->rng, img->n_segs)];
	return s->vaddr + 4 * rng_below(&w->rng, s->len / 4);
}

static void push_call(struct walker *w, uint64_t ret)
{
	if (w->n_calls == WALK_STACK) {
		memmove(w->calls, w->calls + 1, (WALK_STACK - 1) * sizeof(w->calls[0]));
		w->n_calls--;
	}
	w->calls[w->n_calls++] = ret;
}

/*
 * An exception taken before the instruction at @pc: @resumable ones are
 * remembered so that a later ERET returns there.
 */
static void take_exception(struct walker *w, struct step *s, uint64_t pc, bool resumable)
{
	static const uint8_t types[] = {
		ETM4_EXC_IRQ, ETM4_EXC_IRQ, ETM4_EXC_IRQ, ETM4_EXC_FIQ,
		ETM4_EXC_DATA_FAULT, ETM4_EXC_TRAP,
	};

	s->end = STEP_EXCEPTION;
	s->n_instr = (uint32_t)((pc - s->start) / 4);
	s->exc_type = types[rng_below(&w->rng, sizeof(types))];
	if (resumable && w->n_excs < 8) {
		w->excs[w->n_excs] = pc;
		w->exc_el[w->n_excs] = w->el;
		w->exc_ctxid[w->n_excs] = w->ctxid;
		w->n_excs++;
	}
	w->el = 1;
	s->target = w->vector ? w->vector : random_target(w);
}

static void do_branch(struct walker *w, struct step *s, const struct a64_insn *in,
		      uint64_t pc)
{
	s->taken = 1;
	switch (in->kind) {
	case A64_BCOND:
		/* Backward branches close loops: leave them now and then. */
		s->taken = (uint8_t)(in->target <= pc ? !rng_below(&w->rng, 3) :
				     rng_below(&w->rng, 2));
		if (s->taken && !in_image(w->img, in->target))
			s->taken = 0;
		else if (!s->taken && !in_image(w->img, pc + 4))
			s->taken = 1;
		s->target = s->taken ? in->target : pc + 4;
		break;
	case A64_BL:
		push_call(w, pc + 4);
		/* fall through */
	case A64_B:
	case A64_ISB:
		s->target = in->target;
		break;
	case A64_BLR:
		push_call(w, pc + 4);
		/* fall through */
	case A64_BR:
		s->target = random_target(w);
		break;
	case A64_RET:
		s->target = w->n_calls ? w->calls[--w->n_calls] : random_target(w);
		/* Now and then a return elsewhere (longjmp, a task switch). */
		if (!rng_below(&w->rng, 16))
			s->target = random_target(w);
		break;
	case A64_ERET:
		if (w->n_excs) {
			w->n_excs--;
			s->target = w->excs[w->n_excs];
			w->el = w->exc_el[w->n_excs];
			w->ctxid = w->exc_ctxid[w->n_excs];
			if (w->change_ctxid && !rng_below(&w->rng, 4))
				w->ctxid = (uint32_t)rng_below(&w->rng, 1u << 16);
		} else {
			/* Back to user space, half the time (EL0, any context ID). */
			s->target = random_target(w);
			if (rng_below(&w->rng, 2)) {
				w->el = 0;
				if (w->change_ctxid)
					w->ctxid = (uint32_t)rng_below(&w->rng, 1u << 16);
			}
		}
		break;
	default:
		break;
	}
}

static void rearm(struct walker *w)
{
	w->exc_countdown = 1 + rng_below(&w->rng, 2ull * w->exc_one_in);
}

bool walk_next(struct walker *w, struct step *s)
{
	const struct img_seg *seg;
	struct a64_insn in;
	uint64_t pc, run;
	uint32_t insn = 0;
	size_t slot;
	bool dead;

	memset(s, 0, sizeof(*s));
	if (!w->pc)
		w->pc = random_target(w);
	else if (w->gap_one_in && !rng_below(&w->rng, w->gap_one_in)) {
		/* Trace was filtered out for a while: it resumes elsewhere. */
		w->pc = random_target(w);
		s->trace_on = 1;
	}
	if (!w->exc_countdown)
		rearm(w);
	s->start = w->pc;
	seg = image_seg(w->img, s->start);
	if (!seg) {
		take_exception(w, s, s->start, false);
		goto out;
	}
	/* Sequential instructions up to the next P0 instruction. */
	slot = (size_t)(s->start - seg->vaddr) / 4;
	run = seg->next_p0[slot] - slot;
	if (w->exc_countdown <= run || run >= MAX_RUN) {
		run = w->exc_countdown <= run ? w->exc_countdown : MAX_RUN;
		rearm(w);
		take_exception(w, s, s->start + 4 * run, true);
		goto out;
	}
	w->exc_countdown -= run + 1;
	pc = s->start + 4 * run;
	if (!image_read32(w->img, pc, &insn)) {
		/* The segment ends before any branch. */
		take_exception(w, s, pc, false);
		goto out;
	}
	a64_classify(insn, pc, &in);
	/* Direct branches that leave the image, or spin on themselves. */
	dead = (in.kind == A64_B || in.kind == A64_BL) &&
	       (!in_image(w->img, in.target) || in.target == pc);
	dead |= in.kind == A64_BCOND && !in_image(w->img, in.target) &&
		!in_image(w->img, pc + 4);
	if (dead) {
		take_exception(w, s, pc, false);
		goto out;
	}
	s->end = STEP_BRANCH;
	s->kind = (uint8_t)in.kind;
	s->n_instr = (uint32_t)(run + 1);
	do_branch(w, s, &in, pc);
out:
	s->el = w->el;
	s->ctxid = w->ctxid;
	w->pc = s->target;
	return true;
}
