/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: a decode that outlives a crash of the decoder library.
 *
 * OpenCSD 1.3.3 dereferences freed memory on some damaged trace (one
 * Mispredict packet header, 0x30, where a trace unit without speculation
 * never puts one, is enough) and may crash on it.  The decode runs in a
 * child process; should it die, the crash is reported with the place the
 * decode had reached, and, when asked, the decode runs again with that trace
 * ID's bytes from there on left out, so that every CPU's last instructions
 * before the damage are still reported.  Without fork(), it runs here.
 */
#ifndef CSD_ISOLATE_H
#define CSD_ISOLATE_H

#include <stdbool.h>

#include "core/csd_err.h"
#include "core/dump.h"
#include "decode/decode.h"

struct csd_isolated {
	const struct csd_dump *d;
	struct csd_decode_opts o;
	csd_ev_fn fn;
	void *fn_ctx;
	void *ctx;			/* of finish and release */
	/*
	 * After the decode, in the process that ran it, unless the options were
	 * refused (CSD_ERR_USAGE): write what is pending (a report made at the
	 * end); false when that failed (reported).
	 */
	bool (*finish)(void *ctx);
	/* In the child, before it exits: free what the caller holds (may be NULL). */
	void (*release)(void *ctx);
	/* After a crash, decode again with the damage left out (else stop there). */
	bool again;
	/* Without again: what a crash costs, for its report (NULL: the output stops there). */
	const char *lost;
};

/*
 * Run the decode of @j; returns its error (CSD_ERR_IO when finish failed).
 * *@damaged: the decoder crashed and some trace was not decoded (reported).
 * A closed output (SIGPIPE in the child) is no crash: CSD_OK, not damaged.
 */
enum csd_err csd_decode_isolated(const struct csd_isolated *j, bool *damaged);

#endif
