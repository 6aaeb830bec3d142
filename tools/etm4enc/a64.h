/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etm4enc: a small A64 branch classifier.
 *
 * Only what an ETMv4 trace unit cares about: which instructions are P0
 * elements (waypoints), whether they link, and their direct target.
 */
#ifndef ETM4ENC_A64_H
#define ETM4ENC_A64_H

#include <stdbool.h>
#include <stdint.h>

enum a64_kind {
	A64_OTHER = 0,	/* not a P0 element */
	A64_B,		/* B imm: unconditional direct */
	A64_BL,		/* BL imm: direct call */
	A64_BCOND,	/* B.cond, CBZ/CBNZ, TBZ/TBNZ: conditional direct */
	A64_BR,		/* BR family: indirect */
	A64_BLR,	/* BLR family: indirect call */
	A64_RET,	/* RET family: indirect return */
	A64_ERET,	/* ERET family: exception return */
	A64_ISB,	/* ISB: a P0 element, always "taken" to the next instruction */
};

struct a64_insn {
	enum a64_kind kind;
	uint64_t target;	/* direct branches: the branch target */
};

/* Classify the instruction word @w at address @pc. */
void a64_classify(uint32_t w, uint64_t pc, struct a64_insn *out);

static inline bool a64_is_p0(enum a64_kind k)
{
	return k != A64_OTHER;
}

static inline bool a64_is_indirect(enum a64_kind k)
{
	return k == A64_BR || k == A64_BLR || k == A64_RET || k == A64_ERET;
}

static inline bool a64_links(enum a64_kind k)
{
	return k == A64_BL || k == A64_BLR;
}

const char *a64_kind_name(enum a64_kind k);

#endif
