/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etm4enc: an execution path, as a sequence of instruction ranges.
 *
 * Each step is what an ETMv4 decoder reports as one instruction range: the
 * instructions from @start executed in sequence, ending either with a P0
 * instruction (a branch, taken or not) or with an exception taken before
 * the instruction at start + 4 * n_instr (then n_instr may be 0).
 */
#ifndef ETM4ENC_PATH_H
#define ETM4ENC_PATH_H

#include <stdint.h>

enum step_end {
	STEP_BRANCH,
	STEP_EXCEPTION,
};

/* ETMv4 exception numbers (IHI0064, Exception packet TYPE) used here. */
enum etm4_exc {
	ETM4_EXC_CALL = 0x2,
	ETM4_EXC_TRAP = 0x3,
	ETM4_EXC_DATA_FAULT = 0xc,
	ETM4_EXC_IRQ = 0xe,
	ETM4_EXC_FIQ = 0xf,
};

struct step {
	uint64_t start;
	uint64_t target;	/* the next instruction executed */
	uint32_t n_instr;	/* instructions in the range (the branch included) */
	uint32_t ctxid;		/* context after the step (the target's) */
	uint8_t end;		/* enum step_end */
	uint8_t kind;		/* STEP_BRANCH: enum a64_kind of the last instruction */
	uint8_t taken;		/* STEP_BRANCH: E (1) or N (0) atom */
	uint8_t exc_type;	/* STEP_EXCEPTION: enum etm4_exc */
	uint8_t el;		/* exception level after the step */
	uint8_t trace_on;	/* trace resumes at start after a gap (filtered) */
};

static inline uint64_t step_last(const struct step *s)
{
	return s->start + 4ull * s->n_instr - 4;
}

/* STEP_EXCEPTION: the preferred return address (first instruction not run). */
static inline uint64_t step_ret_addr(const struct step *s)
{
	return s->start + 4ull * s->n_instr;
}

#endif
