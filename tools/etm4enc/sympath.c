// SPDX-License-Identifier: GPL-2.0
/*
 * etm4enc: a path along a call chain of symbols.
 *
 * For each pair (f, g) of the chain, a breadth-first search over f's own
 * control flow finds the shortest way from where f was entered to a call of g:
 * a BL to g, else a tail call (B g), else an indirect call (BLR) or branch (BR)
 * whose target we then say was g. On the way, a conditional branch goes the
 * way the search took, a BR (a switch) may go to any block of f that is not
 * entered by falling through, and a BL to another function is followed into that
 * function along its shortest way to a RET (calls nested up to CALL_DEPTH),
 * then back.
 * The last symbol of the chain is run up to its first call.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a64.h"
#include "walk.h"

#define MAX_FN_INSNS (1u << 18)

enum goal {
	GOAL_NONE,
	GOAL_BL,	/* BL to the next symbol */
	GOAL_B,		/* tail call: B to the next symbol */
	GOAL_BLR,
	GOAL_BR,
	GOAL_RET,	/* quick return paths */
	GOAL_ANY_CALL,	/* the end of the chain */
	GOAL_N
};

struct fn {
	uint64_t lo, hi;
	uint32_t n;
	uint32_t *prev;		/* BFS predecessor index + 1, 0 = unseen */
	uint32_t *queue;
};

/* Memo of quick_return() without output: (entry, depth) -> found. */
struct memo {
	uint64_t entry;
	unsigned int depth;
	bool ok;
};

struct ctx {
	const struct image *img;
	struct sympath *out;
	size_t cap;
	uint8_t el;
	uint32_t ctxid;
	char *err;
	size_t errlen;
	struct memo *memo;
	size_t n_memo, cap_memo;
};

/* Calls on the way may nest this deep (each callee runs to a RET). */
#define CALL_DEPTH 8

static int fn_init(struct fn *f, const struct image *img, const struct img_sym *s)
{
	uint64_t end = image_sym_end(img, s);

	f->lo = s->addr;
	f->hi = end;
	if (end <= s->addr || (end - s->addr) / 4 > MAX_FN_INSNS)
		f->hi = s->addr + 4ull * MAX_FN_INSNS;
	f->n = (uint32_t)((f->hi - f->lo) / 4);
	f->prev = calloc(f->n, sizeof(*f->prev));
	f->queue = malloc(f->n * sizeof(*f->queue));
	return f->prev && f->queue ? 0 : -ENOMEM;
}

static void fn_free(struct fn *f)
{
	free(f->prev);
	free(f->queue);
}

static const struct img_sym *sym_at(const struct image *img, uint64_t addr)
{
	size_t i;

	for (i = 0; i < img->n_syms; i++)
		if (img->syms[i].addr == addr)
			return &img->syms[i];
	return NULL;
}

static bool quick_return(struct ctx *c, uint64_t entry, uint64_t ret, bool emit,
			 unsigned int depth);

/*
 * BFS over @f from @from; goals: instructions classified against @next
 * (entry of the next symbol, 0 = none). found[g] = index of the first goal
 * instruction of each kind, or UINT32_MAX. A call of another function is an
 * edge if @depth > 0 and the callee can return with calls nested depth - 1.
 */
/*
 * A BR inside a function is most often a switch's jump table: let it reach
 * every block that follows an unconditional branch or return (no fall
 * through into it), the shape of a case block. Returns the new queue tail.
 */
static uint32_t br_edges(const struct image *img, struct fn *f, uint32_t cur, uint32_t tail)
{
	uint32_t j;

	for (j = 1; j < f->n; j++) {
		struct a64_insn in;
		uint32_t insn;
		uint64_t pc = f->lo + 4ull * (j - 1);

		if (f->prev[j] || !image_read32(img, pc, &insn))
			continue;
		a64_classify(insn, pc, &in);
		if (in.kind != A64_B && in.kind != A64_BR && in.kind != A64_RET &&
		    in.kind != A64_ERET)
			continue;
		f->prev[j] = cur + 1;
		f->queue[tail++] = j;
	}
	return tail;
}

