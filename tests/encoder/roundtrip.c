// SPDX-License-Identifier: GPL-2.0
/*
 * Round trip of the ETMv4 encoder against OpenCSD's trc_pkt_lister.
 *
 * For every seed and configuration (cycle counting, context IDs, return
 * stack on/off; exact-match addresses, VMIDs, the sync period and the walk
 * length vary with the seed) a random walk over a program image is encoded as
 * one trace unit; up to BATCH units share one formatted buffer and one
 * snapshot, decoded by one trc_pkt_lister run. The instruction ranges it
 * prints for each trace ID must be exactly the encoded path's ranges.
 *
 * usage: enc_roundtrip [-s SEEDS] [-w WORKDIR] [-e ETB_SIZE] [-c CSDUMP [-n]]
 *                      (-x ELF | -r RAW ADDR)
 * With -c, csdump's own decoder (`csdump decode --format jsonl`) must give
 * the same ranges too; with -n only csdump decodes.
 * Timestamps (on for half the units) must all decode, increasing, the last
 * one exactly as encoded.
 * With -e, the sink is a wrapped ETB: each ID's decode must then be a
 * contiguous tail of its path (the rest was overwritten).
 * Exit 0 all equal, 1 mismatch, 77 trc_pkt_lister or the image missing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen.h"
#include "image.h"
#include "output.h"
#include "rng.h"
#include "format/snapshot.h"

#define BATCH 96
#define N_CFG 8

struct range {
	uint64_t start, end;
	uint32_t n;
};

struct rlist {
	struct range *r;
	size_t n, cap;
};

struct unit {
	uint64_t seed;
	unsigned int cfg;
	struct etm4_cfg ec;
	struct rlist want, got;
	/* timestamps: how many and the last value encoded; what decoded */
	uint64_t ts_n, ts_last, got_ts_n, got_ts_last;
	bool got_ts_backwards;
};

static void rl_add(struct rlist *l, uint64_t start, uint64_t end, uint32_t n)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->r = realloc(l->r, l->cap * sizeof(*l->r));
		if (!l->r)
			abort();
	}
	l->r[l->n++] = (struct range){ start, end, n };
}

static void on_step(void *user, const struct gen_cpu *c, const struct step *s)
{
	struct unit *u = user;

	if (s->n_instr)
		rl_add(&u[c->cpu].want, s->start, s->start + 4ull * s->n_instr, s->n_instr);
}

/* trc_pkt_lister -decode: "ID:10; OCSD_GEN_TRC_ELEM_INSTR_RANGE(exec range=0x..:[0x..] num_i(N)" */
static bool parse_lister(const char *line, unsigned int *tid, unsigned long long *s,
			 unsigned long long *e, unsigned int *ni)
{
	const char *id = strstr(line, "ID:"), *r = strstr(line, "exec range=");

	return id && r && sscanf(id, "ID:%x;", tid) == 1 &&
	       sscanf(r, "exec range=0x%llx:[0x%llx] num_i(%u)", s, e, ni) == 3;
}

/* csdump decode --format jsonl: {"type":"range",...,"trace_id":N,"start":"0x..",...} */
static bool parse_csdump(const char *line, unsigned int *tid, unsigned long long *s,
			 unsigned long long *e, unsigned int *ni)
{
	const char *id = strstr(line, "\"trace_id\":"), *r = strstr(line, "\"start\":");

	return strstr(line, "\"type\":\"range\"") && id && r &&
	       sscanf(id, "\"trace_id\":%u", tid) == 1 &&
	       sscanf(r, "\"start\":\"0x%llx\",\"end\":\"0x%llx\",\"n_instr\":%u", s, e, ni) == 3;
}

/* trc_pkt_lister: "ID:10; OCSD_GEN_TRC_ELEM_TIMESTAMP( [ TS=0x00b76edb3fe5]; ..." */
static bool parse_ts(const char *line, unsigned int *tid, unsigned long long *ts)
{
	const char *id = strstr(line, "ID:"), *t = strstr(line, "ELEM_TIMESTAMP( [ TS=");

	return id && t && sscanf(id, "ID:%x;", tid) == 1 &&
	       sscanf(t, "ELEM_TIMESTAMP( [ TS=0x%llx]", ts) == 1;
}

typedef bool (*parse_fn)(const char *line, unsigned int *tid, unsigned long long *s,
			 unsigned long long *e, unsigned int *ni);

