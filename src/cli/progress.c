// SPDX-License-Identifier: GPL-2.0
/* csdump: progress on stderr (see progress.h). */
#include <stdio.h>

#include "cli/progress.h"

void csd_progress_start(struct csd_progress *pr)
{
	clock_gettime(CLOCK_MONOTONIC, &pr->t0);
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

void csd_progress_show(void *p, uint64_t done, uint64_t total)
{
	struct csd_progress *pr = p;
	double t = since(&pr->t0);

	if (t < 0.5 || t - pr->last_shown < 0.1 || !total)
		return;
	pr->last_shown = t;
	pr->shown = true;
	fprintf(stderr, "\rcsdump: decoding %3u%% (%.1f of %.1f MiB)",
		(unsigned int)(done * 100 / total), (double)done / 1048576.0,
		(double)total / 1048576.0);
}

void csd_progress_end(struct csd_progress *pr)
{
	if (pr->shown)
		fprintf(stderr, "\r%60s\r", "");
}
