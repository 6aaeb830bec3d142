/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etm4enc: several CPUs' trace units running at once, their streams
 * interleaved into one formatted sink buffer.
 */
#ifndef ETM4ENC_GEN_H
#define ETM4ENC_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cstf.h"
#include "etm4.h"
#include "walk.h"

struct gen_cpu {
	unsigned int cpu;
	struct etm4_enc enc;
	struct walker walk;
	const struct step *path;	/* a fixed path (after the walk), or NULL */
	size_t path_n, path_pos;
	uint64_t steps_left;		/* random walk length */
	bool walked;			/* the walk made steps: a gap before the path */
	bool done;
};

struct gen;
typedef void (*gen_step_fn)(void *user, const struct gen_cpu *c, const struct step *s);

struct gen {
	struct gen_cpu *cpus;
	size_t n_cpus;
	struct cstf fmt;
	uint64_t rng;
	uint64_t size;		/* stop once this many bytes of frames exist; 0: at the paths' end */
	gen_step_fn on_step;	/* optional: sees every traced step */
	void *user;
	uint64_t n_steps;	/* statistics: ranges and instructions traced */
	uint64_t n_instr;
};

/* A random walk of @steps steps (UINT64_MAX: until gen.size) over @img. */
void gen_cpu_walk(struct gen_cpu *c, unsigned int cpu, const struct etm4_cfg *cfg,
		  const struct image *img, uint64_t seed, uint64_t steps);
/* Then a fixed path, after a gap in the trace (Trace On) if it walked. */
void gen_cpu_then_path(struct gen_cpu *c, const struct step *path, size_t n);
void gen_cpu_free(struct gen_cpu *c);

/* Run every CPU to its end (or to gen.size), formatting into gen.fmt. */
void gen_run(struct gen *g);

#endif