static int run_decoder(const char *cmd, parse_fn parse, struct unit *u, size_t n,
		       unsigned int *errors)
{
	char line[1024];
	FILE *p;
	size_t i;
	int st;

	for (i = 0; i < n; i++) {
		u[i].got.n = 0;
		u[i].got_ts_n = 0;
	}
	p = popen(cmd, "r");
	if (!p)
		return -errno;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long s, e;
		unsigned int tid, ni;

		if (strstr(line, "OCSD_ERR") || strstr(line, "ADDR_NACC")) {
			if (*errors < 5)
				fprintf(stderr, "%s", line);
			(*errors)++;
		}
		if (parse(line, &tid, &s, &e, &ni) && tid >= 1 && tid <= n)
			rl_add(&u[tid - 1].got, s, e, ni);
		else if (parse == parse_lister && parse_ts(line, &tid, &s) && tid >= 1 && tid <= n) {
			struct unit *t = &u[tid - 1];

			t->got_ts_backwards |= t->got_ts_n && s <= t->got_ts_last;
			t->got_ts_last = s;
			t->got_ts_n++;
		}
	}
	st = pclose(p);
	if (st == -1)
		return -errno;
	if (WIFSIGNALED(st) || WEXITSTATUS(st)) {
		/* A decoder that dies is a failure of its own, said as such. */
		fprintf(stderr, "%s: %s %d\n", cmd, WIFSIGNALED(st) ? "killed by signal" :
			"exited with status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		(*errors)++;
	}
	return 0;
}

static bool same(const struct range *a, const struct range *b)
{
	return a->start == b->start && a->end == b->end && a->n == b->n;
}

/* got must equal want (or a tail of it, when the sink wrapped). */
static bool check_unit(const struct unit *u, bool wrapped, const char *decoder)
{
	const struct rlist *w = &u->want, *g = &u->got;
	size_t off = 0, i;

	if (wrapped && g->n <= w->n)
		off = w->n - g->n;
	if (g->n == w->n - off) {
		for (i = 0; i < g->n && same(&g->r[i], &w->r[off + i]); i++)
			;
		if (i == g->n)
			return true;
	} else {
		i = 0;
		while (i < g->n && i + off < w->n && same(&g->r[i], &w->r[off + i]))
			i++;
	}
	fprintf(stderr, "%s: MISMATCH seed %" PRIu64 " config %u (cc %d ctxid %d rs %d exact %d vmid %d"
		" ts %d sync %u) id 0x%02x: %zu ranges encoded, %zu decoded; first difference at %zu:\n",
		decoder, u->seed, u->cfg, u->ec.cycle_count, u->ec.ctxid, u->ec.retstack,
		u->ec.exact_match, u->ec.vmid, u->ec.timestamps, u->ec.sync_period, u->ec.trace_id,
		w->n, g->n, i);
	if (i + off < w->n)
		fprintf(stderr, "  encoded 0x%" PRIx64 "-0x%" PRIx64 " (%u)\n", w->r[i + off].start,
			w->r[i + off].end, w->r[i + off].n);
	if (i < g->n)
		fprintf(stderr, "  decoded 0x%" PRIx64 "-0x%" PRIx64 " (%u)\n", g->r[i].start,
			g->r[i].end, g->r[i].n);
	return false;
}

/* Every timestamp decodes, in increasing order, the last one exactly. */
static bool check_ts(const struct unit *u)
{
	if (u->got_ts_n == u->ts_n && !u->got_ts_backwards &&
	    (!u->ts_n || u->got_ts_last == u->ts_last))
		return true;
	fprintf(stderr, "trc_pkt_lister: TIMESTAMPS seed %" PRIu64 " config %u id 0x%02x: %" PRIu64
		" encoded (last 0x%" PRIx64 "), %" PRIu64 " decoded (last 0x%" PRIx64 ")%s\n",
		u->seed, u->cfg, u->ec.trace_id, u->ts_n, u->ts_last, u->got_ts_n,
		u->got_ts_last, u->got_ts_backwards ? ", going backwards" : "");
	return false;
}

static void config(struct etm4_cfg *c, unsigned int cfg, uint64_t seed, uint8_t id)
{
	uint64_t r = seed * 7919 + cfg;

	memset(c, 0, sizeof(*c));
	c->trace_id = id;
	c->cycle_count = cfg & 1;
	c->ctxid = cfg & 2;
	c->retstack = cfg & 4;
	c->exact_match = rng_below(&r, 2);
	c->vmid = !rng_below(&r, 3);
	c->timestamps = rng_below(&r, 2);
	c->sync_period = 64u << rng_below(&r, 6);
	c->seed = seed;
}

static const char *csdump;	/* -c: also decode with csdump */
static bool no_lister;		/* -n: csdump only */

