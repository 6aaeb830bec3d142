/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the call stack of one trace ID at the end of its trace, rebuilt
 * from the decoded events: a range ending in a taken BL/BLR pushes a frame,
 * one ending in RET pops it, an exception pushes a frame that the next ERET
 * pops (with whatever was called in it).  A gap in the trace (trace on, lost
 * sync) starts over: the stack is what the trace shows since the last gap.
 * Frames before the window (the callers of the first function seen) are
 * unknown; a return past the outermost frame seen makes its caller the new
 * outermost frame, entered before the window.
 */
#ifndef CSD_STACK_H
#define CSD_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"

/* Frames kept at most; deeper, the outermost are dropped (and counted). */
#define CSD_STACK_MAX	128

enum csd_frame_kind {
	CSD_FRAME_FIRST,	/* entered before the window (or the last gap) */
	CSD_FRAME_CALL,		/* entered by a BL/BLR in the trace */
	CSD_FRAME_EXCEPTION,	/* entered by an exception in the trace */
};

struct csd_frame {
	uint64_t entry;		/* first address run in it (a callee's entry); 0: none yet */
	uint64_t pc;		/* its last instruction run (a caller's: its call); 0: none */
	uint64_t ret;		/* CALL: the return address; EXCEPTION: the preferred return */
	struct csd_ev exc;	/* EXCEPTION: the exception (number, words, from EL...) */
	uint8_t kind;		/* enum csd_frame_kind */
	bool in_exception;	/* it or a frame below it was entered by an exception */
};

struct csd_stack {
	struct csd_frame f[CSD_STACK_MAX];	/* f[0] outermost, f[n - 1] running */
	size_t n;
	/* Since the last gap: */
	uint64_t dropped;	/* outer frames dropped past CSD_STACK_MAX */
	uint64_t underflows;	/* returns past the outermost frame seen */
	uint64_t mismatches;	/* returns to somewhere else than the call's return address */
	uint64_t gaps;		/* times the stack started over (in all) */
	uint64_t expect;	/* after a RET: where the caller goes on; 0: anywhere */
	bool eret_seen;		/* the last range ended in an ERET, already followed */
	bool out_of_image;	/* the trace left the image since the running frame's last range */
};

void csd_stack_init(struct csd_stack *s);
/* Follow one event of the stack's trace ID. */
void csd_stack_event(struct csd_stack *s, const struct csd_ev *ev);

#endif
