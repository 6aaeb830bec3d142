// SPDX-License-Identifier: GPL-2.0
/* csdump: recognise an input and load it. */
#include <string.h>
#include <sys/stat.h>

#include "core/cs_frame.h"
#include "core/diag.h"
#include "core/extract.h"
#include "format/input.h"
#include "core/registry.h"
#include "format/snapshot.h"
#include "vmcore/vmcore.h"

/* Each sink that holds no trace ID and had one source: as that source's. */
static enum csd_err one_source_sinks(const char *path, struct csd_dump *d)
{
	for (size_t i = 0; i < d->n_sinks; i++) {
		if (csd_sink_one_source(&d->sinks[i])) {
			csd_error("out of memory for the trace of sink %s", d->sinks[i].name);
			return CSD_ERR_NOMEM;
		}
		if (d->sinks[i].source_known && d->sinks[i].one_source)
			csd_info("%s: sink %s holds no trace ID; its record names 0x%x its one "
				 "source: decoded as that source's", path, d->sinks[i].name,
				 d->sinks[i].one_source);
	}
	return CSD_OK;
}

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
	if (csd_extract_is_dir(path)) {
		err = csd_extract_read(path, d);
		return err ? err : one_source_sinks(path, d);
	}
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		csd_error("%s: a directory, but neither an OpenCSD snapshot (snapshot.ini) "
			  "nor a csdump extract (summary.txt, metadata.bin)", path);
		return CSD_ERR_FORMAT;
	}
	err = csd_vmcore_open(path, &m);
	if (err)
		return err;
	err = csd_registry_load(&m, &reg, d);
	if (!err)
		err = one_source_sinks(path, d);
	st->n_bad = (unsigned int)reg.n_bad;
	st->partial = reg.n_bad || reg.cut;
	csd_registry_free(&reg);
	csd_mem_close(&m);
	return err;
}
