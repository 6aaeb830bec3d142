// SPDX-License-Identifier: GPL-2.0
/*
 * csdump decode / csdump snapshot: parse arguments, load the input, call the
 * library.  Nothing here knows how trace is decoded or written.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_decode.h"
#include "decode.h"
#include "decode_out.h"
#include "diag.h"
#include "dump.h"
#include "image.h"
#include "input.h"
#include "snapshot.h"
#include "symbols.h"
#include "vmcore.h"


static const char decode_usage[] =
	"usage: csdump decode INPUT [--vmlinux FILE] [--lines] [--cpu N] [--last N]\n"
	"                            [--format text|jsonl]\n"
	"  INPUT    a vmcore, a directory written by `csdump extract`, or an OpenCSD\n"
	"           snapshot directory\n"
	"  --vmlinux FILE  symbols (and, for a vmcore, the program image) from FILE\n"
	"  --lines         add source file:line (needs DWARF in --vmlinux)\n"
	"  --cpu N         decode CPU N only\n"
	"  --last N        text: the last N entries per CPU (default 20, 0 = all)\n"
	"  --format F      text (default) or jsonl: one JSON object per range and\n"
	"                  event, in trace order; addresses are hex strings, end is\n"
	"                  exclusive\n"
	"  --threads N     decoder threads (default one per CPU this process may\n"
	"                  run on; 0, or the default on one CPU: decode on the main\n"
	"                  thread); the output does not depend on it\n";

static const char snapshot_usage[] =
	"usage: csdump snapshot INPUT -o DIR [--vmlinux FILE]\n"
	"  writes an OpenCSD snapshot directory that trc_pkt_lister decodes; with\n"
	"  --vmlinux and an input without memory dumps, vmlinux's code is written\n"
	"  as the memory dumps\n";

static bool parse_num(const char *s, long max, long *out)
{
	char *end;
	long v;

	v = strtol(s, &end, 0);
	if (!*s || *end || v < 0 || v > max)
		return false;
	*out = v;
	return true;
}

/* ---- progress on stderr, only for a terminal and a decode that lasts ---- */

struct progress {
	struct timespec t0;
	double last_shown;
	bool shown;
};

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void progress_show(void *p, uint64_t done, uint64_t total)
{
	struct progress *pr = p;
	double t = since(&pr->t0);

	if (t < 0.5 || t - pr->last_shown < 0.1 || !total)
		return;
	pr->last_shown = t;
	pr->shown = true;
	fprintf(stderr, "\rcsdump: decoding %3u%% (%.1f of %.1f MiB)",
		(unsigned int)(done * 100 / total), (double)done / 1048576.0,
		(double)total / 1048576.0);
}

static void progress_end(struct progress *pr)
{
	if (pr->shown)
		fprintf(stderr, "\r%60s\r", "");
}

/* ---- decode ------------------------------------------------------------- */

struct decode_args {
	const char *input;
	const char *vmlinux;
	bool lines;
	long cpu;
	long last;
	long threads;		/* -1: default */
	enum csd_out_format fmt;
};

