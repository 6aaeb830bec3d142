/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the `info` listing of a registry, shared by the CLI (`csdump info
 * VMCORE`) and the crash extension (`csdump -i`).
 */
#ifndef CSD_REGISTRY_INFO_H
#define CSD_REGISTRY_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/csd_err.h"
#include "core/mem.h"

struct csd_info_counts {
	size_t n;		/* records in the list */
	size_t n_bad;		/* of which bad (header or data) */
	size_t n_trace;		/* intact trace records with saved data */
	bool cut;		/* the walk stopped early */
};

/*
 * Walk @m's registry, read each saved record's data to check its CRC, and
 * print to @out a header, one line per record (address, kind, device, CPU,
 * capacity, valid bytes, flags, CRC verdict, why a record is bad) and a
 * closing count line.  Errors as csd_registry_walk(); @c gets the counts.
 */
enum csd_err csd_registry_info(const struct csd_mem *m, FILE *out, struct csd_info_counts *c);

#endif
