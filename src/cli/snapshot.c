// SPDX-License-Identifier: GPL-2.0
/* csdump snapshot: parse arguments, load the input, call the snapshot writer. */
#include <getopt.h>
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
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *vmlinux = NULL;
	struct csd_vmlinux *vm = NULL;
	struct csd_dump d = { 0 };
	int c, rc;

	optind = 0;
	while ((c = getopt_long(argc, argv, "o:k:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'k':
			vmlinux = optarg;
			break;
		case 'h':
			printf("%s%s", snapshot_usage, csd_exit_codes_help);
			return 0;
		default:
			fputs(snapshot_usage, stderr);
			return CSD_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || !out) {
		fputs(snapshot_usage, stderr);
		return CSD_EXIT_USAGE;
	}
	rc = csd_cli_load(argv[optind], vmlinux, &d, &vm);
	if (!rc || rc == CSD_EXIT_PARTIAL) {
		enum csd_err err = csd_snapshot_write(&d, out);

		if (err != CSD_OK)
			rc = csd_exit_code(err);
		else
			printf("snapshot: %s (trc_pkt_lister -ss_dir %s -decode)\n", out, out);
	}
	csd_dump_free(&d);
	csd_vmlinux_close(vm);
	return rc;
}
