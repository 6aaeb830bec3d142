/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the extract directory: DIR/cstrace.bin (the first sink's trace),
 * DIR/<device>.bin for every sink when there are several, DIR/metadata.bin
 * (the ETMv4 blocks in perf's layout, ten u64 each, little-endian),
 * DIR/perf.data, DIR/summary.txt and, when @d has the kernel text as it
 * ran (d->ktext), DIR/kernel-text.bin.  Every file is written atomically.
 */
#ifndef CSD_EXTRACT_H
#define CSD_EXTRACT_H

#include <stdbool.h>

#include "core/csd_err.h"
#include "core/dump.h"
#include "core/registry.h"

/* Write @d (from @source; @reg, may be NULL, adds the record verdicts). */
enum csd_err csd_extract_write(const struct csd_dump *d, const struct csd_registry *reg,
			       const char *source, const char *dir);

/* True if @path is a directory holding summary.txt and metadata.bin. */
bool csd_extract_is_dir(const char *path);

/* Read an extract directory back into @d (zeroed by the caller). */
enum csd_err csd_extract_read(const char *dir, struct csd_dump *d);

#endif
