// SPDX-License-Identifier: GPL-2.0
/* csdump: whole writes to stdout through fopencookie() (see safe_out.h). */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "decode/safe_out.h"

static atomic_int out_busy;	/* a write of lines is under way */
static atomic_int out_dead;	/* a thread died: write no more */
static int out_fd = STDOUT_FILENO;
static bool opened;		/* a stream writes through whole_write() */

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

void csd_safe_out_guard(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	struct sigaction sa;
	size_t i;

	if (!opened)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

FILE *csd_safe_out_open(void)
{
	static const cookie_io_functions_t io = { .write = whole_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		return stdout;
	setvbuf(f, NULL, _IONBF, 0);
	opened = true;
	return f;
}
