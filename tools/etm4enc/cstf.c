// SPDX-License-Identifier: GPL-2.0
/*
 * etm4enc: CoreSight formatter.
 *
 * Frame layout: bytes 0..14 carry data or ID changes, byte 15 the auxiliary
 * bits. An even byte with bit 0 set is an ID change (ID in bits 7:1); its aux
 * bit (byte 15 bit n for byte 2n) set means that the following byte still
 * belongs to the previous ID. An even byte with bit 0 clear is data whose
 * bit 0 is the aux bit. Odd bytes are always data.
 */
#include "cstf.h"

#include <stdlib.h>
#include <string.h>

void cstf_init(struct cstf *f, size_t ring_size)
{
	memset(f, 0, sizeof(*f));
	f->cur_id = -1;
	f->ring_size = ring_size & ~(size_t)15;
	if (f->ring_size) {
		f->out.p = calloc(1, f->ring_size);
		if (!f->out.p)
			abort();
		f->out.cap = f->out.len = f->ring_size;
	}
}

void cstf_free(struct cstf *f)
{
	buf_free(&f->out);
}

static void emit_frame(struct cstf *f)
{
	if (f->ring_size) {
		memcpy(f->out.p + f->ring_pos, f->frame, 16);
		f->ring_pos = (f->ring_pos + 16) % f->ring_size;
	} else {
		buf_put(&f->out, f->frame, 16);
	}
	f->total += 16;
	memset(f->frame, 0, sizeof(f->frame));
	f->pos = 0;
}

static void set_aux(struct cstf *f, unsigned int even_pos, unsigned int bit)
{
	uint8_t m = (uint8_t)(1u << (even_pos / 2));

	f->frame[15] = (uint8_t)((f->frame[15] & ~m) | (bit ? m : 0));
}

static void put_data(struct cstf *f, uint8_t b)
{
	if (f->pos & 1) {
		f->frame[f->pos] = b;
	} else {
		f->frame[f->pos] = b & 0xfe;
		set_aux(f, f->pos, b & 1);
	}
	if (++f->pos == 15)
		emit_frame(f);
}

/* Data bytes belong to @id from now on. */
static void switch_id(struct cstf *f, uint8_t id)
{
	if (f->cur_id == id)
		return;
	if (!(f->pos & 1)) {
		/* ID byte here, effective from the next byte */
		f->frame[f->pos] = (uint8_t)(id << 1 | 1);
		set_aux(f, f->pos, 0);
		if (++f->pos == 15)
			emit_frame(f);
	} else if ((f->frame[f->pos - 1] & 1) && !((f->frame[15] >> ((f->pos - 1) / 2)) & 1)) {
		/* The previous byte is an ID change with no data yet: replace it. */
		f->frame[f->pos - 1] = (uint8_t)(id << 1 | 1);
	} else {
		/*
		 * Odd position: move the previous (even) data byte here and put
		 * the ID change before it, flagged as taking effect after it.
		 */
		unsigned int p = f->pos - 1;
		uint8_t prev = (uint8_t)(f->frame[p] | ((f->frame[15] >> (p / 2)) & 1));

		f->frame[p] = (uint8_t)(id << 1 | 1);
		set_aux(f, p, 1);
		f->frame[f->pos] = prev;
		if (++f->pos == 15)
			emit_frame(f);
	}
	f->cur_id = id;
}

void cstf_put(struct cstf *f, uint8_t id, const uint8_t *data, size_t len)
{
	size_t i;

	if (!len)
		return;
	switch_id(f, id);
	for (i = 0; i < len; i++)
		put_data(f, data[i]);
}

void cstf_finish(struct cstf *f)
{
	if (!f->pos)
		return;
	switch_id(f, 0);	/* the null trace source: padding */
	while (f->pos)
		put_data(f, 0);
	f->cur_id = -1;
}

size_t cstf_result(struct cstf *f, const uint8_t **data, bool *wrapped)
{
	static const uint8_t barrier[16] = {
		0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
		0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
	};

	*wrapped = false;
	if (!f->ring_size || f->total <= f->ring_size) {
		*data = f->out.p;
		return f->ring_size ? (size_t)f->total : f->out.len;
	}
	/* Unroll the ring: oldest frame first, then the barrier over it. */
	if (f->ring_pos) {
		uint8_t *tmp = malloc(f->ring_size);

		if (!tmp)
			abort();
		memcpy(tmp, f->out.p + f->ring_pos, f->ring_size - f->ring_pos);
		memcpy(tmp + f->ring_size - f->ring_pos, f->out.p, f->ring_pos);
		free(f->out.p);
		f->out.p = tmp;
		f->ring_pos = 0;
	}
	memcpy(f->out.p, barrier, sizeof(barrier));
	*wrapped = true;
	*data = f->out.p;
	return f->ring_size;
}
