// SPDX-License-Identifier: GPL-2.0
/* csdump: CoreSight formatter frames: demultiplex by trace ID, and format. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/cs_frame.h"

#define NO_ID 0xff

static int put(struct csd_streams *s, uint8_t id, uint8_t byte)
{
	if (id == NO_ID || id == 0 || id >= CSD_TRACE_ID_MAX) {
		s->n_dropped++;
		return 0;
	}
	if (s->len[id] == s->cap[id]) {
		size_t cap = s->cap[id] ? s->cap[id] * 2 : 4096;
		uint8_t *p = realloc(s->data[id], cap);

		if (!p)
			return -1;
		s->data[id] = p;
		s->cap[id] = cap;
	}
	s->data[id][s->len[id]++] = byte;
	return 0;
}

static bool is_sync_frame(const uint8_t *f)
{
	static const uint8_t fsync[4] = { 0xff, 0xff, 0xff, 0x7f };

	for (int i = 0; i < CSD_FRAME_SIZE; i += 4)
		if (memcmp(f + i, fsync, 4))
			return false;
	return true;
}

/* Offset of the first frame of @buf after the frame syncs at its start. */
static size_t first_frame(const uint8_t *buf, size_t len)
{
	size_t off = 0;

	while (off + CSD_FRAME_SIZE <= len && is_sync_frame(buf + off))
		off += CSD_FRAME_SIZE;
	return off;
}

/*
 * Give each data byte of the frames of @buf to its ID's stream in @s, the
 * bytes before the first ID change (and after a frame sync) to @none.  With
 * @lead_only, the walk starts after the leading frame syncs and ends at the
 * first ID change or the next frame sync: the bytes it gives are @none's.
 */
static int demux(const uint8_t *buf, size_t len, uint8_t none, bool lead_only,
		 struct csd_streams *s)
{
	uint8_t cur = none;

	for (size_t off = lead_only ? first_frame(buf, len) : 0;
	     off + CSD_FRAME_SIZE <= len; off += CSD_FRAME_SIZE) {
		const uint8_t *f = buf + off;
		uint8_t aux = f[15];

		s->n_frames++;
		if (is_sync_frame(f)) {
			if (lead_only)
				return 0;
			s->n_sync++;
			cur = none;
			continue;
		}
		for (int i = 0; i < 8; i++) {
			uint8_t b = f[2 * i], flag = (aux >> i) & 1;
			uint8_t next_owner = cur;

			if (b & 1) {
				/* ID change; flag set: the next byte is still the old ID's. */
				uint8_t id = b >> 1;

				next_owner = flag ? cur : id;
				cur = id;
			} else if (put(s, cur, (uint8_t)(b | flag))) {
				return -1;
			} else {
				next_owner = cur;
			}
			if (lead_only && (b & 1) && !flag)
				return 0;	/* the lead ends at the ID change */
			if (i < 7 && put(s, next_owner, f[2 * i + 1]))
				return -1;
			if (lead_only && (b & 1))
				return 0;	/* ...after the byte its flag keeps */
		}
	}
	return 0;
}

int csd_frames_demux(const uint8_t *buf, size_t len, struct csd_streams *s)
{
	return demux(buf, len, NO_ID, false, s);
}

int csd_frames_demux_one(const uint8_t *buf, size_t len, uint8_t id, struct csd_streams *s)
{
	return demux(buf, len, id, false, s);
}

/* Any valid ID: the leading bytes' stream while demux() collects them. */
#define LEAD_ID 1

int csd_frames_lead(const uint8_t *buf, size_t len, uint8_t **lead, size_t *lead_len,
		    size_t *at)
{
	struct csd_streams st = { 0 };

	if (demux(buf, len, LEAD_ID, true, &st)) {
		csd_streams_free(&st);
		return -1;
	}
	*at = first_frame(buf, len);
	*lead = st.len[LEAD_ID] ? st.data[LEAD_ID] : NULL;
	*lead_len = st.len[LEAD_ID];
	if (*lead)
		st.data[LEAD_ID] = NULL;
	csd_streams_free(&st);
	return 0;
}

