// SPDX-License-Identifier: GPL-2.0
/*
 * csdump decode: parse arguments, load the input, call the library.  Nothing
 * here knows how trace is decoded or written.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdatomic.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "decode/decode.h"
#include "decode/decode_out.h"
#include "core/diag.h"
#include "core/dump.h"
#include "decode/symbols.h"


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

/*
 * The decoder died of signal @sig (0: unknown) in the child; @w: where it
 * was; @then: what happens now.
 */
static void report_crash(const struct csd_dump *d, const struct csd_decode_where *w, int sig,
			 const char *then)
{
	const char *how = sig ? strsignal(sig) : "killed";
	unsigned int sink = atomic_load(&w->sink);

	if (!atomic_load(&w->valid) || sink >= d->n_sinks)
		csd_error("the trace decoder (OpenCSD) crashed (%s)%s", how, then);
	else if (atomic_load(&w->workers))
		csd_error("the trace decoder (OpenCSD) crashed (%s) decoding sink %s, near byte "
			  "%u: damaged trace it cannot take%s", how, d->sinks[sink].name,
			  atomic_load(&w->index), then);
	else
		csd_error("the trace decoder (OpenCSD) crashed (%s) on trace ID 0x%x of sink %s, "
			  "in the bytes from %u on: damaged trace it cannot take%s", how,
			  atomic_load(&w->id), d->sinks[sink].name, atomic_load(&w->index), then);
}

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
 * JSON lines to stdout that a crash cannot cut.  The render hands whole
 * lines over; written from the calling thread while a worker thread may
 * crash, they could still be cut inside write().  So a fatal signal first
 * stops new writes, waits (a second at most) for the one under way, then
 * kills the process as it would have.
 */
static atomic_int out_busy;	/* a write of lines is under way */
static atomic_int out_dead;	/* a thread died: write no more */
static int out_fd = STDOUT_FILENO;

