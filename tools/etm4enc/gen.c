// SPDX-License-Identifier: GPL-2.0
#include "gen.h"

#include <string.h>

#include "rng.h"

void gen_cpu_walk(struct gen_cpu *c, unsigned int cpu, const struct etm4_cfg *cfg,
		  const struct image *img, uint64_t seed, uint64_t steps)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	etm4_init(&c->enc, cfg);
	walk_init(&c->walk, img, seed);
	c->walk.change_ctxid = cfg->ctxid;
	c->steps_left = steps;
}

void gen_cpu_then_path(struct gen_cpu *c, const struct step *path, size_t n)
{
	c->path = path;
	c->path_n = n;
}

void gen_cpu_free(struct gen_cpu *c)
{
	etm4_free(&c->enc);
}

static bool in_walk(const struct gen_cpu *c)
{
	return c->steps_left || !c->path;
}

static bool next_step(struct gen_cpu *c, struct step *s)
{
	if (c->steps_left) {
		c->steps_left--;
		c->walked = true;
		return walk_next(&c->walk, s);
	}
	if (!c->path || c->path_pos == c->path_n)
		return false;
	*s = c->path[c->path_pos++];
	return true;
}

/* Hand what the trace unit produced to the formatter, in bursts. */
static void drain(struct gen *g, struct gen_cpu *c)
{
	const uint8_t *p = c->enc.out.p;
	size_t left = c->enc.out.len;

	while (left) {
		size_t n = 1 + (size_t)rng_below(&g->rng, 48);

		if (n > left)
			n = left;
		cstf_put(&g->fmt, c->enc.cfg.trace_id, p, n);
		p += n;
		left -= n;
	}
	etm4_drain(&c->enc);
}

static void run_burst(struct gen *g, struct gen_cpu *c)
{
	unsigned int burst = 1 + (unsigned int)rng_below(&g->rng, 16);
	struct step s;

	while (burst-- && !c->done) {
		/* The context the step runs in (a step carries its target's). */
		bool walking = in_walk(c);
		uint8_t el = c->walk.el;
		uint32_t ctxid = c->walk.ctxid;

		if (!next_step(c, &s)) {
			c->done = true;
			break;
		}
		if (!walking) {
			el = s.el;
			ctxid = s.ctxid;
		}
		if (!walking && c->walked && c->path_pos == 1)
			s.trace_on = 1;
		if (!c->enc.started)
			etm4_start(&c->enc, s.start, el, ctxid);
		else if (s.trace_on)
			etm4_trace_on(&c->enc, s.start, el, ctxid);
		etm4_step(&c->enc, &s);
		g->n_steps++;
		g->n_instr += s.n_instr;
		if (g->on_step)
			g->on_step(g->user, c, &s);
	}
	if (c->done)
		etm4_flush(&c->enc);
	drain(g, c);
}

void gen_run(struct gen *g)
{
	size_t active = 0, i;

	for (i = 0; i < g->n_cpus; i++)
		active += !g->cpus[i].done;
	while (active) {
		struct gen_cpu *c = &g->cpus[rng_below(&g->rng, g->n_cpus)];

		if (c->done)
			continue;
		run_burst(g, c);
		if (c->done)
			active--;
		if (g->size && g->fmt.total >= g->size)
			break;
	}
	for (i = 0; i < g->n_cpus; i++) {
		if (g->cpus[i].done)
			continue;
		etm4_flush(&g->cpus[i].enc);
		drain(g, &g->cpus[i]);
		g->cpus[i].done = true;
	}
	cstf_finish(&g->fmt);
}
