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

#include <stddef.h>
#include <stdint.h>
#include "core/csd_err.h"
#include "core/dump.h"

/* X(kind, name): every event kind with its name in output and messages. */
#define CSD_EV_KINDS(X)							\
	X(CSD_EV_RANGE, "range")	/* [start, end) executed, n_instr */	\
	X(CSD_EV_NACC, "no_image")	/* went to @start, not in the image */	\
	X(CSD_EV_EXCEPTION, "exception") /* @number (ETMv4); @end = return */	\
	X(CSD_EV_EXC_RETURN, "exception_return")			\
	X(CSD_EV_TRACE_ON, "trace_on")	/* a gap before; @number: csd_trace_on */ \
	X(CSD_EV_NO_SYNC, "no_sync")	/* lost sync; @number: csd_unsync */	\
	X(CSD_EV_CONTEXT, "context")	/* PE context: @el, @sec, @isa, @ctxid, @vmid */ \
	X(CSD_EV_EOT, "end_of_trace")	/* end of this trace ID's trace */	\
	X(CSD_EV_TIMESTAMP, "timestamp") /* @start: the trace's timestamp */	\
	X(CSD_EV_CYCLES, "cycle_count")	/* @cc cycles since the last count */	\
	X(CSD_EV_RUNAWAY, "runaway")	/* a range as RANGE that cannot be what \
					 * ran; @number: csd_runaway */

#define CSD_EV_ENUM(k, name) k,
enum csd_ev_kind {
	CSD_EV_KINDS(CSD_EV_ENUM)
};
#undef CSD_EV_ENUM

/* CSD_EV_TRACE_ON's @number: why trace is on again. */
enum csd_trace_on {
	CSD_TRACE_ON_NORMAL,		/* start of trace or a filter */
	CSD_TRACE_ON_OVERFLOW,		/* after an overflow */
	CSD_TRACE_ON_DEBUG,		/* after debug */
	CSD_TRACE_ON_UNKNOWN,
};

/* CSD_EV_NO_SYNC's @number: why the decoder is not in sync. */
enum csd_unsync {
	CSD_UNSYNC_UNKNOWN,
	CSD_UNSYNC_START,		/* start of trace */
	CSD_UNSYNC_RESET,		/* decoder reset */
	CSD_UNSYNC_OVERFLOW,
	CSD_UNSYNC_DISCARD,
	CSD_UNSYNC_BAD_PACKET,
	CSD_UNSYNC_EOT,			/* end of trace */
};

/* The instruction set of a range, a context, the code an exception interrupted. */
enum csd_isa {
	CSD_ISA_UNKNOWN,
	CSD_ISA_A64,
	CSD_ISA_A32,
	CSD_ISA_T32,
	CSD_ISA_OTHER,
};

/* Security state: CONTEXT, and EXCEPTION (the state it was taken in). */
enum csd_sec {
	CSD_SEC_UNKNOWN,
	CSD_SEC_SECURE,
	CSD_SEC_NONSECURE,
	CSD_SEC_ROOT,
	CSD_SEC_REALM,
};

/* csd_ev.flags */
#define CSD_EVF_CALL	0x0001	/* RANGE: ends in a branch with link (BL, BLR) */
#define CSD_EVF_RET	0x0002	/* RANGE: ends in RET */
#define CSD_EVF_ERET	0x0004	/* RANGE: ends in ERET */
#define CSD_EVF_TAKEN	0x0008	/* RANGE: its last instruction was executed */
#define CSD_EVF_CC	0x0010	/* RANGE, CYCLES: @cc is valid */
#define CSD_EVF_CTXID	0x0020	/* CONTEXT: @ctxid is valid */
#define CSD_EVF_VMID	0x0040	/* CONTEXT: @vmid is valid */
#define CSD_EVF_SVC	0x0100	/* EXCEPTION 2 (call): made by SVC */
#define CSD_EVF_HVC	0x0200	/* ... by HVC */
#define CSD_EVF_SMC	0x0400	/* ... by SMC */
#define CSD_EVF_CALLS	(CSD_EVF_SVC | CSD_EVF_HVC | CSD_EVF_SMC)