static void bfs(struct ctx *c, struct fn *f, uint64_t from, uint64_t next,
		unsigned int depth, uint32_t found[GOAL_N])
{
	const struct image *img = c->img;
	uint32_t head = 0, tail = 0, i;

	for (i = 0; i < GOAL_N; i++)
		found[i] = UINT32_MAX;
	memset(f->prev, 0, f->n * sizeof(*f->prev));
	if (from < f->lo || from >= f->hi)
		return;
	i = (uint32_t)((from - f->lo) / 4);
	f->prev[i] = i + 1;
	f->queue[tail++] = i;
	while (head < tail) {
		uint32_t cur = f->queue[head++], insn;
		uint64_t pc = f->lo + 4ull * cur, succ[2] = { 0, 0 };
		struct a64_insn in;
		enum goal g = GOAL_NONE;
		unsigned int k;

		if (!image_read32(img, pc, &insn))
			continue;
		a64_classify(insn, pc, &in);
		switch (in.kind) {
		case A64_OTHER:
		case A64_ISB:
			succ[0] = pc + 4;
			break;
		case A64_B:
			if (next && in.target == next)
				g = GOAL_B;
			else
				succ[0] = in.target;
			break;
		case A64_BCOND:
			succ[0] = pc + 4;
			succ[1] = in.target;
			break;
		case A64_BL:
			if (next && in.target == next) {
				g = GOAL_BL;
				break;
			}
			if (!next)
				g = GOAL_ANY_CALL;
			if (depth && quick_return(c, in.target, 0, false, depth - 1))
				succ[0] = pc + 4;
			break;
		case A64_BLR:
			g = next ? GOAL_BLR : GOAL_ANY_CALL;
			break;
		case A64_BR:
			g = next ? GOAL_BR : GOAL_NONE;
			tail = br_edges(img, f, cur, tail);
			break;
		case A64_RET:
			g = GOAL_RET;
			break;
		default:
			break;
		}
		if (g != GOAL_NONE && found[g] == UINT32_MAX)
			found[g] = cur;
		for (k = 0; k < 2; k++) {
			uint32_t j;

			if (!succ[k] || succ[k] < f->lo || succ[k] >= f->hi)
				continue;
			j = (uint32_t)((succ[k] - f->lo) / 4);
			if (f->prev[j])
				continue;
			f->prev[j] = cur + 1;
			f->queue[tail++] = j;
		}
	}
}

