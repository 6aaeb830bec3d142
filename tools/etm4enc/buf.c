// SPDX-License-Identifier: GPL-2.0
#include "buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void buf_grow(struct buf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 256;
	uint8_t *p;

	while (cap - b->len < need)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		fprintf(stderr, "etm4enc: out of memory (%zu bytes)\n", cap);
		abort();
	}
	b->p = p;
	b->cap = cap;
}

void buf_put(struct buf *b, const void *data, size_t len)
{
	if (b->cap - b->len < len)
		buf_grow(b, len);
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

void buf_put1(struct buf *b, uint8_t byte)
{
	if (b->cap == b->len)
		buf_grow(b, 1);
	b->p[b->len++] = byte;
}

void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	FILE *f;
	int err = 0;

	if (!tmp)
		return -ENOMEM;
	snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f) {
		err = -errno;
		free(tmp);
		return err;
	}
	if (len && fwrite(data, 1, len, f) != len)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}
