// SPDX-License-Identifier: GPL-2.0
/*
 * The A64 branch classifier against capstone, an independent decoder: for
 * every instruction word of the given images and for random words, the same
 * class (B, BL, conditional, BR, BLR, RET, ERET, ISB or none) and the same
 * direct target. Words capstone does not decode (e.g. pointer-authentication
 * branches, unknown to capstone 4) are counted and skipped.
 *
 * usage: a64_capstone [-n RANDOM_WORDS] [ELF...]
 */
#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "a64.h"
#include "image.h"
#include "rng.h"

struct tally {
	uint64_t words, skipped, branches, bad;
};

static enum a64_kind cs_kind(const cs_insn *in, uint64_t *target)
{
	const cs_arm64 *a = &in->detail->arm64;
	unsigned int i;

	*target = 0;
	for (i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM64_OP_IMM)
			*target = (uint64_t)a->operands[i].imm;
	switch (in->id) {
	case ARM64_INS_B:
		return a->cc == ARM64_CC_INVALID ? A64_B : A64_BCOND;
	case ARM64_INS_BL:
		return A64_BL;
	case ARM64_INS_CBZ: case ARM64_INS_CBNZ: case ARM64_INS_TBZ: case ARM64_INS_TBNZ:
		return A64_BCOND;
	case ARM64_INS_BR:
		return A64_BR;
	case ARM64_INS_BLR:
		return A64_BLR;
	case ARM64_INS_RET:
		return A64_RET;
	case ARM64_INS_ERET:
		return A64_ERET;
	case ARM64_INS_ISB:
		return A64_ISB;
	default:
		return A64_OTHER;
	}
}

static void check(csh h, uint32_t w, uint64_t pc, struct tally *t)
{
	uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
	struct a64_insn mine;
	enum a64_kind k;
	uint64_t target;
	cs_insn *in;

	t->words++;
	if (cs_disasm(h, b, 4, pc, 1, &in) != 1) {
		t->skipped++;
		return;
	}
	k = cs_kind(in, &target);
	a64_classify(w, pc, &mine);
	t->branches += k != A64_OTHER;
	if (mine.kind != k || ((k == A64_B || k == A64_BL || k == A64_BCOND) &&
			       mine.target != target)) {
		if (t->bad++ < 10)
			printf("0x%08" PRIx32 " at 0x%" PRIx64 " (%s %s): capstone %s 0x%" PRIx64
			       ", a64_classify %s 0x%" PRIx64 "\n", w, pc, in->mnemonic, in->op_str,
			       a64_kind_name(k), target, a64_kind_name(mine.kind), mine.target);
	}
	cs_free(in, 1);
}

int main(int argc, char **argv)
{
	struct tally t = { 0 };
	uint64_t n_random = 2000000, rng = 42, i;
	char err[512];
	csh h;
	int opt;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n')
			return 2;
		n_random = strtoull(optarg, NULL, 0);
	}
	if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &h) != CS_ERR_OK ||
	    cs_option(h, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK) {
		printf("capstone: cannot open an AArch64 handle\n");
		return 77;
	}
	for (; optind < argc; optind++) {
		struct image img;
		size_t s, off;

		if (access(argv[optind], R_OK)) {
			printf("%s: not there, skipped\n", argv[optind]);
			continue;
		}
		if (image_load_elf(&img, argv[optind], err, sizeof(err))) {
			printf("%s\n", err);
			t.bad++;
			continue;
		}
		for (s = 0; s < img.n_segs; s++)
			for (off = 0; off + 4 <= img.segs[s].len; off += 4) {
				const uint8_t *p = img.segs[s].data + off;

				check(h, (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
				      (uint32_t)p[3] << 24, img.segs[s].vaddr + off, &t);
			}
		image_free(&img);
	}
	/* Random words, half of them in the branch/system encoding space. */
	for (i = 0; i < n_random; i++) {
		uint32_t w = (uint32_t)rng_next(&rng);

		if (i & 1)
			w = (w & ~0x1c000000u) | 0x14000000u;
		check(h, w, 0xffff800008000000ull + 4 * (rng_next(&rng) & 0xffffff), &t);
	}
	cs_close(&h);
	printf("%" PRIu64 " words: %" PRIu64 " branches, %" PRIu64 " not decoded by capstone, %"
	       PRIu64 " disagree\n", t.words, t.branches, t.skipped, t.bad);
	return t.bad ? 1 : 0;
}