/* The frame that gives what follows it to @id: null-ID padding, then @id. */
static void claim_frame(uint8_t *f, uint8_t id)
{
	/* Slot 0: to the null ID; bytes 1-13 its data, zeros; slot 7: to @id. */
	memset(f, 0, CSD_FRAME_SIZE);
	f[0] = 0x01;
	f[14] = (uint8_t)(id << 1 | 1);
}

int csd_frames_claim_lead(struct csd_sink *s, uint8_t id)
{
	size_t at = first_frame(s->data, s->len);
	uint8_t *buf;

	if (at) {
		/* In place of the barrier: what it says, trace lost, still holds. */
		claim_frame(s->data + at - CSD_FRAME_SIZE, id);
		return 0;
	}
	buf = malloc(s->len + CSD_FRAME_SIZE);
	if (!buf)
		return -1;
	claim_frame(buf, id);
	memcpy(buf + CSD_FRAME_SIZE, s->data, s->len);
	free(s->data);
	s->data = buf;
	s->len += CSD_FRAME_SIZE;
	return 0;
}

void csd_streams_free(struct csd_streams *s)
{
	for (int i = 0; i < CSD_TRACE_ID_MAX; i++)
		free(s->data[i]);
	memset(s, 0, sizeof(*s));
}

/*
 * Frames written here: byte 0 switches to the ID, bytes 1-14 are data.  In
 * the last frame, after the data, an ID change to the null ID fills the rest.
 * It must sit on an even byte: after an odd number of data bytes it follows
 * them; after an even number it comes before the last one with its flag set
 * (the byte after a flagged ID change still belongs to the previous ID).
 */
#define DATA_PER_FRAME 14

static void set_data(uint8_t *f, int pos, uint8_t b)
{
	if (pos % 2) {
		f[pos] = b;
	} else {
		f[pos] = b & 0xfe;
		f[15] |= (uint8_t)((b & 1) << (pos / 2));
	}
}

static void last_frame(uint8_t *f, const uint8_t *data, int r)
{
	int pos = 1;

	for (int k = 0; k < (r % 2 ? r : r - 1); k++)
		set_data(f, pos++, data[k]);
	f[pos] = 0x01;				/* to the null ID */
	if (r % 2 == 0) {
		f[15] |= (uint8_t)(1 << (pos / 2));	/* ...after one more byte */
		set_data(f, pos + 1, data[r - 1]);
	}
}

int csd_frames_format(uint8_t id, const uint8_t *data, size_t len,
		      uint8_t **out, size_t *out_len)
{
	size_t n = (len + DATA_PER_FRAME - 1) / DATA_PER_FRAME;
	uint8_t *buf = calloc(n ? n : 1, CSD_FRAME_SIZE);

	if (!buf)
		return -1;
	for (size_t fr = 0; fr < n; fr++) {
		uint8_t *f = buf + fr * CSD_FRAME_SIZE;
		const uint8_t *d = data + fr * DATA_PER_FRAME;
		size_t r = len - fr * DATA_PER_FRAME;

		f[0] = (uint8_t)(id << 1 | 1);	/* immediate ID change */
		if (r < DATA_PER_FRAME) {
			last_frame(f, d, (int)r);
			continue;
		}
		for (int k = 0; k < DATA_PER_FRAME; k++)
			set_data(f, k + 1, d[k]);
	}
	*out = buf;
	*out_len = n * CSD_FRAME_SIZE;
	return 0;
}

int csd_sink_one_source(struct csd_sink *s)
{
	struct csd_streams st = { 0 };
	uint8_t id = s->one_source;
	bool ids = false;

	if (!(s->flags & CSD_F_FORMATTED) || !csd_trace_id_valid(id))
		return 0;
	if (csd_frames_demux(s->data, s->len, &st))
		return -1;
	for (int i = 0; i < CSD_TRACE_ID_MAX; i++)
		ids |= st.len[i] != 0;
	csd_streams_free(&st);
	if (ids)
		return 0;	/* its IDs say whose its bytes are */
	if (csd_frames_demux_one(s->data, s->len, id, &st))
		return -1;
	if (st.len[id]) {
		free(s->data);
		s->data = st.data[id];
		s->len = st.len[id];
		st.data[id] = NULL;
		s->flags &= ~(uint32_t)CSD_F_FORMATTED;
		s->source_known = true;
		s->source_id = id;
	}
	csd_streams_free(&st);
	return 0;
}
