/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: decode the ETMv4 trace of a capture with OpenCSD's C API.
 *
 * One decode tree per sink (frame deformatter + one ETMv4 decoder per trace
 * ID of the capture's metadata), the program image served from the capture's
 * segments through a callback memory accessor.  Each decoded element is
 * turned into a struct csd_ev and handed to the caller's callback, in trace
 * order; the callback never owns the event (copy what you keep).
 */
#ifndef CSD_DECODE_H
#define CSD_DECODE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "core/csd_err.h"
#include "core/dump.h"

/* X(kind, name): every event kind with its name in output and messages. */
#define CSD_EV_KINDS(X)							\
	X(CSD_EV_RANGE, "range")	/* [start, end) executed, n_instr */	\
	X(CSD_EV_NACC, "no_image")	/* went to @start, not in the image */	\
	X(CSD_EV_EXCEPTION, "exception") /* @number; @end = return address */	\
	X(CSD_EV_EXC_RETURN, "exception_return")			\
	X(CSD_EV_TRACE_ON, "trace_on")	/* a gap before it; @number = reason */	\
	X(CSD_EV_NO_SYNC, "no_sync")	/* no or lost sync; @number = reason */	\
	X(CSD_EV_CONTEXT, "context")	/* PE context: @el, @ctxid */		\
	X(CSD_EV_EOT, "end_of_trace")	/* end of this trace ID's trace */

#define CSD_EV_ENUM(k, name) k,
enum csd_ev_kind {
	CSD_EV_KINDS(CSD_EV_ENUM)
};
#undef CSD_EV_ENUM

struct csd_ev {
	enum csd_ev_kind kind;
	uint8_t trace_id;
	uint8_t el;		/* CONTEXT: exception level */
	uint8_t sink;		/* index into csd_dump.sinks */
	int cpu;		/* from the metadata; -1 if unknown */
	uint32_t n_instr;
	uint32_t number;
	uint64_t start, end;
	uint64_t ctxid;
	uint64_t index;		/* byte offset in the sink of the packet */
};

/* Return non-zero to stop the decode (csd_decode returns CSD_OK). */
typedef int (*csd_ev_fn)(void *ctx, const struct csd_ev *ev);

/* Called now and then with the bytes pushed so far out of @total. */
typedef void (*csd_progress_fn)(void *ctx, uint64_t done, uint64_t total);

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

struct csd_decode_opts {
	int cpu;			/* decode only this CPU; -1 = all */
	csd_progress_fn progress;	/* may be NULL */
	void *progress_ctx;
	int threads;			/* csd_decode_pipelined: workers, 0 = csd_decode_cpus() */
	struct csd_decode_where *where;	/* may be NULL */
	const struct csd_decode_cut *cuts;	/* n_cuts of them */
	size_t n_cuts;
};

/*
 * Decode every sink of @d.  Errors of the trace itself (bad packets, lost
 * sync) are events, not failures; CSD_ERR_DECODE means the library refused
 * the configuration or failed fatally (a message went to stderr).
 */
enum csd_err csd_decode(const struct csd_dump *d, const struct csd_decode_opts *o,
			csd_ev_fn fn, void *ctx);

/*
 * The same, with the trace IDs decoded on worker threads (o->threads, by
 * default csd_decode_cpus()) and @fn run on this one: identical events in identical
 * order (see decode_int.h), faster when there are several busy trace IDs or
 * when @fn does real work (formatting).  Messages and @o->progress may come
 * from any of the threads.
 */
enum csd_err csd_decode_pipelined(const struct csd_dump *d, const struct csd_decode_opts *o,
				  csd_ev_fn fn, void *ctx);

/* The CPUs this process may run on (its affinity mask), at least 1. */
int csd_decode_cpus(void);

/* Short names for messages and output. */
const char *csd_ev_kind_name(enum csd_ev_kind k);
const char *csd_exception_name(uint32_t number);	/* NULL if unnamed */
const char *csd_trace_on_reason(uint32_t reason);
const char *csd_unsync_reason(uint32_t reason);

#endif
