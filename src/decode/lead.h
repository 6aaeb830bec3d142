/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: whose are the first bytes of a wrapped, shared, formatted sink?
 *
 * A formatter writes a trace ID only when the source changes.  When a buffer
 * wraps inside one source's run, the frame with that run's ID is gone and
 * its rest belongs to no ID: a decoder leaves it out.  In a crash, that run
 * is often the failing CPU's last moments, the fault in them: its tracer
 * stopped at the fault, the others went on, and a small shared sink kept
 * the end of the failing CPU's run only.
 *
 * One fact decides it: an exception taken at the faulting instruction.  A
 * CPU's record (stop reason fault) names the instruction its oops began
 * at.  When the leading bytes, decoded as that CPU's trace from their first
 * synchronization, take a synchronous exception whose preferred return
 * address is that instruction, right after a range of the walk, they are
 * that CPU's: the bytes are one source's (no ID change in them), and no
 * other trace unit took that exception there (no other record says so).
 * Nothing else attributes them: a rule that cannot tell a wrong owner from
 * the right one is not made (tests/e2e-hw/README.md).
 */
#ifndef CSD_LEAD_H
#define CSD_LEAD_H

#include "core/csd_err.h"
#include "core/dump.h"
#include "decode/decode.h"

/*
 * Each formatted sink of @d (its program image loaded) whose leading bytes
 * hold no trace ID and take the one faulting CPU's fault: those bytes get
 * that CPU's trace ID (csd_frames_claim_lead()), said once in an info
 * message naming @input.  Returns CSD_OK, CSD_ERR_NOMEM or CSD_ERR_DECODE.
 */
enum csd_err csd_lead_attribute(struct csd_dump *d, const char *input);

/*
 * The decision on one event of the leading bytes' decode: a csd_ev_fn whose
 * context is a struct csd_lead_match (exported for the unit test).  It
 * returns non-zero, ending the decode, once the fault is found.
 */
struct csd_lead_match {
	uint64_t fault;		/* the record's faulting instruction */
	uint64_t last_end;	/* end of the last range, 0 after a break */
	bool found;
};
int csd_lead_event(void *match, const struct csd_ev *ev);

#endif
