// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the call stack (src/decode/stack.c) and the function counts
 * (src/decode/funcs.c) on event sequences built by hand, each with the stack
 * a reader of the sequence expects: calls and returns, an exception and its
 * ERET, a return past the outermost frame, an ERET from an exception taken
 * before the window, a gap, a return elsewhere, and recursion deeper than
 * CSD_STACK_MAX.
 */
#include <string.h>

#include "decode/funcs.h"
#include "decode/stack.h"
#include "testutil.h"

static struct csd_ev range(uint64_t start, uint64_t end, uint16_t flags)
{
	struct csd_ev ev = { .kind = CSD_EV_RANGE, .start = start, .end = end,
			     .n_instr = (uint32_t)((end - start) / 4), .flags = flags };

	return ev;
}

#define CALL	(CSD_EVF_CALL | CSD_EVF_TAKEN)
#define RET	(CSD_EVF_RET | CSD_EVF_TAKEN)
#define ERET	(CSD_EVF_ERET | CSD_EVF_TAKEN)

static void feed(struct csd_stack *s, struct csd_ev ev)
{
	csd_stack_event(s, &ev);
}

static void test_calls(void)
{
	struct csd_stack s;

	csd_stack_init(&s);
	feed(&s, range(0x1000, 0x1010, CALL));		/* a: BL b at 0x100c */
	feed(&s, range(0x2000, 0x2008, CALL));		/* b: BL c at 0x2004 */
	feed(&s, range(0x3000, 0x3010, RET));		/* c returns */
	feed(&s, range(0x2008, 0x2010, CALL));		/* b: BL d at 0x200c */
	feed(&s, range(0x4000, 0x4004, 0));		/* d runs, trace ends */
	CHECK(s.n == 3, "%zu frames, want a < b < d", s.n);
	CHECK(s.f[0].kind == CSD_FRAME_FIRST && s.f[0].pc == 0x100c, "a: %d %#lx",
	      s.f[0].kind, (unsigned long)s.f[0].pc);
	CHECK(s.f[1].kind == CSD_FRAME_CALL && s.f[1].pc == 0x200c && s.f[1].ret == 0x1010 &&
	      s.f[1].entry == 0x2000, "b: pc %#lx ret %#lx", (unsigned long)s.f[1].pc,
	      (unsigned long)s.f[1].ret);
	CHECK(s.f[2].pc == 0x4000 && s.f[2].ret == 0x2010 && s.f[2].entry == 0x4000, "d");
	CHECK(!s.mismatches && !s.underflows && !s.gaps, "counts %lu %lu %lu",
	      (unsigned long)s.mismatches, (unsigned long)s.underflows, (unsigned long)s.gaps);

	/* d returns somewhere else than 0x2010: counted. */
	feed(&s, range(0x4004, 0x4008, RET));
	feed(&s, range(0x2100, 0x2104, 0));
	CHECK(s.n == 2 && s.mismatches == 1, "%zu frames, %lu mismatches", s.n,
	      (unsigned long)s.mismatches);
	/* b, then a, return past what the window saw: the caller is new each time. */
	feed(&s, range(0x2104, 0x2108, RET));
	feed(&s, range(0x1010, 0x1014, RET));
	feed(&s, range(0x9000, 0x9008, 0));
	CHECK(s.n == 1 && s.f[0].kind == CSD_FRAME_FIRST && s.f[0].entry == 0x9000 &&
	      s.underflows == 1, "%zu frames, entry %#lx, %lu underflows", s.n,
	      (unsigned long)s.f[0].entry, (unsigned long)s.underflows);
	/* A branch with link not taken is no call. */
	feed(&s, range(0x9008, 0x9010, CSD_EVF_CALL));
	CHECK(s.n == 1, "not taken: %zu frames", s.n);
}

