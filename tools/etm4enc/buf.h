/* SPDX-License-Identifier: GPL-2.0 */
/* etm4enc: a growing byte buffer. */
#ifndef ETM4ENC_BUF_H
#define ETM4ENC_BUF_H

#include <stddef.h>
#include <stdint.h>

struct buf {
	uint8_t *p;
	size_t len;
	size_t cap;
};

/* Append; abort()s when memory runs out (a test tool, not a library user). */
void buf_put(struct buf *b, const void *data, size_t len);
void buf_put1(struct buf *b, uint8_t byte);
void buf_free(struct buf *b);

/* Write @len bytes to @path atomically (temp file + rename); 0 or -errno. */
int write_file_atomic(const char *path, const void *data, size_t len);

#endif