static int push_step(struct ctx *c, const struct step *s)
{
	struct sympath *p = c->out;

	if (p->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct step *n = realloc(p->steps, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->steps = n;
		c->cap = cap;
	}
	p->steps[p->n++] = *s;
	return 0;
}

/*
 * Turn the BFS path of @f (searched with calls nested @depth deep) ending at
 * instruction @goal into steps; the goal instruction is a taken branch to
 * @target.
 */
static int emit_path(struct ctx *c, struct fn *f, uint32_t goal, uint64_t target,
		     unsigned int depth)
{
	uint32_t n = 0, i = goal, *seq;
	struct step s;
	int ret = 0;

	while (1) {
		n++;
		if (f->prev[i] == i + 1)
			break;
		i = f->prev[i] - 1;
	}
	seq = malloc(n * sizeof(*seq));
	if (!seq)
		return -ENOMEM;
	for (i = goal; ; i = f->prev[i] - 1) {
		seq[--n] = i;
		if (f->prev[i] == i + 1)
			break;
	}
	memset(&s, 0, sizeof(s));
	s.start = f->lo + 4ull * seq[0];
	for (i = 0; !ret; i++) {
		uint64_t pc = f->lo + 4ull * seq[i];
		struct a64_insn in;
		uint32_t insn = 0;

		image_read32(c->img, pc, &insn);
		a64_classify(insn, pc, &in);
		if (!a64_is_p0(in.kind))
			continue;
		s.end = STEP_BRANCH;
		s.kind = (uint8_t)in.kind;
		s.n_instr = (uint32_t)((pc - s.start) / 4 + 1);
		s.el = c->el;
		s.ctxid = c->ctxid;
		if (seq[i] == goal) {
			s.taken = 1;
			s.target = target;
			ret = push_step(c, &s);
			break;
		}
		s.target = f->lo + 4ull * seq[i + 1];
		s.taken = in.kind == A64_BCOND ? s.target != pc + 4 : 1;
		if (in.kind == A64_BL) {
			/* A call on the way: into the callee and back. */
			s.target = in.target;
			ret = push_step(c, &s);
			if (!ret && !quick_return(c, in.target, pc + 4, true, depth - 1))
				ret = -EINVAL;
		} else {
			ret = push_step(c, &s);
		}
		s.start = f->lo + 4ull * seq[i + 1];
	}
	free(seq);
	return ret;
}

static struct memo *memo_find(struct ctx *c, uint64_t entry, unsigned int depth)
{
	size_t i;

	for (i = 0; i < c->n_memo; i++)
		if (c->memo[i].entry == entry && c->memo[i].depth == depth)
			return &c->memo[i];
	return NULL;
}

static void memo_add(struct ctx *c, uint64_t entry, unsigned int depth, bool ok)
{
	if (c->n_memo == c->cap_memo) {
		size_t cap = c->cap_memo ? 2 * c->cap_memo : 64;
		struct memo *m = realloc(c->memo, cap * sizeof(*m));

		if (!m)
			return;		/* only a cache */
		c->memo = m;
		c->cap_memo = cap;
	}
	c->memo[c->n_memo++] = (struct memo){ entry, depth, ok };
}

/*
 * Is there a way from @entry to a RET, with calls nested at most @depth
 * deep? With @emit, append its steps, the RET going to @ret.
 */
static bool quick_return(struct ctx *c, uint64_t entry, uint64_t ret, bool emit,
			 unsigned int depth)
{
	const struct img_sym *s = sym_at(c->img, entry);
	const struct memo *m = emit ? NULL : memo_find(c, entry, depth);
	uint32_t found[GOAL_N];
	struct fn f;
	bool ok = false;

	if (m)
		return m->ok;
	if (!s || fn_init(&f, c->img, s)) {
		if (s)
			fn_free(&f);
		return false;
	}
	/* Mark in progress as failing: recursion never helps the shortest way. */
	if (!emit)
		memo_add(c, entry, depth, false);
	bfs(c, &f, entry, 0, depth, found);
	if (found[GOAL_RET] != UINT32_MAX) {
		ok = true;
		if (emit)
			ok = !emit_path(c, &f, found[GOAL_RET], ret, depth);
	}
	fn_free(&f);
	if (!emit) {
		struct memo *mm = memo_find(c, entry, depth);

		if (mm)
			mm->ok = ok;
	}
	return ok;
}

static int chain_link(struct ctx *c, const struct img_sym *from, uint64_t pos,
		      const struct img_sym *to)
{
	static const enum goal order[] = { GOAL_BL, GOAL_B, GOAL_BLR, GOAL_BR };
	uint32_t found[GOAL_N];
	struct fn f;
	unsigned int k;
	int ret;

	if (fn_init(&f, c->img, from)) {
		fn_free(&f);
		return -ENOMEM;
	}
	bfs(c, &f, pos, to ? to->addr : 0, CALL_DEPTH, found);
	ret = -ENOENT;
	if (!to) {
		if (found[GOAL_ANY_CALL] != UINT32_MAX) {
			uint64_t pc = f.lo + 4ull * found[GOAL_ANY_CALL];
			struct a64_insn in;
			uint32_t insn = 0;

			image_read32(c->img, pc, &insn);
			a64_classify(insn, pc, &in);
			ret = emit_path(c, &f, found[GOAL_ANY_CALL],
					in.kind == A64_BL ? in.target : pc + 4, CALL_DEPTH);
		} else if (found[GOAL_RET] != UINT32_MAX) {
			ret = emit_path(c, &f, found[GOAL_RET], pos, CALL_DEPTH);
		}
	}
	for (k = 0; to && k < sizeof(order) / sizeof(order[0]); k++)
		if (found[order[k]] != UINT32_MAX) {
			if (order[k] == GOAL_BLR || order[k] == GOAL_BR)
				fprintf(stderr, "etm4enc: note: %s calls %s through the %s at 0x%llx\n",
					from->name, to->name, order[k] == GOAL_BLR ? "BLR" : "BR",
					(unsigned long long)(f.lo + 4ull * found[order[k]]));
			ret = emit_path(c, &f, found[order[k]], to->addr, CALL_DEPTH);
			break;
		}
	if (ret == -ENOENT)
		snprintf(c->err, c->errlen, "%s (0x%llx): no way found to %s%s", from->name,
			 (unsigned long long)pos, to ? "a call of " : "a call or return",
			 to ? to->name : "");
	fn_free(&f);
	return ret;
}

int sympath_build(const struct image *img, const char *const *names, size_t n_names,
		  uint8_t el, uint32_t ctxid, struct sympath *out, char *err, size_t errlen)
{
	struct ctx c = { .img = img, .out = out, .el = el, .ctxid = ctxid,
			 .err = err, .errlen = errlen };
	const struct img_sym **syms;
	size_t i;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!n_names) {
		snprintf(err, errlen, "empty symbol path");
		return -EINVAL;
	}
	syms = calloc(n_names, sizeof(*syms));
	if (!syms)
		return -ENOMEM;
	for (i = 0; i < n_names && !ret; i++) {
		syms[i] = image_sym_by_name(img, names[i]);
		if (!syms[i]) {
			snprintf(err, errlen, "symbol '%s' not found in the image", names[i]);
			ret = -ENOENT;
		}
	}
	for (i = 0; i < n_names && !ret; i++)
		ret = chain_link(&c, syms[i], syms[i]->addr,
				 i + 1 < n_names ? syms[i + 1] : NULL);
	free(syms);
	free(c.memo);
	if (ret)
		sympath_free(out);
	return ret;
}

void sympath_free(struct sympath *p)
{
	free(p->steps);
	p->steps = NULL;
	p->n = 0;
}
