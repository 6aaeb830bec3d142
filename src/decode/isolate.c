// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the decode in a child process, and again after a crash with the
 * damage left out (see isolate.h).  The child writes where the decode is
 * into shared memory (struct csd_decode_where); the cuts of the next try
 * come from there.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/diag.h"
#include "decode/decode_int.h"
#include "decode/isolate.h"
#include "decode/safe_out.h"

/* Decodes again after a crash, each time with one more stretch left out. */
#define MAX_CUTS	8

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

/* Decode, then finish; the error of the two. */
static enum csd_err run(const struct csd_isolated *j, const struct csd_decode_opts *o,
			const struct csd_decode_ctl *ctl)
{
	enum csd_err err = csd_decode_ctl(j->d, o, ctl, j->fn, j->fn_ctx);

	if (err == CSD_ERR_USAGE)
		return err;
	if (!j->finish(j->ctx))
		return CSD_ERR_IO;
	return err;
}

static bool cut_known(const struct csd_decode_ctl *ctl, const struct csd_decode_cut *c)
{
	size_t i;

	for (i = 0; i < ctl->n_cuts; i++)
		if (ctl->cuts[i].sink == c->sink && ctl->cuts[i].id == c->id &&
		    ctl->cuts[i].index == c->index)
			return true;
	return false;
}

/*
 * run() in a child; *@crashed: whether it died (reported, saying that the
 * output stops there unless @j->again).  A child killed by SIGPIPE (the
 * reader of the output went away) did not crash: the output just ended.
 */
static enum csd_err run_child(const struct csd_isolated *j, const struct csd_decode_opts *o,
			      const struct csd_decode_ctl *ctl, bool *crashed)
{
	enum csd_err err;
	int status;
	pid_t pid;

	*crashed = false;
	memset(ctl->where, 0, sizeof(*ctl->where));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		/* A reader that went away ends the output: SIGPIPE, seen below. */
		signal(SIGPIPE, SIG_DFL);
		csd_safe_out_guard();
		err = run(j, o, ctl);
		fflush(stdout);
		if (j->release)
			j->release(j->ctx);
		_exit((int)err);
	}
	if (pid < 0)
		return run(j, o, ctl);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status))
		return WEXITSTATUS(status) <= CSD_ERR_DECODE ? (enum csd_err)WEXITSTATUS(status) :
		       CSD_ERR_DECODE;
	/* The reader closed the output (`| head`): a normal end, not damage. */
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE)
		return CSD_OK;
	*crashed = true;
	report_crash(j->d, ctl->where, WIFSIGNALED(status) ? WTERMSIG(status) : 0,
		     j->again ? "" : j->lost ? j->lost : "; the output stops there");
	return CSD_OK;
}

enum csd_err csd_decode_isolated(const struct csd_isolated *j, bool *damaged)
{
	struct csd_decode_opts o = j->o;
	struct csd_decode_cut cuts[MAX_CUTS];
	struct csd_decode_ctl ctl = { .cuts = cuts };
	struct csd_decode_where *w;
	enum csd_err err;
	bool crashed;

	*damaged = false;
	w = mmap(NULL, sizeof(*w), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w == MAP_FAILED)
		return run(j, &o, NULL);
	ctl.where = w;
	for (;;) {
		struct csd_decode_cut c;

		err = run_child(j, &o, &ctl, &crashed);
		if (!crashed || !j->again || !atomic_load(&w->valid) || ctl.n_cuts == MAX_CUTS)
			break;
		if (atomic_load(&w->workers)) {
			/* Workers leave the place vague: find it on one thread. */
			o.threads = 0;
			csd_warn("decoding again on one thread, to find the damage");
			continue;
		}
		c.sink = atomic_load(&w->sink);
		c.id = (uint8_t)atomic_load(&w->id);
		c.index = atomic_load(&w->index);
		if (cut_known(&ctl, &c))
			break;	/* no progress: give up */
		cuts[ctl.n_cuts++] = c;
		csd_warn("decoding again, trace ID 0x%x of sink %s left out from byte %u on",
			 c.id, j->d->sinks[c.sink].name, c.index);
	}
	munmap(w, sizeof(*w));
	/* The last try's crash, or a report without the parts left out. */
	*damaged = crashed || (ctl.n_cuts && err == CSD_OK);
	return err;
}
