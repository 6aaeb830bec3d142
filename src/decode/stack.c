// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the call stack at the end of the trace, from calls, returns and
 * exceptions (see stack.h).
 */
#include <string.h>

#include "decode/stack.h"

static struct csd_frame *top(struct csd_stack *s)
{
	return &s->f[s->n - 1];
}

/* A new innermost frame; past CSD_STACK_MAX the outermost goes. */
static struct csd_frame *push(struct csd_stack *s, enum csd_frame_kind kind)
{
	struct csd_frame *f;

	if (s->n == CSD_STACK_MAX) {
		memmove(&s->f[0], &s->f[1], (CSD_STACK_MAX - 1) * sizeof(s->f[0]));
		s->n--;
		s->dropped++;
	}
	f = &s->f[s->n++];
	memset(f, 0, sizeof(*f));
	f->kind = (uint8_t)kind;
	f->in_exception = kind == CSD_FRAME_EXCEPTION || (s->n > 1 && f[-1].in_exception);
	return f;
}

/* One frame entered before what follows; the counts go on. */
static void reset_first(struct csd_stack *s)
{
	s->n = 0;
	push(s, CSD_FRAME_FIRST);
}

/* A gap: start over, counts and all. */
static void restart(struct csd_stack *s)
{
	s->dropped = s->underflows = s->mismatches = 0;
	s->expect = 0;
	s->eret_seen = false;
	s->out_of_image = false;
	reset_first(s);
}

void csd_stack_init(struct csd_stack *s)
{
	memset(s, 0, sizeof(*s));
	restart(s);
}

/* Return from the running frame: to its caller, or to one before the window. */
static void stack_ret(struct csd_stack *s)
{
	if (top(s)->kind == CSD_FRAME_CALL) {
		s->expect = top(s)->ret;
		if (--s->n == 0)	/* its caller was dropped (too deep) */
			reset_first(s);
		return;
	}
	s->underflows++;
	/*
	 * An exception frame's own RET returns from code called before the
	 * exception was seen: the frame stays.  The outermost frame's makes its
	 * caller, never seen, the new outermost.
	 */
	if (top(s)->kind == CSD_FRAME_FIRST)
		reset_first(s);
}

/* ERET: leave the innermost exception with all that was called in it. */
static void stack_eret(struct csd_stack *s)
{
	size_t i = s->n;

	while (i > 0 && s->f[i - 1].kind != CSD_FRAME_EXCEPTION)
		i--;
	if (!i) {
		/* Taken before the window: what runs next was interrupted then. */
		s->underflows++;
		reset_first(s);
		return;
	}
	s->n = i - 1;
	if (!s->n)		/* what it interrupted was dropped (too deep) */
		reset_first(s);
}

static void stack_range(struct csd_stack *s, const struct csd_ev *ev)
{
	struct csd_frame *f = top(s);

	if (s->expect && ev->start != s->expect)
		s->mismatches++;
	s->expect = 0;
	s->eret_seen = false;
	if (!f->entry)
		f->entry = ev->start;
	/* The last instruction: A64's are 4 bytes (a T32 one may be 2). */
	f->pc = ev->end - 4 >= ev->start && ev->end >= 4 ? ev->end - 4 : ev->start;
	s->out_of_image = false;
	if (!(ev->flags & CSD_EVF_TAKEN))
		return;
	if (ev->flags & CSD_EVF_CALL) {
		/* The caller waits at the call (f->pc); the callee's range comes next. */
		push(s, CSD_FRAME_CALL)->ret = ev->end;
	} else if (ev->flags & CSD_EVF_RET) {
		stack_ret(s);
	} else if (ev->flags & CSD_EVF_ERET) {
		stack_eret(s);
		s->eret_seen = true;
	}
}

void csd_stack_event(struct csd_stack *s, const struct csd_ev *ev)
{
	struct csd_frame *f;

	switch (ev->kind) {
	case CSD_EV_RANGE:
		stack_range(s, ev);
		break;
	case CSD_EV_EXCEPTION:
		/* The interrupted frame goes on at the preferred return. */
		f = top(s);
		if (ev->end)
			f->pc = ev->end;
		f = push(s, CSD_FRAME_EXCEPTION);
		f->exc = *ev;
		f->ret = ev->end;
		break;
	case CSD_EV_EXC_RETURN:
		/* After the range ending in ERET; alone when that was not in the image. */
		if (!s->eret_seen)
			stack_eret(s);
		s->eret_seen = false;
		break;
	case CSD_EV_NACC:
		s->out_of_image = true;
		break;
	case CSD_EV_TRACE_ON:
	case CSD_EV_NO_SYNC:
	case CSD_EV_RUNAWAY:	/* not what ran: the decode lost its place */
		if (s->n > 1 || top(s)->entry) {
			s->gaps++;
			restart(s);
		}
		break;
	default:
		break;
	}
}
