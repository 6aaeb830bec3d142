/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: load any input into a struct csd_dump: an OpenCSD snapshot
 * directory, a directory written by `csdump extract`, or a vmcore.
 */
#ifndef CSD_INPUT_H
#define CSD_INPUT_H

#include <stdbool.h>

#include "core/csd_err.h"
#include "core/dump.h"

struct csd_input_status {
	bool partial;		/* some records were bad and skipped */
	unsigned int n_bad;	/* how many */
};

/*
 * Load @path into @d (zeroed by the caller; csd_dump_free() it even on
 * failure).  A vmcore whose registry holds no saved trace fails with
 * CSD_ERR_NOTRACE; one without the registry with CSD_ERR_NOREGISTRY.
 * @st may be NULL.
 */
enum csd_err csd_input_load(const char *path, struct csd_dump *d, struct csd_input_status *st);

#endif
