// SPDX-License-Identifier: GPL-2.0
/*
 * csdump decode and csdump report: parse arguments, load the input, call the
 * library.  Nothing here knows how trace is decoded or written.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/progress.h"
#include "decode/decode.h"
#include "decode/filter.h"
#include "decode/report.h"
#include "decode/render.h"
#include "decode/isolate.h"
#include "decode/safe_out.h"
#include "core/diag.h"
#include "core/dump.h"
#include "decode/symbols.h"
#include "decode/views.h"

static const char decode_usage[] =
	"usage: csdump decode INPUT [--vmlinux FILE] [--lines] [--cpu N] [--last N]\n"
	"                            [--format text|jsonl] [--threads N] [--stack]\n"
	"                            [--functions] [--from PLACE] [--to PLACE]\n"
	"  INPUT    a vmcore, a directory written by `csdump extract`, or an OpenCSD\n"
	"           snapshot directory\n"
	"  --vmlinux FILE  symbols (and, for a vmcore, the program image) from FILE\n"
	"  --lines         add source file:line (needs DWARF in --vmlinux)\n"
	"  --cpu N         decode CPU N only (0..4095)\n"
	"  --last N        text: the last N entries per CPU (default 20, 0 = all)\n"
	"  --format F      text (default) or jsonl: one JSON object per range and\n"
	"                  event, in trace order; addresses are hex strings, end is\n"
	"                  exclusive\n"
	"  --threads N     decoder threads, 0..64 (default one per CPU this process\n"
	"                  may run on; 0, or the default on one CPU: decode on the\n"
	"                  main thread); the output does not depend on it\n"
	"  --stack         also each CPU's call stack at the end of the trace, from\n"
	"                  the calls, returns and exceptions in it\n"
	"  --functions     also each CPU's functions by instructions executed and by\n"
	"                  calls (text: the first --last of them)\n"
	"  --from PLACE    each CPU's trace from the first range that runs PLACE: an\n"
	"                  address (0x...) or a function of --vmlinux\n"
	"  --to PLACE      ... up to the first range after that which runs PLACE\n";

static const char report_usage[] =
	"usage: csdump report INPUT -o FILE [--vmlinux FILE] [--cpu N] [--from PLACE]\n"
	"                                   [--to PLACE] [--threads N]\n"
	"  writes FILE, one self-contained HTML page (no network, no external\n"
	"  script): per CPU the last moments as a call-depth timeline, newest at the\n"
	"  right, where the trace stopped, the call stack at its end and the\n"
	"  function table; hover a slice for its function and addresses.\n"
	"  -o, --output FILE  the page (written to a temporary name, then renamed)\n"
	"  --vmlinux, --cpu, --from, --to, --threads: as for `csdump decode`\n";

/* ---- decode ------------------------------------------------------------- */

struct decode_args {
	const char *input;
	const char *vmlinux;
	bool lines;
	long cpu;
	long last;
	long threads;		/* CSD_DECODE_THREADS_AUTO: default */
	unsigned int views;	/* CSD_VIEW_* */
	const char *from, *to;	/* --from, --to: NULL if not given */
	const char *report;	/* csdump report: the page to write */
	enum csd_render_format fmt;
};

