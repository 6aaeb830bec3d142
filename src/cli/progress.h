/* SPDX-License-Identifier: GPL-2.0 */
/* csdump: progress on stderr, for a terminal and a decode that lasts. */
#ifndef CSD_CLI_PROGRESS_H
#define CSD_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct csd_progress {
	struct timespec t0;
	double last_shown;
	bool shown;
};

/* The clock starts now. */
void csd_progress_start(struct csd_progress *pr);
/* A csd_progress_fn: pass the struct csd_progress as its context. */
void csd_progress_show(void *pr, uint64_t done, uint64_t total);
/* Clear the line, if one was shown. */
void csd_progress_end(struct csd_progress *pr);

#endif
