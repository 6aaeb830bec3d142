// SPDX-License-Identifier: GPL-2.0
/* csdump unit tests: shared helpers. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "testutil.h"

int test_failures;

char *test_tmpdir(const char *tag)
{
	const char *base = getenv("TMPDIR");
	char *dir;
	size_t n;

	if (!base || !*base)
		base = "/tmp";
	n = strlen(base) + strlen(tag) + 32;
	dir = malloc(n);
	if (!dir)
		abort();
	snprintf(dir, n, "%s/csdump-%s-XXXXXX", base, tag);
	if (!mkdtemp(dir)) {
		perror(dir);
		abort();
	}
	return dir;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void test_rmtree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void test_write(const char *dir, const char *name, const void *buf, long len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		abort();
	}
	if (len < 0)
		len = (long)strlen(buf);
	if (fwrite(buf, 1, (size_t)len, f) != (size_t)len || fclose(f)) {
		perror(path);
		abort();
	}
}

static char msgbuf[1 << 16];
static size_t msglen;

static void capture(enum csd_level level, const char *msg, void *arg)
{
	int n;

	(void)arg;
	n = snprintf(msgbuf + msglen, sizeof(msgbuf) - msglen, "%s%s\n",
		     level == CSD_LVL_ERROR ? "error: " :
		     level == CSD_LVL_WARN ? "warning: " : "", msg);
	if (n > 0 && msglen + (size_t)n < sizeof(msgbuf))
		msglen += (size_t)n;
	fprintf(stderr, "  [lib] %s\n", msg);
}

void test_capture_msgs(void)
{
	csd_set_msg_handler(capture, NULL);
}

const char *test_msgs(void)
{
	return msgbuf;
}

void test_reset_msgs(void)
{
	msglen = 0;
	msgbuf[0] = '\0';
}

int test_result(const char *name)
{
	if (test_failures) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, test_failures);
		return 1;
	}
	printf("%s: all checks passed\n", name);
	return 0;
}