static int decode_parse(int argc, char **argv, struct decode_args *a, bool report)
{
	static const struct option opts[] = {
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "lines", no_argument, NULL, 'L' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "last", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		{ "threads", required_argument, NULL, 'j' },
		{ "stack", no_argument, NULL, 'S' },
		{ "functions", no_argument, NULL, 'F' },
		{ "from", required_argument, NULL, 'a' },
		{ "to", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *opt = NULL, *want = NULL;	/* the option refused, what it takes */
	const char *usage = report ? report_usage : decode_usage;
	bool decode_only = false;		/* an option report does not take */
	int c;

	memset(a, 0, sizeof(*a));
	a->cpu = -1;
	a->last = 20;
	a->threads = CSD_DECODE_THREADS_AUTO;
	optind = 0;
	while ((c = getopt_long(argc, argv, "k:Lc:n:f:j:SFa:b:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			a->vmlinux = optarg;
			break;
		case 'L':
			decode_only = true;
			a->lines = true;
			break;
		case 'S':
			decode_only = true;
			a->views |= CSD_VIEW_STACK;
			break;
		case 'F':
			decode_only = true;
			a->views |= CSD_VIEW_FUNCS;
			break;
		case 'a':
			a->from = optarg;
			break;
		case 'b':
			a->to = optarg;
			break;
		case 'o':
			if (!report) {
				fprintf(stderr, "csdump decode: -o is an option of csdump report "
					"(decode writes to stdout)\n");
				goto usage;
			}
			a->report = optarg;
			break;
		case 'c':
			opt = "--cpu", want = "a CPU number, 0..4095";
			if (!csd_cli_parse_num(optarg, 4095, &a->cpu))
				goto bad;
			break;
		case 'n':
			decode_only = true;
			opt = "--last", want = "a number of entries, 0..100000000 (0 = all)";
			if (!csd_cli_parse_num(optarg, 100000000, &a->last))
				goto bad;
			break;
		case 'j':
			opt = "--threads", want = "a number of threads, 0..64";
			if (!csd_cli_parse_num(optarg, 64, &a->threads))
				goto bad;
			break;
		case 'f':
			decode_only = true;
			opt = "--format", want = "text or jsonl";
			if (!strcmp(optarg, "text"))
				a->fmt = CSD_RENDER_TEXT;
			else if (!strcmp(optarg, "jsonl"))
				a->fmt = CSD_RENDER_JSONL;
			else
				goto bad;
			break;
		case 'h':
			printf("%s%s", usage, csd_exit_codes_help);
			return 0;
		default:
			goto usage;
		}
	}
	if (report && decode_only) {
		fprintf(stderr, "csdump report: --lines, --last, --format, --stack and --functions "
			"are options of csdump decode\n");
		goto usage;
	}
	if (report && !a->report) {
		fprintf(stderr, "csdump report: -o FILE is needed\n");
		goto usage;
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
	fprintf(stderr, "csdump decode: bad value '%s' for %s (want %s)\n", optarg, opt, want);
usage:
	fputs(usage, stderr);
	return CSD_EXIT_USAGE;
}

/* What a decode works on; job_free() frees it. */
struct decode_job {
	struct csd_dump d;
	struct csd_vmlinux *vm;
	struct csd_syms *syms;
	struct csd_render *r;
	struct csd_views *views;	/* NULL: none asked for */
	struct csd_filter filter;	/* --from, --to */
	enum csd_render_format fmt;
	size_t last;
	const char *report;		/* csdump report: the page, instead of a render */
	const char *input;
	FILE *out;		/* the render's: stdout, or csd_safe_out_open() */
	struct csd_progress pr;
};

static void job_free(void *p)
{
	struct decode_job *j = p;

	csd_render_free(j->r);
	csd_views_free(j->views);
	csd_syms_free(j->syms);
	csd_vmlinux_close(j->vm);
	csd_dump_free(&j->d);
	if (j->out && j->out != stdout)
		fclose(j->out);
}

static bool job_finish(void *p)
{
	struct decode_job *j = p;

	csd_progress_end(&j->pr);
	if (j->report)
		return csd_report_write(j->views, j->report, j->input, j->d.osrelease) == CSD_OK;
	if (!csd_render_finish(j->r))
		return false;
	if (!j->views)
		return true;
	if (!(j->fmt == CSD_RENDER_JSONL ? csd_views_write_json(j->views, j->out)
					 : csd_views_write_text(j->views, j->out, j->last)))
		return false;
	if (fflush(j->out) || ferror(j->out)) {
		csd_error("writing the output failed");
		return false;
	}
	return true;
}

/* The render and the views, each event of the window. */
static int job_event(void *p, const struct csd_ev *ev)
{
	struct decode_job *j = p;
	struct csd_ev tmp;

	ev = csd_render_runaway(j->syms, ev, &tmp);
	if (j->views && csd_views_event(j->views, ev))
		return 1;
	return j->r ? csd_render_event(j->r, ev) : 0;
}

/*
 * --from/--to PLACE: an address (a number), else a function of @syms.  False
 * (reported) if it is neither.
 */
static bool place_parse(const char *opt, const char *s, struct csd_syms *syms,
			struct csd_place *p)
{
	char *end;

	memset(p, 0, sizeof(*p));
	if (!s)
		return true;
	p->set = true;
	errno = 0;
	p->addr = strtoull(s, &end, 0);
	if (*s >= '0' && *s <= '9' && !*end && !errno)
		return true;
	p->sym = syms ? csd_syms_find(syms, s) : NULL;
	if (p->sym)
		return true;
	fprintf(stderr, "csdump decode: bad value '%s' for %s (want an address, or a function "
		"of --vmlinux%s)\n", s, opt, syms ? ": it has none of that name" : ", not given");
	return false;
}

/* --from/--to: the window in front of the job's events.  False: a bad place. */
static bool job_window(struct decode_job *j, const struct decode_args *a,
		       struct csd_isolated *iso)
{
	struct csd_place from, to;

	if (!place_parse("--from", a->from, j->syms, &from) ||
	    !place_parse("--to", a->to, j->syms, &to))
		return false;
	csd_filter_init(&j->filter, &from, &to, j->syms, job_event, j);
	if (from.set || to.set) {
		iso->fn = csd_filter_event;
		iso->fn_ctx = &j->filter;
	}
	return true;
}

static int decode_run(int argc, char **argv, bool report)
{
	struct decode_job j = { .out = NULL };
	struct csd_isolated iso = { .d = &j.d, .fn = job_event, .fn_ctx = &j, .ctx = &j,
				    .finish = job_finish, .release = job_free };
	struct decode_args a;
	enum csd_err err;
	bool damaged;
	int rc, partial;

	rc = decode_parse(argc, argv, &a, report);
	if (rc >= 0)
		return rc;
	partial = csd_cli_load(a.input, a.vmlinux, &j.d, &j.vm);
	if (partial && partial != CSD_EXIT_PARTIAL) {
		rc = partial;
		goto out;
	}
	rc = CSD_EXIT_INPUT;
	/*
	 * No program image: what the trace says (the addresses it went to,
	 * exceptions, context, gaps) but no instructions: a partial decode.
	 */
	if (!j.d.n_segs) {
		csd_warn("%s: no program image (%s): only the addresses the trace went to, "
			 "exceptions, context and gaps are decoded", a.input,
			 a.vmlinux ? "and --vmlinux has no code" : "give --vmlinux");
		partial = CSD_EXIT_PARTIAL;
	}
	if (j.vm && csd_syms_load(&j.syms, j.vm, j.d.kaslr_offset, a.lines) != CSD_OK)
		goto out;
	j.fmt = a.fmt;
	j.last = (size_t)a.last;
	j.report = a.report;
	j.input = a.input;
	if (report) {
		a.views = CSD_VIEW_STACK | CSD_VIEW_FUNCS | CSD_VIEW_TIMELINE;
	} else {
		/* JSON lines leave whole, should the decoder crash (isolate.h). */
		j.out = a.fmt == CSD_RENDER_JSONL ? csd_safe_out_open() : stdout;
		j.r = csd_render_new(j.out, a.fmt, j.syms, (size_t)a.last, a.lines);
		if (j.r)
			csd_render_stops(j.r, j.d.etms, j.d.n_etms);
	}
	if (a.views)
		j.views = csd_views_new(a.views, j.syms);
	if ((!report && !j.r) || (a.views && !j.views)) {
		csd_error("out of memory");
		goto out;
	}
	if (!job_window(&j, &a, &iso)) {
		rc = CSD_EXIT_USAGE;
		goto out;
	}
	iso.o.cpu = (int)a.cpu;
	iso.o.threads = (int)a.threads;
	if (isatty(STDERR_FILENO)) {
		csd_progress_start(&j.pr);
		iso.o.progress = csd_progress_show;
		iso.o.progress_ctx = &j.pr;
	}
	/* The text report and the page are made at the end: again without the damage. */
	iso.again = report || a.fmt == CSD_RENDER_TEXT;
	err = csd_decode_isolated(&iso, &damaged);
	if (err != CSD_OK)
		rc = csd_exit_code(err);
	else
		rc = damaged ? CSD_EXIT_PARTIAL : partial;
out:
	job_free(&j);
	return rc;
}

int csd_cmd_decode(int argc, char **argv)
{
	return decode_run(argc, argv, false);
}

int csd_cmd_report(int argc, char **argv)
{
	return decode_run(argc, argv, true);
}