/*
 * CSD_EV_RUNAWAY's @number: why a range the decoder gave cannot be what the
 * CPU executed.  The decoder follows the opcodes of the image to the next
 * branch; an image that is not the code that ran (data, zeros, code patched
 * since) sends it on and on.
 */
enum csd_runaway {
	CSD_RUNAWAY_IMAGE_END,		/* ran to the end of the image, no branch */
	CSD_RUNAWAY_PAST_FUNCTION,	/* ends over CSD_RUNAWAY_SLACK past its function */
};
#define CSD_RUNAWAY_SLACK 4096		/* bytes past a sized function's end */

struct csd_ev {
	enum csd_ev_kind kind;
	uint8_t trace_id;
	uint8_t el;		/* CONTEXT: exception level; EXCEPTION: the one taken from */
	uint8_t sink;		/* index into csd_dump.sinks */
	uint8_t isa;		/* enum csd_isa: RANGE, CONTEXT, EXCEPTION */
	int cpu;		/* from the metadata; -1 if unknown */
	uint32_t n_instr;
	uint32_t number;
	uint16_t flags;		/* CSD_EVF_* */
	uint8_t sec;		/* enum csd_sec: CONTEXT, EXCEPTION */
	uint32_t vmid;		/* CONTEXT */
	uint32_t cc;		/* RANGE, CYCLES with CSD_EVF_CC: cycle count */
	uint64_t start, end;
	uint64_t ctxid;
	uint64_t index;		/* byte offset in the sink of the packet */
};

/* Return non-zero to stop the decode (csd_decode() returns CSD_OK). */
typedef int (*csd_ev_fn)(void *ctx, const struct csd_ev *ev);

/* Called now and then with the bytes pushed so far out of @total. */
typedef void (*csd_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* csd_decode_opts.threads: let csd_decode() choose. */
#define CSD_DECODE_THREADS_AUTO	(-1)

struct csd_decode_opts {
	int cpu;			/* decode only this CPU; -1 = all */
	csd_progress_fn progress;	/* may be NULL */
	void *progress_ctx;
	/*
	 * Decoder threads.  0: none, everything runs on the calling thread.
	 * N > 0: the trace IDs are decoded on N worker threads (16 at most)
	 * and @fn runs on the calling one.  CSD_DECODE_THREADS_AUTO (any
	 * negative value): one worker per CPU this process may run on
	 * (csd_decode_cpus()), none when that is one CPU.  The events and their
	 * order are the same whatever the choice (see decode_int.h).
	 */
	int threads;
};

/*
 * Decode every sink of @d (@o may be NULL: all CPUs, no threads).  Errors of
 * the trace itself (bad packets, lost sync) are events, not failures;
 * CSD_ERR_DECODE means the library refused the configuration or failed
 * fatally (a message went to stderr).  With workers, messages and
 * @o->progress may come from any of the threads; @fn always runs on this one.
 */
enum csd_err csd_decode(const struct csd_dump *d, const struct csd_decode_opts *o,
			csd_ev_fn fn, void *ctx);

/* The CPUs this process may run on (its affinity mask), at least 1. */
int csd_decode_cpus(void);

/* Short names for messages and output. */
const char *csd_ev_kind_name(enum csd_ev_kind k);
const char *csd_exception_name(uint32_t number);	/* NULL if unnamed */
const char *csd_trace_on_reason(uint32_t reason);	/* enum csd_trace_on */
const char *csd_unsync_reason(uint32_t reason);	/* enum csd_unsync */
const char *csd_runaway_reason(uint32_t reason);	/* enum csd_runaway */
const char *csd_isa_name(uint32_t isa);		/* enum csd_isa: "A64"... */
const char *csd_sec_name(uint32_t sec);		/* enum csd_sec: "non-secure"... */
/* An exception in words: "IRQ", "SVC", "data abort"...; NULL if unnamed. */
const char *csd_exception_words(const struct csd_ev *ev);

#endif
