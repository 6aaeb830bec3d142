/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: CoreSight trace IDs, the 7-bit ATB ID of a trace source
 * (CoreSight Architecture Specification v3.0, D4.1; ETMv4 TRCTRACEIDR).
 * The one set of constants every module uses.
 */
#ifndef CSD_TRACE_ID_H
#define CSD_TRACE_ID_H

#include <stdbool.h>

#define CSD_TRACE_ID_MASK	0x7f	/* TRCTRACEIDR.TRACEID, bits [6:0] */
#define CSD_TRACE_IDS		128	/* every 7-bit value: a table indexed by ID */
#define CSD_TRACE_ID_MAX	0x70	/* 0 is null, 0x70-0x7f are reserved */

/* Can @id name a trace source (1 to 0x6f)? */
static inline bool csd_trace_id_valid(unsigned int id)
{
	return id && id < CSD_TRACE_ID_MAX;
}

#endif
