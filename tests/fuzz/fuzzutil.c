// SPDX-License-Identifier: GPL-2.0
/* What every fuzz target shares. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "fuzzutil.h"

#define MAX_NAMES 16

static char dir[256];
static char names[MAX_NAMES][64];
static size_t n_names;
static char path[512];

static void quiet(enum csd_level level, const char *msg, void *arg)
{
	(void)level;
	(void)msg;
	(void)arg;
}

void fuzz_quiet(void)
{
	csd_set_msg_handler(quiet, NULL);
}

static void cleanup(void)
{
	for (size_t i = 0; i < n_names; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

const char *scratch_dir(void)
{
	if (!dir[0]) {
		const char *base = access("/dev/shm", W_OK) ? getenv("TMPDIR") : "/dev/shm";

		snprintf(dir, sizeof(dir), "%s/csdump-fuzz-XXXXXX", base ? base : "/tmp");
		if (!mkdtemp(dir))
			abort();
		atexit(cleanup);
	}
	return dir;
}

const char *scratch_file(const char *name, const uint8_t *data, size_t len)
{
	size_t i;
	int fd;

	for (i = 0; i < n_names && strcmp(names[i], name); i++)
		;
	if (i == n_names) {
		if (n_names == MAX_NAMES || strlen(name) >= sizeof(names[0]))
			abort();
		snprintf(names[n_names++], sizeof(names[0]), "%s", name);
	}
	snprintf(path, sizeof(path), "%s/%s", scratch_dir(), name);
	unlink(path);
	if (!data)
		return path;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len || close(fd))
		abort();
	return path;
}
