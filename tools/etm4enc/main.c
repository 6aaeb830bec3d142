// SPDX-License-Identifier: GPL-2.0
/*
 * etm4enc: make ETMv4 trace of an arm64 program image.
 *
 *   etm4enc --elf vmlinux --path-symbols a,b,c --cpus 2 --etb-size 65536 -o DIR
 *
 * writes a csdump extract directory: DIR/cstrace.bin (the sink's formatted
 * frames, in trace order), DIR/metadata.bin (one 80-byte ETMv4 block per CPU,
 * docs/record-abi.md), DIR/perf.data and DIR/summary.txt; and DIR/snapshot/,
 * an OpenCSD snapshot (trc_pkt_lister -ss_dir DIR/snapshot -decode).
 * CPU n uses trace ID 0x10 + n. Not installed: a tool for tests and benchmarks.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/csd_err.h"
#include "core/extract.h"
#include "gen.h"
#include "image.h"
#include "output.h"
#include "format/snapshot.h"
#include "walk.h"

struct opts {
	const char *elf, *raw, *out, *symbols, *ranges;
	uint64_t raw_addr, offset, seed, steps, size, etb_size;
	unsigned int cpus, sync_period;
	bool cc, ts, ctxid, vmid, retstack, exact, snapshot, stats;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: etm4enc (--elf FILE | --raw FILE --raw-addr ADDR) -o DIR [options]\n"
		"  --offset ADDR         move the image by ADDR (a KASLR offset)\n"
		"  --path-symbols a,b,c  CPU 0 ends with this call chain (after a gap)\n"
		"  --cpus N              trace units, trace IDs 0x10.. (default 1)\n"
		"  --seed N              random walk seed (default 1)\n"
		"  --steps N             random walk length per CPU (default 5000)\n"
		"  --size BYTES          benchmark: random walks until a sink of BYTES is full\n"
		"  --etb-size BYTES      circular sink of this size (wraps, barrier)\n"
		"  --cc --ts --ctxid --vmid --exact-match --no-retstack --no-ctxid\n"
		"  --sync-period BYTES   A-sync + Trace Info period (default 1024)\n"
		"  --ranges FILE         write the encoded instruction ranges\n"
		"  --no-snapshot --stats\n"
		"sizes take K, M or G suffixes\n");
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'K': case 'k': *v <<= 10; end++; break;
	case 'M': case 'm': *v <<= 20; end++; break;
	case 'G': case 'g': *v <<= 30; end++; break;
	default: break;
	}
	return *end ? -1 : 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "elf", 1, NULL, 'e' }, { "raw", 1, NULL, 'r' }, { "raw-addr", 1, NULL, 'A' },
		{ "offset", 1, NULL, 'O' },
		{ "path-symbols", 1, NULL, 'p' }, { "cpus", 1, NULL, 'c' },
		{ "seed", 1, NULL, 's' }, { "steps", 1, NULL, 'n' }, { "size", 1, NULL, 'S' },
		{ "etb-size", 1, NULL, 'E' }, { "cc", 0, NULL, 'C' }, { "ts", 0, NULL, 'T' },
		{ "ctxid", 0, NULL, 'I' },
		{ "no-ctxid", 0, NULL, 'i' }, { "vmid", 0, NULL, 'V' },
		{ "exact-match", 0, NULL, 'X' }, { "no-retstack", 0, NULL, 'R' },
		{ "sync-period", 1, NULL, 'y' }, { "ranges", 1, NULL, 'g' },
		{ "no-snapshot", 0, NULL, 'N' }, { "stats", 0, NULL, 't' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	*o = (struct opts){ .seed = 1, .steps = 5000, .cpus = 1, .sync_period = 1024,
			    .ctxid = true, .retstack = true, .snapshot = true };
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		const char *a = optarg;

		switch (c) {
		case 'e': o->elf = a; break;
		case 'r': o->raw = a; break;
		case 'p': o->symbols = a; break;
		case 'g': o->ranges = a; break;
		case 'o': o->out = a; break;
		case 'C': o->cc = true; break;
		case 'T': o->ts = true; break;
		case 'I': o->ctxid = true; break;
		case 'i': o->ctxid = false; break;
		case 'V': o->vmid = true; break;
		case 'X': o->exact = true; break;
		case 'R': o->retstack = false; break;
		case 'N': o->snapshot = false; break;
		case 't': o->stats = true; break;
		case 'h': usage(stdout); exit(0);
		case 'A': case 'O': case 's': case 'n': case 'S': case 'E': case 'c': case 'y':
			if (parse_u64(a, &v)) {
				fprintf(stderr, "etm4enc: bad number '%s'\n", a);
				return -1;
			}
			if (c == 'A') o->raw_addr = v;
			else if (c == 'O') o->offset = v;
			else if (c == 's') o->seed = v;
			else if (c == 'n') o->steps = v;
			else if (c == 'S') o->size = v;
			else if (c == 'E') o->etb_size = v;
			else if (c == 'c') o->cpus = (unsigned int)v;
			else o->sync_period = (unsigned int)v;
			break;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (!o->out || !!o->elf == !!o->raw || !o->cpus || o->cpus > 0x5f ||
	    (o->etb_size && o->etb_size < 64)) {
		usage(stderr);
		return -1;
	}
	if (o->size && o->symbols) {
		fprintf(stderr, "etm4enc: --size walks until the sink is full: no --path-symbols\n");
		return -1;
	}
	return 0;
}

/* Split "a,b c" into @names; returns how many, @max when there are more. */
static size_t split_symbols(char *s, const char **names, size_t max)
{
	size_t n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ", ", &save); tok && n < max; tok = strtok_r(NULL, ", ", &save))
		names[n++] = tok;
	return n;
}