static int decode_parse(int argc, char **argv, struct decode_args *a)
{
	static const struct option opts[] = {
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "lines", no_argument, NULL, 'L' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "last", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	a->cpu = -1;
	a->last = 20;
	a->threads = -1;
	optind = 0;
	while ((c = getopt_long(argc, argv, "k:Lc:n:f:j:h", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			a->vmlinux = optarg;
			break;
		case 'L':
			a->lines = true;
			break;
		case 'c':
			if (!parse_num(optarg, 4095, &a->cpu))
				goto bad;
			break;
		case 'n':
			if (!parse_num(optarg, 100000000, &a->last))
				goto bad;
			break;
		case 'j':
			if (!parse_num(optarg, 64, &a->threads))
				goto bad;
			break;
		case 'f':
			if (!strcmp(optarg, "text"))
				a->fmt = CSD_OUT_TEXT;
			else if (!strcmp(optarg, "jsonl"))
				a->fmt = CSD_OUT_JSONL;
			else
				goto bad;
			break;
		case 'h':
			printf("%s%s", decode_usage, csd_exit_codes_help);
			return 0;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
	a->input = argv[optind];
	if (a->lines && !a->vmlinux) {
		fprintf(stderr, "csdump decode: --lines needs --vmlinux\n");
		return CSD_EXIT_USAGE;
	}
	return -1;
bad:
	fprintf(stderr, "csdump decode: bad value '%s'\n", optarg);
usage:
	fputs(decode_usage, stderr);
	return CSD_EXIT_USAGE;
}

/*
 * For a vmcore, the kernel text as it ran (patched by the kernel) replaces
 * vmlinux's where the vmcore holds it.  Best effort: vmlinux stays otherwise.
 */
static void overlay_vmcore(const char *input, const char *vmlinux, struct csd_dump *d)
{
	struct csd_span text[CSD_TEXT_SPANS_MAX];
	size_t pages = 0, words = 0, n_text;
	struct csd_mem m;
	struct stat sb;

	if (stat(input, &sb) || !S_ISREG(sb.st_mode) ||
	    csd_image_vmlinux_text(vmlinux, d->kaslr_offset, text, &n_text) != CSD_OK ||
	    !n_text || csd_vmcore_open(input, &m) != CSD_OK)
		return;
	if (csd_image_overlay_mem(d, 0, &m, text, n_text, &pages, &words) == CSD_OK && pages)
		csd_info("%s: %zu pages of kernel text read from the vmcore (%zu instruction "
			 "words differ from vmlinux: the kernel patches its text)", input, pages,
			 words);
	csd_mem_close(&m);
}

/*
 * Any input (vmcore, extract directory, snapshot) into @d, plus vmlinux's
 * code when the input carries no memory of its own.  Returns an exit code:
 * 0, CSD_EXIT_PARTIAL (some records skipped) or a failure.
 */
static int load(const char *input, const char *vmlinux, struct csd_dump *d)
{
	struct csd_input_status st = { 0 };
	enum csd_err err = csd_input_load(input, d, &st);

	if (err != CSD_OK)
		return csd_exit_code(err);
	if (vmlinux) {
		err = csd_image_check_vmlinux(vmlinux);
		if (err != CSD_OK)
			return csd_exit_code(err);
	}
	if (vmlinux && !d->n_segs) {
		err = csd_image_add_vmlinux(d, vmlinux, d->kaslr_offset);
		if (err != CSD_OK)
			return csd_exit_code(err);
		overlay_vmcore(input, vmlinux, d);
	}
	return st.partial ? CSD_EXIT_PARTIAL : CSD_EXIT_OK;
}

int csd_cmd_decode(int argc, char **argv)
{
	struct csd_decode_opts opts = { .cpu = -1 };
	struct csd_syms *syms = NULL;
	struct csd_render *r = NULL;
	struct csd_dump d = { 0 };
	struct progress pr = { 0 };
	struct decode_args a;
	enum csd_err err;
	int rc, partial;

	rc = decode_parse(argc, argv, &a);
	if (rc >= 0)
		return rc;
	partial = load(a.input, a.vmlinux, &d);
	if (partial && partial != CSD_EXIT_PARTIAL) {
		rc = partial;
		goto out;
	}
	rc = CSD_EXIT_INPUT;
	if (!d.n_segs)
		csd_warn("%s: no program image (give --vmlinux): only gaps and addresses "
			 "can be decoded", a.input);
	if (a.vmlinux && csd_syms_load(&syms, a.vmlinux, d.kaslr_offset, a.lines) != CSD_OK)
		goto out;
	r = csd_render_new(stdout, a.fmt, syms, (size_t)a.last, a.lines);
	if (!r) {
		csd_error("out of memory");
		goto out;
	}
	opts.cpu = (int)a.cpu;
	if (isatty(STDERR_FILENO)) {
		clock_gettime(CLOCK_MONOTONIC, &pr.t0);
		opts.progress = progress_show;
		opts.progress_ctx = &pr;
	}
	/* Workers only pay when there is a second CPU to run them. */
	if (a.threads == 0 || (a.threads < 0 && csd_decode_cpus() < 2)) {
		err = csd_decode(&d, &opts, csd_render_event, r);
	} else {
		opts.threads = a.threads > 0 ? (int)a.threads : 0;
		err = csd_decode_pipelined(&d, &opts, csd_render_event, r);
	}
	progress_end(&pr);
	if (err == CSD_ERR_USAGE) {
		rc = csd_exit_code(err);
		goto out;
	}
	if (!csd_render_finish(r))
		goto out;
	rc = err == CSD_OK ? partial : csd_exit_code(err);
out:
	csd_render_free(r);
	csd_syms_free(syms);
	csd_dump_free(&d);
	return rc;
}

/* ---- snapshot ----------------------------------------------------------- */

int csd_cmd_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *vmlinux = NULL;
	struct csd_dump d = { 0 };
	int c, rc;

	optind = 0;
	while ((c = getopt_long(argc, argv, "o:k:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'k':
			vmlinux = optarg;
			break;
		case 'h':
			printf("%s%s", snapshot_usage, csd_exit_codes_help);
			return 0;
		default:
			fputs(snapshot_usage, stderr);
			return CSD_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || !out) {
		fputs(snapshot_usage, stderr);
		return CSD_EXIT_USAGE;
	}
	rc = load(argv[optind], vmlinux, &d);
	if (!rc || rc == CSD_EXIT_PARTIAL) {
		enum csd_err err = csd_snapshot_write(&d, out);

		if (err != CSD_OK)
			rc = csd_exit_code(err);
		else
			printf("snapshot: %s (trc_pkt_lister -ss_dir %s -decode)\n", out, out);
	}
	csd_dump_free(&d);
	return rc;
}