static ssize_t whole_write(void *cookie, const char *buf, size_t len)
{
	size_t done = 0;

	(void)cookie;
	atomic_store(&out_busy, 1);
	if (atomic_load(&out_dead)) {
		atomic_store(&out_busy, 0);
		return -1;
	}
	while (done < len) {
		ssize_t n = write(out_fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	atomic_store(&out_busy, 0);
	return done ? (ssize_t)done : -1;
}

static void on_fatal(int sig)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	atomic_store(&out_dead, 1);
	for (i = 0; i < 1000 && atomic_load(&out_busy); i++)
		nanosleep(&ms, NULL);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* In the decoding child: die of a fatal signal only between writes. */
static void fatal_after_writes(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* Unbuffered stdout through whole_write(); stdout itself if that fails. */
static FILE *json_out(void)
{
	static const cookie_io_functions_t io = { .write = whole_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		return stdout;
	setvbuf(f, NULL, _IONBF, 0);
	return f;
}

/* What a decode works on; decode_job_free() frees it. */
struct decode_job {
	struct csd_dump d;
	struct csd_syms *syms;
	struct csd_render *r;
	FILE *out;		/* the render's; stdout, or json_out() */
	struct csd_decode_opts o;
	int partial;		/* the exit code of a decode that went well */
};

static void decode_job_free(struct decode_job *j)
{
	csd_render_free(j->r);
	csd_syms_free(j->syms);
	csd_dump_free(&j->d);
	if (j->out && j->out != stdout)
		fclose(j->out);
}

/* Decode @d into @r; returns the exit code.  @o->threads: as --threads. */
static int decode_run(const struct csd_dump *d, struct csd_decode_opts *o,
		      struct csd_render *r, int partial)
{
	enum csd_err err;

	/* Workers only pay when there is a second CPU to run them. */
	if (o->threads == 0 || (o->threads < 0 && csd_decode_cpus() < 2)) {
		err = csd_decode(d, o, csd_render_event, r);
	} else {
		o->threads = o->threads > 0 ? o->threads : 0;
		err = csd_decode_pipelined(d, o, csd_render_event, r);
	}
	if (o->progress)
		progress_end(o->progress_ctx);
	if (err == CSD_ERR_USAGE)
		return csd_exit_code(err);
	if (!csd_render_finish(r))
		return CSD_EXIT_INPUT;
	return err == CSD_OK ? partial : csd_exit_code(err);
}

/* Decodes again after a crash, each time with one more stretch left out. */
#define MAX_CUTS	8

static bool cut_known(const struct csd_decode_opts *o, const struct csd_decode_cut *c)
{
	size_t i;

	for (i = 0; i < o->n_cuts; i++)
		if (o->cuts[i].sink == c->sink && o->cuts[i].id == c->id &&
		    o->cuts[i].index == c->index)
			return true;
	return false;
}

/*
 * Run decode_run() in a child; *@crashed: whether it died (reported, saying
 * that the output stops there unless @again).
 */
static int decode_child(struct decode_job *j, bool again, bool *crashed)
{
	int status, rc;
	pid_t pid;

	*crashed = false;
	memset(j->o.where, 0, sizeof(*j->o.where));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		if (j->out != stdout)
			fatal_after_writes();
		rc = decode_run(&j->d, &j->o, j->r, j->partial);
		fflush(stdout);
		decode_job_free(j);
		_exit(rc);
	}
	if (pid < 0)
		return decode_run(&j->d, &j->o, j->r, j->partial);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	*crashed = true;
	report_crash(&j->d, j->o.where, WIFSIGNALED(status) ? WTERMSIG(status) : 0,
		     again ? "" : "; the output stops there");
	return CSD_EXIT_PARTIAL;
}

/*
 * decode_run() in a child process.  OpenCSD 1.3.3 dereferences freed memory
 * on some damaged trace (one Mispredict packet header, 0x30, where a trace
 * unit without speculation never puts one, is enough) and may crash on it.
 * csdump outlives it, says where the decode was, and exits 5.  JSON lines
 * written before the crash are kept (each is written whole).  The text
 * report, written at the end, is made again with the trace ID's bytes from
 * that point on left out, so that every CPU's last instructions before the
 * damage are still reported.  Without fork(), it runs here.
 */
static int decode_isolated(struct decode_job *j, bool again)
{
	struct csd_decode_opts *o = &j->o;
	struct csd_decode_cut cuts[MAX_CUTS];
	const struct csd_dump *d = &j->d;
	struct csd_decode_where *w;
	bool crashed;
	int rc;

	w = mmap(NULL, sizeof(*w), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w == MAP_FAILED)
		return decode_run(d, o, j->r, j->partial);
	o->where = w;
	o->cuts = cuts;
	o->n_cuts = 0;
	for (;;) {
		struct csd_decode_cut c;

		rc = decode_child(j, again, &crashed);
		if (!crashed || !again || !atomic_load(&w->valid) || o->n_cuts == MAX_CUTS)
			break;
		if (atomic_load(&w->workers)) {
			/* Workers leave the place vague: find it on one thread. */
			o->threads = 0;
			csd_warn("decoding again on one thread, to find the damage");
			continue;
		}
		c.sink = atomic_load(&w->sink);
		c.id = (uint8_t)atomic_load(&w->id);
		c.index = atomic_load(&w->index);
		if (cut_known(o, &c))
			break;	/* no progress: give up */
		cuts[o->n_cuts++] = c;
		csd_warn("decoding again, trace ID 0x%x of sink %s left out from byte %u on",
			 c.id, d->sinks[c.sink].name, c.index);
	}
	munmap(w, sizeof(*w));
	o->where = NULL;
	o->cuts = NULL;
	if (o->n_cuts && rc == CSD_EXIT_OK)
		rc = CSD_EXIT_PARTIAL;
	o->n_cuts = 0;
	return rc;
}

int csd_cmd_decode(int argc, char **argv)
{
	struct decode_job j = { .o = { .cpu = -1 } };
	struct progress pr = { 0 };
	struct decode_args a;
	int rc;

	rc = decode_parse(argc, argv, &a);
	if (rc >= 0)
		return rc;
	j.partial = csd_cli_load(a.input, a.vmlinux, &j.d);
	if (j.partial && j.partial != CSD_EXIT_PARTIAL) {
		rc = j.partial;
		goto out;
	}
	rc = CSD_EXIT_INPUT;
	if (!j.d.n_segs)
		csd_warn("%s: no program image (give --vmlinux): only gaps and addresses "
			 "can be decoded", a.input);
	if (a.vmlinux &&
	    csd_syms_load(&j.syms, a.vmlinux, j.d.kaslr_offset, a.lines) != CSD_OK)
		goto out;
	/* JSON lines leave whole (decode_isolated() says why). */
	j.out = a.fmt == CSD_OUT_JSONL ? json_out() : stdout;
	j.r = csd_render_new(j.out, a.fmt, j.syms, (size_t)a.last, a.lines);
	if (!j.r) {
		csd_error("out of memory");
		goto out;
	}
	j.o.cpu = (int)a.cpu;
	if (isatty(STDERR_FILENO)) {
		clock_gettime(CLOCK_MONOTONIC, &pr.t0);
		j.o.progress = progress_show;
		j.o.progress_ctx = &pr;
	}
	j.o.threads = (int)a.threads;
	rc = decode_isolated(&j, a.fmt == CSD_OUT_TEXT);
out:
	decode_job_free(&j);
	return rc;
}
