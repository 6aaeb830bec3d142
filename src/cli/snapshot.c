// SPDX-License-Identifier: GPL-2.0
/* csdump snapshot: parse arguments, load the input, call the snapshot writer. */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "core/dump.h"
#include "decode/vmlinux.h"
#include "format/snapshot.h"

static const char snapshot_usage[] =
	"usage: csdump snapshot INPUT -o DIR [--vmlinux FILE]\n"
	"  writes an OpenCSD snapshot directory that trc_pkt_lister decodes; with\n"
	"  --vmlinux and an input without memory dumps, vmlinux's code is written\n"
	"  as the memory dumps\n";

int csd_cmd_snapshot(int argc, char **argv)
{
	struct csd_vmlinux *vm = NULL;
	struct csd_dump d = { 0 };
	struct csd_cli_io a;
	int rc;

	rc = csd_cli_parse_io(argc, argv, snapshot_usage, true, "vmlinux", 'k', &a);
	if (rc >= 0)
		return rc;
	rc = csd_cli_load(a.input, a.arg, &d, &vm);
	if (!rc || rc == CSD_EXIT_PARTIAL) {
		enum csd_err err = csd_snapshot_write(&d, a.out);

		if (err != CSD_OK)
			rc = csd_exit_code(err);
		else
			printf("snapshot: %s (trc_pkt_lister -ss_dir %s -decode)\n", a.out, a.out);
	}
	csd_dump_free(&d);
	csd_vmlinux_close(vm);
	return rc;
}
