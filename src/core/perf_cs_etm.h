/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: perf.data for CoreSight ETMv4 trace, as perf's cs-etm decoder
 * (tools/perf/util/cs-etm.c, perf 6.1) reads it.
 */
#ifndef CSD_PERF_CS_ETM_H
#define CSD_PERF_CS_ETM_H

#include "core/csd_err.h"
#include "core/dump.h"

/*
 * The PMU type written in the attribute and AUXTRACE_INFO.  Any value above
 * the generic types (0-5) works: perf matches the two, not the host's PMUs.
 */
#define CSD_PERF_CS_ETM_PMU_TYPE	8

/*
 * Write @d to @path (atomically): AUXTRACE_INFO with one ETMv4 block per
 * struct csd_etm, a kernel MMAP, then one AUX + AUXTRACE pair per
 * formatted sink (raw sinks are reported and left out).  Per-thread
 * (timeless) mode: every sink is one queue holding frames of all trace IDs.
 * The kernel map is relocated by "_text" = d->kernel_text if known, else by
 * "_stext" = d->kernel_stext, else by "_text" = the lowest segment address
 * (the symbol csd_elfimage_write() defines).
 */
enum csd_err csd_perf_write_cs_etm(const struct csd_dump *d, const char *path);

#endif
