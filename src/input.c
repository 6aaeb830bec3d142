// SPDX-License-Identifier: GPL-2.0
/* csdump: recognise an input and load it. */
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "input.h"
#include "snapshot.h"

enum csd_err csd_input_load(const char *path, struct csd_dump *d, struct csd_input_status *st)
{
	struct csd_input_status dummy;
	struct stat sb;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	if (csd_snapshot_is_dir(path))
		return csd_snapshot_read(path, d);
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		csd_error("%s: a directory, but neither an OpenCSD snapshot (snapshot.ini) "
			  "nor a csdump extract (metadata.bin)", path);
		return CSD_ERR_FORMAT;
	}
	csd_error("%s: vmcore input not supported yet", path);
	return CSD_ERR_FORMAT;
}
