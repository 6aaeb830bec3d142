/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the report, one self-contained HTML file (no network, no external
 * script, style or font): per CPU, the last moments as a call-depth
 * timeline (newest at the right), where the trace stopped, the call stack
 * at its end and the function table.  The page draws itself from the views'
 * JSON lines (views.h), embedded in it.
 */
#ifndef CSD_REPORT_H
#define CSD_REPORT_H

#include "core/csd_err.h"
#include "decode/views.h"

/*
 * Write the report of @v (made with CSD_VIEW_STACK | CSD_VIEW_FUNCS |
 * CSD_VIEW_TIMELINE) to @path, atomically; @title names the input.
 */
enum csd_err csd_report_write(struct csd_views *v, const char *path, const char *title,
			      const char *osrelease);

#endif
