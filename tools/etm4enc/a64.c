// SPDX-License-Identifier: GPL-2.0
/*
 * etm4enc: A64 branch classifier (Arm ARM C4.1 "A64 instruction set
 * encoding", branches, exception generating and system instructions).
 */
#include "a64.h"

static uint64_t sext(uint64_t v, unsigned int bits)
{
	uint64_t m = 1ull << (bits - 1);

	return (v ^ m) - m;
}

/* Unconditional branch (register): 1101011 opc op2=11111 op3 Rn op4. */
static enum a64_kind classify_branch_reg(uint32_t w)
{
	uint32_t opc = (w >> 21) & 0xf;
	uint32_t op2 = (w >> 16) & 0x1f;
	uint32_t op3 = (w >> 10) & 0x3f;
	uint32_t rn = (w >> 5) & 0x1f;
	uint32_t op4 = w & 0x1f;

	if (op2 != 0x1f)
		return A64_OTHER;
	switch (opc) {
	case 0x0:	/* BR, BRAAZ, BRABZ */
	case 0x1:	/* BLR, BLRAAZ, BLRABZ */
		if (op3 == 0 && op4 == 0)
			break;
		if ((op3 == 2 || op3 == 3) && op4 == 0x1f)
			break;
		return A64_OTHER;
	case 0x2:	/* RET, RETAA, RETAB */
		if (op3 == 0 && op4 == 0)
			return A64_RET;
		if ((op3 == 2 || op3 == 3) && rn == 0x1f && op4 == 0x1f)
			return A64_RET;
		return A64_OTHER;
	case 0x4:	/* ERET, ERETAA, ERETAB */
		if (rn != 0x1f)
			return A64_OTHER;
		if ((op3 == 0 && op4 == 0) ||
		    ((op3 == 2 || op3 == 3) && op4 == 0x1f))
			return A64_ERET;
		return A64_OTHER;
	case 0x8:	/* BRAA, BRAB */
	case 0x9:	/* BLRAA, BLRAB */
		if (op3 == 2 || op3 == 3)
			break;
		return A64_OTHER;
	default:
		return A64_OTHER;
	}
	return (opc & 1) ? A64_BLR : A64_BR;
}

void a64_classify(uint32_t w, uint64_t pc, struct a64_insn *out)
{
	out->kind = A64_OTHER;
	out->target = 0;

	if ((w & 0x7c000000) == 0x14000000) {		/* B, BL */
		out->kind = (w & 0x80000000) ? A64_BL : A64_B;
		out->target = pc + (sext(w & 0x3ffffff, 26) << 2);
	} else if ((w & 0xff000010) == 0x54000000) {	/* B.cond */
		out->kind = A64_BCOND;
		out->target = pc + (sext((w >> 5) & 0x7ffff, 19) << 2);
	} else if ((w & 0x7e000000) == 0x34000000) {	/* CBZ, CBNZ */
		out->kind = A64_BCOND;
		out->target = pc + (sext((w >> 5) & 0x7ffff, 19) << 2);
	} else if ((w & 0x7e000000) == 0x36000000) {	/* TBZ, TBNZ */
		out->kind = A64_BCOND;
		out->target = pc + (sext((w >> 5) & 0x3fff, 14) << 2);
	} else if ((w & 0xfe000000) == 0xd6000000) {
		out->kind = classify_branch_reg(w);
	} else if ((w & 0xfffff0ff) == 0xd50330df) {	/* ISB */
		out->kind = A64_ISB;
		out->target = pc + 4;
	}
}

const char *a64_kind_name(enum a64_kind k)
{
	static const char *const names[] = {
		[A64_OTHER] = "other", [A64_B] = "b", [A64_BL] = "bl",
		[A64_BCOND] = "bcond", [A64_BR] = "br", [A64_BLR] = "blr",
		[A64_RET] = "ret", [A64_ERET] = "eret", [A64_ISB] = "isb",
	};

	return (unsigned int)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}
