/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etm4enc: execution paths over a program image.
 *
 * A random walk follows the image's control flow from a seed: conditional
 * branches go either way, calls are followed and return to their caller,
 * indirect branches go to a random function, and now and then an interrupt
 * is taken (and returned from when the walk meets an ERET).
 */
#ifndef ETM4ENC_WALK_H
#define ETM4ENC_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "image.h"
#include "path.h"

#define WALK_STACK 64

struct walker {
	const struct image *img;
	uint64_t rng;
	uint64_t pc;
	uint64_t calls[WALK_STACK];	/* return addresses of the calls made */
	unsigned int n_calls;
	uint64_t excs[8];		/* preferred return addresses */
	uint8_t exc_el[8];
	uint32_t exc_ctxid[8];
	unsigned int n_excs;
	uint8_t el;
	uint32_t ctxid;
	bool change_ctxid;		/* an ERET may switch the context ID */
	unsigned int exc_one_in;	/* mean instructions between interrupts */
	uint64_t exc_countdown;		/* instructions until the next one */
	unsigned int gap_one_in;	/* 0, or steps per gap in the trace (mean) */
	uint64_t vector;		/* where exceptions go; 0: a random function */
};

void walk_init(struct walker *w, const struct image *img, uint64_t seed);
/* Produce the next step; false if the walk cannot go on. */
bool walk_next(struct walker *w, struct step *s);

/* A path along a call chain of symbols; see walk.c. */
struct sympath {
	struct step *steps;
	size_t n;
};

int sympath_build(const struct image *img, const char *const *names, size_t n_names,
		  uint8_t el, uint32_t ctxid, struct sympath *out, char *err, size_t errlen);
void sympath_free(struct sympath *p);

#endif
