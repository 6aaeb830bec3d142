/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: CoreSight trace formatter frames (CoreSight Architecture
 * Specification v3.0, D4: 16-byte frames, even bytes carrying a trace ID
 * change or data with its low bit in byte 15, odd bytes data).
 */
#ifndef CSD_CS_FRAME_H
#define CSD_CS_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "core/dump.h"
#include "core/trace_id.h"

#define CSD_FRAME_SIZE		16

/* The byte streams of each trace ID, demultiplexed from a formatted buffer. */
struct csd_streams {
	uint8_t *data[CSD_TRACE_ID_MAX];
	size_t len[CSD_TRACE_ID_MAX];
	size_t cap[CSD_TRACE_ID_MAX];
	size_t n_frames;	/* frames read */
	size_t n_sync;		/* frames of four frame syncs (barriers) skipped */
	size_t n_dropped;	/* bytes before the first ID, or of a reserved ID */
};

/*
 * Split @len bytes of frames (a trailing partial frame is ignored) into @s
 * (zeroed by the caller, freed with csd_streams_free()).  A frame holding
 * four frame-sync words (0x7fffffff, the barrier the TMC driver and the
 * kdump series write where a wrapped buffer starts) resets the current ID.
 * Returns 0, or -1 when out of memory.
 */
int csd_frames_demux(const uint8_t *buf, size_t len, struct csd_streams *s);
/*
 * The same for a buffer that had one source, trace ID @id: the bytes before
 * the first ID change, and after a barrier, are @id's (a formatter writes an
 * ID only when it changes; a wrapped buffer of one source keeps none).
 */
int csd_frames_demux_one(const uint8_t *buf, size_t len, uint8_t id, struct csd_streams *s);
void csd_streams_free(struct csd_streams *s);

/*
 * The bytes of @buf (@len bytes of frames) before its first trace ID change:
 * in a wrapped buffer, the end of a run of one source whose ID the wrap
 * overwrote (a formatter writes an ID only when the source changes).  Frame
 * syncs at the start are skipped; *@at is the offset of the first frame
 * after them.  *@lead (malloc'ed, NULL when there are none) and *@lead_len
 * get the bytes.  Returns 0, or -1 when out of memory.
 */
int csd_frames_lead(const uint8_t *buf, size_t len, uint8_t **lead, size_t *lead_len,
		    size_t *at);
/*
 * Give the leading bytes of formatted sink @s (csd_frames_lead()) to trace ID
 * @id with one frame that holds data of the null ID 0 (which decoders
 * discard) and, in its last slot, an ID change to @id.  It takes the place
 * of the last frame sync before them (the barrier a driver writes where a
 * wrapped buffer starts: the sink keeps its size), or goes in front of the
 * buffer when there is none.  Returns 0, or -1 when out of memory.
 */
int csd_frames_claim_lead(struct csd_sink *s, uint8_t id);

/*
 * A formatted sink whose record names its one source (@s->one_source) and
 * whose frames hold no trace ID at all (one source's wrapped buffer: an ETF
 * per CPU) becomes a raw sink of that source, its bytes taken out of the
 * frames.  Any other sink is left as it is.  Returns 0, or -1 (ENOMEM).
 */
int csd_sink_one_source(struct csd_sink *s);

/*
 * Format @len bytes of trace ID @id into frames; *@out is malloc'ed, its
 * size (a multiple of 16) in *@out_len.  The last frame is padded with data
 * for the null ID 0, which decoders discard.  Returns 0 or -1 (ENOMEM).
 */
int csd_frames_format(uint8_t id, const uint8_t *data, size_t len,
		      uint8_t **out, size_t *out_len);

#endif
