// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the CoreSight frame demultiplexer and formatter: a frame built
 * by hand from the rules of the CoreSight Architecture Specification (ID
 * changes with and without the delayed-change flag, data low bits in byte
 * 15), a barrier frame, and format -> demux round trips of every length.
 */
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

int main(void)
{
	test_hand_frame();
	test_round_trip();
	return test_result("test_cs_frame");
}