static void write_range(void *user, const struct gen_cpu *c, const struct step *s)
{
	FILE *f = user;

	if (s->trace_on)
		fprintf(f, "# trace-on %u 0x%02x 0x%llx\n", c->cpu, c->enc.cfg.trace_id,
			(unsigned long long)s->start);
	/* How the range ends: E, N (a branch taken or not), X (an exception). */
	if (s->n_instr)
		fprintf(f, "%u 0x%02x 0x%llx 0x%llx %u %c\n", c->cpu, c->enc.cfg.trace_id,
			(unsigned long long)s->start,
			(unsigned long long)(s->start + 4ull * s->n_instr), s->n_instr,
			s->end == STEP_EXCEPTION ? 'X' : s->taken ? 'E' : 'N');
}

static int write_outputs(const struct opts *o, const struct image *img, struct gen *g)
{
	struct csd_dump d = { 0 };
	enum csd_err err = CSD_OK;
	char snap[4096];

	if (enc_dump_build(&d, g, img)) {
		fprintf(stderr, "etm4enc: out of memory\n");
		csd_dump_free(&d);
		return -1;
	}
	err = csd_extract_write(&d, NULL, "etm4enc", o->out);
	if (err)
		fprintf(stderr, "etm4enc: %s: %s\n", o->out, csd_strerror(err));
	snprintf(snap, sizeof(snap), "%s/snapshot", o->out);
	if (!err && o->snapshot) {
		err = csd_snapshot_write(&d, snap);
		if (err)
			fprintf(stderr, "etm4enc: %s: %s\n", snap, csd_strerror(err));
	}
	if (!err && o->stats)
		printf("sink: %zu bytes%s (%llu bytes of frames made)\n", d.sinks[0].len,
		       d.sinks[0].flags & CSD_F_WRAPPED ? ", wrapped" : "",
		       (unsigned long long)g->fmt.total);
	csd_dump_free(&d);
	return err ? -1 : 0;
}

int main(int argc, char **argv)
{
	const char *names[256];
	struct sympath sp = { 0 };
	struct image img;
	struct opts o;
	struct gen g = { 0 };
	char err[512] = "", *symlist = NULL;
	FILE *ranges = NULL;
	struct timespec t0, t1;
	size_t i;
	int ret;

	if (parse_opts(argc, argv, &o))
		return 2;
	ret = o.elf ? image_load_elf(&img, o.elf, err, sizeof(err))
		    : image_load_raw(&img, o.raw, o.raw_addr, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "etm4enc: %s\n", err);
		return 1;
	}
	image_relocate(&img, o.offset);
	if (o.symbols) {
		size_t n;

		symlist = strdup(o.symbols);
		n = symlist ? split_symbols(symlist, names, 256) : 0;
		/* The chain runs at EL1 with context ID 0x1000 (a PID). */
		ret = !symlist ? -ENOMEM : n == 256 ? -E2BIG :
		      sympath_build(&img, names, n, 1, 0x1000, &sp, err, sizeof(err));
		if (ret == -E2BIG)
			snprintf(err, sizeof(err), "more than 255 symbols");
		if (ret) {
			fprintf(stderr, "etm4enc: --path-symbols: %s\n", err);
			goto out;
		}
	}
	if (o.ranges) {
		ranges = fopen(o.ranges, "w");
		if (!ranges) {
			fprintf(stderr, "etm4enc: %s: %s\n", o.ranges, strerror(errno));
			ret = 1;
			goto out;
		}
		g.on_step = write_range;
		g.user = ranges;
	}
	g.cpus = calloc(o.cpus, sizeof(*g.cpus));
	if (!g.cpus) {
		ret = 1;
		goto out;
	}
	g.n_cpus = o.cpus;
	g.size = o.size;
	g.rng = o.seed;
	/* --size alone: a circular sink of exactly that size, like a full ETR. */
	cstf_init(&g.fmt, o.etb_size ? o.etb_size : o.size);
	for (i = 0; i < o.cpus; i++) {
		struct etm4_cfg cfg = {
			.trace_id = (uint8_t)(0x10 + i), .cycle_count = o.cc,
			.timestamps = o.ts, .ctxid = o.ctxid, .vmid = o.vmid,
			.retstack = o.retstack, .exact_match = o.exact,
			.sync_period = o.sync_period, .seed = o.seed,
		};

		/*
		 * Every CPU walks; CPU 0 then runs the chain, the others walk
		 * as long again, so that they all end together.
		 */
		gen_cpu_walk(&g.cpus[i], (unsigned int)i, &cfg, &img, o.seed * 131 + i,
			     o.size ? UINT64_MAX : o.steps + (i ? sp.n : 0));
		if (i == 0 && sp.n)
			gen_cpu_then_path(&g.cpus[i], sp.steps, sp.n);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	gen_run(&g);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (o.stats) {
		double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

		printf("encoded %llu ranges (%llu instructions) into %llu bytes of frames in %.3f s:"
		       " %.1f MiB/s, %.2f M ranges/s\n", (unsigned long long)g.n_steps,
		       (unsigned long long)g.n_instr, (unsigned long long)g.fmt.total, s,
		       g.fmt.total / s / (1 << 20), g.n_steps / s / 1e6);
	}
	ret = write_outputs(&o, &img, &g) ? 1 : 0;
out:
	if (ranges && fclose(ranges))
		ret = 1;
	if (g.cpus) {
		for (i = 0; i < g.n_cpus; i++)
			gen_cpu_free(&g.cpus[i]);
		free(g.cpus);
		cstf_free(&g.fmt);
	}
	sympath_free(&sp);
	free(symlist);
	image_free(&img);
	return ret ? 1 : 0;
}
