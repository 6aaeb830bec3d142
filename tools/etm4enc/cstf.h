/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etm4enc: CoreSight trace formatter (CoreSight Architecture Specification,
 * "Trace Formatter"): 16-byte frames carrying the bytes of several trace IDs,
 * written to a linear buffer or to a circular ETB of a fixed size.
 */
#ifndef ETM4ENC_CSTF_H
#define ETM4ENC_CSTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct cstf {
	uint8_t frame[16];
	unsigned int pos;	/* next byte in frame[0..14] */
	int cur_id;		/* trace ID of the data bytes, -1 before the first */
	/* output */
	struct buf out;		/* linear mode: every frame */
	size_t ring_size;	/* ETB mode: capacity (multiple of 16), 0 = linear */
	size_t ring_pos;
	uint64_t total;		/* bytes of frames produced */
};

/* @ring_size 0: keep every frame; else a circular buffer of that size. */
void cstf_init(struct cstf *f, size_t ring_size);
void cstf_free(struct cstf *f);
/* Append @len bytes of trace ID @id (1..0x6f). */
void cstf_put(struct cstf *f, uint8_t id, const uint8_t *data, size_t len);
/* Complete the last frame with null-ID padding. */
void cstf_finish(struct cstf *f);
/*
 * The captured buffer in trace order (oldest byte first), as a sink saves it:
 * a wrapped ETB starts with a barrier frame (0x7fffffff x 4). Returns the
 * length; *@wrapped tells whether old trace was overwritten. The pointer
 * stays owned by @f.
 */
size_t cstf_result(struct cstf *f, const uint8_t **data, bool *wrapped);

#endif
