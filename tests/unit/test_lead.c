// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the decision that gives a wrapped sink's ID-less leading
 * bytes to a CPU (decode/lead.h): only a synchronous exception whose
 * preferred return address is the recorded faulting instruction, taken
 * right after a range of the walk, decides it.
 */
#include "decode/lead.h"
#include "testutil.h"

#define FAULT 0xffff80000826a1d4ull

static struct csd_ev range(uint64_t start, uint64_t end)
{
	return (struct csd_ev){ .kind = CSD_EV_RANGE, .start = start, .end = end };
}

static struct csd_ev exc(uint32_t number, uint64_t ret)
{
	return (struct csd_ev){ .kind = CSD_EV_EXCEPTION, .number = number, .end = ret };
}

/* Feed @n events; whether the decision was made, and at which one. */
static bool decide(const struct csd_ev *evs, int n, int *at)
{
	struct csd_lead_match m = { .fault = FAULT };

	*at = -1;
	for (int i = 0; i < n; i++)
		if (csd_lead_event(&m, &evs[i])) {
			*at = i;
			break;
		}
	return m.found;
}

int main(void)
{
	const struct csd_ev ctx = { .kind = CSD_EV_CONTEXT };
	const struct csd_ev nosync = { .kind = CSD_EV_NO_SYNC };
	const struct csd_ev nacc = { .kind = CSD_EV_NACC, .start = FAULT };
	struct csd_ev evs[4];
	int at;

	/* A data fault (12) inside a block: the range ends at it. */
	evs[0] = range(FAULT - 0x20, FAULT);
	evs[1] = exc(12, FAULT);
	CHECK(decide(evs, 2, &at) && at == 1, "a data fault at the instruction: %d", at);
	/* A BRK (instruction debug, 6) at a function's start, after a BLR. */
	evs[0] = range(0xffff800008200000ull, 0xffff800008200010ull);
	evs[1] = exc(6, FAULT);
	CHECK(decide(evs, 2, &at) && at == 1, "a BRK at its branch's target");
	/* A context between the range and the exception changes nothing. */
	evs[0] = range(FAULT - 0x20, FAULT);
	evs[1] = ctx;
	evs[2] = exc(12, FAULT);
	CHECK(decide(evs, 3, &at) && at == 2, "through a context element");

	/* An IRQ or FIQ there is any CPU's that ran there. */
	evs[0] = range(FAULT - 0x20, FAULT);
	evs[1] = exc(14, FAULT);
	evs[2] = exc(15, FAULT);
	CHECK(!decide(evs, 3, &at), "IRQ or FIQ at the instruction");
	/* Another return address. */
	evs[1] = exc(12, FAULT + 4);
	CHECK(!decide(evs, 2, &at), "a fault elsewhere");
	/* Not right after a range: first thing, after lost sync, after no image. */
	evs[0] = exc(12, FAULT);
	CHECK(!decide(evs, 1, &at), "an exception before any range");
	evs[0] = range(FAULT - 0x20, FAULT);
	evs[1] = nosync;
	evs[2] = exc(12, FAULT);
	CHECK(!decide(evs, 3, &at), "after lost sync");
	evs[1] = nacc;
	CHECK(!decide(evs, 3, &at), "after a range out of the image");
	/* An exception (an IRQ) breaks the walk too: then a fault needs a range. */
	evs[1] = exc(14, FAULT - 8);
	CHECK(!decide(evs, 3, &at), "right after another exception");
	return test_result("test_lead");
}
