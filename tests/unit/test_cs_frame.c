// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the CoreSight frame demultiplexer and formatter: a frame built
 * by hand from the rules of the CoreSight Architecture Specification (ID
 * changes with and without the delayed-change flag, data low bits in byte
 * 15), a barrier frame, and format -> demux round trips of every length.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cs_frame.h"
#include "testutil.h"

static void test_hand_frame(void)
{
	/*
	 * 0x21: ID 0x10; AA; 0x02 + aux bit 1 = 0x03; BB; 0x23 ID 0x11 with
	 * aux bit 2 set, so CC is still 0x10's; 0x04; DD; 0x25 ID 0x12; EE;
	 * 0x06; 0x11; 0x08 + aux bit 6 = 0x09; 0x22; 0x0A; aux = 0x46.
	 */
	static const uint8_t frames[32 + 7] = {	/* + a partial frame, ignored */
		0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
		0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
		0x21, 0xaa, 0x02, 0xbb, 0x23, 0xcc, 0x04, 0xdd,
		0x25, 0xee, 0x06, 0x11, 0x08, 0x22, 0x0a, 0x46,
	};
	static const uint8_t id10[] = { 0xaa, 0x03, 0xbb, 0xcc };
	static const uint8_t id11[] = { 0x04, 0xdd };
	static const uint8_t id12[] = { 0xee, 0x06, 0x11, 0x09, 0x22, 0x0a };
	struct csd_streams s = { 0 };

	CHECK(csd_frames_demux(frames, sizeof(frames), &s) == 0, "demux");
	CHECK(s.n_frames == 2 && s.n_sync == 1, "frames %zu sync %zu", s.n_frames, s.n_sync);
	CHECK(s.len[0x10] == sizeof(id10) && !memcmp(s.data[0x10], id10, sizeof(id10)), "0x10");
	CHECK(s.len[0x11] == sizeof(id11) && !memcmp(s.data[0x11], id11, sizeof(id11)), "0x11");
	CHECK(s.len[0x12] == sizeof(id12) && !memcmp(s.data[0x12], id12, sizeof(id12)), "0x12");
	csd_streams_free(&s);
}

static void test_round_trip(void)
{
	uint8_t data[200];
	uint32_t x = 12345;

	for (size_t i = 0; i < sizeof(data); i++) {
		x = x * 1103515245 + 12345;
		data[i] = (uint8_t)(x >> 16);
	}
	for (size_t len = 1; len <= sizeof(data); len++) {
		struct csd_streams s = { 0 };
		uint8_t *f;
		size_t flen;
		uint8_t id = (uint8_t)(1 + len % 0x6f);

		CHECK(csd_frames_format(id, data, len, &f, &flen) == 0, "format");
		CHECK(flen % 16 == 0 && flen >= len, "length %zu for %zu", flen, len);
		CHECK(csd_frames_demux(f, flen, &s) == 0, "demux");
		CHECK(s.len[id] == len && !memcmp(s.data[id], data, len),
		      "round trip of %zu bytes: got %zu", len, s.len[id]);
		for (int other = 1; other < CSD_TRACE_ID_MAX; other++)
			CHECK(other == id || !s.len[other], "stray bytes for ID %d", other);
		csd_streams_free(&s);
		free(f);
	}
}

/*
 * One source's wrapped buffer: a barrier, then frames of data only (the ID
 * change was overwritten).  No ID is in it: csd_frames_demux() attributes
 * nothing; with the record's one source the bytes are that source's, and
 * csd_sink_one_source() makes the sink a raw one of it.  A sink whose frames
 * do hold an ID, or that names no source, is left alone.
 */
static void test_one_source(void)
{
	uint8_t buf[48], want[30], *f;
	struct csd_streams s = { 0 };
	struct csd_sink sink = { .flags = CSD_F_FORMATTED | CSD_F_WRAPPED, .one_source = 0x12 };
	size_t flen;

	memset(buf, 0xff, 16);
	for (int i = 0; i < 4; i++)
		buf[4 * i + 3] = 0x7f;			/* 0x7fffffff x 4: the barrier */
	for (int fr = 0; fr < 2; fr++) {
		uint8_t *p = buf + 16 + 16 * fr;

		for (int i = 0; i < 15; i++) {
			/* Even bytes: data with bit 0 clear (the aux byte gives it back). */
			p[i] = (uint8_t)((fr * 15 + i) * 2 + (i % 2));
			want[fr * 15 + i] = p[i];
		}
		p[15] = 0;
	}
	CHECK(csd_frames_demux(buf, sizeof(buf), &s) == 0, "demux");
	for (int id = 0; id < CSD_TRACE_ID_MAX; id++)
		CHECK(!s.len[id], "no ID in the frames, yet %zu bytes for 0x%x", s.len[id], id);
	CHECK(s.n_sync == 1, "one barrier");
	csd_streams_free(&s);
	CHECK(csd_frames_demux_one(buf, sizeof(buf), 0x12, &s) == 0, "demux_one");
	CHECK(s.len[0x12] == 30 && !memcmp(s.data[0x12], want, 30),
	      "one source: %zu bytes of 30", s.len[0x12]);
	csd_streams_free(&s);

	sink.data = malloc(sizeof(buf));
	sink.len = sizeof(buf);
	memcpy(sink.data, buf, sizeof(buf));
	CHECK(csd_sink_one_source(&sink) == 0, "one_source");
	CHECK(!(sink.flags & CSD_F_FORMATTED) && sink.source_known && sink.source_id == 0x12 &&
	      sink.len == 30 && !memcmp(sink.data, want, 30), "a raw sink of 0x12 now");
	free(sink.data);

	/* Frames that hold an ID: as they are. */
	CHECK(csd_frames_format(0x14, want, sizeof(want), &f, &flen) == 0, "format");
	sink = (struct csd_sink){ .flags = CSD_F_FORMATTED, .one_source = 0x12,
				  .data = f, .len = flen };
	CHECK(csd_sink_one_source(&sink) == 0 && (sink.flags & CSD_F_FORMATTED) &&
	      !sink.source_known && sink.data == f && sink.len == flen,
	      "a sink with IDs is left alone");
	sink.one_source = 0;
	memcpy(f, buf, 16);
	CHECK(csd_sink_one_source(&sink) == 0 && (sink.flags & CSD_F_FORMATTED),
	      "a sink that names no source is left alone");
	free(f);
}

