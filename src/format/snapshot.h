/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: OpenCSD / DS-5 trace snapshot directories ("ARM Trace and Debug
 * Snapshot" format 1.0: snapshot.ini, trace.ini, one .ini per device, trace
 * buffers and memory dumps).
 */
#ifndef CSD_SNAPSHOT_H
#define CSD_SNAPSHOT_H

#include <stdbool.h>

#include "core/csd_err.h"
#include "core/dump.h"

/* True if @path is a directory holding a snapshot.ini. */
bool csd_snapshot_is_dir(const char *path);

/*
 * Read the snapshot in directory @dir into @d (zeroed by the caller, freed
 * with csd_dump_free() even on failure).
 *
 * - Every ETMv4 trace source ("type=ETM4...") and every ETE ("type=ETE",
 *   which must give TRCDEVARCH) becomes a struct csd_etm; its
 *   CPU is the number at the end of the name of its core in
 *   [core_trace_sources] (cpu_3 -> 3, Cortex-A57_0 -> 0), or its position
 *   when there is none or numbers repeat.  A source whose core is of an M-
 *   or R-profile type is reported and skipped; of an unknown type, reported
 *   and kept (decoded as A-profile).
 * - Every trace buffer that such a source feeds becomes a struct csd_sink
 *   (CSD_F_SAVED, plus CSD_F_FORMATTED for format=coresight); buffers of
 *   other sources only (STM, ITM) are reported and left out.
 * - Every [dump*] of a core or memory_space device becomes a struct csd_seg;
 *   identical dumps listed by several cores are kept once, and a missing
 *   dump file is reported and skipped.
 *
 * Problems are reported through diag.h naming the file; a source that cannot
 * be used is skipped.  Fails with CSD_ERR_FORMAT if no usable ETMv4 or ETE
 * source or trace buffer remains.
 */
enum csd_err csd_snapshot_read(const char *dir, struct csd_dump *d);

/*
 * Write @d as a snapshot into @dir (created if missing; files written
 * atomically): snapshot.ini, trace.ini, cpu_N.ini (one per ETM, holding every
 * memory segment as a dump), etm_N.ini, one .bin per sink and per segment.
 * All ETMs are listed as sources of the first sink (the record ABI does not
 * say which sink each tracer feeds; with one sink, as on every ETB/ETF
 * system, that is exact).
 */
enum csd_err csd_snapshot_write(const struct csd_dump *d, const char *dir);

#endif
