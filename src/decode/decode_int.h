/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump decoder internals, shared by decode.c, decode_split.c,
 * decode_pipe.c and isolate.c (the OpenCSD glue they share: ocsd.h).
 *
 * The decode runs in two stages.  The split stage pushes a sink through
 * OpenCSD's frame deformatter, whose output for each trace ID goes to a
 * stand-in decoder: the result is the sequence of data-path operations, in
 * the order the deformatter made them, each for one trace ID (a chunk of
 * that ID's bytes, or an end-of-trace / flush / reset).  The decode stage
 * pushes each trace ID's operations into its own single-source decode tree.
 *
 * On one thread (csd_decode_inline) the stand-in forwards each operation
 * to its tree at once.  With workers (csd_decode_pipelined) it records them, and
 * each worker replays those of its trace IDs.  An event is tagged with the
 * position of the operation that produced it; in tag order the events are
 * exactly those of the one-thread decode, whether the trace IDs are decoded
 * one after the other or in parallel.
 */
#ifndef CSD_DECODE_INT_H
#define CSD_DECODE_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/trace_id.h"
#include "decode/decode.h"

/*
 * Where the decode is: the sink, trace ID and trace index of the data last
 * handed to a decoder (with workers, to one of them).  Kept up to date for
 * a report should the decoder library crash; readable from another process
 * when placed in shared memory.
 */
struct csd_decode_where {
	atomic_uint sink;
	atomic_uint index;
	atomic_uint id;
	atomic_uint valid;
	atomic_uint workers;	/* set when decoding on workers: the place is near */
};

/* Trace left out: trace ID @id's bytes in sink @sink from trace index @index on. */
struct csd_decode_cut {
	unsigned int sink;
	uint8_t id;
	uint32_t index;
};

/* What the crash recovery (isolate.c) adds to a decode; not for callers. */
struct csd_decode_ctl {
	struct csd_decode_where *where;		/* may be NULL */
	const struct csd_decode_cut *cuts;	/* n_cuts of them */
	size_t n_cuts;
};

/* csd_decode() with @ctl (may be NULL). */
enum csd_err csd_decode_ctl(const struct csd_dump *d, const struct csd_decode_opts *o,
			    const struct csd_decode_ctl *ctl, csd_ev_fn fn, void *ctx);

/* Both stages on this thread (decode.c). */
enum csd_err csd_decode_inline(const struct csd_dump *d, const struct csd_decode_opts *o,
			       const struct csd_decode_ctl *ctl, csd_ev_fn fn, void *ctx);

/*
 * The trace IDs decoded on @workers threads (at most 16), @fn run on this one:
 * identical events in identical order (decode_pipe.c).
 */
enum csd_err csd_decode_pipelined(const struct csd_dump *d, const struct csd_decode_opts *o,
				  const struct csd_decode_ctl *ctl, size_t workers,
				  csd_ev_fn fn, void *ctx);

/*
 * The split stage hands each data-path operation for one trace ID to a
 * csd_op_fn, in the order the deformatter made them: @kind is an OpenCSD
 * ocsd_datapath_op_t, @index the trace index the deformatter gave, and for
 * DATA, @data / @len the bytes (valid during the call only).  Non-zero
 * stops the split (csd_split_sink then returns CSD_OK: the callee knows why).
 */
typedef int (*csd_op_fn)(void *ctx, uint8_t id, uint8_t kind, uint32_t index,
			 const uint8_t *data, uint32_t len);

/*
 * The split stage: the operations of sink @s for the trace IDs set in @want.
 * @ctl's cuts are left out.  Formatted sinks go through the deformatter; an unformatted one belongs to
 * its single trace ID @single_id.  Damaged frames are reported and skipped.
 */
enum csd_err csd_split_sink(const struct csd_sink *s, unsigned int sink,
			    const struct csd_decode_ctl *ctl, const bool want[CSD_TRACE_IDS],
			    bool formatted, uint8_t single_id, csd_op_fn fn, void *ctx);

/* An event and the position of the operation that produced it. */
struct csd_tagged_ev {
	uint64_t tag;
	struct csd_ev ev;
};

/* Receives each event of the decode stage, tagged. */
typedef int (*csd_tagged_fn)(void *ctx, const struct csd_tagged_ev *tev);

/* The decode stage for a set of trace IDs. */
struct csd_idec;

struct csd_idec *csd_idec_new(const struct csd_dump *d, const struct csd_sink *s, uint8_t sink,
			      const bool ids[CSD_TRACE_IDS], csd_tagged_fn fn, void *ctx);
/*
 * Push one operation (see csd_op_fn) into its trace ID's tree if that ID is
 * one of ours; the events it produces are tagged @tag.  Non-zero: stop.
 */
int csd_idec_push(struct csd_idec *x, uint64_t tag, uint8_t id, uint8_t kind, uint32_t index,
		  const uint8_t *data, uint32_t len);
/* Whether the event callback asked to stop. */
bool csd_idec_stopped(const struct csd_idec *x);
/* Bad-data reports collected while replaying (call once, at the end). */
void csd_idec_report(struct csd_idec *x);
void csd_idec_free(struct csd_idec *x);

/* Note in @w (may be NULL) that sink @sink's trace ID @id is at @index. */
static inline void csd_where_set(struct csd_decode_where *w, unsigned int sink, uint8_t id,
				 uint32_t index)
{
	if (!w)
		return;
	atomic_store_explicit(&w->sink, sink, memory_order_relaxed);
	atomic_store_explicit(&w->id, id, memory_order_relaxed);
	atomic_store_explicit(&w->index, index, memory_order_relaxed);
	atomic_store_explicit(&w->valid, 1, memory_order_relaxed);
}

/*
 * Check @d and @o; the trace IDs to decode, @single the only one (-1 when
 * there are several), @total the bytes of every sink.  Messages say why not.
 */
enum csd_err csd_decode_prepare(const struct csd_dump *d, const struct csd_decode_opts *o,
				bool ids[CSD_TRACE_IDS], int *single, uint64_t *total);

/*
 * How sink @s goes to the decoders: through the deformatter (*@formatted),
 * or as the raw bytes of one trace ID, *@raw_id (0 included: a raw stream
 * carries no IDs), its own source's, else @single, the only trace ID.
 * false, said in a warning, for a raw sink of no known source.
 */
bool csd_sink_route(const struct csd_sink *s, int single, bool *formatted, uint8_t *raw_id);

#endif
