// SPDX-License-Identifier: GPL-2.0
/* csdump: recognise an input and load it. */
#include <string.h>
#include <sys/stat.h>

#include "core/diag.h"
#include "core/extract.h"
#include "format/input.h"
#include "core/registry.h"
#include "format/snapshot.h"
#include "vmcore/vmcore.h"

enum csd_err csd_input_load(const char *path, struct csd_dump *d, struct csd_input_status *st)
{
	struct csd_input_status dummy;
	struct csd_registry reg;
	struct csd_mem m;
	struct stat sb;
	enum csd_err err;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	if (csd_snapshot_is_dir(path))
		return csd_snapshot_read(path, d);
	if (csd_extract_is_dir(path))
		return csd_extract_read(path, d);
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		csd_error("%s: a directory, but neither an OpenCSD snapshot (snapshot.ini) "
			  "nor a csdump extract (summary.txt, metadata.bin)", path);
		return CSD_ERR_FORMAT;
	}
	err = csd_vmcore_open(path, &m);
	if (err)
		return err;
	err = csd_registry_load(&m, &reg, d);
	st->n_bad = (unsigned int)reg.n_bad;
	st->partial = reg.n_bad || reg.cut;
	csd_registry_free(&reg);
	csd_mem_close(&m);
	return err;
}
