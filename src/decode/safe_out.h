/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: output on stdout that a crash cannot cut inside a line.
 *
 * A renderer hands over whole lines; written from the calling thread while a
 * worker thread may crash, they could still be cut inside write().  Through
 * this stream, a fatal signal first stops new writes, waits (a second at
 * most) for the one under way, then kills the process as it would have.
 */
#ifndef CSD_SAFE_OUT_H
#define CSD_SAFE_OUT_H

#include <stdio.h>

/* An unbuffered stream writing stdout whole; stdout itself if that fails. */
FILE *csd_safe_out_open(void);

/*
 * From now on, die of a fatal signal only between two writes of the stream
 * (nothing when no stream was opened).  For the process that decodes.
 */
void csd_safe_out_guard(void);

#endif