static void test_exceptions(void)
{
	struct csd_ev irq = { .kind = CSD_EV_EXCEPTION, .number = 14, .end = 0x1008, .el = 1 };
	struct csd_ev eret = { .kind = CSD_EV_EXC_RETURN };
	struct csd_ev gap = { .kind = CSD_EV_TRACE_ON };
	struct csd_stack s;

	csd_stack_init(&s);
	feed(&s, range(0x1000, 0x1008, 0));		/* interrupted before 0x1008 */
	csd_stack_event(&s, &irq);
	feed(&s, range(0x8000, 0x8010, CALL));		/* vector: BL handler */
	feed(&s, range(0x5000, 0x5004, 0));		/* the handler runs */
	CHECK(s.n == 3 && s.f[1].kind == CSD_FRAME_EXCEPTION && s.f[1].exc.number == 14 &&
	      s.f[1].ret == 0x1008 && s.f[0].pc == 0x1008, "IRQ: %zu frames", s.n);
	CHECK(s.f[2].in_exception && s.f[1].in_exception && !s.f[0].in_exception, "in_exception");
	/* ERET (as a range, then the element) leaves the handler and what it called. */
	feed(&s, range(0x5004, 0x5008, ERET));
	csd_stack_event(&s, &eret);
	feed(&s, range(0x1008, 0x1010, 0));
	CHECK(s.n == 1 && s.f[0].pc == 0x100c, "after ERET: %zu frames, pc %#lx", s.n,
	      (unsigned long)s.f[0].pc);
	/* An ERET element alone (its range not in the image) pops as well. */
	csd_stack_event(&s, &irq);
	csd_stack_event(&s, &eret);
	CHECK(s.n == 1, "ERET element alone: %zu frames", s.n);
	/* An ERET out of an exception taken before the window: a new first frame. */
	feed(&s, range(0x1010, 0x1018, ERET));
	CHECK(s.n == 1 && s.underflows == 1 && !s.f[0].entry, "ERET before the window");
	/* A gap starts over. */
	feed(&s, range(0x1000, 0x1010, CALL));
	csd_stack_event(&s, &gap);
	CHECK(s.n == 1 && s.gaps == 1 && !s.f[0].entry && !s.underflows, "gap: %zu frames",
	      s.n);
}

static void test_deep(void)
{
	struct csd_stack s;
	size_t i;

	csd_stack_init(&s);
	for (i = 0; i < CSD_STACK_MAX + 10; i++)
		feed(&s, range(0x1000, 0x1010, CALL));	/* recursion */
	CHECK(s.n == CSD_STACK_MAX && s.dropped == 11, "%zu frames, %lu dropped", s.n,
	      (unsigned long)s.dropped);
	for (i = 0; i < CSD_STACK_MAX + 10; i++)
		feed(&s, range(0x1000, 0x1004, RET));
	CHECK(s.n >= 1 && s.n <= CSD_STACK_MAX, "%zu frames after the returns", s.n);
}

static void test_funcs(void)
{
	struct csd_funcs f;
	struct csd_func_stat *v;
	struct csd_ev ev;
	size_t n;

	csd_funcs_init(&f);
	/* No symbols: one entry for all; calls are ranges after a taken BL/BLR. */
	ev = range(0x1000, 0x1010, CALL);
	CHECK(csd_funcs_event(&f, NULL, &ev), "event");
	ev = range(0x2000, 0x2008, RET);
	CHECK(csd_funcs_event(&f, NULL, &ev), "event");
	ev = range(0x1010, 0x1014, CSD_EVF_CALL);	/* not taken */
	CHECK(csd_funcs_event(&f, NULL, &ev), "event");
	ev = range(0x1014, 0x1018, 0);
	CHECK(csd_funcs_event(&f, NULL, &ev), "event");
	ev = (struct csd_ev){ .kind = CSD_EV_TIMESTAMP, .start = 100 };
	csd_funcs_event(&f, NULL, &ev);
	ev.start = 250;
	csd_funcs_event(&f, NULL, &ev);
	v = csd_funcs_sorted(&f, &n);
	CHECK(v && n == 1 && v[0].instrs == 4 + 2 + 1 + 1 && v[0].calls == 1 && v[0].ranges == 4,
	      "%zu functions", n);
	CHECK(f.instrs == 8 && f.calls == 1 && f.has_ts && f.ts_first == 100 && f.ts_last == 250,
	      "totals");
	free(v);
	csd_funcs_free(&f);
}

int main(void)
{
	test_calls();
	test_exceptions();
	test_deep();
	test_funcs();
	return test_result("stack");
}