static int run_batch(const struct image *img, const char *dir, struct unit *u, size_t n,
		     size_t etb_size, uint64_t batch_seed, unsigned int *lister_errors)
{
	char cmd[4200];
	struct gen g = { 0 };
	struct csd_dump d = { 0 };
	size_t i;
	bool wrapped;
	int ret, bad = 0;

	g.cpus = calloc(n, sizeof(*g.cpus));
	if (!g.cpus)
		return -ENOMEM;
	g.n_cpus = n;
	g.rng = batch_seed;
	g.on_step = on_step;
	g.user = u;
	cstf_init(&g.fmt, etb_size);
	for (i = 0; i < n; i++) {
		uint64_t r = u[i].seed * 31 + u[i].cfg, steps = 50 + rng_below(&r, 400);

		config(&u[i].ec, u[i].cfg, u[i].seed, (uint8_t)(i + 1));
		gen_cpu_walk(&g.cpus[i], (unsigned int)i, &u[i].ec, img, u[i].seed, steps);
		/* Every third unit has gaps (Trace On) now and then. */
		g.cpus[i].walk.gap_one_in = u[i].seed % 3 ? 0 : 100;
	}
	gen_run(&g);
	for (i = 0; i < n; i++) {
		u[i].ts_n = g.cpus[i].enc.n_timestamps;
		u[i].ts_last = g.cpus[i].enc.ts_traced;
	}
	ret = enc_dump_build(&d, &g, img);
	if (!ret && csd_snapshot_write(&d, dir)) {
		fprintf(stderr, "%s: writing the snapshot failed\n", dir);
		ret = -EIO;
	}
	wrapped = d.n_sinks && (d.sinks[0].flags & CSD_F_WRAPPED);
	csd_dump_free(&d);
	snprintf(cmd, sizeof(cmd), "%s decode '%s' --format jsonl --last 0",
		 csdump ? csdump : "", dir);
	if (!ret && csdump)
		ret = run_decoder(cmd, parse_csdump, u, n, lister_errors);
	for (i = 0; i < n && !ret && csdump; i++)
		bad += !check_unit(&u[i], wrapped, "csdump");
	snprintf(cmd, sizeof(cmd), "trc_pkt_lister -ss_dir '%s' -decode_only -logstdout -logfilename /dev/null 2>&1", dir);
	if (!ret && !no_lister)
		ret = run_decoder(cmd, parse_lister, u, n, lister_errors);
	for (i = 0; i < n && !ret && !no_lister; i++) {
		bad += !check_unit(&u[i], wrapped, "trc_pkt_lister");
		bad += !wrapped && !check_ts(&u[i]);
	}
	for (i = 0; i < n; i++)
		gen_cpu_free(&g.cpus[i]);
	free(g.cpus);
	cstf_free(&g.fmt);
	return ret ? ret : bad;
}

int main(int argc, char **argv)
{
	const char *workdir = "build/encoder-rt", *elf = NULL, *raw = NULL;
	uint64_t raw_addr = 0, seeds = 200, etb_size = 0;
	struct unit *u;
	struct image img;
	char err[512], dir[4096];
	size_t total, done, i, batch = 0;
	unsigned int lister_errors = 0;
	size_t partial = 0;
	int opt, ret, bad = 0;

	while ((opt = getopt(argc, argv, "s:w:e:x:r:c:n")) != -1) {
		switch (opt) {
		case 'n': no_lister = true; break;
		case 'c': csdump = optarg; break;
		case 's': seeds = strtoull(optarg, NULL, 0); break;
		case 'w': workdir = optarg; break;
		case 'e': etb_size = strtoull(optarg, NULL, 0); break;
		case 'x': elf = optarg; break;
		case 'r':
			raw = optarg;
			if (optind >= argc)
				return 2;
			raw_addr = strtoull(argv[optind++], NULL, 0);
			break;
		default:
			return 2;
		}
	}
	if (no_lister && !csdump)
		return 2;
	if (!no_lister && system("command -v trc_pkt_lister >/dev/null 2>&1")) {
		printf("trc_pkt_lister not found (libopencsd-bin)\n");
		return 77;
	}
	if ((raw && access(raw, R_OK)) || (!raw && (!elf || access(elf, R_OK)))) {
		printf("no image %s\n", raw ? raw : elf ? elf : "(none given)");
		return 77;
	}
	ret = elf ? image_load_elf(&img, elf, err, sizeof(err))
		  : image_load_raw(&img, raw, raw_addr, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	total = (size_t)seeds * N_CFG;
	u = calloc(total, sizeof(*u));
	if (!u)
		return 1;
	for (i = 0; i < total; i++) {
		u[i].seed = 1 + i / N_CFG;
		u[i].cfg = (unsigned int)(i % N_CFG);
	}
	mkdir(workdir, 0755);
	for (done = 0; done < total; done += BATCH, batch++) {
		size_t n = total - done < BATCH ? total - done : BATCH;

		snprintf(dir, sizeof(dir), "%s/batch%zu", workdir, batch);
		ret = run_batch(&img, dir, u + done, n, etb_size, 0x5eed + batch, &lister_errors);
		if (ret < 0) {
			fprintf(stderr, "%s: %s\n", dir, strerror(-ret));
			bad++;
			break;
		}
		bad += ret;
	}
	for (i = 0, done = 0; i < total; i++) {
		done += u[i].got.n;
		partial += u[i].got.n && u[i].got.n < u[i].want.n;
	}
	printf("%s%" PRIu64 " seeds x %d configurations = %zu trace units in %zu snapshots%s: "
	       "%zu ranges decoded, %zu units partly, %d units differ, %u decoder errors\n",
	       no_lister ? "csdump: " : csdump ? "trc_pkt_lister and csdump: " : "", seeds, N_CFG, total, batch,
	       etb_size ? " (wrapped ETB)" : "", done, partial, bad, lister_errors);
	/* A wrapped sink must have cut some paths, and the decoder resynchronised. */
	if (etb_size && !partial)
		bad++;
	for (i = 0; i < total; i++) {
		free(u[i].want.r);
		free(u[i].got.r);
	}
	free(u);
	image_free(&img);
	return bad || lister_errors ? 1 : 0;
}