/*
 * A wrapped buffer's bytes before its first ID change (the barrier first, or
 * not), and the frame that gives them to an ID: the same bytes come out of
 * the demultiplexer as that ID's, the rest as before, and the null ID's
 * padding as no one's.
 */
static void test_lead(void)
{
	/*
	 * Frame 1: no ID: 0x10 0x11 0x12 (aux bit 1) 0x13 ... 0x1d; slot 7 its
	 * own data 0x1e.  Frame 2: 0x20 0x21; slot 1 an ID change to 0x14 with
	 * the delayed flag (aux bit 1), so 0x23 is still the lead's; then 0x24
	 * 0x25 ... of 0x14.
	 */
	static const uint8_t lead_want[] = {
		0x10, 0x11, 0x13, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19,
		0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x20, 0x21, 0x23,
	};
	static const uint8_t id14_want[] = {
		0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e,
	};
	uint8_t buf[48], *lead;
	size_t n, at;

	memset(buf, 0xff, 16);
	for (int i = 0; i < 4; i++)
		buf[4 * i + 3] = 0x7f;			/* the barrier */
	for (int i = 0; i < 15; i++)
		buf[16 + i] = (uint8_t)(0x10 + i);
	buf[16 + 2] = 0x12;
	buf[16 + 15] = 0x02;				/* 0x12's low bit: 0x13 */
	for (int i = 0; i < 15; i++)
		buf[32 + i] = (uint8_t)(0x20 + i);
	buf[32 + 2] = 0x14 << 1 | 1;			/* to 0x14, after 0x22 */
	buf[32 + 15] = 0x02;
	CHECK(csd_frames_lead(buf, sizeof(buf), &lead, &n, &at) == 0, "lead");
	CHECK(at == 16, "after the barrier: %zu", at);
	CHECK(n == sizeof(lead_want) && lead && !memcmp(lead, lead_want, n),
	      "the lead: %zu bytes of %zu", n, sizeof(lead_want));
	free(lead);

	for (int barrier = 1; barrier >= 0; barrier--) {
		const uint8_t *in = barrier ? buf : buf + 16;
		size_t len = barrier ? sizeof(buf) : sizeof(buf) - 16;
		struct csd_sink sink = { .flags = CSD_F_FORMATTED, .len = len };
		struct csd_streams s = { 0 };

		sink.data = malloc(len);
		memcpy(sink.data, in, len);
		CHECK(csd_frames_claim_lead(&sink, 0x12) == 0, "claim");
		CHECK(sink.len == (barrier ? len : len + 16), "length %zu (barrier %d)",
		      sink.len, barrier);
		CHECK(csd_frames_demux(sink.data, sink.len, &s) == 0, "demux");
		CHECK(s.len[0x12] == sizeof(lead_want) &&
		      !memcmp(s.data[0x12], lead_want, sizeof(lead_want)),
		      "the lead is 0x12's: %zu bytes (barrier %d)", s.len[0x12], barrier);
		CHECK(s.len[0x14] == sizeof(id14_want) &&
		      !memcmp(s.data[0x14], id14_want, sizeof(id14_want)),
		      "0x14's bytes as they were: %zu", s.len[0x14]);
		CHECK(csd_frames_lead(sink.data, sink.len, &lead, &n, &at) == 0 && !n && !lead,
		      "no lead left: %zu bytes", n);
		csd_streams_free(&s);
		free(sink.data);
	}

	/* Frame 2 alone has 3; a buffer that starts with an ID has none. */
	CHECK(csd_frames_lead(buf + 32, 16, &lead, &n, &at) == 0 && n == 3 && lead &&
	      lead[2] == 0x23 && !at, "frame 2 alone: 0x20 0x21 0x23, %zu bytes", n);
	free(lead);
	buf[32] = 0x21;
	buf[32 + 15] = 0;
	CHECK(csd_frames_lead(buf + 32, 16, &lead, &n, &at) == 0 && !n && !lead,
	      "an ID in slot 0: no lead, %zu", n);
}

int main(void)
{
	test_hand_frame();
	test_round_trip();
	test_one_source();
	test_lead();
	return test_result("test_cs_frame");
}
